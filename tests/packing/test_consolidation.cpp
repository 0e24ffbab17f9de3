#include <continuum/packing/consolidation.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace continuum::packing;
using continuum::Resources;

namespace {
Resources units(std::int64_t cpu) { return Resources::from_units({{"cpu", cpu * 1000}}); }
}  // namespace

TEST_CASE("seed 001: 3 and 4 units on two nodes of capacity 10 consolidate onto one node") {
    const std::vector<NodeState> nodes{{"node-a", units(10), 1.0, {{"web-1", units(3), true}}},
                                       {"node-b", units(10), 1.0, {{"web-2", units(4), true}}}};
    const auto plan = plan_consolidation(nodes);
    CHECK(plan.nodes_to_release == std::vector<std::string>{"node-a"});
    REQUIRE(plan.moves.size() == 1);
    CHECK(plan.moves[0].pod == "web-1");
    CHECK(plan.moves[0].from == "node-a");
    CHECK(plan.moves[0].to == "node-b");
    CHECK(plan.saved_cost == 1.0);
    CHECK(plan.reason == "release 1 of 2 nodes (node-a) by moving 1 pod; saves 1 per unit of time (proved maximal)");
}

TEST_CASE("unmovable pods pin their node, overfull nodes release nothing") {
    const std::vector<NodeState> pinned{{"node-a", units(10), 1.0, {{"db", units(3), false}}},
                                        {"node-b", units(10), 1.0, {{"web", units(4), true}}}};
    const auto plan = plan_consolidation(pinned);
    CHECK(plan.nodes_to_release == std::vector<std::string>{"node-b"});
    CHECK(plan.moves.size() == 1);
    const std::vector<NodeState> full{{"a", units(10), 1.0, {{"p", units(7), true}}}, {"b", units(10), 1.0, {{"q", units(6), true}}}};
    const auto none = plan_consolidation(full);
    CHECK(none.nodes_to_release.empty());
    CHECK(none.moves.empty());
    CHECK(none.saved_cost == 0.0);
}

TEST_CASE("consolidation prefers the expensive node and finds the exact best set") {
    // c is expensive and small; its pods fit on a and b together only if split.
    const std::vector<NodeState> nodes{{"a", units(10), 1.0, {{"a1", units(6), true}}},
                                       {"b", units(10), 1.0, {{"b1", units(6), true}}},
                                       {"c", units(10), 5.0, {{"c1", units(4), true}, {"c2", units(4), true}}}};
    const auto plan = plan_consolidation(nodes);
    CHECK(plan.nodes_to_release == std::vector<std::string>{"c"});
    CHECK(plan.saved_cost == 5.0);
    CHECK(plan.moves.size() == 2);
}

TEST_CASE("consolidation bad input") {
    const std::vector<NodeState> dup{{"a", units(1), 0.0, {}}, {"a", units(1), 0.0, {}}};
    CHECK_THROWS_AS(plan_consolidation(dup), continuum::InvalidArgument);
    const std::vector<NodeState> negative{{"a", units(1), -1.0, {}}};
    CHECK_THROWS_AS(plan_consolidation(negative), continuum::InvalidArgument);
    const auto empty = plan_consolidation(std::vector<NodeState>{});
    CHECK(empty.nodes_to_release.empty());
}
