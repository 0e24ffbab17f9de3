// Per-tick node planning with replicas (issue 20): cheapest_node_mix on n = 1..200 identical pods and
// on mixes of 2-5 pod shapes over node-type sets, and plan_scale_out with 30 identical pods and 4
// offers. Each iteration sweeps every case once with the default (per-tick) budget; the counters
// give the slowest single call in wall-clock and in thread CPU time (the host is shared: CPU time
// is the call's own work; goal <= 10 ms), how many answers are proved optimal and the largest gap.
#include <continuum/federation/scale_out.hpp>
#include <continuum/packing/node_types.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

namespace {

using continuum::Resources;
using continuum::packing::NodeType;
using continuum::packing::unlimited;

Resources pod(std::int64_t cpu_millis, std::int64_t memory_mib) {
    return Resources::from_units({{"cpu", cpu_millis}, {"memory", memory_mib << 20}, {"pods", 1}});
}
NodeType node(std::string name, std::int64_t cpu, std::int64_t memory_gib, double cost) {
    return {std::move(name), Resources::from_units({{"cpu", cpu * 1000}, {"memory", memory_gib << 30}, {"pods", 110}}), cost, unlimited};
}

// 0: two types (small and large); 1: five general-purpose, compute- and memory-optimised types with
// list prices per hour; 2: three sizes of one family (costs proportional to size: many ties).
std::vector<NodeType> type_set(int which) {
    if (which == 0) return {node("small", 2, 4, 1.0), node("large", 8, 16, 3.5)};
    if (which == 1) {
        return {node("m5.large", 2, 8, 0.096), node("m5.xlarge", 4, 16, 0.192), node("m5.2xlarge", 8, 32, 0.384), node("c5.2xlarge", 8, 16, 0.34),
                node("r5.xlarge", 4, 32, 0.252)};
    }
    return {node("s", 4, 16, 0.2), node("m", 8, 32, 0.4), node("l", 16, 64, 0.8)};
}

double time_ms(const std::chrono::steady_clock::time_point& start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
double thread_cpu_ms() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

/// With CONTINUUM_NODE_MIX_DUMP=path, every call of the sweeps appends one line to `path`: the
/// instance (types, pods) and the answer, for benchmarks/node_mix_highs_peer.py to check against
/// the pattern ILP's optimum.
void dump_call(const std::vector<Resources>& items, const std::vector<NodeType>& types, const continuum::packing::NodeMix& mix, double cpu_ms) {
    static std::FILE* out = [] {
        const char* path = std::getenv("CONTINUUM_NODE_MIX_DUMP");
        return path != nullptr ? std::fopen(path, "a") : nullptr;
    }();
    if (out == nullptr) return;
    std::fprintf(out, "{\"types\": [");
    for (std::size_t t = 0; t < types.size(); ++t) {
        const auto& c = types[t].capacity;
        std::fprintf(out, "%s[%lld, %lld, %lld, %.17g, %lld]", t > 0 ? ", " : "", static_cast<long long>(c.cpu_millis()), static_cast<long long>(c.memory_bytes()),
                     static_cast<long long>(c.pods()), types[t].cost, static_cast<long long>(types[t].max_count));
    }
    std::fprintf(out, "], \"items\": [");
    for (std::size_t i = 0; i < items.size(); ++i) {
        std::fprintf(out, "%s[%lld, %lld, %lld]", i > 0 ? ", " : "", static_cast<long long>(items[i].cpu_millis()), static_cast<long long>(items[i].memory_bytes()),
                     static_cast<long long>(items[i].pods()));
    }
    std::fprintf(out, "], \"cost\": %.17g, \"lower_bound\": %.17g, \"optimal\": %d, \"cpu_ms\": %.4f}\n", mix.cost, mix.lower_bound, mix.optimal ? 1 : 0, cpu_ms);
    std::fflush(out);
}

struct Sweep {
    double slowest_ms = 0;
    double slowest_cpu_ms = 0;
    double total_ms = 0;
    int calls = 0;
    int proved = 0;
    double largest_gap = 0;
    void add(const continuum::packing::NodeMix& mix, double ms, double cpu_ms) {
        slowest_ms = std::max(slowest_ms, ms);
        slowest_cpu_ms = std::max(slowest_cpu_ms, cpu_ms);
        total_ms += ms;
        ++calls;
        proved += mix.optimal ? 1 : 0;
        largest_gap = std::max(largest_gap, mix.gap);
    }
    /// One cheapest_node_mix call with the default budget, timed in wall clock and thread CPU.
    void timed_call(const std::vector<Resources>& items, const std::vector<NodeType>& types) {
        const auto start = std::chrono::steady_clock::now();
        const double cpu = thread_cpu_ms();
        const auto mix = continuum::packing::cheapest_node_mix(items, types);
        const double cpu_ms = thread_cpu_ms() - cpu;
        add(mix, time_ms(start), cpu_ms);
        dump_call(items, types, mix, cpu_ms);
        benchmark::DoNotOptimize(mix.cost);
    }
    void report(benchmark::State& state) const {
        state.counters["calls"] = calls;
        state.counters["proved"] = proved;
        state.counters["slowest_ms"] = slowest_ms;
        state.counters["slowest_cpu_ms"] = slowest_cpu_ms;
        state.counters["mean_ms"] = total_ms / calls;
        state.counters["largest_gap"] = largest_gap;
    }
};

// Argument: the type set. Pods of 1 cpu / 1.5 GiB, n = 1..200.
void bm_node_mix_identical_sweep(benchmark::State& state) {
    const auto types = type_set(static_cast<int>(state.range(0)));
    Sweep sweep;
    for (auto _ : state) {
        sweep = {};
        for (std::size_t n = 1; n <= 200; ++n) {
            sweep.timed_call(std::vector<Resources>(n, pod(1000, 1536)), types);
        }
    }
    sweep.report(state);
}
BENCHMARK(bm_node_mix_identical_sweep)->DenseRange(0, 2)->Iterations(1)->Unit(benchmark::kMillisecond);

// Arguments: the type set and the number of pod shapes (2..5). n in {10, 25, 50, 100, 200}, each
// shape's replicas drawn at random, eight seeds each.
void bm_node_mix_shapes_sweep(benchmark::State& state) {
    const auto types = type_set(static_cast<int>(state.range(0)));
    const auto kinds = static_cast<std::size_t>(state.range(1));
    Sweep sweep;
    for (auto _ : state) {
        sweep = {};
        for (std::uint64_t seed = 0; seed < 8; ++seed) {
            std::mt19937_64 rng(seed * 131 + kinds);
            std::vector<Resources> shapes;
            for (std::size_t k = 0; k < kinds; ++k) {
                const auto cpu = std::uniform_int_distribution<std::int64_t>(1, 16)(rng) * 250;
                const auto memory = std::uniform_int_distribution<std::int64_t>(1, 24)(rng) * 256;
                shapes.push_back(pod(cpu, memory));
            }
            for (const std::size_t n : {10, 25, 50, 100, 200}) {
                std::vector<Resources> items;
                for (std::size_t i = 0; i < n; ++i) items.push_back(shapes[std::uniform_int_distribution<std::size_t>(0, kinds - 1)(rng)]);
                sweep.timed_call(items, types);
            }
        }
    }
    sweep.report(state);
}
BENCHMARK(bm_node_mix_shapes_sweep)->ArgsProduct({{0, 1, 2}, {2, 3, 4, 5}})->Iterations(1)->Unit(benchmark::kMillisecond);

// plan_scale_out: n identical pending pods (500m / 1Gi) and 4 offers (seed 000's testbed: three
// 2-core / 4 GB offers at 1 per minute, one 4-core at 5, each up to 20 nodes).
void bm_scale_out_identical(benchmark::State& state) {
    using namespace continuum::federation;
    std::vector<Offer> offers;
    for (const auto& [id, cpu, price] : std::vector<std::tuple<std::string, std::string, double>>{{"high-1", "4", 5.0}, {"low-1", "2", 1.0}, {"low-2", "2", 1.0}, {"low-3", "2", 1.0}}) {
        Offer o;
        o.cluster_id = id;
        o.provider = price > 1 ? "pr2" : "pr1";
        o.capacity = Resources{{"cpu", cpu}, {"memory", "4Gi"}};
        o.node_price = price;
        o.max_nodes = 20;
        offers.push_back(std::move(o));
    }
    std::vector<PendingPod> pods;
    for (std::int64_t i = 0; i < state.range(0); ++i) pods.push_back({"pod-" + std::to_string(i), Resources{{"cpu", "500m"}, {"memory", "1Gi"}}, {}});
    bool optimal = true;
    for (auto _ : state) {
        const auto decision = plan_scale_out(pods, {}, offers);
        optimal = decision.optimal;
        benchmark::DoNotOptimize(decision.cost);
    }
    state.counters["optimal"] = optimal ? 1 : 0;
}
BENCHMARK(bm_scale_out_identical)->Arg(30)->Arg(100)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
