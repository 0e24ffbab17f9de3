// What a scaler sees each tick: the simulated cluster's nodes, pools, namespaces (quota, demand,
// usage), deployments (replicas, CPU utilisation), pending pods and bound pods, as read-only views
// into the simulator's state. Amounts are canonical integers (millicores, bytes) as in continuum::Resources.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>
#include <continuum/sim/node_pool.hpp>
#include <continuum/sim/scenario.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace continuum::sim {

enum class NodePhase { provisioning, ready };

struct NodeStatus {
    std::string name;
    std::size_t pool = 0;
    NodePhase phase = NodePhase::provisioning;
    Time requested_at{0};
    Time ready_at{0};
    std::int64_t cpu_capacity = 0;     ///< millicores
    std::int64_t memory_capacity = 0;  ///< bytes
    std::int64_t cpu_requested = 0;    ///< sum of bound pods' requests
    std::int64_t memory_requested = 0;
    std::int64_t cpu_used = 0;         ///< actual usage this tick
    int pods = 0;                      ///< bound pods (starting or running)

    [[nodiscard]] bool ready() const { return phase == NodePhase::ready; }
    [[nodiscard]] Resources capacity() const { return Resources::from_units({{"cpu", cpu_capacity}, {"memory", memory_capacity}}); }
    [[nodiscard]] Resources requested() const { return Resources::from_units({{"cpu", cpu_requested}, {"memory", memory_requested}}); }
    /// CA utilisation: max(cpu requested / allocatable, memory requested / allocatable).
    [[nodiscard]] double request_utilisation() const {
        const double cpu = cpu_capacity > 0 ? static_cast<double>(cpu_requested) / static_cast<double>(cpu_capacity) : 0.0;
        const double mem = memory_capacity > 0 ? static_cast<double>(memory_requested) / static_cast<double>(memory_capacity) : 0.0;
        return cpu > mem ? cpu : mem;
    }
};

struct PoolStatus {
    int ready = 0;
    int provisioning = 0;
    [[nodiscard]] int size() const { return ready + provisioning; }
};

struct NamespaceStatus {
    std::string name;
    std::optional<Resources> quota;
    std::int64_t quota_cpu = -1;       ///< -1 = no cpu quota
    std::int64_t demand_cpu = 0;       ///< requests of every pod the workloads want (desired replicas)
    std::int64_t requested_cpu = 0;    ///< requests of admitted pods (what the quota counts)
    std::int64_t requested_memory = 0;
    std::int64_t used_cpu = 0;         ///< actual usage this tick
    int pending_pods = 0;              ///< admitted but unscheduled, or rejected by the quota
    int quota_rejected_pods = 0;       ///< waiting because the quota is full
    std::int64_t failed_deployments = 0;  ///< pods that timed out so far
};

struct DeploymentStatus {
    std::string name;
    std::size_t namespace_index = 0;
    ReplicaControl replicas_from = ReplicaControl::workload;
    std::int64_t pod_cpu = 0;     ///< millicores requested per pod
    std::int64_t pod_memory = 0;  ///< bytes requested per pod
    int desired = 0;              ///< replicas wanted now
    int ready = 0;                ///< running pods
    int starting = 0;             ///< bound, not yet ready
    int pending = 0;              ///< not bound (quota or capacity)
    double cpu_demand_cores = 0;  ///< what the load asks for now
    double cpu_used_cores = 0;    ///< what the ready pods serve
    /// used / (ready x request), in [0, cpu_limit_factor]; 0 without ready pods. The HPA's metric.
    double utilisation = 0;
    /// The pool new pods are pinned to (index into Snapshot::pools), if any.
    std::optional<std::size_t> pinned_pool;
    /// Ready pods per node pool (indexed like Snapshot::pools): where a migration stands.
    std::vector<int> ready_per_pool;
};

enum class PendingReason { quota, unschedulable };

struct PendingPod {
    std::size_t deployment = 0;
    std::size_t namespace_index = 0;
    std::int64_t cpu = 0;
    std::int64_t memory = 0;
    Time since{0};
    PendingReason reason = PendingReason::unschedulable;
};

/// A pod bound to a node (starting or running): what a scale-down simulation moves.
struct BoundPod {
    std::size_t deployment = 0;  ///< index into Snapshot::deployments
    std::size_t node = 0;        ///< index into Snapshot::nodes
    std::int64_t cpu = 0;        ///< millicores requested
    std::int64_t memory = 0;     ///< bytes requested
    bool ready = false;          ///< running (false: starting)
};

/// One tick's view. Valid only during the scaler's decide() call.
struct Snapshot {
    Time now{0};
    Duration tick{0};
    std::span<const NodePool> pool_specs;
    std::span<const PoolStatus> pools;
    std::span<const NodeStatus> nodes;
    std::span<const NamespaceStatus> namespaces;
    std::span<const DeploymentStatus> deployments;
    std::span<const PendingPod> pending;
    std::span<const BoundPod> bound;  ///< every bound pod, in creation order

    /// Index of the pool / namespace / deployment called `name`. \throws InvalidArgument if none.
    [[nodiscard]] std::size_t pool_index(std::string_view name) const { return find(pool_specs, name, "node pool", [](const NodePool& p) -> const std::string& { return p.name; }); }
    [[nodiscard]] std::size_t namespace_index(std::string_view name) const { return find(namespaces, name, "namespace", [](const NamespaceStatus& n) -> const std::string& { return n.name; }); }
    [[nodiscard]] std::size_t deployment_index(std::string_view name) const { return find(deployments, name, "deployment", [](const DeploymentStatus& d) -> const std::string& { return d.name; }); }

private:
    template <typename T, typename Name>
    static std::size_t find(std::span<const T> items, std::string_view name, std::string_view what, Name get_name) {
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (get_name(items[i]) == name) return i;
        }
        throw InvalidArgument(continuum::detail::message("snapshot: no {} named \"{}\"", what, name));
    }
};

}  // namespace continuum::sim
