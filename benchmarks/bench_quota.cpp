// Benchmarks for continuum/quota and continuum/capacity: QuotaLevels::snap_up (target < 20 ns),
// one hybrid tick over 10,000 namespaces with the forecast excluded (target < 2 ms), a reactive
// step, and choose_nodes_to_activate on pools of 24 distinct and 200 nodes.
#include <continuum/capacity.hpp>
#include <continuum/quota.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace continuum;
using namespace std::chrono_literals;

namespace {

struct NullForecaster {  // never called: tick_with_predictions skips forecasting
    void fit(SeriesView) {}
    void update(double) {}
    [[nodiscard]] forecast::Forecast forecast(int, double) const { return {}; }
    [[nodiscard]] std::string name() const { return "none"; }
};

void snap_up(benchmark::State& state) {
    const quota::QuotaLevels levels{20, 40, 60, 80, 100};
    std::int64_t x = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(levels.snap_up(x));
        x = (x + 37) % 100;
    }
}
BENCHMARK(snap_up);

void snap_up_64_levels(benchmark::State& state) {
    std::vector<std::int64_t> raw;
    for (int i = 1; i <= 64; ++i) raw.push_back(i * 500);
    const quota::QuotaLevels levels(raw);
    std::int64_t x = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(levels.snap_up(x));
        x = (x + 3779) % 32'000;
    }
}
BENCHMARK(snap_up_64_levels);

/// 10,000 namespaces with cpu + memory quotas; predictions move a third of them up, a third
/// down; 1% have a failed deployment. First arg: the cluster is sized so that no one is cut (0)
/// or so that the fairness rule must cut (1). Second arg: 1 = the decision object is reused across
/// ticks (tick_with_predictions(..., out)), 0 = a new decision is returned each tick.
void hybrid_tick_10k(benchmark::State& state) {
    const std::size_t n = 10'000;
    const bool overloaded = state.range(0) == 1;
    const bool reuse = state.range(1) == 1;
    quota::HybridConfig config;
    config.proactive.levels.set("cpu", quota::QuotaLevels::parse("cpu", {"1", "2", "4", "8", "16", "32"}));
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<std::int64_t> cpu(500, 12'000);
    std::vector<quota::NamespaceSnapshot> namespaces;
    std::vector<Resources> predictions;
    namespaces.reserve(n);
    Resources total;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t q = cpu(rng);
        const Resources quota = Resources::from_units({{"cpu", q}, {"memory", q << 20}});
        const Resources usage = Resources::from_units({{"cpu", q * 3 / 4}, {"memory", q << 19}});
        std::vector<Resources> failed;
        if (i % 100 == 0) failed.push_back(Resources::from_units({{"cpu", q + 300}, {"memory", q << 20}}));
        namespaces.push_back({fmt::format("namespace-{:05}", i), usage, quota, failed});
        const std::int64_t p = i % 3 == 0 ? q + 400 : i % 3 == 1 ? q / 3 : q;
        predictions.push_back(Resources::from_units({{"cpu", p}}));
        total += quota;
    }
    const Resources capacity = overloaded ? Resources::from_units({{"cpu", total.cpu_millis() * 9 / 10}, {"memory", total.memory_bytes()}})
                                          : total * 2;
    std::vector<capacity::WaitingNode> pool;
    for (int i = 0; i < 8; ++i) pool.push_back({fmt::format("wwn-{}", i), Resources{{"cpu", "16"}, {"memory", "64Gi"}}, 20s, 1.0});
    quota::HybridQuotaScaler scaler(NullForecaster{}, config);
    for (const auto& ns : namespaces) scaler.add_namespace(ns.name, static_cast<int>(ns.name.back() - '0') % 3);
    std::int64_t minute = 0;
    quota::HybridDecision reused;
    for (auto _ : state) {
        if (reuse) {
            scaler.tick_with_predictions({Time(minute++ * 60'000), capacity, pool, {}}, namespaces, predictions, reused);
            benchmark::DoNotOptimize(reused);
        } else {
            auto decision = scaler.tick_with_predictions({Time(minute++ * 60'000), capacity, pool, {}}, namespaces, predictions);
            benchmark::DoNotOptimize(decision);
        }
    }
    state.counters["namespaces"] = static_cast<double>(n);
}
BENCHMARK(hybrid_tick_10k)->Args({0, 1})->Args({0, 0})->Args({1, 1})->Args({1, 0})->Unit(benchmark::kMillisecond);

void reactive_step(benchmark::State& state) {
    std::vector<capacity::WaitingNode> pool;
    for (int i = 0; i < 6; ++i) pool.push_back({fmt::format("wwn-{}", i), Resources{{"cpu", "8"}, {"memory", "32Gi"}}, 20s, 1.0});
    const quota::ReactiveSnapshot snapshot{Resources{{"cpu", "130"}, {"memory", "300Gi"}}, Resources{{"cpu", "100"}, {"memory", "256Gi"}},
                                           Resources{{"cpu", "4"}, {"memory", "16Gi"}}, pool};
    for (auto _ : state) benchmark::DoNotOptimize(quota::reactive_quota_step(snapshot));
}
BENCHMARK(reactive_step);

void choose_nodes(benchmark::State& state) {
    const auto size = static_cast<int>(state.range(0));
    std::vector<capacity::WaitingNode> pool;
    for (int i = 0; i < size; ++i) {
        pool.push_back({fmt::format("n{:03}", i), Resources::from_units({{"cpu", 1000 + 250 * (i % 24)}, {"memory", (1LL << 30) * (1 + i % 5)}}),
                        Duration(1000 * (i % 7)), 0.1 * (1 + i % 11)});
    }
    const Resources need = Resources::from_units({{"cpu", 20'000}, {"memory", 24LL << 30}});
    const auto objective = static_cast<capacity::ActivationObjective>(state.range(1));
    for (auto _ : state) benchmark::DoNotOptimize(capacity::choose_nodes_to_activate(need, pool, objective));
}
BENCHMARK(choose_nodes)->Args({24, 0})->Args({24, 1})->Args({24, 2})->Args({200, 0})->Args({200, 1})->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
