// Hybrid quota scaling (seed 001): each tick, per namespace, observe usage, forecast it with any
// Forecaster, apply the proactive step (Algorithm 1), and the reactive step (Algorithm 2) for each
// failed / pending deployment. One object serves one namespace or many sharing a cluster: total
// quota never exceeds capacity plus waiting nodes; when demand would, capacity goes by priority,
// then in proportion to demand (quota/fair_share.hpp), and the decision says who was cut by how much.
#pragma once

#include <continuum/capacity/activation.hpp>
#include <continuum/capacity/shortfall.hpp>
#include <continuum/capacity/waiting_pool.hpp>
#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/detail/span_of.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/series.hpp>
#include <continuum/core/time.hpp>
#include <continuum/forecast/forecaster.hpp>
#include <continuum/forecast/forecaster_state.hpp>
#include <continuum/packing/consolidation.hpp>
#include <continuum/quota/detail/resources_ops.hpp>
#include <continuum/quota/fair_share.hpp>
#include <continuum/quota/proactive.hpp>
#include <continuum/quota/reactive.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace continuum::quota {

/// Tuning of the hybrid scaler.
struct HybridConfig {
    /// The proactive step: managed (forecast) resources, quota levels, decrease condition and hold,
    /// waiting-node objective, budget.
    ProactiveConfig proactive;
    /// Forecast steps ahead; the peak of the forecast over the horizon is the prediction
    /// (the paper predicts one minute ahead from 10 minutes of history).
    int horizon = 1;
    /// When > 0, the upper bound of this prediction interval is used instead of the mean, if the
    /// forecaster provides intervals. 0 = mean.
    double interval_level = 0.0;
    /// Observations needed before the first fit; until then the proactive step holds (warming up).
    std::size_t min_history = 10;
    /// Observations kept per namespace and resource (the series a refit sees).
    std::size_t max_history = 1440;
    /// Refit on the kept history every this many observations (0 = fit once, then update()).
    std::size_t refit_every = 0;
    /// Spacing of the observations (one tick), for the SeriesView given to fit().
    Duration step = std::chrono::minutes(1);

    /// \throws InvalidArgument naming the bad field.
    template <typename Defer = void>  // called as validate(): compiled only where called (issue 21)
    void validate() const {
        proactive.template validate<Defer>();
        if (horizon < 1) throw InvalidArgument(continuum::detail::message("hybrid quota scaling: config.horizon must be >= 1, got {}", horizon));
        if (!(interval_level == 0.0 || (interval_level > 0.0 && interval_level < 1.0))) {
            throw InvalidArgument(continuum::detail::message("hybrid quota scaling: config.interval_level must be 0 or in (0, 1), got {}", interval_level));
        }
        if (min_history < 1) throw InvalidArgument("hybrid quota scaling: config.min_history must be >= 1");
        if (max_history < min_history) {
            throw InvalidArgument(continuum::detail::message("hybrid quota scaling: config.max_history ({}) must be >= min_history ({})", max_history, min_history));
        }
        if (step.count() <= 0) throw InvalidArgument(continuum::detail::message("hybrid quota scaling: config.step must be > 0 ms, got {} ms", step.count()));
    }
};

/// What a HybridQuotaScaler remembers of one namespace. `history` holds the usage observations a
/// refit or the first fit will see (at most max_history per managed resource); once fitted with
/// refit_every = 0 no fit will read it again and it is empty.
template <typename ModelState>
struct HybridNamespaceState {
    std::string name;
    int priority = 0;
    std::vector<ModelState> models;             ///< one per managed resource once fitted, else none
    std::vector<std::vector<double>> history;   ///< one per managed resource (natural units), or none
    bool fitted = false;
    std::uint64_t since_fit = 0;                ///< observations since the last (re)fit
    std::optional<PendingDecrease> pending;

    friend bool operator==(const HybridNamespaceState&, const HybridNamespaceState&) = default;
};

/// Everything a HybridQuotaScaler remembers: its namespaces, in registration order, and the last tick's time.
template <typename ModelState>
struct HybridQuotaScalerState {
    std::vector<HybridNamespaceState<ModelState>> namespaces;
    std::optional<Time> last_now;

    friend bool operator==(const HybridQuotaScalerState&, const HybridQuotaScalerState&) = default;
};

/// One namespace at one tick.
struct NamespaceSnapshot {
    std::string name;
    Resources usage;   ///< actual usage (ResourceQuota status.used)
    Resources quota;   ///< current quota (FRQ spec.overall)
    /// Failed or pending deployments since the last tick: for each, W_req = what the quota must
    /// admit for it to proceed (usage plus the new pods' requests), as in ReactiveSnapshot.
    std::vector<Resources> failed_requests;
};

/// The cluster the namespaces share, at one tick.
struct ClusterSnapshot {
    Time now{0};
    /// Allocatable capacity of the active nodes (include nodes already resuming) that the
    /// namespaces' quotas draw on.
    Resources capacity;
    std::span<const capacity::WaitingNode> waiting_nodes;  ///< paused / hibernated nodes
    std::span<const packing::NodeState> nodes;               ///< active nodes and pods, for consolidation (optional)
};

/// What happened to one namespace.
struct NamespaceDecision {
    std::string name;
    int priority = 0;
    Resources quota;            ///< the quota to write (a resource granted 0 is absent: write it as 0)
    Resources previous_quota;   ///< the quota in the snapshot
    Resources wanted;           ///< what its own proactive and reactive steps asked for
    Resources cut;              ///< wanted - quota: how much the fairness rule withheld (empty when none)
    Resources prediction;       ///< the prediction used (managed resources); empty while warming up
    Resources pending_target;   ///< a decrease waiting for usage to come down (empty when none)
    ProactiveAction proactive = ProactiveAction::hold;
    ReactiveCase reactive = ReactiveCase::sufficient_quota;  ///< the most demanding case among this tick's failed requests
    std::size_t failed_requests = 0;
    bool warming_up = false;    ///< not enough history to forecast yet: the proactive step held

    [[nodiscard]] bool changed() const { return !(quota == previous_quota); }
    [[nodiscard]] bool was_cut() const { return !cut.empty(); }

    /// One readable line, built on demand (ticks over thousands of namespaces do not pay for it).
    [[nodiscard]] std::string reason() const {
        std::string out = changed() ? continuum::detail::message("{}: quota {} -> {}", name, previous_quota, quota) : continuum::detail::message("{}: quota {} unchanged", name, quota);
        if (warming_up) {
            out += "; proactive: warming up (not enough history to forecast)";
        } else {
            out += continuum::detail::message("; proactive step {} (prediction {})", to_string(proactive), prediction);
        }
        if (!pending_target.empty()) out += continuum::detail::message("; decrease to {} waits until usage comes down", pending_target);
        if (failed_requests > 0) out += continuum::detail::message("; reactive {} for {} failed deployment{}", to_string(reactive), failed_requests, failed_requests == 1 ? "" : "s");
        if (was_cut()) out += continuum::detail::message("; cut by {} (wanted {}, priority {}) by the fairness rule", cut, wanted, priority);
        return out;
    }
};

/// The decision of one hybrid tick.
struct HybridDecision {
    Time now{0};
    std::vector<NamespaceDecision> namespaces;  ///< same order as the tick's snapshots
    capacity::ActivationPlan activation;        ///< waiting nodes to resume (before writing the raised quotas)
    std::optional<packing::ConsolidationPlan> consolidation;  ///< after a lowered quota, when nodes were given
    std::vector<std::size_t> cut;               ///< indices (into namespaces) cut by the fairness rule
    Resources total_wanted;                     ///< sum of wanted over namespaces (constrained resources)
    Resources backed_capacity;                  ///< cluster capacity plus the resumed nodes
    Resources still_missing;                    ///< total_wanted - backed_capacity when positive
    std::string reason;                         ///< one summary line
};

namespace detail {

/// The summary line of a hybrid decision whose other fields are set; `changed` namespaces got a new quota.
template <typename Defer = void>  // compiled only where called (issue 21)
std::string hybrid_reason(const HybridDecision& out, std::size_t changed, const Resources& capacity, bool activated) {
    std::string reason = continuum::detail::message("{} namespace{}, {} quota change{}; wanted {} against capacity {}", out.namespaces.size(),
                                                    out.namespaces.size() == 1 ? "" : "s", changed, changed == 1 ? "" : "s", out.total_wanted, capacity);
    if (activated) reason += continuum::detail::message("; {}", out.activation.reason);
    if (!out.cut.empty()) {
        std::vector<std::string> who;
        for (std::size_t i : out.cut) who.push_back(continuum::detail::message("{} by {}", out.namespaces[i].name, out.namespaces[i].cut));
        reason += continuum::detail::message("; still missing {}: fairness rule (priority, then proportional to demand) cut {}", out.still_missing, fmt::join(who, ", "));
    }
    if (out.consolidation) reason += continuum::detail::message("; consolidation: {}", out.consolidation->reason);
    return reason;
}

}  // namespace detail

/// The hybrid scaler over any Forecaster F: one F per namespace and managed resource, each a copy
/// of the prototype, fitted once min_history observations exist.
///
/// tick(): for each namespace, observe usage and forecast (prediction = peak over the horizon, or
/// the interval's upper bound; a negative forecast counts as 0, a demand cannot be negative);
/// then tick_with_predictions().
/// tick_with_predictions(): per namespace, wanted = the proactive intent (increases to the
/// prediction; decreases to snap_up(prediction) once usage has come down, with the explicit
/// WaitUntilActualDemandDecreases state) raised to every failed request (Algorithm 2: quota +
/// shortfall). Then for the constrained resources (the managed ones plus those the cluster capacity
/// names): if the total wanted exceeds the capacity, waiting nodes covering the excess are resumed
/// (choose_nodes_to_activate); if even the whole pool cannot, every contributing node is resumed
/// and fair_quotas decides (floors = current usage; priority, then proportional to demand).
/// Namespaces unknown to the scaler are registered on first sight with priority 0. Every
/// namespace sharing the cluster must be in every tick.
/// Complexity per tick: O(namespaces x resources) plus the node choice, plus O(n log n) per cut resource.
template <forecast::Forecaster F>
class HybridQuotaScaler {
private:
    /// T, spelled dependent on F: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, F>;

public:
    /// \throws InvalidArgument when the config is invalid.
    /// A forecaster that selects a model by validation (forecast::Portfolio, or an AnyForecaster
    /// holding one) is told config.horizon through plan_for_horizon, so it validates at the
    /// look-ahead the scaler uses unless its own horizon was given explicitly.
    explicit HybridQuotaScaler(F prototype, HybridConfig config = {}) : prototype_(std::move(prototype)), config_(std::move(config)) {
        config_.validate();
        if constexpr (requires { prototype_.plan_for_horizon(config_.horizon); }) prototype_.plan_for_horizon(config_.horizon);
    }

    /// The state value (F's state per model: F::State, or forecast::ForecasterState for AnyForecaster).
    using State = HybridQuotaScalerState<forecast::StateOf<F>>;

    /// The scaler with `prototype` and `config` as it was when `state` was taken. Every namespace
    /// and model is validated and rebuilt before anything is kept.
    /// \throws InvalidArgument naming the field (state.namespaces[i]...): an empty or repeated name,
    ///         models or histories that do not match the managed resources, a history longer than
    ///         max_history or with a negative or non-finite value, since_fit not below refit_every,
    ///         a model state that does not match the prototype (another season length, ...), a
    ///         pending decrease after state.last_now.
    HybridQuotaScaler(F prototype, HybridConfig config, const State& state) : HybridQuotaScaler(std::move(prototype), std::move(config)) {
        const std::size_t managed = config_.proactive.resources.size();
        Dep<std::vector<NamespaceState>> states;
        Dep<std::unordered_map<std::string, std::size_t>> index;
        for (std::size_t i = 0; i < state.namespaces.size(); ++i) {
            const auto& ns = state.namespaces[i];
            const std::string field = continuum::detail::message("state.namespaces[{}]", i);
            const auto fail = [&](const std::string& what) { throw InvalidArgument(continuum::detail::message("hybrid quota scaling restore: {}.{}", field, what)); };
            if (ns.name.empty()) fail("name is empty");
            if (!index.emplace(ns.name, i).second) fail(continuum::detail::message("name \"{}\" appears twice", ns.name));
            if (ns.models.size() != (ns.fitted ? managed : 0)) {
                fail(continuum::detail::message("models has {} models, expected {} ({})", ns.models.size(), ns.fitted ? managed : 0,
                                                ns.fitted ? "one per managed resource" : "none before the first fit"));
            }
            if (!ns.history.empty() && ns.history.size() != managed) fail(continuum::detail::message("history has {} series, expected {} (one per managed resource)", ns.history.size(), managed));
            for (std::size_t k = 0; k < ns.history.size(); ++k) {
                if (ns.history[k].size() != ns.history.front().size() || ns.history[k].size() > config_.max_history) {
                    fail(continuum::detail::message("history[{}] has {} values; every series must have the same length, at most max_history = {}", k, ns.history[k].size(),
                                                    config_.max_history));
                }
                for (std::size_t t = 0; t < ns.history[k].size(); ++t) {
                    const double v = ns.history[k][t];
                    if (!std::isfinite(v) || v < 0.0) fail(continuum::detail::message("history[{}][{}] = {} is not a finite usage >= 0", k, t, v));
                }
            }
            if (ns.fitted && config_.refit_every > 0 && ns.history.empty()) fail("history is empty, but refit_every > 0 refits on it");
            if (config_.refit_every > 0 ? ns.since_fit >= config_.refit_every : ns.since_fit != 0) {
                fail(continuum::detail::message("since_fit = {} must be {}", ns.since_fit, config_.refit_every > 0 ? continuum::detail::message("below refit_every = {}", config_.refit_every) : "0 without refits"));
            }
            detail::validate_pending(ns.pending, state.last_now, "hybrid quota scaling", field + ".pending");
            NamespaceState st{ns.name, ns.priority, {}, ns.history, ns.fitted, static_cast<std::size_t>(ns.since_fit), ns.pending, 0};
            for (std::size_t k = 0; k < ns.models.size(); ++k) {
                try {
                    st.models.push_back(forecast::with_state(prototype_, ns.models[k]));
                } catch (const InvalidArgument& e) {
                    fail(continuum::detail::message("models[{}]: {}", k, e.what()));
                }
            }
            states.push_back(std::move(st));
        }
        states_ = std::move(states);
        index_ = std::move(index);
        last_now_ = state.last_now;
    }

    /// The state value. \throws InvalidArgument when a model's state cannot be taken (an
    ///         AnyForecaster wrapping a model ForecasterState does not cover).
    [[nodiscard]] State state() const {
        State out;
        out.last_now = last_now_;
        out.namespaces.reserve(states_.size());
        const bool keep_history = config_.refit_every > 0;
        for (const auto& st : states_) {
            auto& ns = out.namespaces.emplace_back();
            ns.name = st.name;
            ns.priority = st.priority;
            ns.fitted = st.fitted;
            ns.since_fit = st.since_fit;
            ns.pending = st.pending;
            ns.models.reserve(st.models.size());
            for (const auto& model : st.models) ns.models.push_back(forecast::state_of(model));
            if (!st.fitted || keep_history) {
                // Only the last max_history observations are ever read (the fit window).
                for (const auto& h : st.history) ns.history.emplace_back(h.end() - static_cast<std::ptrdiff_t>(std::min(h.size(), config_.max_history)), h.end());
            }
        }
        return out;
    }

    /// Registers a namespace (or updates its priority). Larger priority is more important.
    /// \throws InvalidArgument on an empty name.
    void add_namespace(std::string_view name, int priority = 0) {
        if (name.empty()) throw InvalidArgument("hybrid quota scaling: namespace name must not be empty");
        const auto it = index_.find(std::string(name));
        if (it != index_.end()) {
            states_[it->second].priority = priority;
            return;
        }
        index_.emplace(std::string(name), states_.size());
        states_.push_back(NamespaceState{std::string(name), priority, {}, {}, false, 0, std::nullopt, 0});
    }
    /// Number of registered namespaces.
    [[nodiscard]] std::size_t size() const { return states_.size(); }
    /// The pending decrease of a namespace, if any. \throws InvalidArgument for an unknown name.
    [[nodiscard]] const std::optional<PendingDecrease>& pending(std::string_view name) const { return states_[lookup(name)].pending; }
    [[nodiscard]] const HybridConfig& config() const { return config_; }
    /// The forecaster every namespace's models are copied from.
    [[nodiscard]] const F& prototype() const { return prototype_; }

    /// Observes usage, forecasts, and decides (see the class comment).
    /// \throws InvalidArgument for bad snapshots (negative amounts, duplicate names, time going
    ///         backwards), a NaN forecast, an invalid pool; whatever the forecaster throws.
    HybridDecision tick(const Dep<ClusterSnapshot>& cluster, std::span<const NamespaceSnapshot> namespaces) {
        Dep<HybridDecision> out;
        tick(cluster, namespaces, out);
        return out;
    }
    /// tick() writing into `out`, reusing its buffers (for hosts ticking thousands of namespaces:
    /// no allocation per namespace in steady state).
    void tick(const Dep<ClusterSnapshot>& cluster, std::span<const NamespaceSnapshot> namespaces, Dep<HybridDecision>& out) {
        require_time(cluster.now);
        forecasts_.resize(namespaces.size());
        pointers_.assign(namespaces.size(), nullptr);
        for (std::size_t i = 0; i < namespaces.size(); ++i) {
            capacity::detail::require_non_negative(namespaces[i].usage, "hybrid quota scaling: namespace usage");
            if (observe_and_forecast(state_for(namespaces[i].name, i), namespaces[i].usage, forecasts_[i])) pointers_[i] = &forecasts_[i];
        }
        decide(cluster, namespaces, pointers_, out);
    }

    /// The decision with predictions given by the caller (no forecasting, no observation): the
    /// path for external forecasts and for benchmarks. predictions[i] is for namespaces[i].
    /// \throws InvalidArgument as tick, or when the spans differ in size.
    HybridDecision tick_with_predictions(const Dep<ClusterSnapshot>& cluster, std::span<const NamespaceSnapshot> namespaces,
                                         std::span<const Resources> predictions) {
        Dep<HybridDecision> out;
        tick_with_predictions(cluster, namespaces, predictions, out);
        return out;
    }
    /// tick_with_predictions() writing into `out`, reusing its buffers.
    void tick_with_predictions(const Dep<ClusterSnapshot>& cluster, std::span<const NamespaceSnapshot> namespaces, std::span<const Resources> predictions,
                               Dep<HybridDecision>& out) {
        if (predictions.size() != namespaces.size()) {
            throw InvalidArgument(continuum::detail::message("hybrid quota scaling: {} predictions for {} namespaces", predictions.size(), namespaces.size()));
        }
        pointers_.resize(namespaces.size());
        for (std::size_t i = 0; i < namespaces.size(); ++i) pointers_[i] = &predictions[i];
        decide(cluster, namespaces, pointers_, out);
    }

    /// Algorithm 2 for one failed deployment between ticks: R_avail is the cluster capacity minus
    /// every namespace's quota (positive part), as given in `namespaces`.
    /// \throws InvalidArgument as reactive_quota_step, or when `name` is not in `namespaces`.
    [[nodiscard]] ReactiveDecision react(const Dep<ClusterSnapshot>& cluster, std::span<const NamespaceSnapshot> namespaces, std::string_view name,
                                         const Resources& request) const {
        Resources promised;
        const NamespaceSnapshot* self = nullptr;
        for (const auto& ns : namespaces) {
            promised += ns.quota;
            if (ns.name == name) self = &ns;
        }
        if (self == nullptr) throw InvalidArgument(continuum::detail::message("hybrid quota scaling: react: namespace \"{}\" is not in the snapshot", name));
        const Resources available = capacity::shortfall(cluster.capacity, promised);
        return reactive_quota_step<continuum::detail::deferred_t<void, F>>(ReactiveSnapshot{request, self->quota, available, cluster.waiting_nodes},
                                   ReactiveConfig{config_.proactive.objective, config_.proactive.budget});
    }

private:
    struct NamespaceState {
        std::string name;
        int priority = 0;
        Dep<std::vector<F>> models;                      // one per managed resource, once fitted
        Dep<std::vector<std::vector<double>>> history;   // one per managed resource
        bool fitted = false;
        std::size_t since_fit = 0;
        std::optional<PendingDecrease> pending;
        std::uint64_t seen_in_tick = 0;              // duplicate detection within one tick
    };

    [[nodiscard]] std::size_t lookup(std::string_view name) const {
        const auto it = index_.find(std::string(name));
        if (it == index_.end()) throw InvalidArgument(continuum::detail::message("hybrid quota scaling: unknown namespace \"{}\"", name));
        return it->second;
    }
    /// The state of `name`, seen at position `position` of the tick's snapshots: hosts usually
    /// list namespaces in the same order every tick, so the last tick's index is tried first.
    NamespaceState& state_for(const std::string& name, std::size_t position) {
        if (position < order_.size() && order_[position] < states_.size() && detail::same_name(states_[order_[position]].name, name)) {
            return states_[order_[position]];
        }
        auto it = index_.find(name);
        if (it == index_.end()) {
            add_namespace(name, 0);
            it = index_.find(name);
        }
        if (order_.size() <= position) order_.resize(position + 1, states_.size());
        order_[position] = it->second;
        return states_[it->second];
    }

    /// Position of `name` in `names`, or names.size().
    static std::size_t index_of(std::span<const std::string> names, std::string_view name) {
        std::size_t k = 0;
        while (k < names.size() && !detail::same_name(names[k], name)) ++k;
        return k;
    }

    /// Canonical units to the forecaster's natural units (cores, bytes, counts).
    static double to_natural(std::string_view resource, std::int64_t canonical) {
        return canonical_scale(resource) == scale::milli ? static_cast<double>(canonical) / 1000.0 : static_cast<double>(canonical);
    }

    /// Appends the usage to the history; writes the prediction and returns true once fitted.
    bool observe_and_forecast(NamespaceState& st, const Resources& usage, Resources& prediction) {
        const auto& managed = config_.proactive.resources;
        if (st.history.size() != managed.size()) st.history.assign(managed.size(), {});
        for (std::size_t k = 0; k < managed.size(); ++k) {
            auto& h = st.history[k];
            h.push_back(to_natural(managed[k], usage.get(managed[k])));
            if (h.size() > 2 * config_.max_history) h.erase(h.begin(), h.end() - static_cast<std::ptrdiff_t>(config_.max_history));
        }
        const auto window = [&](std::size_t k) {
            const auto& h = st.history[k];
            const std::size_t n = std::min(h.size(), config_.max_history);
            return SeriesView(std::span<const double>(h).subspan(h.size() - n), config_.step, "hybrid quota scaling: usage history");
        };
        if (!st.fitted) {
            if (st.history.front().size() < config_.min_history) return false;
            st.models.assign(managed.size(), prototype_);
            for (std::size_t k = 0; k < managed.size(); ++k) st.models[k].fit(window(k));
            st.fitted = true;
            st.since_fit = 0;
        } else if (config_.refit_every > 0 && ++st.since_fit >= config_.refit_every) {
            for (std::size_t k = 0; k < managed.size(); ++k) st.models[k].fit(window(k));
            st.since_fit = 0;
        } else {
            for (std::size_t k = 0; k < managed.size(); ++k) st.models[k].update(st.history[k].back());
        }
        forecast_row_.resize(managed.size());
        for (std::size_t k = 0; k < managed.size(); ++k) {
            const forecast::Forecast f = st.models[k].forecast(config_.horizon, config_.interval_level);
            double value = f.peak();
            if (config_.interval_level > 0.0 && f.has_interval()) value = *std::max_element(f.upper.begin(), f.upper.end());
            if (f.mean.empty() || !std::isfinite(value)) {
                throw InvalidArgument(continuum::detail::message("hybrid quota scaling: forecaster {} gave {} for namespace \"{}\" resource \"{}\"",
                                                                 st.models[k].name(), f.mean.empty() ? std::string("an empty forecast") : continuum::detail::message("{}", value),
                                                                 st.name, managed[k]));
            }
            forecast_row_[k] = Resources::round_up_to_canonical(managed[k], std::max(value, 0.0));
        }
        detail::write_overlay(prediction, Resources{}, continuum::detail::span_of(managed), continuum::detail::span_of(forecast_row_));
        return true;
    }

    void require_time(Time now) const {
        if (last_now_ && now < *last_now_) {
            throw InvalidArgument(continuum::detail::message("hybrid quota scaling: now = {} ms is before the previous tick's {} ms", now.count(), last_now_->count()));
        }
    }

    // predictions[i] == nullptr: namespace i is warming up (no forecast yet).
    // The per-namespace loop works on integer rows: the constrained resources' names are resolved
    // once per tick, each namespace's wanted amounts live in wanted_ (row i, one column per
    // constrained resource), and the decision's Resources are written only when they change
    // (detail::write_overlay / assign), so a steady-state tick allocates and copies nothing per
    // namespace.
    void decide(const Dep<ClusterSnapshot>& cluster, std::span<const NamespaceSnapshot> namespaces, std::span<const Resources* const> predictions,
                Dep<HybridDecision>& out) {
        capacity::detail::require_non_negative(cluster.capacity, "hybrid quota scaling: cluster capacity");
        capacity::validate_pool<continuum::detail::deferred_t<void, F>>(cluster.waiting_nodes);
        require_time(cluster.now);
        const ProactiveConfig& pc = config_.proactive;
        const std::vector<std::string>& managed = pc.resources;
        const std::size_t m = managed.size();
        // Constrained resources: managed ones (columns 0..m-1, in config order) plus those the cluster capacity names.
        constrained_.assign(managed.begin(), managed.end());
        for (const auto& [name, value] : cluster.capacity) {
            if (std::find(constrained_.begin(), constrained_.end(), name) == constrained_.end()) constrained_.push_back(name);
        }
        levels_.resize(m);
        for (std::size_t k = 0; k < m; ++k) levels_[k] = pc.levels.find(managed[k]);
        const std::size_t width = constrained_.size();
        const std::size_t n = namespaces.size();
        out.now = cluster.now;
        out.namespaces.resize(n);
        out.activation = capacity::ActivationPlan{};
        out.consolidation.reset();
        out.cut.clear();
        wanted_.resize(n * width);
        decrease_.resize(m);
        total_.assign(width, 0);
        quota_row_.resize(width);
        override_row_.resize(width);
        predicted_.resize(m);
        bool any_lowered = false;
        std::size_t changed = 0;
        ++tick_number_;
        for (std::size_t i = 0; i < n; ++i) {
            const NamespaceSnapshot& ns = namespaces[i];
            capacity::detail::require_non_negative(ns.usage, "hybrid quota scaling: namespace usage");
            // The quota's amounts per constrained resource, resolving its names once.
            std::fill(quota_row_.begin(), quota_row_.end(), 0);
            for (const auto& [name, value] : ns.quota) {
                if (value < 0) capacity::detail::require_non_negative(ns.quota, "hybrid quota scaling: namespace quota");  // throws
                const std::size_t r = index_of(constrained_, name);
                if (r < width) quota_row_[r] = value;
            }
            NamespaceState& st = state_for(ns.name, i);
            if (st.seen_in_tick == tick_number_) {
                throw InvalidArgument(continuum::detail::message("hybrid quota scaling: namespace \"{}\" appears twice in one tick", ns.name));
            }
            st.seen_in_tick = tick_number_;
            Dep<NamespaceDecision>& d = out.namespaces[i];  // assigned field by field: buffers are reused
            if (!detail::same_name(d.name, ns.name)) d.name = ns.name;
            d.priority = st.priority;
            detail::assign(d.previous_quota, ns.quota);
            const std::span<std::int64_t> wanted(wanted_.data() + i * width, width);
            std::copy(quota_row_.begin(), quota_row_.end(), wanted.begin());
            d.proactive = ProactiveAction::hold;
            d.reactive = ReactiveCase::sufficient_quota;
            d.warming_up = false;
            detail::DecreaseOutcome outcome = detail::DecreaseOutcome::none;
            if (predictions[i]) {
                const Resources& prediction = *predictions[i];
                // Validation as require_non_negative then require_managed, resolving the names once.
                std::fill(predicted_.begin(), predicted_.end(), 0);
                bool unmanaged = false;
                for (const auto& [name, value] : prediction) {
                    if (value < 0) capacity::detail::require_non_negative(prediction, "hybrid quota scaling: prediction");  // throws
                    const std::size_t k = index_of(managed, name);
                    if (k < m) {
                        predicted_[k] = value;
                    } else {
                        unmanaged = true;
                    }
                }
                if (unmanaged) detail::require_managed(prediction, pc, "prediction");  // throws
                detail::assign(d.prediction, prediction);
                // detail::proactive_intent, writing increases straight into `wanted`; decrease_[k] = the
                // lowered target of managed resource k, or -1.
                bool decreasing = false;
                for (std::size_t k = 0; k < m; ++k) {
                    const std::int64_t predicted = predicted_[k];
                    const std::int64_t current = quota_row_[k];
                    decrease_[k] = -1;
                    if (predicted > current) {
                        wanted[k] = predicted;
                        d.proactive = ProactiveAction::raise_quota;
                    } else if (predicted < current) {
                        const std::int64_t target = levels_[k] != nullptr ? levels_[k]->try_snap_up(predicted).value : predicted;
                        if (target > 0 && target < current) {
                            decrease_[k] = target;
                            decreasing = true;
                        }
                    }
                }
                // detail::advance_decrease with the target written in place.
                if (!decreasing) {
                    st.pending.reset();
                } else {
                    if (!st.pending) st.pending = PendingDecrease{Resources{}, cluster.now, std::nullopt};
                    detail::write_overlay(st.pending->target, ns.quota, continuum::detail::span_of(managed), continuum::detail::span_of(decrease_));
                    bool holds = true;
                    for (std::size_t k = 0; k < m && holds; ++k) {
                        if (decrease_[k] < 0) continue;
                        const std::int64_t used = detail::amount(ns.usage, managed[k]);
                        holds = pc.condition == DecreaseCondition::usage_within_target ? used <= decrease_[k] : used < quota_row_[k];
                    }
                    outcome = detail::advance_pending(st.pending, pc, holds, cluster.now);
                }
                switch (outcome) {
                    case detail::DecreaseOutcome::lowered:
                        for (std::size_t k = 0; k < m; ++k) {
                            if (decrease_[k] >= 0) wanted[k] = decrease_[k];
                        }
                        if (d.proactive == ProactiveAction::hold) d.proactive = ProactiveAction::lower_quota;
                        any_lowered = true;
                        break;
                    case detail::DecreaseOutcome::holding:
                    case detail::DecreaseOutcome::waiting_for_usage:
                        if (d.proactive == ProactiveAction::hold) d.proactive = ProactiveAction::wait_for_usage_decrease;
                        break;
                    case detail::DecreaseOutcome::none: break;
                }
            } else {
                d.warming_up = true;
                detail::clear(d.prediction);
            }
            if (outcome == detail::DecreaseOutcome::holding || outcome == detail::DecreaseOutcome::waiting_for_usage) {
                detail::assign(d.pending_target, st.pending->target);
            } else {
                detail::clear(d.pending_target);
            }
            // Algorithm 2 per failed request: wanted = max(wanted, request).
            d.failed_requests = ns.failed_requests.size();
            bool unconstrained_request = false;  // a request naming a resource outside the constrained ones
            for (const auto& request : ns.failed_requests) {
                capacity::detail::require_non_negative(request, "hybrid quota scaling: failed request");
                if (!request.fits_in(ns.quota)) d.reactive = ReactiveCase::raise_quota;
                for (const auto& [name, value] : request) {
                    const std::size_t r = index_of(constrained_, name);
                    if (r < width) {
                        wanted[r] = std::max(wanted[r], value);
                    } else {
                        unconstrained_request = true;
                    }
                }
            }
            // wanted = the quota with the constrained amounts that differ; written only when changed.
            bool differs = false;
            for (std::size_t r = 0; r < width; ++r) {
                override_row_[r] = wanted[r] != quota_row_[r] ? wanted[r] : -1;
                differs = differs || wanted[r] != quota_row_[r];
            }
            if (differs) {
                detail::write_overlay(d.wanted, ns.quota, continuum::detail::span_of(constrained_), continuum::detail::span_of(override_row_));
            } else {
                detail::assign(d.wanted, ns.quota);
            }
            if (unconstrained_request) {
                for (const auto& request : ns.failed_requests) d.wanted = max(d.wanted, request);
                differs = !detail::same(d.wanted, ns.quota);
            }
            // Until the fairness rule says otherwise, quota = wanted.
            detail::assign(d.quota, d.wanted);
            detail::clear(d.cut);
            changed += differs ? 1 : 0;
            for (std::size_t r = 0; r < width; ++r) {
                if (__builtin_add_overflow(total_[r], wanted[r], &total_[r])) {
                    throw InvalidArgument(continuum::detail::message("hybrid quota scaling: total wanted \"{}\" overflows int64", constrained_[r]));
                }
            }
        }
        last_now_ = cluster.now;

        // Capacity: total wanted against the cluster, then the waiting nodes, then fairness.
        detail::write_overlay(out.total_wanted, Resources{}, continuum::detail::span_of(constrained_), continuum::detail::span_of(total_));
        detail::assign(out.backed_capacity, cluster.capacity);
        const Resources excess = capacity::shortfall(out.total_wanted, cluster.capacity);
        bool activated = false;
        if (!excess.empty()) {
            out.activation = capacity::choose_nodes_to_activate<continuum::detail::deferred_t<void, F>>(excess, cluster.waiting_nodes, pc.objective, pc.budget);
            out.backed_capacity += out.activation.activated_capacity;
            activated = !out.activation.nodes.empty();
        }
        detail::assign(out.still_missing, capacity::shortfall(out.total_wanted, out.backed_capacity));
        const bool fairness = !out.still_missing.empty();
        if (fairness) {
            // fair_quotas over the rows: floors = current usage.
            granted_ = wanted_;
            column_.resize(n);
            floors_.resize(n);
            shares_.resize(n);
            priorities_.resize(n);
            for (std::size_t i = 0; i < n; ++i) priorities_[i] = out.namespaces[i].priority;
            for (std::size_t r = 0; r < width; ++r) {
                for (std::size_t i = 0; i < n; ++i) {
                    column_[i] = wanted_[i * width + r];
                    floors_[i] = detail::amount(namespaces[i].usage, constrained_[r]);
                }
                if (!detail::fair_split<continuum::detail::deferred_t<void, F>>(out.backed_capacity.get(constrained_[r]), column_, floors_, priorities_, shares_)) continue;
                for (std::size_t i = 0; i < n; ++i) granted_[i * width + r] = shares_[i];
            }
            changed = 0;
            for (std::size_t i = 0; i < n; ++i) {
                Dep<NamespaceDecision>& d = out.namespaces[i];
                bool cut = false;
                for (std::size_t r = 0; r < width; ++r) {
                    override_row_[r] = wanted_[i * width + r] - granted_[i * width + r];  // a grant never exceeds the want
                    cut = cut || override_row_[r] != 0;
                }
                if (cut) {
                    detail::write_overlay(d.quota, d.wanted, continuum::detail::span_of(constrained_), std::span<const std::int64_t>(granted_.data() + i * width, width));
                    detail::write_overlay(d.cut, Resources{}, continuum::detail::span_of(constrained_), continuum::detail::span_of(override_row_));
                    out.cut.push_back(i);
                }
                changed += detail::same(d.quota, d.previous_quota) ? 0 : 1;
            }
        }
        // Name the cases now that capacity is known (nothing to rename unless nodes were resumed or someone was cut:
        // without a cut, quota = wanted >= every failed request).
        if (activated || fairness) {
            for (std::size_t i = 0; i < n; ++i) {
                Dep<NamespaceDecision>& d = out.namespaces[i];
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
                    d.reactive = ReactiveCase::infeasible;  // cut below a request by the fairness rule
                } else if (d.reactive == ReactiveCase::raise_quota && activated) {
                    d.reactive = ReactiveCase::activate_nodes;
                }
            }
        }
        if (any_lowered && !activated && !cluster.nodes.empty()) out.consolidation = packing::plan_consolidation(cluster.nodes, pc.budget);

        out.reason = detail::hybrid_reason(out, changed, cluster.capacity, activated);
    }

    F prototype_;
    HybridConfig config_;
    Dep<std::vector<NamespaceState>> states_;
    Dep<std::unordered_map<std::string, std::size_t>> index_;
    std::optional<Time> last_now_;
    std::uint64_t tick_number_ = 0;
    Dep<std::vector<std::size_t>> order_;               // state index per snapshot position, last tick
    // Scratch reused across ticks.
    Dep<std::vector<const Resources*>> pointers_;       // predictions per namespace (nullptr: warming up)
    Dep<std::vector<Resources>> forecasts_;             // tick(): the forecasts pointers_ point to
    Dep<std::vector<std::int64_t>> forecast_row_;       // tick(): one forecast per managed resource
    Dep<std::vector<std::string>> constrained_;         // managed resources, then the others the capacity names
    Dep<std::vector<const QuotaLevels*>> levels_;       // levels per managed resource (nullptr: none)
    Dep<std::vector<std::int64_t>> wanted_;             // row i: namespace i's wanted amount per constrained resource
    Dep<std::vector<std::int64_t>> decrease_;           // lowered target per managed resource, -1 = none
    Dep<std::vector<std::int64_t>> total_;              // total wanted per constrained resource
    Dep<std::vector<std::int64_t>> quota_row_;          // the namespace's quota per constrained resource
    Dep<std::vector<std::int64_t>> override_row_;       // per constrained resource: an amount to write, or -1
    Dep<std::vector<std::int64_t>> predicted_;          // the namespace's prediction per managed resource
    Dep<std::vector<std::int64_t>> granted_, column_, floors_, shares_;  // fairness rule
    Dep<std::vector<int>> priorities_;
};

}  // namespace continuum::quota
