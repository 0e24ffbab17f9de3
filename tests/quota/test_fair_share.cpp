// Tests for quota/fair_share.hpp: priority first, then proportional to demand, exact integer
// shares that add up to the capacity; floors; a seeded property test of the invariants.
#include <continuum/quota/fair_share.hpp>

#include <doctest/doctest.h>

#include <numeric>
#include <random>

using namespace continuum;
using quota::fair_quotas;
using quota::QuotaClaim;
using quota::share_by_priority;

TEST_CASE("share_by_priority: everything fits -> everyone gets their demand") {
    const std::vector<std::int64_t> demands{10, 20, 30};
    const std::vector<int> priorities{0, 0, 0};
    CHECK(share_by_priority(100, demands, priorities) == std::vector<std::int64_t>{10, 20, 30});
}

TEST_CASE("share_by_priority: one class is cut in proportion to demand") {
    const std::vector<std::int64_t> demands{10, 30};
    const std::vector<int> priorities{0, 0};
    CHECK(share_by_priority(20, demands, priorities) == std::vector<std::int64_t>{5, 15});
    // 10 among 1:1:1 -> 4, 3, 3 (the leftover unit to the lowest index on a tie).
    const std::vector<std::int64_t> three{5, 5, 5};
    const std::vector<int> p3{0, 0, 0};
    CHECK(share_by_priority(10, three, p3) == std::vector<std::int64_t>{4, 3, 3});
    // 7 among 1:2 -> 7/3 = 2.33, 14/3 = 4.67 -> 2 + 5 (largest remainder).
    const std::vector<std::int64_t> d12{10, 20};
    CHECK(share_by_priority(7, d12, priorities) == std::vector<std::int64_t>{2, 5});
}

TEST_CASE("share_by_priority: higher priority is served first") {
    const std::vector<std::int64_t> demands{40, 50, 30};
    const std::vector<int> priorities{0, 10, 5};
    // 100: priority 10 gets 50, priority 5 gets 30, priority 0 gets the last 20.
    CHECK(share_by_priority(100, demands, priorities) == std::vector<std::int64_t>{20, 50, 30});
    // 60: priority 10 gets 50, priority 5 gets 10, priority 0 nothing.
    CHECK(share_by_priority(60, demands, priorities) == std::vector<std::int64_t>{0, 50, 10});
    CHECK_THROWS_AS((void)share_by_priority(-1, demands, priorities), InvalidArgument);
    const std::vector<std::int64_t> negative{-1, 1, 1};
    CHECK_THROWS_AS((void)share_by_priority(1, negative, priorities), InvalidArgument);
    const std::vector<int> short_priorities{0};
    CHECK_THROWS_AS((void)share_by_priority(1, demands, short_priorities), InvalidArgument);
}

TEST_CASE("fair_quotas: floors (current usage) first, then the rest by priority and demand") {
    // Cluster of 100 CPUs. A (priority 0) has quota 60, uses 30 and wants 60; B (priority 0) uses
    // 40 and wants 70. Floors 30 + 40 = 70; the remaining 30 split 30:30 of the demand beyond
    // the floors -> 15 each: A 45, B 55.
    const std::vector<std::string> constrained{"cpu"};
    std::vector<QuotaClaim> claims{
        {Resources{{"cpu", "60"}, {"memory", "8Gi"}}, Resources{{"cpu", "30"}}, 0},
        {Resources{{"cpu", "70"}}, Resources{{"cpu", "40"}}, 0},
    };
    auto granted = fair_quotas(Resources{{"cpu", "100"}}, constrained, claims);
    CHECK(granted[0] == Resources{{"cpu", "45"}, {"memory", "8Gi"}});  // memory is not constrained
    CHECK(granted[1] == Resources{{"cpu", "55"}});
    // With B more important, B gets all of its demand and A keeps its floor.
    claims[1].priority = 10;
    granted = fair_quotas(Resources{{"cpu", "100"}}, constrained, claims);
    CHECK(granted[0].cpu_millis() == 30'000);
    CHECK(granted[1].cpu_millis() == 70'000);
    // A negative capacity is named as a quantity of its resource.
    CHECK_THROWS_WITH_AS((void)fair_quotas(Resources{{"cpu", "-500m"}}, constrained, claims), "fair_quotas: capacity of \"cpu\" must be >= 0, got -500m",
                         InvalidArgument);
}

TEST_CASE("property: shares never exceed demand and add up to min(capacity, total)") {
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<std::int64_t> demand(0, 1'000'000);
    std::uniform_int_distribution<int> priority(0, 3);
    for (int trial = 0; trial < 500; ++trial) {
        const std::size_t n = 1 + static_cast<std::size_t>(trial % 17);
        std::vector<std::int64_t> demands(n);
        std::vector<int> priorities(n);
        for (std::size_t i = 0; i < n; ++i) {
            demands[i] = demand(rng);
            priorities[i] = priority(rng);
        }
        const std::int64_t total = std::accumulate(demands.begin(), demands.end(), std::int64_t{0});
        const std::int64_t capacity = demand(rng) * static_cast<std::int64_t>(n) / 2;
        const auto share = share_by_priority(capacity, demands, priorities);
        CHECK(std::accumulate(share.begin(), share.end(), std::int64_t{0}) == std::min(capacity, total));
        for (std::size_t i = 0; i < n; ++i) {
            CHECK(share[i] >= 0);
            CHECK(share[i] <= demands[i]);
            // Nobody of a lower priority gets anything while a higher one is short.
            for (std::size_t j = 0; j < n; ++j) {
                if (priorities[j] < priorities[i] && share[i] < demands[i]) CHECK(share[j] == 0);
            }
        }
    }
}
