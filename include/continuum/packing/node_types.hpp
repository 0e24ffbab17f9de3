// Choosing how many nodes of which type to open for a set of pods at minimum total cost
// (Karpenter's instance-type question; the Federation Recommender's cost-aware choice): a
// variable-sized vector bin packing problem with costs and per-type count limits. Cost-efficiency
// greedy and typed first fit decreasing for any size, improved by downsizing each node to the
// cheapest type that still holds its pods; an exact branch and bound for small instances; every
// answer carries a lower bound, the gap and whether it is proved optimal. Existing nodes (free
// residual capacity) can be filled before any new node is paid for.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/packing/detail/dense.hpp>
#include <continuum/packing/detail/node_mix.hpp>
#include <continuum/packing/detail/node_mix_solve.hpp>
#include <continuum/packing/model.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace continuum::packing {

/// One node to open: its type (index into the `types` argument) and the items it holds.
struct OpenedNode {
    std::size_t type = 0;
    std::vector<std::size_t> items;
};

/// An item that no node can hold, and why (larger than every node type, or every type that could
/// hold it has reached max_count).
struct UnplaceableItem {
    std::size_t item = 0;
    std::string reason;
};

/// The answer to "which nodes, at what cost": nodes to open, total cost, a lower bound on the
/// optimal cost of packing the placeable items, whether `cost` is proved optimal, the relative gap
/// (cost − lower_bound) / cost (0 when cost is 0), the unplaceable items and the count per type
/// (of new nodes). With existing nodes, `existing_items[e]` lists the items placed on existing node
/// e (same order as the input); they cost nothing.
struct NodeMix {
    std::vector<OpenedNode> nodes;
    double cost = 0;
    double lower_bound = 0;
    bool optimal = false;
    double gap = 0;
    std::vector<UnplaceableItem> unplaceable;
    std::vector<std::int64_t> count_per_type;
    std::vector<std::vector<std::size_t>> existing_items;
};

namespace detail {

template <typename Defer = void>
NodeMix to_node_mix(const continuum::detail::deferred_t<NodeMixProblem, Defer>& problem, const continuum::detail::deferred_t<MixSolution, Defer>& solution) {
    continuum::detail::deferred_t<NodeMix, Defer> out;
    out.count_per_type.assign(problem.new_types, 0);
    out.existing_items.assign(problem.existing(), {});
    for (const auto& bin : solution.bins) {
        if (problem.is_existing(bin.type)) {
            out.existing_items[bin.type - problem.new_types] = bin.items;
            continue;
        }
        out.nodes.push_back(OpenedNode{bin.type, bin.items});
        ++out.count_per_type[bin.type];
    }
    out.cost = solution.cost;
    out.lower_bound = solution.lower_bound;
    out.optimal = solution.optimal;
    out.gap = out.cost > 0 ? (out.cost - out.lower_bound) / out.cost : 0.0;
    for (const auto& [item, reason] : solution.unplaceable) out.unplaceable.push_back(UnplaceableItem{item, reason});
    return out;
}

}  // namespace detail

/// Cheapest mix of new nodes that holds `items`. Runs the heuristics (cost-efficiency greedy,
/// typed FFD over each type order, downsizing), then an exact search within `budget` (explored
/// nodes / deadline; by default per_tick_budget(), a 10 ms deadline): over item classes with
/// multiplicities (equal requests, e.g. replicas of a Deployment) whenever their maximal node
/// patterns are few (detail::node_mix_class_patterns), else over single items for at most
/// `detail::node_mix_exact_items` placeable items. The covering LP bound (dual of the classes'
/// relaxation), raised by the bound from integer node counts per type, keeps the lower bound
/// honest when the budget runs out. Items that fit no type are reported, never dropped.
/// \throws InvalidArgument when `types` is empty, a type has a negative or non-finite cost, a
///         max_count below -1, a negative or all-zero capacity; an item has a negative amount or
///         is all zero; or the budget is invalid.
template <typename Defer = void>  // compiled only where called (the chain from cheapest_node_mix down)
NodeMix cheapest_node_mix(std::span<const Resources> items, std::span<const NodeType> types, const Budget& budget = per_tick_budget()) {
    budget.validate();
    const auto problem = detail::node_mix_problem<Defer>(items, types);
    return detail::to_node_mix<Defer>(problem, detail::solve_node_mix<Defer>(problem, budget));
}

/// Cheapest mix of new nodes that holds what does not fit on `existing_nodes`: existing nodes'
/// residual capacity (capacity − allocated) is free, new nodes of `types` cost. The heuristics fill
/// the existing nodes first (first fit, largest items first) and then open new nodes as
/// cheapest_node_mix does; downsizing may also move a new node's items onto an existing node that
/// holds them all. The exact search runs as in cheapest_node_mix (each existing node is a type of
/// cost 0 and count 1 to the class search; the search over single items takes at most
/// `detail::node_mix_exact_existing` existing nodes) within `budget`. `cost`, `lower_bound`
/// and `gap` count new nodes only; `existing_items[e]` lists the items added to existing node e.
/// `types` may be empty (existing nodes only: what does not fit is reported as unplaceable).
/// \throws InvalidArgument as cheapest_node_mix, and on an existing node's capacity that is empty or
///         has a negative amount, or a negative allocated amount.
template <typename Defer = void>
NodeMix cheapest_node_mix_onto_existing(std::span<const Resources> items, std::span<const ExistingNode> existing_nodes, std::span<const NodeType> types,
                                        const Budget& budget = per_tick_budget()) {
    budget.validate();
    if (existing_nodes.empty() && types.empty()) throw InvalidArgument("existing_nodes and types are both empty; nothing can hold the items");
    const auto problem = detail::node_mix_problem<Defer>(items, types, existing_nodes);
    return detail::to_node_mix<Defer>(problem, detail::solve_node_mix<Defer>(problem, budget));
}

}  // namespace continuum::packing
