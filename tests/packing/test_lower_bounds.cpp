#include <continuum/packing/lower_bounds.hpp>
#include <continuum/packing/one_dimensional.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

using namespace continuum::packing;
using continuum::Resources;

TEST_CASE("L1 and L2 on hand-computed instances") {
    // L2 > L1: three items above c/2 need three bins.
    CHECK(l1_bound(std::vector<std::int64_t>{6, 6, 6}, 10) == 2);
    CHECK(l2_bound(std::vector<std::int64_t>{6, 6, 6}, 10) == 3);
    // α = 45 makes the 60s J1 and the 45s J3: 2 + ceil(135/100) = 4 (L1 = 3, optimum 4).
    const std::vector<std::int64_t> sizes{60, 60, 45, 45, 45};
    CHECK(l1_bound(sizes, 100) == 3);
    CHECK(l2_bound(sizes, 100) == 4);
    CHECK(l2_bound(std::vector<std::int64_t>{51, 51, 51, 30, 30, 30, 30}, 100) == 3);
    CHECK(l2_bound(std::vector<std::int64_t>{}, 100) == 0);
    // items above the capacity are ignored
    CHECK(l2_bound(std::vector<std::int64_t>{150, 20}, 100) == 1);
    CHECK_THROWS_AS(l2_bound(std::vector<std::int64_t>{0}, 100), continuum::InvalidArgument);
}

TEST_CASE("vector lower bound is the max over dimensions") {
    const std::vector<Resources> items{Resources{{"cpu", "3"}, {"memory", "1Gi"}}, Resources{{"cpu", "3"}, {"memory", "1Gi"}},
                                       Resources{{"cpu", "500m"}, {"memory", "7Gi"}}};
    const Resources capacity{{"cpu", "4"}, {"memory", "8Gi"}};
    // cpu: 3, 3, 0.5 of 4 -> two items above half -> 2; memory 9Gi of 8Gi -> 2.
    CHECK(lower_bound(items, capacity) == 2);
}

TEST_CASE("property: L1 <= L2 <= FFD on random instances") {
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 300; ++trial) {
        const std::int64_t capacity = std::uniform_int_distribution<std::int64_t>(1, 1000)(rng);
        std::vector<std::int64_t> sizes(std::uniform_int_distribution<std::size_t>(0, 80)(rng));
        for (auto& s : sizes) s = std::uniform_int_distribution<std::int64_t>(1, capacity)(rng);
        const auto l1 = l1_bound(sizes, capacity);
        const auto l2 = l2_bound(sizes, capacity);
        REQUIRE(l1 <= l2);
        REQUIRE(l2 <= static_cast<std::int64_t>(first_fit_decreasing(sizes, capacity).num_bins()));
    }
}
