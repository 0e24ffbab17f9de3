// The cluster-side vocabulary of the federated cluster scaler (seed 000, "Cluster Scaling"): pods
// waiting to be scheduled (requests, node selector / required node affinity, GPU needs through
// nvidia.com/gpu) and the Liqo virtual nodes already peered, each backed by an offer.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/federation/selector.hpp>
#include <continuum/packing/placement.hpp>

#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

namespace continuum::federation {

using packing::PlacedPod;
using packing::PodMove;

/// A pod the scheduler could not place. GPUs are requested as nvidia.com/gpu in `request`.
struct PendingPod {
    std::string name;
    Resources request;
    LabelSelector node_selector;  ///< nodeSelector and required node affinity, on node / offer labels
};

/// A virtual node in the local cluster, backed by a peering with offer `cluster_id`.
struct VirtualNode {
    std::string name;
    std::string cluster_id;        ///< the offer it was peered from
    Labels labels;                 ///< the node's labels (Liqo copies the provider's)
    Resources allocatable;         ///< cpu and memory > 0
    double cost = 0.0;             ///< price per unit of time while peered
    std::vector<PlacedPod> pods;   ///< pods running on it
};

namespace detail {

template <typename Defer = void>  // compiled only where called (issue 21)
void validate_pending_pods(std::span<const PendingPod> pods) {
    std::unordered_set<std::string_view> seen;
    seen.reserve(pods.size() * 2);
    for (std::size_t i = 0; i < pods.size(); ++i) {
        const auto& pod = pods[i];
        if (pod.name.empty()) throw InvalidArgument(continuum::detail::message("pending_pods[{}]: name must not be empty", i));
        if (!seen.insert(pod.name).second) throw InvalidArgument(continuum::detail::message("pending_pods[{}]: duplicate pod name \"{}\"", i, pod.name));
        if (pod.request.any_negative()) throw InvalidArgument(continuum::detail::message("pending pod {}: request has a negative amount: {}", pod.name, pod.request));
        try {
            pod.node_selector.template validate<Defer>();
        } catch (const InvalidArgument& e) {
            throw InvalidArgument(continuum::detail::message("pending pod {}: {}", pod.name, e.what()));
        }
    }
}

template <typename Defer = void>  // compiled only where called (issue 21)
void validate_virtual_nodes(std::span<const VirtualNode> nodes) {
    std::unordered_set<std::string_view> seen;
    seen.reserve(nodes.size() * 2);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const auto& node = nodes[i];
        if (node.name.empty()) throw InvalidArgument(continuum::detail::message("nodes[{}]: name must not be empty", i));
        if (!seen.insert(node.name).second) throw InvalidArgument(continuum::detail::message("nodes[{}]: duplicate node name \"{}\"", i, node.name));
        if (node.allocatable.any_negative() || node.allocatable.cpu_millis() <= 0 || node.allocatable.memory_bytes() <= 0) {
            throw InvalidArgument(continuum::detail::message("node {}: allocatable must have cpu > 0 and memory > 0 and nothing negative, got {}", node.name, node.allocatable));
        }
        if (!std::isfinite(node.cost) || node.cost < 0.0) throw InvalidArgument(continuum::detail::message("node {}: cost must be finite and >= 0, got {}", node.name, node.cost));
        for (const auto& pod : node.pods) {
            if (pod.request.any_negative()) throw InvalidArgument(continuum::detail::message("node {}: pod {} has a negative request {}", node.name, pod.name, pod.request));
        }
    }
}

inline constexpr std::int64_t unlimited_pod_slots = std::int64_t{1} << 40;

/// Request plus one pod slot, so that nodes' pod capacity counts and empty requests stay packable.
inline Resources with_pod_slot(const Resources& request) {
    Resources r = request;
    r.set(resource_names::pods, 1);
    return r;
}

/// Capacity with a pod-slot count: the declared one, or effectively unlimited when not declared.
inline Resources with_pod_slots(const Resources& capacity, std::int64_t used) {
    Resources r = capacity;
    r.set(resource_names::pods, capacity.pods() > 0 ? capacity.pods() - used : unlimited_pod_slots);
    return r;
}

/// Sum of the requests of the pods on a node.
inline Resources requested_on(const VirtualNode& node) {
    Resources total;
    for (const auto& pod : node.pods) total += pod.request;
    return total;
}

}  // namespace detail

}  // namespace continuum::federation
