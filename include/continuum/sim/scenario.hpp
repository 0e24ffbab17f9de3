// What the simulator runs: node pools, namespaces with quotas, deployments whose load follows a
// profile (replicas or CPU demand over time), and the run's parameters (tick, pending timeout, pod
// start-up time, what to record). Seed 001 defines a pod pending for more than 60 s as a failed
// deployment; that is the default timeout.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>
#include <continuum/sim/load_profile.hpp>
#include <continuum/sim/node_pool.hpp>

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace continuum::sim {

/// A namespace and its ResourceQuota. Quota keys: cpu / requests.cpu, memory / requests.memory,
/// pods / count/pods. No quota = unlimited.
struct NamespaceSpec {
    std::string name;
    std::optional<Resources> quota;
};

/// What a deployment's load profile measures.
enum class LoadKind {
    replicas,   ///< the number of pods that must run (seed 000's stress-ng deployment)
    cpu_cores,  ///< CPU demand in cores, shared by the ready pods (seed 001, seed 004)
};

/// Who sets a deployment's replica count.
enum class ReplicaControl {
    workload,  ///< the load: replicas = round(load) or ceil(cpu demand / pod cpu request)
    scaler,    ///< the scaler under test (HPA, hierarchical planner) through Decision::replicas
};

/// A Deployment: identical pods with a request, a load over time and a replica controller.
struct DeploymentSpec {
    std::string name;
    std::string namespace_name;
    /// Requests of one pod: cpu (> 0) and optionally memory.
    Resources pod_request;
    LoadProfile load;
    LoadKind load_kind = LoadKind::cpu_cores;
    ReplicaControl replicas_from = ReplicaControl::workload;
    /// Replicas at time 0 when the scaler controls them.
    int initial_replicas = 1;
    /// LoadKind::replicas: fraction of the CPU request each pod actually uses (stress-ng load).
    double usage_per_pod = 1.0;
    /// CPU limit = factor x request; a pod never uses more (1.0 = Guaranteed QoS).
    double cpu_limit_factor = 1.0;
    /// Pool the pods are pinned to at time 0 (a nodeSelector); empty = any pool.
    std::string node_pool;
};

/// What the simulator records besides the summary.
struct RecordOptions {
    /// Time-series sampling period; 0 = every tick.
    Duration sample_every{0};
    bool per_namespace = true;
    bool per_deployment = true;
    /// One record per pod attempt (creation, ready, failure): needed for deployment-time plots.
    bool pod_records = true;
};

/// How the scheduler picks a node among those a pod fits on.
enum class SchedulingPolicy {
    first_fit,        ///< the first Ready node in creation order (bin-packing behaviour)
    least_allocated,  ///< the node with the most free CPU share (kube-scheduler's default
                      ///< NodeResourcesFit LeastAllocated score, which spreads pods); ties: first
};

struct SimulationConfig {
    Duration tick = std::chrono::seconds(1);
    SchedulingPolicy scheduling = SchedulingPolicy::first_fit;
    /// Simulated time; 0 = the longest deployment load profile.
    Duration duration{0};
    /// A pod still unscheduled this long after creation is a failed deployment (seed 001: 1 min).
    /// It is deleted and its controller creates a new attempt.
    Duration pending_timeout = std::chrono::seconds(60);
    /// Bound-to-Ready time of a pod (image cached, container start, readiness probe): 3 s, so an
    /// unhindered deployment takes 3-4 s, like seed 001's "under 5 s" (3.87 s hybrid, no burst).
    Duration pod_startup = std::chrono::seconds(3);
    /// Rolling update when a decision re-pins a deployment to another pool (a pod-template change):
    /// Deployment maxSurge in percent of the desired replicas, rounded up (at least 1 pod), with
    /// maxUnavailable 0 — old pods are deleted only while Ready pods exceed the desired count.
    int rollout_max_surge_percent = 25;
    /// Pods bound in the first tick (time 0) start Ready: the deployments were running before the
    /// experiment began, as the initial nodes are (seed 004 load-tests a deployed Nginx). False:
    /// they start like any other pod (pod_startup), as seed 001's deployments are measured.
    bool initial_pods_ready = false;
    RecordOptions record;
};

/// A complete simulation input.
struct Scenario {
    std::vector<NodePool> pools;
    std::vector<NamespaceSpec> namespaces;
    std::vector<DeploymentSpec> deployments;
    SimulationConfig config;

    /// \throws InvalidArgument naming the offending entry (duplicate or unknown names, a bad
    ///         request, tick <= 0, ...); Infeasible when a pod fits no pool's node.
    void validate() const;
};

namespace detail {
inline bool is_cpu_key(const std::string& key) { return key == "cpu" || key == "requests.cpu"; }
inline bool is_memory_key(const std::string& key) { return key == "memory" || key == "requests.memory"; }
inline bool is_pods_key(const std::string& key) { return key == "pods" || key == "count/pods"; }
}  // namespace detail

inline void Scenario::validate() const {
    const auto& c = config;
    if (c.tick.count() <= 0) throw InvalidArgument(continuum::detail::message("simulation: tick must be > 0, got {} ms", c.tick.count()));
    if (c.duration.count() < 0) throw InvalidArgument(continuum::detail::message("simulation: duration must be >= 0, got {} ms", c.duration.count()));
    if (c.pending_timeout.count() <= 0) throw InvalidArgument(continuum::detail::message("simulation: pending_timeout must be > 0, got {} ms", c.pending_timeout.count()));
    if (c.pod_startup.count() < 0) throw InvalidArgument(continuum::detail::message("simulation: pod_startup must be >= 0, got {} ms", c.pod_startup.count()));
    if (c.rollout_max_surge_percent < 0 || c.rollout_max_surge_percent > 100) {
        throw InvalidArgument(continuum::detail::message("simulation: rollout_max_surge_percent must be in [0, 100], got {}", c.rollout_max_surge_percent));
    }
    if (c.record.sample_every.count() < 0) throw InvalidArgument(continuum::detail::message("simulation: record.sample_every must be >= 0, got {} ms", c.record.sample_every.count()));
    if (pools.empty()) throw InvalidArgument("simulation: needs at least one node pool");
    std::set<std::string> names;
    for (const auto& pool : pools) {
        pool.validate();
        if (!names.insert(pool.name).second) throw InvalidArgument(continuum::detail::message("simulation: duplicate node pool \"{}\"", pool.name));
    }
    names.clear();
    for (const auto& ns : namespaces) {
        if (ns.name.empty()) throw InvalidArgument("simulation: namespace name must not be empty");
        if (!names.insert(ns.name).second) throw InvalidArgument(continuum::detail::message("simulation: duplicate namespace \"{}\"", ns.name));
        if (ns.quota) {
            for (const auto& [key, value] : *ns.quota) {
                if (!detail::is_cpu_key(key) && !detail::is_memory_key(key) && !detail::is_pods_key(key)) {
                    throw InvalidArgument(continuum::detail::message("namespace \"{}\": quota resource \"{}\" is not simulated (cpu, memory, pods)", ns.name, key));
                }
                if (value < 0) throw InvalidArgument(continuum::detail::message("namespace \"{}\": quota {} must be >= 0", ns.name, ns.quota->to_string()));
            }
        }
    }
    std::set<std::string> deployment_names;
    for (const auto& d : deployments) {
        if (d.name.empty()) throw InvalidArgument("simulation: deployment name must not be empty");
        if (!deployment_names.insert(d.name).second) throw InvalidArgument(continuum::detail::message("simulation: duplicate deployment \"{}\"", d.name));
        if (!names.contains(d.namespace_name)) throw InvalidArgument(continuum::detail::message("deployment \"{}\": unknown namespace \"{}\"", d.name, d.namespace_name));
        if (d.pod_request.cpu_millis() <= 0) throw InvalidArgument(continuum::detail::message("deployment \"{}\": pod_request.cpu must be > 0, got {}", d.name, d.pod_request.to_string()));
        for (const auto& [key, value] : d.pod_request) {
            if (key != "cpu" && key != "memory") throw InvalidArgument(continuum::detail::message("deployment \"{}\": pod request resource \"{}\" is not simulated (cpu, memory)", d.name, key));
            if (value < 0) throw InvalidArgument(continuum::detail::message("deployment \"{}\": negative pod request {}", d.name, d.pod_request.to_string()));
        }
        if (d.load.points().empty()) throw InvalidArgument(continuum::detail::message("deployment \"{}\": load profile is empty", d.name));
        for (const auto& point : d.load.points()) {
            if (point.second < 0) throw InvalidArgument(continuum::detail::message("deployment \"{}\": load must be >= 0, got {} at {} ms", d.name, point.second, point.first.count()));
        }
        if (!d.node_pool.empty() && std::none_of(pools.begin(), pools.end(), [&](const NodePool& p) { return p.name == d.node_pool; })) {
            throw InvalidArgument(continuum::detail::message("deployment \"{}\": unknown node_pool \"{}\"", d.name, d.node_pool));
        }
        if (d.initial_replicas < 0) throw InvalidArgument(continuum::detail::message("deployment \"{}\": initial_replicas must be >= 0, got {}", d.name, d.initial_replicas));
        if (!(d.usage_per_pod >= 0.0 && d.usage_per_pod <= 1e6)) throw InvalidArgument(continuum::detail::message("deployment \"{}\": usage_per_pod must be finite and >= 0, got {}", d.name, d.usage_per_pod));
        if (!(d.cpu_limit_factor >= 1.0 && d.cpu_limit_factor <= 1e6)) throw InvalidArgument(continuum::detail::message("deployment \"{}\": cpu_limit_factor must be finite and >= 1, got {}", d.name, d.cpu_limit_factor));
        const bool fits_somewhere = std::any_of(pools.begin(), pools.end(), [&](const NodePool& pool) {
            return d.pod_request.cpu_millis() <= pool.capacity.cpu_millis() && d.pod_request.memory_bytes() <= pool.capacity.memory_bytes();
        });
        if (!fits_somewhere) throw Infeasible(continuum::detail::message("deployment \"{}\": a pod requesting {} fits no node pool", d.name, d.pod_request.to_string()));
    }
}

}  // namespace continuum::sim
