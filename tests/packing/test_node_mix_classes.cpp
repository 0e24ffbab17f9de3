// cheapest_node_mix on items with multiplicities (replicas of a Deployment): closed-form optima for
// identical pods, an exhaustive reference on small mixes, and properties on up to 200 pods.
#include <continuum/packing/node_types.hpp>

#include "node_mix_checks.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace continuum::packing;
using continuum::Budget;
using continuum::Resources;
using continuum::packing::testing::check_node_mix;

namespace {
Resources pod(std::int64_t cpu_millis, std::int64_t memory_gib) {
    return Resources::from_units({{"cpu", cpu_millis}, {"memory", memory_gib << 30}});
}

/// No deadline: these tests assert proofs, which must not depend on the machine's speed.
Budget untimed() { return Budget{100'000'000, std::nullopt}; }

/// Exhaustive reference: every assignment of items to open bins, existing nodes or a new node of
/// each type (count limits respected). Returns the cheapest cost, or infinity when none places all.
struct Exhaustive {
    const std::vector<Resources>& items;
    const std::vector<NodeType>& types;
    std::vector<Resources> free;       // per bin: what is left
    std::vector<std::size_t> type_of;  // per bin (types.size() + e for existing node e)
    std::vector<std::int64_t> used;
    double best = std::numeric_limits<double>::infinity();

    void run(std::size_t i, double cost) {
        if (cost >= best - 1e-9) return;
        if (i == items.size()) {
            best = cost;
            return;
        }
        for (std::size_t b = 0; b < free.size(); ++b) {
            if (!items[i].fits_in(free[b])) continue;
            free[b] -= items[i];
            run(i + 1, cost);
            free[b] += items[i];
        }
        for (std::size_t t = 0; t < types.size(); ++t) {
            if (types[t].max_count != unlimited && used[t] >= types[t].max_count) continue;
            if (!items[i].fits_in(types[t].capacity)) continue;
            ++used[t];
            free.push_back(types[t].capacity - items[i]);
            run(i + 1, cost + types[t].cost);
            free.pop_back();
            --used[t];
        }
    }
};

double exhaustive_cost(const std::vector<Resources>& items, const std::vector<NodeType>& types, const std::vector<ExistingNode>& existing = {}) {
    Exhaustive search{items, types, {}, {}, std::vector<std::int64_t>(types.size(), 0)};
    for (const auto& node : existing) search.free.push_back(node.capacity - node.allocated);
    search.run(0, 0.0);
    return search.best;
}

/// The optimum for n identical pods when types[t] holds per_node[t] of them (no count limits):
/// every count of the first type, the rest on the cheapest single type that completes it.
double identical_optimum(std::int64_t n, const std::vector<std::int64_t>& per_node, const std::vector<double>& cost) {
    double best = std::numeric_limits<double>::infinity();
    for (std::int64_t x = 0; x <= (n + per_node[0] - 1) / per_node[0]; ++x) {
        const std::int64_t rest = std::max<std::int64_t>(0, n - x * per_node[0]);
        best = std::min(best, static_cast<double>(x) * cost[0] + static_cast<double>((rest + per_node[1] - 1) / per_node[1]) * cost[1]);
    }
    return best;
}
}  // namespace

TEST_CASE("identical pods over two node types: proved optimal for every n from 1 to 200 (closed form)") {
    // small holds 2 pods (cpu-bound) for 1.0, large 8 for 3.5: 25 pods = 3 large + 1 small = 11.5.
    const std::vector<NodeType> types{{"small", pod(2000, 4), 1.0, unlimited}, {"large", pod(8000, 16), 3.5, unlimited}};
    for (std::int64_t n = 1; n <= 200; ++n) {
        CAPTURE(n);
        const std::vector<Resources> items(static_cast<std::size_t>(n), pod(1000, 1));
        const auto mix = cheapest_node_mix(items, types, untimed());
        check_node_mix(mix, items, types);
        CHECK(mix.cost == doctest::Approx(identical_optimum(n, {8, 2}, {3.5, 1.0})));
        CHECK(mix.optimal);
        CHECK(mix.gap == 0.0);
    }
    const std::vector<Resources> items(25, pod(1000, 1));
    const auto mix = cheapest_node_mix(items, types, untimed());
    CHECK(mix.cost == doctest::Approx(11.5));
    CHECK(mix.count_per_type == std::vector<std::int64_t>{1, 3});
}

TEST_CASE("identical pods, memory-bound types with costs that share no unit: optimal for n in 25..41") {
    // a: 4 cpu / 16 GiB holds 2 pods of 1.5 cpu / 3 GiB for 1.0; b: 16 cpu / 32 GiB holds 10 for 3.3.
    const std::vector<NodeType> types{{"a", pod(4000, 16), 1.0, unlimited}, {"b", pod(16000, 32), 3.3, unlimited}};
    for (std::int64_t n = 25; n <= 41; ++n) {
        CAPTURE(n);
        const std::vector<Resources> items(static_cast<std::size_t>(n), pod(1500, 3));
        const auto mix = cheapest_node_mix(items, types, untimed());
        check_node_mix(mix, items, types);
        CHECK(mix.cost == doctest::Approx(identical_optimum(n, {10, 2}, {3.3, 1.0})));
        CHECK(mix.optimal);
    }
}

TEST_CASE("the default budget of a per-tick call carries the per-tick deadline") {
    const auto budget = continuum::per_tick_budget();
    REQUIRE(budget.time_limit.has_value());
    CHECK(*budget.time_limit == continuum::per_tick_deadline);
    CHECK(continuum::per_tick_deadline.count() == 10);
    CHECK(budget.node_limit == Budget{}.node_limit);
}

TEST_CASE("mixes of two to four pod shapes with multiplicities match an exhaustive reference") {
    std::mt19937_64 rng(20);
    const std::vector<Resources> shapes{pod(500, 1), pod(1000, 2), pod(1500, 1), pod(2000, 6), pod(3000, 3)};
    int proved = 0;
    for (int trial = 0; trial < 150; ++trial) {
        CAPTURE(trial);
        std::vector<NodeType> types;
        const int t = std::uniform_int_distribution<int>(1, 3)(rng);
        for (int k = 0; k < t; ++k) {
            const auto cpu = std::uniform_int_distribution<std::int64_t>(2, 8)(rng) * 1000;
            const auto mem = std::uniform_int_distribution<std::int64_t>(4, 16)(rng);
            const auto max_count = std::uniform_int_distribution<std::int64_t>(-1, 3)(rng);
            const auto cost = static_cast<double>(std::uniform_int_distribution<int>(5, 40)(rng)) / 10.0;
            types.push_back({"t" + std::to_string(k), pod(cpu, mem), cost, max_count});
        }
        std::vector<Resources> items;
        const auto kinds = std::uniform_int_distribution<std::size_t>(1, 4)(rng);
        for (std::size_t k = 0; k < kinds; ++k) {
            const auto& shape = shapes[std::uniform_int_distribution<std::size_t>(0, shapes.size() - 1)(rng)];
            const auto copies = std::uniform_int_distribution<int>(1, 3)(rng);
            for (int c = 0; c < copies && items.size() < 7; ++c) items.push_back(shape);
        }
        std::vector<ExistingNode> existing;
        if (trial % 3 == 0) existing.push_back({"e0", pod(4000, 8), pod(std::uniform_int_distribution<std::int64_t>(0, 3)(rng) * 1000, 2)});
        const auto mix = existing.empty() ? cheapest_node_mix(items, types, untimed()) : cheapest_node_mix_onto_existing(items, existing, types, untimed());
        check_node_mix(mix, items, types, existing);
        if (!mix.unplaceable.empty()) continue;  // the reference places every item
        const double reference = exhaustive_cost(items, types, existing);
        CHECK(mix.cost == doctest::Approx(reference));
        CHECK(mix.optimal);
        ++proved;
    }
    CHECK(proved > 100);
}

TEST_CASE("identical pods onto existing nodes: their room first, then the cheapest new nodes (hand-computed)") {
    // Two existing nodes with room for 3 and 1 pods; 20 pods of 1 cpu: 16 remain, 2 large nodes = 7.0.
    const std::vector<ExistingNode> existing{{"e0", pod(4000, 8), pod(1000, 1)}, {"e1", pod(4000, 8), pod(3000, 1)}};
    const std::vector<NodeType> types{{"small", pod(2000, 4), 1.0, unlimited}, {"large", pod(8000, 16), 3.5, unlimited}};
    const std::vector<Resources> items(20, pod(1000, 1));
    const auto mix = cheapest_node_mix_onto_existing(items, existing, types, untimed());
    check_node_mix(mix, items, types, existing);
    CHECK(mix.existing_items[0].size() == 3);
    CHECK(mix.existing_items[1].size() == 1);
    CHECK(mix.cost == doctest::Approx(7.0));
    CHECK(mix.count_per_type == std::vector<std::int64_t>{0, 2});
    CHECK(mix.optimal);
}

TEST_CASE("count limits with identical pods: the limited cheap type is used up first (hand-computed)") {
    // large (8 pods for 3.5) limited to 2 nodes: 30 pods = 2 large (16) + 7 small (14) = 14.0.
    const std::vector<NodeType> types{{"small", pod(2000, 4), 1.0, unlimited}, {"large", pod(8000, 16), 3.5, 2}};
    const std::vector<Resources> items(30, pod(1000, 1));
    const auto mix = cheapest_node_mix(items, types, untimed());
    check_node_mix(mix, items, types);
    CHECK(mix.cost == doctest::Approx(14.0));
    CHECK(mix.count_per_type == std::vector<std::int64_t>{7, 2});
    CHECK(mix.optimal);
}

TEST_CASE("property: up to 200 pods of two to five shapes over node-type sets, valid answers and bounds, also when the budget runs out") {
    std::mt19937_64 rng(21);
    for (int trial = 0; trial < 40; ++trial) {
        CAPTURE(trial);
        std::vector<NodeType> types;
        const int t = std::uniform_int_distribution<int>(2, 5)(rng);
        for (int k = 0; k < t; ++k) {
            const auto cpu = std::uniform_int_distribution<std::int64_t>(2, 32)(rng) * 1000;
            const auto mem = std::uniform_int_distribution<std::int64_t>(4, 128)(rng);
            types.push_back({"t" + std::to_string(k), pod(cpu, mem), static_cast<double>(cpu) / 1000.0 * 0.03 + static_cast<double>(mem) * 0.004, unlimited});
        }
        std::vector<Resources> items;
        const auto kinds = std::uniform_int_distribution<int>(2, 5)(rng);
        const auto n = std::uniform_int_distribution<std::size_t>(1, 200)(rng);
        std::vector<Resources> shapes;
        for (int k = 0; k < kinds; ++k) {
            const auto cpu = std::uniform_int_distribution<std::int64_t>(100, 4000)(rng);
            const auto mem = std::uniform_int_distribution<std::int64_t>(1, 8)(rng);
            shapes.push_back(pod(cpu, mem));
        }
        for (std::size_t i = 0; i < n; ++i) items.push_back(shapes[std::uniform_int_distribution<std::size_t>(0, shapes.size() - 1)(rng)]);
        const auto full = cheapest_node_mix(items, types, Budget{200'000, std::nullopt});
        check_node_mix(full, items, types);
        const auto starved = cheapest_node_mix(items, types, Budget{50, std::nullopt});
        check_node_mix(starved, items, types);
        CHECK(full.cost <= starved.cost + 1e-9);
        CHECK(starved.lower_bound <= full.cost + 1e-9);
        CHECK(full.lower_bound <= starved.cost + 1e-9);
    }
}

TEST_CASE("many distinct shapes on large nodes: a valid packing within one node of the cpu bound") {
    // 14 shapes x 6 replicas on 64-cpu nodes: many maximal patterns (the class search may have to
    // generate columns instead of listing them); every pod placed once, a valid bound.
    const std::vector<NodeType> types{{"big", pod(64000, 256), 10.0, unlimited}, {"half", pod(32000, 128), 5.5, unlimited}};
    std::vector<Resources> items;
    for (std::int64_t s = 0; s < 14; ++s) {
        for (int r = 0; r < 6; ++r) items.push_back(pod(700 + 310 * s, 1 + (s * 7) % 13));
    }
    const auto mix = cheapest_node_mix(items, types, Budget{2'000'000, std::nullopt});
    check_node_mix(mix, items, types);
    // cpu: 6 x sum(700 + 310 s) = 6 x 38,010 = 228,060 millicores; 10 per 64 cpu => bound >= 35.63
    CHECK(mix.lower_bound >= 228060.0 / 64000.0 * 10.0 - 1e-9);
    CHECK(mix.cost <= 40.0);  // 4 big nodes hold 256 cpu: the packing is within one node of the cpu bound
}

TEST_CASE("integer node counts: the cheapest counts that meet every cover inequality (hand-computed)") {
    using continuum::packing::detail::CoverInequality;
    using continuum::packing::detail::TypeCountBound;
    // 21 cpu and 30 GiB over small (2 cpu / 4 GiB, 1.0) and large (8 / 16, 3.5): the LP pays
    // 21/8 x 3.5 = 9.19; integer counts: 3 large = 10.5, 2 large + 3 small = 10.0 (22 cpu, 44 GiB),
    // 1 large + 7 small = 10.5, so 10.0.
    const std::vector<double> cost{1.0, 3.5};
    const std::vector<std::int64_t> upper{unlimited, unlimited};
    const std::vector<CoverInequality> cuts{{{2.0, 8.0}, 21.0}, {{4.0, 16.0}, 30.0}};
    bool complete = false;
    TypeCountBound<> search(cost, upper, cuts, 0.5, 10'000, 100);
    CHECK(search.run(100.0, complete) == doctest::Approx(10.0));
    CHECK(complete);
    CHECK(search.best_counts() == std::vector<std::int64_t>{3, 2});
    // Nothing below the incumbent: the incumbent comes back (it is then proved optimal).
    TypeCountBound<> at_incumbent(cost, upper, cuts, 0.5, 10'000, 100);
    CHECK(at_incumbent.run(10.0, complete) == doctest::Approx(10.0));
    CHECK(complete);
    CHECK(at_incumbent.best_counts().empty());
    // At most one large node: 1 large + 7 small = 10.5.
    const std::vector<std::int64_t> one_large{unlimited, 1};
    TypeCountBound<> limited(cost, one_large, cuts, 0.5, 10'000, 100);
    CHECK(limited.run(100.0, complete) == doctest::Approx(10.5));
    CHECK(limited.best_counts() == std::vector<std::int64_t>{7, 1});
    // A node limit of 1 stops the search: not complete, so not a bound.
    TypeCountBound<> starved(cost, upper, cuts, 0.5, 1, 100);
    starved.run(100.0, complete);
    CHECK_FALSE(complete);
}

TEST_CASE("integer node counts: k nodes that one node of an unlimited type replaces at no more cost are capped at k - 1") {
    using continuum::packing::detail::CoverInequality;
    using continuum::packing::detail::TypeCountBound;
    // 21 cpu over small (2 cpu, 1.0) and double (4 cpu, 2.0): 11.0 either way (11 small, 5 double +
    // 1 small, ...); two small nodes are worth one double, so the cheapest counts have one small.
    const std::vector<double> cost{1.0, 2.0};
    const std::vector<std::int64_t> upper{unlimited, unlimited};
    const std::vector<CoverInequality> cuts{{{2.0, 4.0}, 21.0}};
    bool complete = false;
    TypeCountBound<> search(cost, upper, cuts, 1.0, 10'000, 100);
    CHECK(search.run(100.0, complete) == doctest::Approx(11.0));
    CHECK(complete);
    CHECK(search.best_counts() == std::vector<std::int64_t>{1, 5});
    // A free node of count 1 (an existing node with 4 cpu free) is always taken: 17 cpu left, 9 small.
    const std::vector<double> with_free{1.0, 0.0};
    const std::vector<std::int64_t> one_free{unlimited, 1};
    TypeCountBound<> free_node(with_free, one_free, cuts, 1.0, 10'000, 100);
    CHECK(free_node.run(100.0, complete) == doctest::Approx(9.0));
    CHECK(free_node.best_counts() == std::vector<std::int64_t>{9, 1});
    // A limited double (at most 2) replaces nothing, so small is not capped: 11 small come first.
    const std::vector<std::int64_t> two_doubles{unlimited, 2};
    TypeCountBound<> limited(cost, two_doubles, cuts, 1.0, 10'000, 100);
    CHECK(limited.run(100.0, complete) == doctest::Approx(11.0));
    CHECK(limited.best_counts() == std::vector<std::int64_t>{11, 0});
}

namespace {
/// A call of bench_node_mix's sweep and its optimum by the pattern ILP (HiGHS), printed by
/// `benchmarks/node_mix_highs_peer.py calls.jsonl --fixtures ...` from the calls the bench dumps
/// (CONTINUUM_NODE_MIX_DUMP); these were the slowest or unproved ones before the type-count bound.
struct SweepFixture {
    struct Type {
        std::int64_t cpu, memory, pods;
        double cost;
        std::int64_t max_count;
    };
    struct Shape {
        std::int64_t cpu, memory, pods, count;
    };
    std::vector<Type> types;
    std::vector<Shape> shapes;
    double optimum;
};

// clang-format off
const std::vector<SweepFixture> sweep_fixtures{
    {{{2000, 4294967296, 110, 1, -1}, {8000, 17179869184, 110, 3.5, -1}}, {{250, 5637144576, 1, 58}, {3500, 5100273664, 1, 76}, {250, 4026531840, 1, 66}}, 208.5},  // call 754
    {{{2000, 8589934592, 110, 0.096, -1}, {4000, 17179869184, 110, 0.192, -1}, {8000, 34359738368, 110, 0.384, -1}, {8000, 17179869184, 110, 0.34, -1}, {4000, 34359738368, 110, 0.252, -1}}, {{2000, 6442450944, 1, 66}, {1000, 6442450944, 1, 61}, {1500, 1073741824, 1, 73}}, 13.756},  // call 789
    {{{2000, 8589934592, 110, 0.096, -1}, {4000, 17179869184, 110, 0.192, -1}, {8000, 34359738368, 110, 0.384, -1}, {8000, 17179869184, 110, 0.34, -1}, {4000, 34359738368, 110, 0.252, -1}}, {{250, 5637144576, 1, 58}, {3500, 5100273664, 1, 76}, {250, 4026531840, 1, 66}}, 14.196},  // call 794
    {{{2000, 4294967296, 110, 1, -1}, {8000, 17179869184, 110, 3.5, -1}}, {{750, 4026531840, 1, 48}, {750, 4563402752, 1, 48}, {2750, 2147483648, 1, 41}, {3500, 536870912, 1, 63}}, 185.0},  // call 859
    {{{2000, 4294967296, 110, 1, -1}, {8000, 17179869184, 110, 3.5, -1}}, {{1500, 6442450944, 1, 17}, {1000, 4294967296, 1, 33}, {4000, 1073741824, 1, 28}, {3750, 1610612736, 1, 22}}, 118.5},  // call 863
    {{{2000, 8589934592, 110, 0.096, -1}, {4000, 17179869184, 110, 0.192, -1}, {8000, 34359738368, 110, 0.384, -1}, {8000, 17179869184, 110, 0.34, -1}, {4000, 34359738368, 110, 0.252, -1}}, {{1500, 6442450944, 1, 17}, {1000, 4294967296, 1, 33}, {4000, 1073741824, 1, 28}, {3750, 1610612736, 1, 22}}, 11.336000000000002},  // call 903
    {{{2000, 8589934592, 110, 0.096, -1}, {4000, 17179869184, 110, 0.192, -1}, {8000, 34359738368, 110, 0.384, -1}, {8000, 17179869184, 110, 0.34, -1}, {4000, 34359738368, 110, 0.252, -1}}, {{4000, 1073741824, 1, 52}, {1500, 6442450944, 1, 58}, {1000, 4294967296, 1, 43}, {3750, 1610612736, 1, 47}}, 23.092},  // call 904
    {{{2000, 8589934592, 110, 0.096, -1}, {4000, 17179869184, 110, 0.192, -1}, {8000, 34359738368, 110, 0.384, -1}, {8000, 17179869184, 110, 0.34, -1}, {4000, 34359738368, 110, 0.252, -1}}, {{1000, 5100273664, 1, 25}, {250, 1610612736, 1, 30}, {1000, 5905580032, 1, 18}, {250, 2952790016, 1, 27}}, 3.527999999999999},  // call 913
    {{{2000, 8589934592, 110, 0.096, -1}, {4000, 17179869184, 110, 0.192, -1}, {8000, 34359738368, 110, 0.384, -1}, {8000, 17179869184, 110, 0.34, -1}, {4000, 34359738368, 110, 0.252, -1}}, {{250, 2952790016, 1, 49}, {250, 1610612736, 1, 52}, {1000, 5100273664, 1, 54}, {1000, 5905580032, 1, 45}}, 7.620000000000948},  // call 914
    {{{2000, 4294967296, 110, 1, -1}, {8000, 17179869184, 110, 3.5, -1}}, {{3250, 1610612736, 1, 15}, {2750, 268435456, 1, 23}, {500, 805306368, 1, 28}, {1000, 4563402752, 1, 19}, {750, 4563402752, 1, 15}}, 69.5},  // call 963
    {{{2000, 4294967296, 110, 1, -1}, {8000, 17179869184, 110, 3.5, -1}}, {{500, 3758096384, 1, 31}, {1250, 4294967296, 1, 37}, {3250, 3489660928, 1, 45}, {500, 5905580032, 1, 44}, {250, 5100273664, 1, 43}}, 188.5},  // call 979
    {{{2000, 8589934592, 110, 0.096, -1}, {4000, 17179869184, 110, 0.192, -1}, {8000, 34359738368, 110, 0.384, -1}, {8000, 17179869184, 110, 0.34, -1}, {4000, 34359738368, 110, 0.252, -1}}, {{3250, 1610612736, 1, 42}, {750, 4563402752, 1, 46}, {2750, 268435456, 1, 33}, {500, 805306368, 1, 31}, {1000, 4563402752, 1, 48}}, 13.887999999999948},  // call 1004
    {{{2000, 8589934592, 110, 0.096, -1}, {4000, 17179869184, 110, 0.192, -1}, {8000, 34359738368, 110, 0.384, -1}, {8000, 17179869184, 110, 0.34, -1}, {4000, 34359738368, 110, 0.252, -1}}, {{3250, 3489660928, 1, 8}, {500, 5905580032, 1, 15}, {500, 3758096384, 1, 6}, {250, 5100273664, 1, 8}, {1250, 4294967296, 1, 13}}, 2.719999999999999},  // call 1017
    {{{2000, 8589934592, 110, 0.096, -1}, {4000, 17179869184, 110, 0.192, -1}, {8000, 34359738368, 110, 0.384, -1}, {8000, 17179869184, 110, 0.34, -1}, {4000, 34359738368, 110, 0.252, -1}}, {{1000, 4831838208, 1, 37}, {2250, 536870912, 1, 37}, {750, 4294967296, 1, 48}, {500, 4294967296, 1, 49}, {3750, 4831838208, 1, 29}}, 12.951999999999993},  // call 1039
    {{{4000, 17179869184, 110, 0.2, -1}, {8000, 34359738368, 110, 0.4, -1}, {16000, 68719476736, 110, 0.8, -1}}, {{250, 5100273664, 1, 29}, {3250, 3489660928, 1, 16}, {500, 3758096384, 1, 20}, {500, 5905580032, 1, 18}, {1250, 4294967296, 1, 17}}, 5.400000000000026},  // call 1058
    {{{4000, 17179869184, 110, 0.2, -1}, {8000, 34359738368, 110, 0.4, -1}, {16000, 68719476736, 110, 0.8, -1}}, {{500, 3758096384, 1, 31}, {1250, 4294967296, 1, 37}, {3250, 3489660928, 1, 45}, {500, 5905580032, 1, 44}, {250, 5100273664, 1, 43}}, 12.200000000000003},  // call 1059
};
// clang-format on
}  // namespace

TEST_CASE("sweep calls of 3 to 5 pod shapes: the pattern ILP's optimum (HiGHS), proved, and an honest bound when starved") {
    for (std::size_t f = 0; f < sweep_fixtures.size(); ++f) {
        CAPTURE(f);
        const auto& fixture = sweep_fixtures[f];
        std::vector<NodeType> types;
        for (const auto& t : fixture.types) {
            types.push_back({"t" + std::to_string(types.size()), Resources::from_units({{"cpu", t.cpu}, {"memory", t.memory}, {"pods", t.pods}}), t.cost, t.max_count});
        }
        std::vector<Resources> items;
        for (const auto& s : fixture.shapes) {
            for (std::int64_t c = 0; c < s.count; ++c) items.push_back(Resources::from_units({{"cpu", s.cpu}, {"memory", s.memory}, {"pods", s.pods}}));
        }
        const auto mix = cheapest_node_mix(items, types, Budget{5'000'000, std::nullopt});
        check_node_mix(mix, items, types);
        CHECK(mix.cost == doctest::Approx(fixture.optimum).epsilon(1e-9));
        CHECK(mix.optimal);
        const auto starved = cheapest_node_mix(items, types, Budget{50, std::nullopt});
        check_node_mix(starved, items, types);
        CHECK(starved.lower_bound <= fixture.optimum + 1e-9);
        CHECK(starved.cost >= fixture.optimum - 1e-9);
    }
}
