// Waiting worker nodes: pre-provisioned VMs that are paused or hibernated (seed 001, section 3.3:
// "WaitingWorkerNodes", resumed instead of booted, e.g. OpenStack VM pause or Azure hibernation).
// A pool is a plain list of them; each has a capacity, a resume latency and a cost per unit of
// time while running. choose_nodes_to_activate (capacity/activation.hpp) picks which to resume.
#pragma once

#include <continuum/capacity/shortfall.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>

#include <cmath>
#include <span>
#include <string>
#include <unordered_set>

#include <fmt/format.h>

namespace continuum::capacity {

/// One paused / hibernated worker node that can be resumed.
struct WaitingNode {
    std::string name;                  ///< unique within its pool; the host's handle for resuming it
    Resources capacity;                ///< allocatable resources once resumed (each >= 0, not all 0)
    Duration resume_latency{0};        ///< time from "resume" to Ready (>= 0)
    double cost = 0.0;                 ///< cost per unit of time while running (finite, >= 0)
};

/// Checks a pool: every node named, names unique, capacity non-negative and not empty, latency
/// >= 0, cost finite and >= 0.
/// \throws InvalidArgument naming the node (by index and name) and the offending value.
/// (A template on a defaulted parameter, called as `validate_pool(pool)`: compiled only where called, issue 21.)
template <typename Defer = void>
void validate_pool(std::span<const WaitingNode> pool) {
    std::unordered_set<std::string_view> names;
    names.reserve(pool.size());
    for (std::size_t i = 0; i < pool.size(); ++i) {
        const WaitingNode& node = pool[i];
        if (node.name.empty()) throw InvalidArgument(continuum::detail::message("waiting pool: node [{}] has an empty name", i));
        if (!names.insert(node.name).second) {
            throw InvalidArgument(continuum::detail::message("waiting pool: node name \"{}\" appears twice (second at [{}])", node.name, i));
        }
        detail::require_non_negative(node.capacity, continuum::detail::message("waiting pool: node [{}] \"{}\" capacity", i, node.name));
        if (node.capacity.empty()) {
            throw InvalidArgument(continuum::detail::message("waiting pool: node [{}] \"{}\" has no capacity (every resource is 0)", i, node.name));
        }
        if (node.resume_latency.count() < 0) {
            throw InvalidArgument(continuum::detail::message("waiting pool: node [{}] \"{}\" resume_latency must be >= 0 ms, got {} ms", i, node.name,
                                                             node.resume_latency.count()));
        }
        if (!std::isfinite(node.cost) || node.cost < 0.0) {
            throw InvalidArgument(continuum::detail::message("waiting pool: node [{}] \"{}\" cost must be finite and >= 0, got {}", i, node.name, node.cost));
        }
    }
}

/// Sum of the capacities of every node in the pool.
/// \throws InvalidArgument on int64 overflow.
[[nodiscard]] inline Resources total_capacity(std::span<const WaitingNode> pool) {
    Resources out;
    for (const auto& node : pool) out += node.capacity;
    return out;
}

}  // namespace continuum::capacity
