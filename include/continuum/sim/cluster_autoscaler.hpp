// A Cluster-Autoscaler-like reactive node scaler for the simulator: the baseline the seed papers
// compare against. Scale-up when pods are unschedulable (first-fit estimate on the chosen pool's node
// template, after what provisioning nodes will absorb); scale-down of nodes below 50 % requested for
// 10 minutes whose pods fit elsewhere, pod by pod, within the deployments' disruption budget (CA's
// PDB check), not within 10 minutes of a scale-up (CA's documented defaults).
#pragma once

#include <continuum/core/detail/counted.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>
#include <continuum/packing/disruption_budget.hpp>
#include <continuum/packing/drain.hpp>
#include <continuum/sim/decision.hpp>
#include <continuum/sim/scaler.hpp>
#include <continuum/sim/snapshot.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace continuum::sim {

/// A pool the autoscaler could grow, as offered to the expander.
struct ExpansionCandidate {
    std::size_t pool = 0;     ///< index into Snapshot::pool_specs
    int new_nodes = 0;        ///< nodes of this pool the pending pods need (first-fit estimate)
    int pods_placed = 0;      ///< pending pods those nodes would host
    double cost_per_minute = 0;  ///< of the new nodes together
};

/// How the autoscaler chooses among candidate pools (CA's --expander).
enum class Expander {
    priority,  ///< the first managed pool, in the order given (CA's priority expander, one tier each)
    cheapest,  ///< lowest cost per placed pod (CA's price expander in spirit; seed 000's cost-aware CA)
    most_pods, ///< most pending pods placed, then largest node (CA's most-pods: seed 000's cost-unaware CA)
};

struct ClusterAutoscalerConfig {
    /// Pools the autoscaler manages, by name; empty = all pools except local ones.
    std::vector<std::string> pools;
    Expander expander = Expander::priority;
    /// Optional custom expander: returns the index into the candidates; overrides `expander`.
    std::function<std::size_t(std::span<const ExpansionCandidate>, const Snapshot&)> custom_expander;
    Duration scan_interval = std::chrono::seconds(10);                 ///< --scan-interval
    double scale_down_utilisation_threshold = 0.5;                     ///< --scale-down-utilization-threshold
    Duration scale_down_unneeded_time = std::chrono::minutes(10);      ///< --scale-down-unneeded-time
    Duration scale_down_delay_after_add = std::chrono::minutes(10);    ///< --scale-down-delay-after-add
    int max_empty_bulk_delete = 10;                                    ///< empty nodes removed per scan
    /// The PodDisruptionBudget every deployment has (default: ready pods never below desired).
    packing::DisruptionBudget disruption_budget;
    bool scale_down_enabled = true;
};

/// The reactive node scaler. Stateless between runs only through reset-by-construction.
/// `ClusterAutoscaler` is `BasicClusterAutoscaler<>`: the parameter only keeps the members' bodies
/// from being compiled where the header is included and the scaler not used (issue 21).
template <typename Defer = void>
class BasicClusterAutoscaler {
public:
    /// \throws InvalidArgument for a non-positive interval, a threshold outside [0, 1] or negative times.
    explicit BasicClusterAutoscaler(ClusterAutoscalerConfig config = {}) : config_(std::move(config)) {
        if (config_.scan_interval.count() <= 0) throw InvalidArgument(continuum::detail::message("cluster autoscaler: scan_interval must be > 0, got {} ms", config_.scan_interval.count()));
        if (!(config_.scale_down_utilisation_threshold >= 0.0 && config_.scale_down_utilisation_threshold <= 1.0)) {
            throw InvalidArgument(continuum::detail::message("cluster autoscaler: scale_down_utilisation_threshold must be in [0, 1], got {}", config_.scale_down_utilisation_threshold));
        }
        if (config_.scale_down_unneeded_time.count() < 0 || config_.scale_down_delay_after_add.count() < 0) {
            throw InvalidArgument("cluster autoscaler: scale_down_unneeded_time and scale_down_delay_after_add must be >= 0");
        }
        config_.disruption_budget.validate();
        if (config_.max_empty_bulk_delete < 1) throw InvalidArgument(continuum::detail::message("cluster autoscaler: max_empty_bulk_delete must be >= 1, got {}", config_.max_empty_bulk_delete));
    }

    /// \throws InvalidArgument when a managed pool name is unknown.
    Decision decide(const Snapshot& snap) {
        if (last_scan_ && snap.now - *last_scan_ < config_.scan_interval) return {};
        last_scan_ = snap.now;
        const auto managed = managed_pools(snap);
        Decision decision = scale_up(snap, managed);
        if (decision.empty() && config_.scale_down_enabled) decision = scale_down(snap, managed);
        return decision;
    }

private:
    [[nodiscard]] std::vector<std::size_t> managed_pools(const Snapshot& snap) const {
        std::vector<std::size_t> out;
        if (config_.pools.empty()) {
            for (std::size_t p = 0; p < snap.pool_specs.size(); ++p) {
                if (snap.pool_specs[p].source != NodeSource::local) out.push_back(p);
            }
        } else {
            for (const auto& name : config_.pools) out.push_back(snap.pool_index(name));
        }
        return out;
    }

    struct Free {
        std::int64_t cpu;
        std::int64_t memory;
    };

    Decision scale_up(const Snapshot& snap, const std::vector<std::size_t>& managed) {
        std::vector<const PendingPod*> pods;
        for (const auto& pod : snap.pending) {
            if (pod.reason == PendingReason::unschedulable) pods.push_back(&pod);
        }
        if (pods.empty()) return {};
        // Pods that upcoming (provisioning) nodes will host do not trigger a scale-up.
        std::vector<Free> upcoming;
        for (const auto& node : snap.nodes) {
            if (!node.ready()) upcoming.push_back({node.cpu_capacity - node.cpu_requested, node.memory_capacity - node.memory_requested});
        }
        std::vector<const PendingPod*> remaining;
        for (const auto* pod : pods) {
            if (!place(upcoming, *pod)) remaining.push_back(pod);
        }
        if (remaining.empty()) return {};
        // Largest first (CA's binpacking estimator orders by cpu + memory share, descending).
        std::stable_sort(remaining.begin(), remaining.end(), [](const PendingPod* a, const PendingPod* b) { return a->cpu > b->cpu || (a->cpu == b->cpu && a->memory > b->memory); });
        std::vector<ExpansionCandidate> candidates;
        for (const auto p : managed) {
            const auto& spec = snap.pool_specs[p];
            const int room = spec.max_size == unlimited_nodes ? 1'000 : spec.max_size - snap.pools[p].size();
            if (room <= 0) continue;
            std::vector<Free> bins;
            int placed = 0;
            for (const auto* pod : remaining) {
                if (pod->cpu > spec.capacity.cpu_millis() || pod->memory > spec.capacity.memory_bytes()) continue;
                if (!place(bins, *pod)) {
                    if (static_cast<int>(bins.size()) == room) continue;
                    bins.push_back({spec.capacity.cpu_millis() - pod->cpu, spec.capacity.memory_bytes() - pod->memory});
                }
                ++placed;
            }
            if (placed == 0) continue;
            candidates.push_back({p, static_cast<int>(bins.size()), placed, spec.cost_per_minute * static_cast<double>(bins.size())});
        }
        if (candidates.empty()) return {};
        const std::size_t chosen = choose(candidates, snap);
        const auto& c = candidates.at(chosen);
        const auto& spec = snap.pool_specs[c.pool];
        Decision d;
        d.pools.push_back({spec.name, snap.pools[c.pool].size() + c.new_nodes});
        d.reason = continuum::detail::message("cluster autoscaler: {}; +{} in pool \"{}\" host {}", continuum::detail::counted(std::ssize(remaining), "unschedulable pod"),
                                              continuum::detail::counted(c.new_nodes, "node"), spec.name, c.pods_placed);
        last_scale_up_ = snap.now;
        return d;
    }

    std::size_t choose(std::span<const ExpansionCandidate> candidates, const Snapshot& snap) const {
        if (config_.custom_expander) {
            const auto i = config_.custom_expander(candidates, snap);
            if (i >= candidates.size()) throw InvalidArgument(continuum::detail::message("cluster autoscaler: custom expander returned {} for {} candidates", i, candidates.size()));
            return i;
        }
        std::size_t best = 0;
        for (std::size_t i = 1; i < candidates.size(); ++i) {
            const auto& a = candidates[i];
            const auto& b = candidates[best];
            bool better = false;
            switch (config_.expander) {
                case Expander::priority: break;
                case Expander::cheapest: better = a.cost_per_minute / a.pods_placed < b.cost_per_minute / b.pods_placed - 1e-12; break;
                case Expander::most_pods:
                    better = a.pods_placed > b.pods_placed ||
                             (a.pods_placed == b.pods_placed && snap.pool_specs[a.pool].capacity.cpu_millis() > snap.pool_specs[b.pool].capacity.cpu_millis());
                    break;
            }
            if (better) best = i;
        }
        return best;
    }

    static bool place(std::vector<Free>& bins, const PendingPod& pod) {
        for (auto& bin : bins) {
            if (pod.cpu <= bin.cpu && pod.memory <= bin.memory) {
                bin.cpu -= pod.cpu;
                bin.memory -= pod.memory;
                return true;
            }
        }
        return false;
    }

    Decision scale_down(const Snapshot& snap, const std::vector<std::size_t>& managed) {
        blocked_.clear();
        const auto is_managed = [&](std::size_t pool) { return std::find(managed.begin(), managed.end(), pool) != managed.end(); };
        // Track how long each node has been unneeded.
        std::map<std::string, Time> still_unneeded;
        std::vector<const NodeStatus*> candidates;
        for (const auto& node : snap.nodes) {
            if (!node.ready() || !is_managed(node.pool)) continue;
            if (node.request_utilisation() >= config_.scale_down_utilisation_threshold) continue;
            const auto it = unneeded_since_.find(node.name);
            const Time since = it == unneeded_since_.end() ? snap.now : it->second;
            still_unneeded.emplace(node.name, since);
            if (snap.now - since >= config_.scale_down_unneeded_time) candidates.push_back(&node);
        }
        unneeded_since_ = std::move(still_unneeded);
        if (candidates.empty()) return {};
        if (last_scale_up_ && snap.now - *last_scale_up_ < config_.scale_down_delay_after_add) return {};
        Decision d;
        std::vector<int> removed_per_pool(snap.pool_specs.size(), 0);
        const auto can_remove = [&](const NodeStatus& node) {
            return snap.pools[node.pool].size() - removed_per_pool[node.pool] - 1 >= snap.pool_specs[node.pool].min_size;
        };
        // Empty nodes in bulk.
        for (const auto* node : candidates) {
            if (node->pods == 0 && static_cast<int>(d.releases.size()) < config_.max_empty_bulk_delete && can_remove(*node)) {
                d.releases.push_back({node->name});
                removed_per_pool[node->pool] += 1;
            }
        }
        if (d.releases.empty()) {
            // One non-empty node whose pods reschedule, pod by pod, onto the other ready nodes and
            // whose evictions every deployment's disruption budget allows (packing::plan_drains).
            std::vector<packing::DrainNode> nodes;
            for (const auto& node : snap.nodes) nodes.push_back({node.name, node.capacity(), node.requested(), node.ready()});
            std::vector<packing::DrainPod> pods;
            for (const auto& pod : snap.bound) {
                pods.push_back({pod.node, snap.deployments[pod.deployment].name, Resources::from_units({{"cpu", pod.cpu}, {"memory", pod.memory}}), true});
            }
            std::vector<packing::WorkloadAvailability> workloads;
            for (const auto& dep : snap.deployments) workloads.push_back({dep.name, dep.desired, std::min(dep.ready, dep.desired), config_.disruption_budget});
            std::vector<std::size_t> order;
            for (const auto* node : candidates) {
                if (can_remove(*node)) order.push_back(static_cast<std::size_t>(node - snap.nodes.data()));
            }
            const auto plan = packing::plan_drains<Defer>(nodes, pods, workloads, order, 1);
            for (const auto i : plan.removed) d.releases.push_back({snap.nodes[i].name});
            blocked_ = plan.summary();
        }
        if (!d.releases.empty()) {
            d.reason = continuum::detail::message("cluster autoscaler: {} below {:.0f} % requested for {} s", continuum::detail::counted(std::ssize(d.releases), "node"),
                                                  100 * config_.scale_down_utilisation_threshold, to_seconds(config_.scale_down_unneeded_time));
            for (const auto& r : d.releases) unneeded_since_.erase(r.node);
        }
        return d;
    }

public:
    /// Why the last scale-down pass kept its unneeded non-empty candidates (empty when none was kept).
    [[nodiscard]] const std::string& scale_down_blocked() const { return blocked_; }
    /// The configuration, as constructed.
    [[nodiscard]] const ClusterAutoscalerConfig& config() const { return config_; }

private:
    ClusterAutoscalerConfig config_;
    std::string blocked_;
    std::optional<Time> last_scan_;
    std::optional<Time> last_scale_up_;
    std::map<std::string, Time> unneeded_since_;
};

using ClusterAutoscaler = BasicClusterAutoscaler<>;

static_assert(Scaler<ClusterAutoscaler>);

}  // namespace continuum::sim
