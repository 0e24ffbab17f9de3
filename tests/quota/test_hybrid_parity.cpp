// Randomized parity test for quota/hybrid.hpp: the optimized tick (integer rows, names resolved
// once per tick, decision buffers written only when they change) against a straightforward
// re-implementation on Resources (the tick as first written: copy the quota, set() each change,
// max() each failed request, fair_quotas on claims). Many random multi-tick scenarios with pending
// decreases, hold times, levels, extra (unconstrained) resources, waiting nodes, the fairness
// rule, reused and fresh decision objects, and occasional bad input (both must throw the same
// error and stay in step). Also the property: after a reactive step whose decision is not
// infeasible, quota >= every failed request in every resource.
#include <continuum/quota/hybrid.hpp>

#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace continuum;
using namespace std::chrono_literals;
using capacity::WaitingNode;
using quota::HybridConfig;
using quota::HybridDecision;
using quota::HybridQuotaScaler;
using quota::NamespaceDecision;
using quota::NamespaceSnapshot;
using quota::ProactiveAction;
using quota::ReactiveCase;

namespace {

/// Predicts the last observation (the parity runs use tick_with_predictions or this).
struct EchoForecaster {
    double last = 0.0;
    void fit(SeriesView history) { last = history.back(); }
    void update(double value) { last = value; }
    [[nodiscard]] forecast::Forecast forecast(int horizon, double /*level*/) const {
        return forecast::Forecast{std::vector<double>(static_cast<std::size_t>(horizon), last), {}, {}, 0.0};
    }
    [[nodiscard]] std::string name() const { return "echo"; }
};

/// fair_quotas as first written: claims' Resources read with get(), share_by_priority twice.
std::vector<Resources> reference_fair_quotas(const Resources& capacity, const std::vector<std::string>& constrained,
                                             const std::vector<quota::QuotaClaim>& claims) {
    std::vector<Resources> granted;
    for (const auto& claim : claims) granted.push_back(claim.wanted);
    std::vector<int> priorities;
    for (const auto& claim : claims) priorities.push_back(claim.priority);
    std::vector<std::int64_t> floors(claims.size());
    std::vector<std::int64_t> beyond(claims.size());
    for (const auto& name : constrained) {
        const std::int64_t cap = capacity.get(name);
        std::int64_t total = 0;
        for (const auto& claim : claims) total += claim.wanted.get(name);
        if (total <= cap) continue;
        for (std::size_t i = 0; i < claims.size(); ++i) {
            const std::int64_t wanted = claims[i].wanted.get(name);
            floors[i] = std::min(wanted, claims[i].floor.get(name));
            beyond[i] = wanted - floors[i];
        }
        const auto first = quota::share_by_priority(cap, floors, priorities);
        std::int64_t left = cap;
        for (std::int64_t v : first) left -= v;
        const auto second = quota::share_by_priority(left, beyond, priorities);
        for (std::size_t i = 0; i < claims.size(); ++i) granted[i].set(name, first[i] + second[i]);
    }
    return granted;
}

/// The hybrid decision, written the straightforward way on Resources.
class ReferenceHybrid {
public:
    explicit ReferenceHybrid(HybridConfig config) : config_(std::move(config)) {}

    void add_namespace(const std::string& name, int priority) { states_[name].priority = priority; }
    [[nodiscard]] const std::optional<quota::PendingDecrease>& pending(const std::string& name) const { return states_.at(name).pending; }

    HybridDecision decide(const quota::ClusterSnapshot& cluster, const std::vector<NamespaceSnapshot>& namespaces,
                          const std::vector<const Resources*>& predictions) {
        capacity::detail::require_non_negative(cluster.capacity, "hybrid quota scaling: cluster capacity");
        capacity::validate_pool(cluster.waiting_nodes);
        if (last_now_ && cluster.now < *last_now_) {
            throw InvalidArgument(
                fmt::format("hybrid quota scaling: now = {} ms is before the previous tick's {} ms", cluster.now.count(), last_now_->count()));
        }
        const quota::ProactiveConfig& pc = config_.proactive;
        std::vector<std::string> constrained = pc.resources;
        for (const auto& [name, value] : cluster.capacity) {
            if (std::find(constrained.begin(), constrained.end(), name) == constrained.end()) constrained.push_back(name);
        }
        HybridDecision out;
        out.now = cluster.now;
        out.namespaces.resize(namespaces.size());
        std::vector<std::int64_t> total(constrained.size(), 0);
        bool any_lowered = false;
        ++tick_;
        for (std::size_t i = 0; i < namespaces.size(); ++i) {
            const NamespaceSnapshot& ns = namespaces[i];
            capacity::detail::require_non_negative(ns.usage, "hybrid quota scaling: namespace usage");
            capacity::detail::require_non_negative(ns.quota, "hybrid quota scaling: namespace quota");
            State& st = states_[ns.name];  // unknown names: priority 0
            if (st.seen == tick_) throw InvalidArgument(fmt::format("hybrid quota scaling: namespace \"{}\" appears twice in one tick", ns.name));
            st.seen = tick_;
            NamespaceDecision& d = out.namespaces[i];
            d.name = ns.name;
            d.priority = st.priority;
            d.previous_quota = ns.quota;
            Resources wanted = ns.quota;
            if (predictions[i] != nullptr) {
                const Resources& prediction = *predictions[i];
                capacity::detail::require_non_negative(prediction, "hybrid quota scaling: prediction");
                quota::detail::require_managed(prediction, pc, "prediction");
                d.prediction = prediction;
                quota::detail::ProactiveIntent intent;
                for (const auto& name : pc.resources) {
                    const std::int64_t predicted = prediction.get(name);
                    const std::int64_t current = ns.quota.get(name);
                    if (predicted > current) {
                        wanted.set(name, predicted);
                        d.proactive = ProactiveAction::raise_quota;
                    } else if (predicted < current) {
                        std::int64_t target = predicted;
                        if (const quota::QuotaLevels* levels = pc.levels.find(name)) target = levels->try_snap_up(predicted).value;
                        if (target > 0 && target < current) intent.decrease.set(name, target);
                    }
                }
                switch (quota::detail::advance_decrease(st.pending, pc, intent, ns.usage, ns.quota, cluster.now)) {
                    case quota::detail::DecreaseOutcome::lowered:
                        for (const auto& [name, value] : intent.decrease) wanted.set(name, value);
                        if (d.proactive == ProactiveAction::hold) d.proactive = ProactiveAction::lower_quota;
                        any_lowered = true;
                        break;
                    case quota::detail::DecreaseOutcome::holding:
                    case quota::detail::DecreaseOutcome::waiting_for_usage:
                        if (d.proactive == ProactiveAction::hold) d.proactive = ProactiveAction::wait_for_usage_decrease;
                        d.pending_target = st.pending->target;
                        break;
                    case quota::detail::DecreaseOutcome::none: break;
                }
            } else {
                d.warming_up = true;
            }
            d.failed_requests = ns.failed_requests.size();
            for (const auto& request : ns.failed_requests) {
                capacity::detail::require_non_negative(request, "hybrid quota scaling: failed request");
                if (!request.fits_in(ns.quota)) d.reactive = ReactiveCase::raise_quota;
                wanted = max(wanted, request);
            }
            d.wanted = wanted;
            for (std::size_t r = 0; r < constrained.size(); ++r) {
                if (__builtin_add_overflow(total[r], wanted.get(constrained[r]), &total[r])) {
                    throw InvalidArgument(fmt::format("hybrid quota scaling: total wanted \"{}\" overflows int64", constrained[r]));
                }
            }
        }
        last_now_ = cluster.now;

        for (std::size_t r = 0; r < constrained.size(); ++r) out.total_wanted.set(constrained[r], total[r]);
        out.backed_capacity = cluster.capacity;
        const Resources excess = capacity::shortfall(out.total_wanted, cluster.capacity);
        bool activated = false;
        if (!excess.empty()) {
            out.activation = capacity::choose_nodes_to_activate(excess, cluster.waiting_nodes, pc.objective, pc.budget);
            out.backed_capacity += out.activation.activated_capacity;
            activated = !out.activation.nodes.empty();
        }
        out.still_missing = capacity::shortfall(out.total_wanted, out.backed_capacity);
        if (!out.still_missing.empty()) {
            std::vector<quota::QuotaClaim> claims;
            for (std::size_t i = 0; i < namespaces.size(); ++i) {
                claims.push_back(quota::QuotaClaim{out.namespaces[i].wanted, namespaces[i].usage, out.namespaces[i].priority});
            }
            const std::vector<Resources> granted = reference_fair_quotas(out.backed_capacity, constrained, claims);
            for (std::size_t i = 0; i < namespaces.size(); ++i) {
                NamespaceDecision& d = out.namespaces[i];
                d.quota = granted[i];
                d.cut = capacity::shortfall(d.wanted, d.quota);
                if (d.was_cut()) out.cut.push_back(i);
            }
        } else {
            for (auto& d : out.namespaces) d.quota = d.wanted;
        }
        for (std::size_t i = 0; i < namespaces.size(); ++i) {
            NamespaceDecision& d = out.namespaces[i];
            if (d.proactive == ProactiveAction::raise_quota) {
                if (d.was_cut()) {
                    d.proactive = ProactiveAction::infeasible;
                } else if (activated) {
                    d.proactive = ProactiveAction::activate_and_raise_quota;
                }
            }
            bool all_fit = true;
            for (const auto& request : namespaces[i].failed_requests) all_fit = all_fit && request.fits_in(d.quota);
            if (!all_fit) {
                d.reactive = ReactiveCase::infeasible;
            } else if (d.reactive == ReactiveCase::raise_quota && activated) {
                d.reactive = ReactiveCase::activate_nodes;
            }
        }
        if (any_lowered && !activated && !cluster.nodes.empty()) out.consolidation = packing::plan_consolidation(cluster.nodes, pc.budget);
        std::size_t changed = 0;
        for (const auto& d : out.namespaces) changed += d.changed() ? 1 : 0;
        out.reason = quota::detail::hybrid_reason(out, changed, cluster.capacity, activated);  // the formatting is shared; `changed` is not
        return out;
    }

private:
    struct State {
        int priority = 0;
        std::optional<quota::PendingDecrease> pending;
        std::uint64_t seen = 0;
    };
    HybridConfig config_;
    std::map<std::string, State> states_;
    std::optional<Time> last_now_;
    std::uint64_t tick_ = 0;
};

void check_same(const HybridDecision& got, const HybridDecision& want) {
    CAPTURE(want.reason);
    REQUIRE(got.namespaces.size() == want.namespaces.size());
    for (std::size_t i = 0; i < want.namespaces.size(); ++i) {
        const NamespaceDecision& g = got.namespaces[i];
        const NamespaceDecision& w = want.namespaces[i];
        CAPTURE(i);
        CAPTURE(w.reason());
        CHECK(g.name == w.name);
        CHECK(g.priority == w.priority);
        CHECK(g.quota == w.quota);
        CHECK(g.previous_quota == w.previous_quota);
        CHECK(g.wanted == w.wanted);
        CHECK(g.cut == w.cut);
        CHECK(g.prediction == w.prediction);
        CHECK(g.pending_target == w.pending_target);
        CHECK(g.proactive == w.proactive);
        CHECK(g.reactive == w.reactive);
        CHECK(g.failed_requests == w.failed_requests);
        CHECK(g.warming_up == w.warming_up);
        CHECK(g.reason() == w.reason());
    }
    CHECK(got.now == want.now);
    CHECK(got.activation.names == want.activation.names);
    CHECK(got.cut == want.cut);
    CHECK(got.total_wanted == want.total_wanted);
    CHECK(got.backed_capacity == want.backed_capacity);
    CHECK(got.still_missing == want.still_missing);
    CHECK(got.consolidation.has_value() == want.consolidation.has_value());
    CHECK(got.reason == want.reason);
}

/// The property: a request whose reactive case is not infeasible fits in the new quota.
void check_reactive_property(const HybridDecision& d, const std::vector<NamespaceSnapshot>& namespaces) {
    for (std::size_t i = 0; i < namespaces.size(); ++i) {
        if (d.namespaces[i].reactive == ReactiveCase::infeasible) continue;
        for (const auto& request : namespaces[i].failed_requests) {
            CAPTURE(d.namespaces[i].reason());
            CHECK(request.fits_in(d.namespaces[i].quota));
        }
    }
}

struct Scenario {
    std::mt19937_64 rng;
    std::vector<std::string> extra;  // resources outside the managed ones

    explicit Scenario(std::uint64_t seed) : rng(seed) {}
    std::int64_t uniform(std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); }
    bool chance(int percent) { return uniform(0, 99) < percent; }

    /// A random Resources over `names`, each present with probability `percent`.
    Resources random_resources(const std::vector<std::string>& names, std::int64_t hi, int percent) {
        Resources out;
        for (const auto& name : names) {
            if (chance(percent)) out.set(name, uniform(0, hi));
        }
        return out;
    }
};

}  // namespace

TEST_CASE("parity: the optimized hybrid tick decides exactly as the straightforward one, tick after tick") {
    const std::vector<std::string> all{"cpu", "memory", "nvidia.com/gpu", "pods"};
    int fairness_ticks = 0;
    int activation_ticks = 0;
    int lowered = 0;
    int waiting = 0;
    int errors = 0;
    for (std::uint64_t trial = 0; trial < 150; ++trial) {
        Scenario s(1000 + trial);
        HybridConfig config;
        config.proactive.resources = s.chance(50) ? std::vector<std::string>{"cpu"} : std::vector<std::string>{"memory", "cpu"};
        if (s.chance(70)) config.proactive.levels.set("cpu", quota::QuotaLevels{1000, 2000, 4000, 8000});
        if (s.chance(30)) config.proactive.levels.set("memory", quota::QuotaLevels{2000, 6000});
        config.proactive.condition = s.chance(70) ? quota::DecreaseCondition::usage_within_target : quota::DecreaseCondition::usage_below_current_quota;
        config.proactive.decrease_hold = s.chance(50) ? Duration(0) : Duration(120'000);
        const bool forecasting = s.chance(25);  // tick() with a forecaster (warming up included) instead of given predictions
        config.min_history = static_cast<std::size_t>(s.uniform(1, 3));
        HybridQuotaScaler scaler(EchoForecaster{}, config);
        ReferenceHybrid reference(config);
        const auto n = static_cast<std::size_t>(s.uniform(1, 14));
        std::vector<std::string> names;
        for (std::size_t i = 0; i < n; ++i) {
            names.push_back(fmt::format("ns-{}", i));
            if (s.chance(70)) {
                const int priority = static_cast<int>(s.uniform(0, 2));
                scaler.add_namespace(names.back(), priority);
                reference.add_namespace(names.back(), priority);
            }
        }
        std::vector<WaitingNode> pool;
        for (std::int64_t k = s.uniform(0, 3); k > 0; --k) {
            pool.push_back({fmt::format("w{}", k), Resources::from_units({{"cpu", s.uniform(500, 6000)}, {"memory", s.uniform(500, 9000)}}), 1s, 1.0});
        }
        HybridDecision reused;
        std::vector<std::int64_t> history_length(n, 0);
        for (int t = 0; t < 8; ++t) {
            CAPTURE(trial);
            CAPTURE(t);
            // Namespaces keep their quota from the last decision most of the time (a host applying it).
            std::vector<NamespaceSnapshot> namespaces;
            std::vector<Resources> predictions;
            const bool subset = !forecasting && s.chance(20);
            for (std::size_t i = 0; i < n; ++i) {
                if (subset && s.chance(30)) continue;
                NamespaceSnapshot ns;
                ns.name = names[i];
                ns.quota = s.random_resources(all, 9000, 70);
                if (t > 0 && i < reused.namespaces.size() && reused.namespaces[i].name == names[i] && s.chance(60)) ns.quota = reused.namespaces[i].quota;
                ns.usage = s.random_resources(all, 9000, 80);
                if (s.chance(50)) ns.usage = min(ns.usage, ns.quota);
                for (std::int64_t k = s.chance(25) ? s.uniform(1, 2) : 0; k > 0; --k) ns.failed_requests.push_back(s.random_resources(all, 12'000, 60));
                namespaces.push_back(std::move(ns));
                Resources prediction;
                for (const auto& r : config.proactive.resources) {
                    if (s.chance(90)) prediction.set(r, s.uniform(0, 10'000));
                }
                predictions.push_back(prediction);
            }
            const bool bad = s.chance(4);
            if (bad && !namespaces.empty()) {
                const std::size_t victim = static_cast<std::size_t>(s.uniform(0, static_cast<std::int64_t>(namespaces.size()) - 1));
                switch (s.uniform(0, 3)) {
                    case 0: namespaces[victim].usage.set("cpu", -5); break;
                    case 1: namespaces[victim].quota.set("memory", -5); break;
                    case 2: predictions[victim].set("pods", 3); break;  // not managed
                    default: namespaces.push_back(namespaces[victim]); predictions.push_back(predictions[victim]); break;  // duplicate
                }
            }
            Resources capacity = Resources::from_units({{"cpu", s.uniform(0, 9000 * static_cast<std::int64_t>(n))}});
            if (s.chance(70)) capacity.set("memory", s.uniform(0, 9000 * static_cast<std::int64_t>(n)));
            if (s.chance(30)) capacity.set("pods", s.uniform(0, 9000 * static_cast<std::int64_t>(n)));
            const quota::ClusterSnapshot cluster{Time(t * 60'000), capacity, pool, {}};

            // Predictions the reference sees: given, or the echo forecaster's (after min_history observations).
            std::vector<Resources> echoed(namespaces.size());
            std::vector<const Resources*> pointers(namespaces.size(), nullptr);
            for (std::size_t i = 0; i < namespaces.size(); ++i) {
                if (!forecasting) {
                    pointers[i] = &predictions[i];
                    continue;
                }
                if (i >= n || ++history_length[i] < static_cast<std::int64_t>(config.min_history)) continue;  // i >= n: the duplicate (throws)
                for (const auto& r : config.proactive.resources) {
                    const std::int64_t used = namespaces[i].usage.get(r);
                    echoed[i].set(r, Resources::round_up_to_canonical(r, std::max(0.0, r == "cpu" ? static_cast<double>(used) / 1000.0 : static_cast<double>(used))));
                }
                pointers[i] = &echoed[i];
            }
            std::optional<HybridDecision> want;
            std::string want_error;
            try {
                want = reference.decide(cluster, namespaces, pointers);
            } catch (const InvalidArgument& e) {
                want_error = e.what();
            }
            std::string got_error;
            const bool reuse = s.chance(70);
            HybridDecision fresh;
            HybridDecision& got = reuse ? reused : fresh;
            try {
                if (forecasting) {
                    scaler.tick(cluster, namespaces, got);
                } else {
                    scaler.tick_with_predictions(cluster, namespaces, predictions, got);
                }
            } catch (const InvalidArgument& e) {
                got_error = e.what();
            }
            CHECK(got_error == want_error);
            if (!want) {
                ++errors;
                if (forecasting) break;  // the forecaster's history moved on in one and not the other
                continue;
            }
            REQUIRE(got_error.empty());
            check_same(got, *want);
            check_reactive_property(got, namespaces);
            for (const auto& name : names) {
                if (scaler.size() == 0) break;
                try {
                    const auto& p = scaler.pending(name);
                    const auto& q = reference.pending(name);
                    REQUIRE(p.has_value() == q.has_value());
                    if (p) {
                        CHECK(p->target == q->target);
                        CHECK(p->since == q->since);
                        CHECK(p->condition_since == q->condition_since);
                    }
                } catch (const InvalidArgument&) {  // not registered in the scaler yet: nor in the reference
                    CHECK_THROWS((void)reference.pending(name));
                }
            }
            fairness_ticks += got.still_missing.empty() ? 0 : 1;
            activation_ticks += got.activation.nodes.empty() ? 0 : 1;
            for (const auto& d : got.namespaces) {
                lowered += d.proactive == ProactiveAction::lower_quota ? 1 : 0;
                waiting += d.proactive == ProactiveAction::wait_for_usage_decrease ? 1 : 0;
            }
            if (!reuse) reused = got;
        }
    }
    // The scenarios reach every branch.
    CHECK(fairness_ticks > 50);
    CHECK(activation_ticks > 20);
    CHECK(lowered > 50);
    CHECK(waiting > 50);
    CHECK(errors > 10);
}
