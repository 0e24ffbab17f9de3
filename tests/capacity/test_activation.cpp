// Tests for capacity/activation.hpp and capacity/waiting_pool.hpp: hand-computed choices for each
// objective, an uncoverable shortfall, bad pools, and a seeded property test against exhaustive
// enumeration (the branch and bound must find the same optimum).
#include <continuum/capacity/activation.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using namespace continuum;
using namespace std::chrono_literals;
using capacity::ActivationObjective;
using capacity::choose_nodes_to_activate;
using capacity::WaitingNode;

namespace {

WaitingNode node(std::string name, std::string_view cpu, std::string_view memory, double cost, Duration latency) {
    return WaitingNode{std::move(name), Resources{{"cpu", cpu}, {"memory", memory}}, latency, cost};
}

std::vector<WaitingNode> small_pool() {
    return {
        node("small-a", "4", "16Gi", 1.0, 10s),
        node("small-b", "4", "16Gi", 1.0, 10s),
        node("big", "8", "32Gi", 2.5, 40s),
    };
}

}  // namespace

TEST_CASE("an empty shortfall activates nothing") {
    const auto pool = small_pool();
    const auto plan = choose_nodes_to_activate(Resources{}, pool);
    CHECK(plan.nodes.empty());
    CHECK(plan.covers());
    CHECK(plan.optimal);
    CHECK(plan.cost == 0.0);
}

TEST_CASE("each objective picks its own best cover of 8 CPUs") {
    const auto pool = small_pool();
    const Resources need{{"cpu", "8"}};
    SUBCASE("fewest nodes: the big one") {
        const auto plan = choose_nodes_to_activate(need, pool, ActivationObjective::fewest_nodes);
        CHECK(plan.names == std::vector<std::string>{"big"});
        CHECK(plan.nodes == std::vector<std::size_t>{2});
        CHECK(plan.cost == 2.5);
        CHECK(plan.resume_latency == 40s);
        CHECK(plan.optimal);
        CHECK(plan.covers());
        CHECK(plan.activated_capacity == Resources{{"cpu", "8"}, {"memory", "32Gi"}});
    }
    SUBCASE("cheapest: the two small ones (2.0 < 2.5)") {
        const auto plan = choose_nodes_to_activate(need, pool, ActivationObjective::cheapest);
        CHECK(plan.names == std::vector<std::string>{"small-a", "small-b"});
        CHECK(plan.cost == 2.0);
        CHECK(plan.optimal);
    }
    SUBCASE("fastest: the two small ones resume in 10 s") {
        const auto plan = choose_nodes_to_activate(need, pool, ActivationObjective::fastest);
        CHECK(plan.names == std::vector<std::string>{"small-a", "small-b"});
        CHECK(plan.resume_latency == 10s);
        CHECK(plan.optimal);
    }
    SUBCASE("4 CPUs: one small node whatever the objective") {
        for (auto objective : {ActivationObjective::fewest_nodes, ActivationObjective::cheapest, ActivationObjective::fastest}) {
            const auto plan = choose_nodes_to_activate(Resources{{"cpu", "4"}}, pool, objective);
            CHECK(plan.names == std::vector<std::string>{"small-a"});
        }
    }
}

TEST_CASE("ties on the first criterion are broken by the next ones") {
    // Two single nodes cover; fewest_nodes prefers the cheaper, then the faster.
    const std::vector<WaitingNode> pool = {
        node("pricey", "8", "8Gi", 3.0, 5s),
        node("cheap-slow", "8", "8Gi", 2.0, 50s),
        node("cheap-fast", "8", "8Gi", 2.0, 20s),
    };
    const auto plan = choose_nodes_to_activate(Resources{{"cpu", "6"}}, pool, ActivationObjective::fewest_nodes);
    CHECK(plan.names == std::vector<std::string>{"cheap-fast"});
    const auto fastest = choose_nodes_to_activate(Resources{{"cpu", "6"}}, pool, ActivationObjective::fastest);
    CHECK(fastest.names == std::vector<std::string>{"pricey"});
}

TEST_CASE("multi-resource cover: memory forces a second node") {
    const std::vector<WaitingNode> pool = {
        node("cpu-heavy", "16", "8Gi", 2.0, 10s),
        node("mem-heavy", "2", "64Gi", 2.0, 10s),
        node("balanced", "8", "32Gi", 2.0, 10s),
    };
    const auto plan = choose_nodes_to_activate(Resources{{"cpu", "10"}, {"memory", "40Gi"}}, pool, ActivationObjective::fewest_nodes);
    CHECK(plan.count() == 2);
    CHECK(plan.covers());
    CHECK(Resources({{"cpu", "10"}, {"memory", "40Gi"}}).fits_in(plan.activated_capacity));
    // cpu-heavy + mem-heavy (18 cpu, 72Gi) and balanced + either cover too: all cost 4; the
    // deterministic answer is the lowest-indexed optimal set found first, and it must cover.
}

TEST_CASE("a pool that cannot cover reports what is still missing") {
    const auto pool = small_pool();  // 16 CPUs in total
    const auto plan = choose_nodes_to_activate(Resources{{"cpu", "20"}}, pool);
    CHECK_FALSE(plan.covers());
    CHECK(plan.still_missing == Resources{{"cpu", "4"}});
    CHECK(plan.nodes == std::vector<std::size_t>{0, 1, 2});
    CHECK(plan.reason.find("still leaves {cpu: 4} missing") != std::string::npos);

    // A resource nobody has: everything else is still activated, the GPU is reported missing.
    const auto gpu = choose_nodes_to_activate(Resources{{"cpu", "2"}, {"nvidia.com/gpu", "1"}}, pool);
    CHECK_FALSE(gpu.covers());
    CHECK(gpu.still_missing == Resources{{"nvidia.com/gpu", "1"}});
}

TEST_CASE("nodes that bring nothing the shortfall needs are never chosen") {
    std::vector<WaitingNode> pool = small_pool();
    pool.push_back(WaitingNode{"gpu-only", Resources{{"nvidia.com/gpu", "4"}}, 1s, 0.0});
    const auto plan = choose_nodes_to_activate(Resources{{"cpu", "3"}}, pool, ActivationObjective::cheapest);
    CHECK(plan.names == std::vector<std::string>{"small-a"});
}

TEST_CASE("bad pools and shortfalls are rejected, naming the node") {
    const Resources need{{"cpu", "1"}};
    std::vector<WaitingNode> pool = small_pool();
    pool[1].name = "small-a";
    CHECK_THROWS_WITH_AS((void)choose_nodes_to_activate(need, pool), doctest::Contains("\"small-a\" appears twice"), InvalidArgument);
    pool = small_pool();
    pool[2].capacity = Resources{};
    CHECK_THROWS_WITH_AS((void)choose_nodes_to_activate(need, pool), doctest::Contains("\"big\" has no capacity"), InvalidArgument);
    pool = small_pool();
    pool[0].cost = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH_AS((void)choose_nodes_to_activate(need, pool), doctest::Contains("cost"), InvalidArgument);
    pool = small_pool();
    pool[0].resume_latency = Duration(-1);
    CHECK_THROWS_WITH_AS((void)choose_nodes_to_activate(need, pool), doctest::Contains("resume_latency"), InvalidArgument);
    pool = small_pool();
    pool[0].capacity = Resources::from_units({{"cpu", -1}});
    CHECK_THROWS_AS((void)choose_nodes_to_activate(need, pool), InvalidArgument);
    pool = small_pool();
    pool[0].name.clear();
    CHECK_THROWS_AS((void)choose_nodes_to_activate(need, pool), InvalidArgument);
    CHECK_THROWS_AS((void)choose_nodes_to_activate(Resources::from_units({{"cpu", -1}}), small_pool()), InvalidArgument);
    CHECK_THROWS_AS((void)choose_nodes_to_activate(need, small_pool(), ActivationObjective::cheapest, Budget{0, {}}), InvalidArgument);
}

TEST_CASE("many identical nodes are merged: 40 identical nodes, exact and instant") {
    std::vector<WaitingNode> pool;
    for (int i = 0; i < 40; ++i) pool.push_back(node(fmt::format("n{:02}", i), "4", "16Gi", 1.0, 30s));
    const auto plan = choose_nodes_to_activate(Resources{{"cpu", "37"}, {"memory", "100Gi"}}, pool, ActivationObjective::cheapest);
    CHECK(plan.count() == 10);  // cpu: ceil(37/4) = 10; memory: ceil(100/16) = 7
    CHECK(plan.optimal);
    CHECK(plan.names.front() == "n00");
    CHECK(plan.names.back() == "n09");
}

TEST_CASE("beyond the exact limit the greedy covers and says so") {
    std::vector<WaitingNode> pool;
    for (int i = 0; i < 120; ++i) {
        pool.push_back(WaitingNode{fmt::format("n{:03}", i), Resources::from_units({{"cpu", 1000 + 37 * i}, {"memory", (1LL << 30) * (1 + i % 7)}}),
                                   Duration(1000 * (i % 13)), 1.0 + 0.01 * i});
    }
    const Resources need = Resources::from_units({{"cpu", 50'000}, {"memory", 40LL << 30}});
    for (auto objective : {ActivationObjective::fewest_nodes, ActivationObjective::cheapest, ActivationObjective::fastest}) {
        const auto plan = choose_nodes_to_activate(need, pool, objective);
        CHECK(plan.covers());
        CHECK(need.fits_in(plan.activated_capacity));
        CHECK(std::is_sorted(plan.nodes.begin(), plan.nodes.end()));
        if (!plan.optimal) CHECK(plan.reason.find("greedy") != std::string::npos);
    }
}

TEST_CASE("property: the search matches exhaustive enumeration on random pools") {
    std::mt19937_64 rng(20240501);
    std::uniform_int_distribution<int> size_dist(1, 9);
    std::uniform_int_distribution<std::int64_t> cpu_dist(1, 8);
    std::uniform_int_distribution<std::int64_t> mem_dist(0, 6);
    std::uniform_int_distribution<int> cost_dist(0, 5);
    std::uniform_int_distribution<int> latency_dist(0, 4);
    for (int trial = 0; trial < 300; ++trial) {
        const int n = size_dist(rng);
        std::vector<WaitingNode> pool;
        for (int i = 0; i < n; ++i) {
            pool.push_back(WaitingNode{fmt::format("n{}", i), Resources::from_units({{"cpu", cpu_dist(rng) * 500}, {"memory", mem_dist(rng)}}),
                                       Duration(10 * latency_dist(rng)), static_cast<double>(cost_dist(rng))});
        }
        const Resources need = Resources::from_units({{"cpu", cpu_dist(rng) * 700}, {"memory", mem_dist(rng) * 2}});
        for (auto objective : {ActivationObjective::fewest_nodes, ActivationObjective::cheapest, ActivationObjective::fastest}) {
            // Exhaustive: best (primary, secondary, tertiary) over every covering subset.
            using Score = std::tuple<double, double, double>;
            std::optional<Score> best;
            for (unsigned mask = 0; mask < (1U << n); ++mask) {
                Resources total;
                double cost = 0;
                std::int64_t latency = 0;
                int count = 0;
                for (int i = 0; i < n; ++i) {
                    if (!(mask & (1U << i))) continue;
                    total += pool[static_cast<std::size_t>(i)].capacity;
                    cost += pool[static_cast<std::size_t>(i)].cost;
                    latency = std::max<std::int64_t>(latency, pool[static_cast<std::size_t>(i)].resume_latency.count());
                    ++count;
                }
                if (!need.fits_in(total)) continue;
                Score s;
                switch (objective) {
                    case ActivationObjective::fewest_nodes: s = {count, cost, static_cast<double>(latency)}; break;
                    case ActivationObjective::cheapest: s = {cost, count, static_cast<double>(latency)}; break;
                    case ActivationObjective::fastest: s = {static_cast<double>(latency), count, cost}; break;
                }
                if (!best || s < *best) best = s;
            }
            const auto plan = choose_nodes_to_activate(need, pool, objective);
            CAPTURE(trial);
            CAPTURE(capacity::to_string(objective));
            CHECK(plan.covers() == best.has_value());
            if (!best) continue;
            CHECK(plan.optimal);
            Score got;
            const auto count = static_cast<double>(plan.count());
            const auto latency = static_cast<double>(plan.resume_latency.count());
            switch (objective) {
                case ActivationObjective::fewest_nodes: got = {count, plan.cost, latency}; break;
                case ActivationObjective::cheapest: got = {plan.cost, count, latency}; break;
                case ActivationObjective::fastest: got = {latency, count, plan.cost}; break;
            }
            CHECK(got == *best);
        }
    }
}
