// Benchmarks of continuum::scalers: one HierarchicalScaler::decide over 1,000 applications and
// 10,000 planned pods (FFD and the exact node planner), and Hpa::decide throughput.
#include <continuum/scalers.hpp>

#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

using namespace continuum;
using namespace continuum::scalers;

namespace {

/// The last observation repeated: keeps the benchmark on the scaler, not on a forecaster.
struct LastValue {
    double last = 0.0;
    void fit(SeriesView s) { last = s.back(); }
    [[nodiscard]] forecast::Forecast forecast(int horizon, double) const {
        forecast::Forecast f;
        f.mean.assign(static_cast<std::size_t>(horizon), last);
        return f;
    }
    void update(double v) { last = v; }
    [[nodiscard]] std::string name() const { return "last-value"; }
};

/// 1,000 applications of 250m / 256Mi pods whose demand plans exactly 10 replicas each (2 cores at 80 %).
ClusterSnapshot large_snapshot() {
    ClusterSnapshot s;
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> noise(-0.02, 0.0);
    for (int a = 0; a < 1000; ++a) {
        ApplicationState app;
        app.name = "app-" + std::to_string(a);
        app.pod_request = Resources{{"cpu", "250m"}, {"memory", "256Mi"}};
        for (int i = 0; i < 30; ++i) app.demand.push_back(2.0 + noise(rng));
        app.demand.back() = 2.0;
        app.replicas = 8;
        s.applications.push_back(std::move(app));
    }
    s.other_workloads.push_back({"node-exporter", Resources{{"cpu", "50m"}, {"memory", "64Mi"}}, 100, "mas-h2-staging-pool"});
    NodePoolState pool;
    pool.name = "mas-h2-staging-pool";
    pool.size = 1000;
    pool.ready_nodes = 1000;
    s.node_pools.push_back(pool);
    return s;
}

void hierarchical_decide(benchmark::State& state, NodePlanner planner) {
    policy::PolicySelector selector({policy::cost_saving()}, "COST_SAVING");
    HierarchicalConfig config;
    config.node_planner = planner;
    config.exact_budget.node_limit = 100'000;
    HierarchicalScaler<LastValue> scaler(selector, LastValue{}, config);
    const auto snapshot = large_snapshot();
    std::int64_t t = 0;
    std::int64_t pods = 0;
    for (auto _ : state) {
        auto d = scaler.decide(snapshot, Time{t});
        pods = d.pools[0].pods;
        benchmark::DoNotOptimize(d);
        t += 15'000;
    }
    state.counters["pods"] = static_cast<double>(pods);
}

void BM_hierarchical_decide_ffd(benchmark::State& state) { hierarchical_decide(state, NodePlanner::first_fit_decreasing); }
void BM_hierarchical_decide_exact(benchmark::State& state) { hierarchical_decide(state, NodePlanner::exact); }

void BM_hpa_decide(benchmark::State& state) {
    const auto pods_count = static_cast<int>(state.range(0));
    HpaSpec spec;
    spec.max_replicas = 1000;
    HpaMetric cpu;
    cpu.target = 60;
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<std::int64_t> usage(200, 500);
    for (int i = 0; i < pods_count; ++i) cpu.pods.push_back({"p", PodPhase::running, false, true, usage(rng), 500});
    spec.metrics = {cpu};
    Hpa hpa(spec);
    std::int64_t t = 0;
    for (auto _ : state) {
        auto d = hpa.decide({pods_count, pods_count, pods_count}, Time{t});
        benchmark::DoNotOptimize(d);
        t += 15'000;
    }
    state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_hierarchical_decide_ffd)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_hierarchical_decide_exact)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_hpa_decide)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
