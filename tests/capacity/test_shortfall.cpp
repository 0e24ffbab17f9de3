// Tests for capacity/shortfall.hpp and capacity/required_nodes.hpp: hand-computed values, the
// paper's CalculateRequiredNodes with identical nodes, and bad input.
#include <continuum/capacity/required_nodes.hpp>
#include <continuum/capacity/shortfall.hpp>

#include <doctest/doctest.h>

#include <string>

using continuum::Infeasible;
using continuum::InvalidArgument;
using continuum::Resources;
using continuum::capacity::required_nodes;
using continuum::capacity::shortfall;

TEST_CASE("shortfall keeps the positive part of required - available, per resource") {
    CHECK(shortfall(Resources{{"cpu", "7"}, {"memory", "2Gi"}}, Resources{{"cpu", "5"}, {"memory", "4Gi"}}) == Resources{{"cpu", "2"}});
    CHECK(shortfall(Resources{{"cpu", "250m"}}, Resources{}) == Resources{{"cpu", "250m"}});
    CHECK(shortfall(Resources{{"cpu", "1"}}, Resources{{"cpu", "1"}}).empty());
    CHECK(shortfall(Resources{}, Resources{{"cpu", "3"}}).empty());
    // Exact to the millicore and the byte.
    CHECK(shortfall(Resources{{"cpu", "2001m"}, {"memory", "1Gi"}}, Resources{{"cpu", "2"}, {"memory", "1073741823"}}) ==
          Resources::from_units({{"cpu", 1}, {"memory", 1}}));
    // The paper's Algorithm 1 example: prediction 110 CPUs against 100 in the cluster.
    CHECK(shortfall(Resources{{"cpu", "110"}}, Resources{{"cpu", "100"}}).cpu_millis() == 10'000);
}

TEST_CASE("shortfall rejects negative amounts, naming the argument") {
    const auto negative = Resources::from_units({{"cpu", -5}});
    CHECK_THROWS_WITH_AS((void)shortfall(negative, Resources{}), doctest::Contains("required"), InvalidArgument);
    CHECK_THROWS_WITH_AS((void)shortfall(Resources{}, negative), doctest::Contains("available"), InvalidArgument);
}

TEST_CASE("required_nodes is the max over resources of the per-resource ceiling") {
    const Resources node{{"cpu", "4"}, {"memory", "16Gi"}};
    CHECK(required_nodes(Resources{{"cpu", "7"}, {"memory", "20Gi"}}, node) == 2);
    CHECK(required_nodes(Resources{{"cpu", "8"}}, node) == 2);
    CHECK(required_nodes(Resources{{"cpu", "8001m"}}, node) == 3);
    CHECK(required_nodes(Resources{{"cpu", "1"}, {"memory", "33Gi"}}, node) == 3);  // memory dominates
    CHECK(required_nodes(Resources{{"cpu", "1m"}}, node) == 1);
    CHECK(required_nodes(Resources{}, node) == 0);
    CHECK(required_nodes(Resources{}, Resources{}) == 0);
    // Seed 001's example: 3 + 4 units on nodes of capacity 10 need one node.
    CHECK(required_nodes(Resources{{"cpu", "7"}}, Resources{{"cpu", "10"}}) == 1);
}

TEST_CASE("required_nodes: a needed resource the node lacks is Infeasible, naming it") {
    const Resources node{{"cpu", "4"}, {"memory", "16Gi"}};
    CHECK_THROWS_WITH_AS((void)required_nodes(Resources{{"nvidia.com/gpu", "1"}}, node), doctest::Contains("nvidia.com/gpu"), Infeasible);
    CHECK_THROWS_AS((void)required_nodes(Resources{{"cpu", "1"}}, Resources{}), InvalidArgument);
    CHECK_THROWS_WITH_AS((void)required_nodes(Resources{{"cpu", "1"}}, Resources::from_units({{"cpu", -4000}})), doctest::Contains("node_capacity"),
                         InvalidArgument);
    CHECK_THROWS_AS((void)required_nodes(Resources::from_units({{"cpu", -1}}), node), InvalidArgument);
}
