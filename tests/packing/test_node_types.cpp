#include <continuum/packing/node_types.hpp>

#include "node_mix_checks.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using namespace continuum::packing;
using continuum::Resources;
using continuum::packing::testing::check_node_mix;

namespace {
Resources pod(std::int64_t cpu_millis, std::int64_t memory_gib) {
    return Resources::from_units({{"cpu", cpu_millis}, {"memory", memory_gib << 30}});
}

}  // namespace

TEST_CASE("one large node is cheaper than four small ones, proved") {
    const std::vector<NodeType> types{{"small", pod(2000, 4), 1.0, unlimited}, {"large", pod(8000, 16), 3.5, unlimited}};
    const std::vector<Resources> items(7, pod(1000, 1));
    const auto mix = cheapest_node_mix(items, types);
    check_node_mix(mix, items, types);
    CHECK(mix.cost == doctest::Approx(3.5));
    CHECK(mix.count_per_type == std::vector<std::int64_t>{0, 1});
    CHECK(mix.optimal);
    CHECK(mix.gap == 0.0);
}

TEST_CASE("max_count limits and unplaceable items are reported with a reason") {
    const std::vector<NodeType> types{{"small", pod(2000, 4), 1.0, unlimited}, {"large", pod(8000, 16), 3.5, 1}};
    std::vector<Resources> items(10, pod(1000, 1));
    items.push_back(pod(16000, 1));  // larger than every type
    const auto mix = cheapest_node_mix(items, types);
    check_node_mix(mix, items, types);
    REQUIRE(mix.unplaceable.size() == 1);
    CHECK(mix.unplaceable[0].item == 10);
    CHECK(mix.unplaceable[0].reason == "needs 16 cpu but the largest node type offers 8");
    // 10 cpu: one large (8) + one small (2) = 4.5; small only = 5 nodes = 5.0
    CHECK(mix.cost == doctest::Approx(4.5));
    CHECK(mix.optimal);
}

TEST_CASE("node mix bad input") {
    const std::vector<Resources> items{pod(1000, 1)};
    CHECK_THROWS_AS(cheapest_node_mix(items, std::vector<NodeType>{}), continuum::InvalidArgument);
    CHECK_THROWS_AS(cheapest_node_mix(items, std::vector<NodeType>{{"bad", pod(1000, 1), -1.0, unlimited}}), continuum::InvalidArgument);
    CHECK_THROWS_AS(cheapest_node_mix(items, std::vector<NodeType>{{"bad", pod(1000, 1), 1.0, -2}}), continuum::InvalidArgument);
    CHECK_THROWS_AS(cheapest_node_mix(items, std::vector<NodeType>{{"empty", Resources{}, 1.0, unlimited}}), continuum::InvalidArgument);
    const auto none = cheapest_node_mix(std::vector<Resources>{}, std::vector<NodeType>{{"n", pod(1000, 1), 1.0, unlimited}});
    CHECK(none.nodes.empty());
    CHECK(none.cost == 0.0);
    CHECK(none.optimal);
}

TEST_CASE("property: random node mixes are valid, small ones are proved optimal") {
    std::mt19937_64 rng(3);
    for (int trial = 0; trial < 60; ++trial) {
        std::vector<NodeType> types;
        const int t = std::uniform_int_distribution<int>(1, 3)(rng);
        for (int k = 0; k < t; ++k) {
            const auto cpu = std::uniform_int_distribution<std::int64_t>(2, 16)(rng) * 1000;
            const auto mem = std::uniform_int_distribution<std::int64_t>(2, 32)(rng);
            const auto max_count = std::uniform_int_distribution<std::int64_t>(-1, 4)(rng);
            types.push_back({"t" + std::to_string(k), pod(cpu, mem), static_cast<double>(cpu) / 1000.0 * 0.9 + static_cast<double>(mem) * 0.1, max_count});
        }
        std::vector<Resources> items(std::uniform_int_distribution<std::size_t>(0, 12)(rng));
        for (auto& item : items) {
            const auto cpu = std::uniform_int_distribution<std::int64_t>(100, 6000)(rng);  // sequenced: argument order is unspecified
            const auto mem = std::uniform_int_distribution<std::int64_t>(1, 10)(rng);
            item = pod(cpu, mem);
        }
        const auto mix = cheapest_node_mix(items, types);
        check_node_mix(mix, items, types);
    }
}
