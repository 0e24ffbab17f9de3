// Simulator throughput: a week at 1-minute ticks with 100 namespaces (one deployment each, diurnal
// CPU demand, 1-CPU pods) under the static scaler and under the reactive quota adapter.
#include <continuum/sim.hpp>
#include <continuum/sim/adapters/quota_scalers.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>

using namespace continuum;
using namespace continuum::sim;
using namespace std::chrono_literals;

namespace {
Scenario week(int namespaces, bool quotas) {
    Scenario s;
    NodePool base;
    base.name = "base";
    base.capacity = Resources{{"cpu", "64"}, {"memory", "256Gi"}};
    base.source = NodeSource::local;
    base.initial_size = namespaces / 8 + 1;
    base.cost_per_minute = 1;
    NodePool waiting = base;
    waiting.name = "waiting";
    waiting.source = NodeSource::paused_vm;
    waiting.initial_size = 0;
    waiting.max_size = namespaces / 8 + 2;
    s.pools = {base, waiting};
    for (int n = 0; n < namespaces; ++n) {
        std::vector<double> load;
        for (int m = 0; m < 7 * 24; ++m) load.push_back(4.0 + 3.0 * std::sin(2 * std::numbers::pi * (m + n) / 24.0));
        const auto name = fmt::format("ns{}", n);
        s.namespaces.push_back({name, quotas ? std::optional<Resources>(Resources{{"cpu", "4"}}) : std::nullopt});
        DeploymentSpec d;
        d.name = fmt::format("app{}", n);
        d.namespace_name = name;
        d.pod_request = Resources{{"cpu", "1"}};
        d.load = LoadProfile::from_samples(load, 1h);
        s.deployments.push_back(d);
    }
    s.config.tick = 1min;
    s.config.duration = std::chrono::hours(24 * 7);
    s.config.record.sample_every = 1h;
    s.config.record.pod_records = false;
    return s;
}
}  // namespace

static void BM_week_100_namespaces_static(benchmark::State& state) {
    Simulator sim(week(100, false));
    for (auto _ : state) benchmark::DoNotOptimize(sim.run(StaticScaler{}).total_cost);
}
BENCHMARK(BM_week_100_namespaces_static)->Unit(benchmark::kMillisecond);

static void BM_week_100_namespaces_reactive_quota(benchmark::State& state) {
    Simulator sim(week(100, true));
    for (auto _ : state) {
        // One reactive adapter per namespace, run together.
        std::vector<adapters::ReactiveQuotaAdapter> scalers;
        for (int n = 0; n < 100; ++n) scalers.emplace_back(adapters::QuotaTarget{fmt::format("ns{}", n), "waiting", false});
        AnyScaler all([&](const Snapshot& snap) {
            Decision d;
            for (auto& s : scalers) d.merge(s.decide(snap));
            return d;
        });
        benchmark::DoNotOptimize(sim.run(all).total_cost);
    }
}
BENCHMARK(BM_week_100_namespaces_reactive_quota)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
