// Property tests of the invariants the reliability issue names, over seeded random instances
// (std::mt19937_64, fixed seeds: failures reproduce): packing validity and L1 <= L2 <= exact <=
// FFD; a non-infeasible reactive step leaves the quota at or above the request; no NaN/inf in any
// forecast; the HPA stays within [min, max]; the federation ledger never over-commits; the
// simulator conserves pods (every desired pod exists exactly once, bound pods add up per node).
#include <continuum/federation/ledger.hpp>
#include <continuum/forecast/drift.hpp>
#include <continuum/forecast/holt_winters.hpp>
#include <continuum/forecast/linear_regression.hpp>
#include <continuum/forecast/moving_average.hpp>
#include <continuum/forecast/naive.hpp>
#include <continuum/forecast/seasonal_median.hpp>
#include <continuum/forecast/seasonal_naive.hpp>
#include <continuum/forecast/simple_exponential_smoothing.hpp>
#include <continuum/packing/exact.hpp>
#include <continuum/packing/lower_bounds.hpp>
#include <continuum/packing/one_dimensional.hpp>
#include <continuum/packing/vector_heuristics.hpp>
#include <continuum/quota/reactive.hpp>
#include <continuum/scalers/hpa.hpp>
#include <continuum/sim/simulator.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <random>

using namespace continuum;
using namespace std::chrono_literals;

namespace {

std::int64_t uniform(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); }
double uniform_real(std::mt19937_64& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }

template <typename Bins>
void check_packing(const Bins& bins, const std::vector<std::size_t>& unplaced, const std::vector<std::int64_t>& sizes, std::int64_t capacity) {
    std::vector<int> seen(sizes.size(), 0);
    for (const auto& bin : bins) {
        REQUIRE_FALSE(bin.empty());
        std::int64_t load = 0;
        for (const auto i : bin) {
            ++seen[i];
            load += sizes[i];
        }
        CHECK(load <= capacity);
    }
    for (const auto i : unplaced) {
        CHECK(sizes[i] > capacity);
        ++seen[i];
    }
    for (const int s : seen) CHECK(s == 1);
}

}  // namespace

TEST_CASE("property: 1-D packings are valid and L1 <= L2 <= exact lower bound <= exact <= FFD, BFD") {
    std::mt19937_64 rng(11);
    for (int instance = 0; instance < 150; ++instance) {
        const std::int64_t capacity = uniform(rng, 1, 1000);
        const bool all_equal = instance % 10 == 0;
        std::vector<std::int64_t> sizes(static_cast<std::size_t>(uniform(rng, instance % 7 == 0 ? 1 : 0, 40)));
        const std::int64_t equal = uniform(rng, 1, capacity);
        for (auto& s : sizes) s = all_equal ? equal : uniform(rng, 1, capacity + capacity / 10);  // a few do not fit
        CAPTURE(instance);
        const auto ffd = packing::first_fit_decreasing(sizes, capacity);
        const auto bfd = packing::best_fit_decreasing(sizes, capacity);
        check_packing(ffd.bins, ffd.unplaced, sizes, capacity);
        check_packing(bfd.bins, bfd.unplaced, sizes, capacity);
        const auto l1 = packing::l1_bound(sizes, capacity);
        const auto l2 = packing::l2_bound(sizes, capacity);
        Budget budget;
        budget.node_limit = 20'000;
        const auto exact = packing::solve_exact(sizes, capacity, budget);
        check_packing(exact.bins, exact.unplaced, sizes, capacity);
        CHECK(l1 <= l2);
        CHECK(l2 <= exact.lower_bound);
        CHECK(exact.lower_bound <= static_cast<std::int64_t>(exact.num_bins()));
        CHECK(exact.num_bins() <= std::min(ffd.num_bins(), bfd.num_bins()));
        if (all_equal && !sizes.empty()) {
            const auto per_bin = capacity / equal;  // items of one size: the optimum is ceil(n / per_bin)
            const auto optimum = (static_cast<std::int64_t>(sizes.size()) + per_bin - 1) / per_bin;
            CHECK(static_cast<std::int64_t>(ffd.num_bins()) == optimum);
            CHECK(exact.optimal);
            CHECK(static_cast<std::int64_t>(exact.num_bins()) == optimum);
        }
    }
}

TEST_CASE("property: vector packings are valid and lower_bound <= exact <= every FFD/BFD order") {
    std::mt19937_64 rng(12);
    for (int instance = 0; instance < 60; ++instance) {
        const Resources capacity = Resources::from_units({{"cpu", uniform(rng, 1000, 8000)}, {"memory", uniform(rng, 1, 64) << 30}});
        std::vector<Resources> items(static_cast<std::size_t>(uniform(rng, 0, 25)));
        for (auto& item : items) {
            item = Resources::from_units({{"cpu", uniform(rng, 0, capacity.cpu_millis())}, {"memory", uniform(rng, 1, capacity.memory_bytes())}});
        }
        CAPTURE(instance);
        const auto bound = packing::lower_bound(items, capacity);
        std::size_t best = std::numeric_limits<std::size_t>::max();
        for (const auto order : {packing::VectorOrder::sum_normalized, packing::VectorOrder::max_normalized, packing::VectorOrder::lexicographic,
                                 packing::VectorOrder::dot_product, packing::VectorOrder::l2_norm}) {
            for (const auto& p : {packing::first_fit_decreasing(items, capacity, order), packing::best_fit_decreasing(items, capacity, order)}) {
                CHECK(p.unplaced.empty());
                std::vector<int> seen(items.size(), 0);
                for (const auto& bin : p.bins) {
                    Resources load;
                    for (const auto i : bin) {
                        load += items[i];
                        ++seen[i];
                    }
                    CHECK(load.fits_in(capacity));
                }
                for (const int s : seen) CHECK(s == 1);
                CHECK(static_cast<std::int64_t>(p.num_bins()) >= bound);
                best = std::min(best, p.num_bins());
            }
        }
        Budget budget;
        budget.node_limit = 5'000;
        const auto exact = packing::solve_exact(items, capacity, budget);
        CHECK(bound <= exact.lower_bound);
        CHECK(exact.lower_bound <= static_cast<std::int64_t>(exact.num_bins()));
        CHECK(exact.num_bins() <= best);
    }
}

TEST_CASE("property: a reactive step that is not infeasible leaves a quota >= the request, never lowers it") {
    std::mt19937_64 rng(13);
    int infeasible = 0;
    for (int instance = 0; instance < 400; ++instance) {
        const auto random_resources = [&](std::int64_t scale) {
            return Resources::from_units({{"cpu", uniform(rng, 0, scale)}, {"memory", uniform(rng, 0, scale) << 20}});
        };
        std::vector<capacity::WaitingNode> pool(static_cast<std::size_t>(uniform(rng, 0, 6)));
        for (std::size_t i = 0; i < pool.size(); ++i) {
            pool[i] = {fmt::format("wwn-{}", i), Resources::from_units({{"cpu", uniform(rng, 1, 4000)}, {"memory", uniform(rng, 1, 4000) << 20}}),
                       std::chrono::milliseconds(uniform(rng, 0, 60000)), uniform_real(rng, 0.0, 3.0)};
        }
        quota::ReactiveSnapshot s{random_resources(10000), random_resources(8000), random_resources(3000), pool};
        const auto d = quota::reactive_quota_step(s);
        CAPTURE(instance);
        for (const auto& [name, value] : s.current_quota) CHECK(d.new_quota.get(name) >= value);
        if (d.deploy()) {
            CHECK(s.request.fits_in(d.new_quota));
            CHECK(d.new_quota == max(s.current_quota, s.request));
            // what the free resources lack is covered by the resumed nodes
            CHECK(capacity::shortfall(d.quota_increase, s.available + d.activation.activated_capacity).empty());
        } else {
            ++infeasible;
            CHECK(d.new_quota == s.current_quota);
            CHECK_FALSE(d.still_missing.empty());
        }
    }
    CHECK(infeasible > 0);  // the generator reaches every case
    CHECK(infeasible < 400);
}

TEST_CASE("property: no NaN or inf in any forecast, over extreme magnitudes and degenerate series") {
    std::mt19937_64 rng(14);
    for (const double scale : {1e-12, 1.0, 1e12}) {
        for (int shape = 0; shape < 4; ++shape) {
            std::vector<double> y(96);
            for (std::size_t t = 0; t < y.size(); ++t) {
                const double season = std::sin(2.0 * M_PI * static_cast<double>(t % 24) / 24.0);
                switch (shape) {
                    case 0: y[t] = scale; break;                                                     // constant
                    case 1: y[t] = scale * (2.0 + season + uniform_real(rng, -0.1, 0.1)); break;     // seasonal, positive
                    case 2: y[t] = scale * (static_cast<double>(t) * 0.01 + uniform_real(rng, 0, 1)); break;  // trend + noise
                    default: y[t] = (t % 24 == 0) ? scale * 100.0 : 0.0; break;                      // spikes over zeros
                }
            }
            const Series series(y);
            CAPTURE(scale);
            CAPTURE(shape);
            const auto check = [&](auto model) {
                model.fit(series);
                for (const double level : {0.0, 0.9}) {
                    const auto f = model.forecast(48, level);
                    CHECK(f.mean.size() == 48);
                    for (const double v : f.mean) CHECK(std::isfinite(v));
                    for (const double v : f.lower) CHECK(std::isfinite(v));
                    for (const double v : f.upper) CHECK(std::isfinite(v));
                }
                model.update(y.back());
                for (const double v : model.forecast(5).mean) CHECK(std::isfinite(v));
            };
            check(forecast::Naive{});
            check(forecast::SeasonalNaive(24));
            check(forecast::Drift{});
            check(forecast::MovingAverage(12));
            check(forecast::SimpleExponentialSmoothing{});
            check(forecast::LinearRegression(48));
            check(forecast::SeasonalMedian(24, 3));
            for (const auto seasonal : {forecast::Seasonality::none, forecast::Seasonality::additive, forecast::Seasonality::multiplicative}) {
                if (seasonal == forecast::Seasonality::multiplicative && shape == 3) continue;  // zeros: multiplicative needs y > 0
                forecast::HoltWintersSpec spec;
                spec.seasonal = seasonal;
                spec.damped = shape == 2;
                forecast::HoltWintersOptions options;
                options.simulation_paths = 200;
                check(forecast::HoltWinters<double>(spec, options));
            }
        }
    }
}

TEST_CASE("property: the HPA's desired replicas stay within [min, max] through random metric histories") {
    std::mt19937_64 rng(15);
    for (int instance = 0; instance < 60; ++instance) {
        scalers::HpaSpec spec;
        spec.min_replicas = uniform(rng, 1, 5);
        spec.max_replicas = spec.min_replicas + uniform(rng, 0, 30);
        if (instance % 3 == 0) spec.behavior.reset();
        scalers::HpaMetric metric;
        metric.target = uniform(rng, 10, 100);
        spec.metrics.push_back(metric);
        scalers::Hpa hpa(spec);
        scalers::ScaleTargetState target;
        target.spec_replicas = uniform(rng, 1, 40);  // may start outside [min, max]
        for (int cycle = 0; cycle < 40; ++cycle) {
            metric.pods.clear();
            for (std::int64_t p = 0; p < target.spec_replicas; ++p) {
                scalers::PodSample pod;
                pod.name = fmt::format("pod-{}", p);
                pod.request = 500;
                if (uniform(rng, 0, 9) != 0) pod.value = uniform(rng, 0, 2000);
                metric.pods.push_back(pod);
            }
            target.status_replicas = target.ready_pods = target.spec_replicas;
            const auto d = hpa.decide({metric}, target, Time(std::chrono::seconds(15 * cycle)));
            CAPTURE(instance);
            CAPTURE(cycle);
            CHECK(d.desired_replicas >= spec.min_replicas);
            CHECK(d.desired_replicas <= spec.max_replicas);
            target.spec_replicas = d.desired_replicas;
        }
    }
}

TEST_CASE("property: the federation ledger never over-commits a provider") {
    std::mt19937_64 rng(16);
    federation::Ledger ledger;
    const std::vector<std::string> providers{"edge-a", "cloud-b", "cloud-c"};
    for (const auto& p : providers) ledger.set_capacity(p, Resources::from_units({{"cpu", 16000}, {"memory", std::int64_t{64} << 30}}));
    std::vector<federation::ReservationId> live;
    int refused = 0;
    for (int op = 0; op < 3000; ++op) {
        const auto& provider = providers[static_cast<std::size_t>(uniform(rng, 0, 2))];
        const auto kind = uniform(rng, 0, 9);
        if (kind < 5) {
            const Resources amount = Resources::from_units({{"cpu", uniform(rng, 1, 6000)}, {"memory", uniform(rng, 1, 16) << 30}});
            const auto consumer = uniform(rng, 0, 4);  // draws sequenced: argument order differs between compilers
            const auto expires = Time(std::chrono::seconds(op + uniform(rng, 0, 50)));
            const auto id = ledger.try_reserve(fmt::format("consumer-{}", consumer), provider, amount, expires);
            if (id) {
                live.push_back(*id);
            } else {
                ++refused;
                CHECK_FALSE(amount.fits_in(ledger.available(provider)));
            }
        } else if (kind < 7 && !live.empty()) {
            const auto k = static_cast<std::size_t>(uniform(rng, 0, static_cast<std::int64_t>(live.size()) - 1));
            ledger.release(live[k]);
            live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
        } else if (kind < 8 && !live.empty()) {
            try {
                ledger.commit(live[static_cast<std::size_t>(uniform(rng, 0, static_cast<std::int64_t>(live.size()) - 1))]);
            } catch (const InvalidArgument&) {
                // expired meanwhile
            }
        } else if (kind < 9) {
            ledger.expire(Time(std::chrono::seconds(op)));
            std::vector<federation::ReservationId> still;
            for (const auto& r : ledger.reservations()) still.push_back(r.id);
            live = still;
        } else {
            // shrinking below what is held is refused; growing always works
            const Resources held = ledger.held(provider);
            const Resources wanted = Resources::from_units({{"cpu", uniform(rng, 0, 24000)}, {"memory", std::int64_t{64} << 30}});
            if (held.fits_in(wanted)) {
                ledger.set_capacity(provider, wanted);
            } else {
                CHECK_THROWS_AS(ledger.set_capacity(provider, wanted), InvalidArgument);
            }
        }
        for (const auto& p : providers) {
            CHECK(ledger.held(p).fits_in(ledger.capacity(p)));
            CHECK_FALSE(ledger.available(p).any_negative());
        }
        REQUIRE(ledger.audit().empty());
    }
    CHECK(refused > 0);
}

TEST_CASE("property: the simulator conserves pods (each desired pod exists once, bound pods add up per node)") {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        std::mt19937_64 rng(seed);
        sim::Scenario s;
        for (int p = 0; p < 2; ++p) {
            sim::NodePool pool;
            pool.name = fmt::format("pool-{}", p);
            pool.capacity = Resources::from_units({{"cpu", 2000 * (p + 1)}, {"memory", std::int64_t{8} << 30}});
            pool.cost_per_minute = 0.1 * (p + 1);
            pool.initial_size = static_cast<int>(uniform(rng, 0, 3));
            pool.max_size = 8;
            s.pools.push_back(pool);
        }
        for (int n = 0; n < 3; ++n) {
            sim::NamespaceSpec ns{fmt::format("ns{}", n), std::nullopt};
            if (n > 0) ns.quota = Resources::from_units({{"cpu", 1000 * uniform(rng, 1, 10)}});
            s.namespaces.push_back(ns);
            sim::DeploymentSpec d;
            d.name = fmt::format("d{}", n);
            d.namespace_name = ns.name;
            d.pod_request = Resources::from_units({{"cpu", 250 * uniform(rng, 1, 4)}, {"memory", std::int64_t{256} << 20}});
            std::vector<double> load;
            for (int k = 0; k < 20; ++k) load.push_back(uniform_real(rng, 0.0, 8.0));
            d.load = sim::LoadProfile::from_samples(load, 30s);
            s.deployments.push_back(d);
        }
        s.config.duration = 10min;
        s.config.tick = 5s;
        int checked = 0;
        sim::Simulator simulator(s);
        (void)simulator.run(sim::AnyScaler([&, scaler_rng = std::mt19937_64(seed * 7)](const sim::Snapshot& snap) mutable {
            std::int64_t bound = 0;
            std::int64_t bound_cpu = 0;
            std::map<std::size_t, int> pending_per_namespace;
            for (const auto& dep : snap.deployments) {
                CHECK(dep.ready + dep.starting + dep.pending == dep.desired);
                bound += dep.ready + dep.starting;
                bound_cpu += static_cast<std::int64_t>(dep.ready + dep.starting) * dep.pod_cpu;
                pending_per_namespace[dep.namespace_index] += dep.pending;
            }
            std::int64_t on_nodes = 0;
            std::int64_t requested = 0;
            for (const auto& node : snap.nodes) {
                on_nodes += node.pods;
                requested += node.cpu_requested;
                CHECK(node.cpu_requested <= node.cpu_capacity);
            }
            CHECK(on_nodes == bound);
            CHECK(requested == bound_cpu);
            for (std::size_t n = 0; n < snap.namespaces.size(); ++n) CHECK(snap.namespaces[n].pending_pods == pending_per_namespace[n]);
            ++checked;
            sim::Decision d;
            if (uniform(scaler_rng, 0, 9) == 0) d.pools.push_back({fmt::format("pool-{}", uniform(scaler_rng, 0, 1)), static_cast<int>(uniform(scaler_rng, 0, 8))});
            return d;
        }));
        CHECK(checked == 120);
    }
}
