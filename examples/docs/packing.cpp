// docs/packing.md: first-fit decreasing vs the exact solver, the cheapest mix of node types,
// packing onto running nodes first, and a consolidation plan.
#include <continuum/packing.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "check.hpp"

int main() {
    using namespace continuum;
    using namespace continuum::packing;
    using Bins = std::vector<std::vector<std::size_t>>;

    // One dimension: FFD needs 4 bins, the exact solver proves 3 optimal.
    const std::vector<std::int64_t> sizes{5, 5, 4, 4, 3, 3, 3, 3};
    const auto ffd = first_fit_decreasing(sizes, 10);
    Budget budget;
    budget.time_limit = std::chrono::milliseconds(1000);
    const auto exact = solve_exact(sizes, 10, budget);
    fmt::print("FFD {} bins {}, exact {} bins {} (lower bound {}, optimal {})\n", ffd.num_bins(), ffd.bins,
               exact.num_bins(), exact.bins, exact.lower_bound, exact.optimal);
    CHECK(ffd.num_bins() == 4 && exact.num_bins() == 3 && exact.lower_bound == 3 && exact.optimal);

    // Node types with cost: 7 pods of 1 cpu / 1Gi fit one "large" (3.5) more cheaply than 4 "small".
    const std::vector<Resources> pods(7, Resources{{"cpu", "1"}, {"memory", "1Gi"}});
    const std::vector<NodeType> types{{"small", Resources{{"cpu", "2"}, {"memory", "4Gi"}}, 1.0, unlimited},
                                      {"large", Resources{{"cpu", "8"}, {"memory", "16Gi"}}, 3.5, /*max_count=*/1}};
    const NodeMix mix = cheapest_node_mix(pods, types);
    fmt::print("node mix: {} per type (small, large), cost {}, optimal {}\n", mix.count_per_type, mix.cost, mix.optimal);
    CHECK((mix.count_per_type == std::vector<std::int64_t>{0, 1}) && mix.cost == 3.5 && mix.optimal);

    // Running nodes first: a has 1 cpu free, b has 3; new nodes have 4 cpu.
    const std::vector<ExistingNode> running{{"a", Resources{{"cpu", "4"}}, Resources{{"cpu", "3"}}},
                                            {"b", Resources{{"cpu", "4"}}, Resources{{"cpu", "1"}}}};
    const std::vector<Resources> pending{Resources{{"cpu", "2"}}, Resources{{"cpu", "1"}}, Resources{{"cpu", "3"}},
                                         Resources{{"cpu", "1"}}};
    const auto onto = first_fit_decreasing_onto_existing(pending, running, Resources{{"cpu", "4"}});
    fmt::print("onto existing {}, new nodes {}\n", onto.existing, onto.new_nodes);
    CHECK((onto.existing == Bins{{1}, {2}}) && (onto.new_nodes == Bins{{0, 3}}));  // one new node, not two

    // Consolidation: web-1 (3 cpu) moves from a to b, a is released.
    const std::vector<NodeState> nodes{{"a", Resources{{"cpu", "10"}}, 1.0, {{"web-1", Resources{{"cpu", "3"}}, true}}},
                                       {"b", Resources{{"cpu", "10"}}, 1.0, {{"web-2", Resources{{"cpu", "4"}}, true}}}};
    const ConsolidationPlan plan = plan_consolidation(nodes);
    fmt::print("consolidation: {}\n", plan.reason);
    CHECK(plan.nodes_to_release == std::vector<std::string>{"a"} && plan.saved_cost == 1.0);
    CHECK(plan.moves.size() == 1 && plan.moves[0].pod == "web-1" && plan.moves[0].to == "b");
}
