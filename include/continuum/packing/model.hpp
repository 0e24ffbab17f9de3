// The vocabulary of continuum::packing: items (a pod's Resources request, or a plain integer size
// for 1-D), identical bins of a given capacity, and node types (capacity, cost, optional count
// limit) from which new nodes may be opened. Results list item indices per opened bin; items that
// fit no bin at all are reported in `unplaced`, never dropped. Integers throughout.
#pragma once

#include <continuum/core/resources.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace continuum::packing {

/// "No limit" for NodeType::max_count.
inline constexpr std::int64_t unlimited = -1;

/// A kind of node that may be opened: its allocatable capacity, its cost per unit of time (>= 0)
/// and how many of them may be opened at most (`unlimited` or a count >= 0).
struct NodeType {
    std::string name;
    Resources capacity;
    double cost = 0.0;
    std::int64_t max_count = unlimited;
};

/// A node that already runs: its allocatable capacity and the sum of the requests already placed
/// on it. Its residual (capacity − allocated) is filled before any new node is opened; a node whose
/// allocation exceeds its capacity in some resource is over-committed and receives nothing.
struct ExistingNode {
    std::string name;
    Resources capacity;
    Resources allocated;
};

/// Result of packing onto existing nodes first, then onto new nodes of one capacity.
struct PackingOntoExisting {
    std::vector<std::vector<std::size_t>> existing;   ///< items added to each existing node (same order as the input nodes)
    std::vector<std::vector<std::size_t>> new_nodes;  ///< items per newly opened node, in opening order
    std::vector<std::size_t> unplaced;                ///< items that fit neither an existing node's residual nor an empty new node
    [[nodiscard]] std::size_t num_new_nodes() const { return new_nodes.size(); }
};

/// Result of the 1-D heuristics: item indices per opened bin, in opening order.
struct Packing {
    std::vector<std::vector<std::size_t>> bins;  ///< item indices per opened bin, in opening order
    std::vector<std::size_t> unplaced;           ///< items larger than an empty bin (reported, never dropped)
    [[nodiscard]] std::size_t num_bins() const { return bins.size(); }
};

/// Result of the vector heuristics: item indices per opened bin, in opening order.
struct VectorPacking {
    std::vector<std::vector<std::size_t>> bins;  ///< item indices per opened bin, in opening order
    std::vector<std::size_t> unplaced;           ///< items larger than an empty bin (reported, never dropped)
    [[nodiscard]] std::size_t num_bins() const { return bins.size(); }
};

}  // namespace continuum::packing
