// Pods on nodes as plain values: a placed pod, a node with its pods, a pod move and a consolidation
// plan. The consolidation planner (packing/consolidation.hpp) and the federation's virtual nodes and
// scale-in share them; a header that only passes these values around includes this one, not the
// planner.
#pragma once

#include <continuum/core/resources.hpp>

#include <string>
#include <vector>

namespace continuum::packing {

/// A pod running on a node: its request, and whether it may be moved.
struct PlacedPod {
    std::string name;
    Resources request;
    bool movable = true;
};

/// A current node: allocatable capacity, cost per unit of time (>= 0) and the pods on it.
struct NodeState {
    std::string name;
    Resources capacity;
    double cost = 0.0;
    std::vector<PlacedPod> pods;
};

/// One pod to move from one node to another.
struct PodMove {
    std::string pod;
    std::string from;
    std::string to;
};

/// Nodes to release (in the order they were chosen), the pod moves that empty them, the cost
/// saved (sum of the released nodes' costs) and a readable reason.
struct ConsolidationPlan {
    std::vector<std::string> nodes_to_release;
    std::vector<PodMove> moves;
    double saved_cost = 0;
    std::string reason;
};

}  // namespace continuum::packing
