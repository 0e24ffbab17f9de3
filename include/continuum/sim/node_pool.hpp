// Node pools of the simulator: groups of identical nodes with a capacity, a price per minute and a
// provisioning source whose latency follows the seed papers: always-on local nodes, cold VM boots,
// resumed paused VMs (seed 001's waiting worker nodes) and Liqo peerings (seed 000's virtual nodes).
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace continuum::sim {

/// Where a node comes from, which decides how long it takes to become Ready.
enum class NodeSource {
    local,         ///< an on-premises node: always on, ready at once
    cold_vm,       ///< a VM created and booted on demand (Cluster Autoscaler, GKE node pools)
    paused_vm,     ///< a paused/hibernated VM resumed from RAM (seed 001's waiting worker nodes)
    liqo_peering,  ///< a remote cluster peered through Liqo and shown as a virtual node (seed 000)
};

/// Default provisioning latencies (request to Ready), each a documented reading of the papers:
namespace default_latency {
/// Local nodes exist already.
inline constexpr Duration local{0};
/// Cold VM boot and kubelet join: 90 s, the middle of the "tens of seconds to minutes" that seed 004
/// blames on VM provisioning for the Cluster Autoscaler (GKE nodes typically join in 1-2 minutes).
inline constexpr Duration cold_vm{90'000};
/// Resumed paused OpenStack VM: 40 s. Seed 001 reports deployments that needed a waiting worker node
/// taking "more than 30 s", 45 s on average during bursts (40 s resume + pod start).
inline constexpr Duration paused_vm{40'000};
/// Liqo peering to an operational remote cluster: 5 s ("in the order of a few seconds", seed 000).
inline constexpr Duration liqo_peering{5'000};
}  // namespace default_latency

/// The default latency of `source` (see default_latency).
constexpr Duration default_provisioning_latency(NodeSource source) {
    switch (source) {
        case NodeSource::local: return default_latency::local;
        case NodeSource::cold_vm: return default_latency::cold_vm;
        case NodeSource::paused_vm: return default_latency::paused_vm;
        case NodeSource::liqo_peering: return default_latency::liqo_peering;
    }
    return default_latency::cold_vm;
}

/// "local", "cold_vm", "paused_vm", "liqo_peering".
constexpr std::string_view to_string(NodeSource source) {
    switch (source) {
        case NodeSource::local: return "local";
        case NodeSource::cold_vm: return "cold_vm";
        case NodeSource::paused_vm: return "paused_vm";
        case NodeSource::liqo_peering: return "liqo_peering";
    }
    return "unknown";
}

/// No upper bound on a pool's size.
inline constexpr int unlimited_nodes = -1;

/// A group of identical nodes (a CA node group, a GKE node pool, a set of paused VMs, one Liqo
/// provider). Nodes are billed `cost_per_minute` from the moment they are requested until released.
struct NodePool {
    std::string name;
    /// Allocatable resources of one node (cpu and memory are scheduled; others are ignored).
    Resources capacity;
    /// Price of one node per minute of existence (provisioning included), >= 0.
    double cost_per_minute = 0.0;
    NodeSource source = NodeSource::cold_vm;
    /// Request-to-Ready latency; nullopt = default_provisioning_latency(source).
    std::optional<Duration> provisioning_latency;
    /// Nodes the pool never goes below (they are created ready at time 0 when initial_size is lower).
    int min_size = 0;
    /// Nodes the pool never exceeds; unlimited_nodes = no bound. Finite pools count their idle slots
    /// as 100 % efficient (seed 000's convention for capacity left to the federation).
    int max_size = unlimited_nodes;
    /// Nodes Ready at time 0.
    int initial_size = 0;
    /// Free-form description printed with the parameters (e.g. "Table 1 low cost, Pr1").
    std::string description;

    [[nodiscard]] Duration latency() const { return provisioning_latency.value_or(default_provisioning_latency(source)); }

    /// \throws InvalidArgument naming the pool and field: empty name, no cpu, negative or NaN cost,
    ///         negative latency, sizes out of order.
    void validate() const {
        if (name.empty()) throw InvalidArgument("node pool: name must not be empty");
        if (capacity.cpu_millis() <= 0) {
            throw InvalidArgument(continuum::detail::message("node pool \"{}\": capacity.cpu must be > 0, got {}", name, capacity.to_string()));
        }
        if (capacity.any_negative()) throw InvalidArgument(continuum::detail::message("node pool \"{}\": negative capacity {}", name, capacity.to_string()));
        if (!std::isfinite(cost_per_minute) || cost_per_minute < 0.0) {
            throw InvalidArgument(continuum::detail::message("node pool \"{}\": cost_per_minute must be finite and >= 0, got {}", name, cost_per_minute));
        }
        if (latency().count() < 0) throw InvalidArgument(continuum::detail::message("node pool \"{}\": provisioning_latency must be >= 0, got {} ms", name, latency().count()));
        if (min_size < 0) throw InvalidArgument(continuum::detail::message("node pool \"{}\": min_size must be >= 0, got {}", name, min_size));
        if (max_size != unlimited_nodes && max_size < 0) throw InvalidArgument(continuum::detail::message("node pool \"{}\": max_size must be >= 0 or unlimited, got {}", name, max_size));
        if (initial_size < 0) throw InvalidArgument(continuum::detail::message("node pool \"{}\": initial_size must be >= 0, got {}", name, initial_size));
        if (max_size != unlimited_nodes && (min_size > max_size || initial_size > max_size)) {
            throw InvalidArgument(continuum::detail::message("node pool \"{}\": min_size {} and initial_size {} must not exceed max_size {}", name, min_size, initial_size, max_size));
        }
    }
};

}  // namespace continuum::sim
