// Consolidation: which nodes can be emptied by moving their pods onto the other nodes without
// exceeding any node's capacity, and the moves that do it (seed 001's "stop redundant worker
// nodes"; Karpenter's delete consolidation; the Cluster Autoscaler's scale-down simulation).
// Maximises the cost saved (then the number of nodes released); pods marked unmovable pin their
// node. Greedy over several candidate orders, then an exact search when there are few candidates.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/packing/detail/consolidation.hpp>
#include <continuum/packing/placement.hpp>

#include <span>
#include <string>
#include <vector>

namespace continuum::packing {

/// Plans a consolidation of `nodes`: the set of nodes to empty that saves the most cost (then
/// releases the most nodes, then moves the fewest pods) such that every moved pod fits, with the
/// pods already there, on a node that is kept. A node with an unmovable pod is never released; a
/// node that receives pods is kept. Nodes already over capacity are kept and receive nothing.
/// Greedy first; when at most `detail::consolidation_exact_candidates` nodes could be released,
/// an exact search over subsets within `budget`.
/// \throws InvalidArgument on duplicate or empty node names, a negative or non-finite cost, a
///         capacity or request with a negative amount, or an invalid budget.
template <typename = void>  // compiled only where called: the consolidation search is the heavy part
inline ConsolidationPlan plan_consolidation(std::span<const NodeState> nodes, const Budget& budget = {}) {
    budget.validate();
    return detail::consolidate(nodes, budget);
}

}  // namespace continuum::packing
