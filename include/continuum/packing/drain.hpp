// Which nodes a scale-in may remove, as the Cluster Autoscaler decides it (simulator/removal.go,
// drainability and PDB rules): a node goes only when every pod on it can be rescheduled onto the
// room left on the other ready nodes (largest pod first, first fit) and each workload's disruption
// budget allows evicting its pods there. Removals are simulated one after another on shared room
// and budgets; a node that receives pods is kept. Used by every scaler that shrinks a pool.
#pragma once

#include <continuum/core/detail/counted.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/packing/disruption_budget.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace continuum::packing {

/// A node as the drain simulation sees it.
struct DrainNode {
    std::string name;
    Resources allocatable;
    Resources requested;  ///< every pod bound to it (listed in DrainPod or not: DaemonSet-like pods go with the node)
    bool ready = true;    ///< only ready nodes receive rescheduled pods
};

/// A pod bound to a node that must be rescheduled if the node goes.
struct DrainPod {
    std::size_t node = 0;   ///< index into the nodes
    std::string workload;   ///< owner (a Deployment); one not in the workloads list has no budget
    Resources request;
    bool movable = true;    ///< false: blocks the node (local storage, no controller, a marker pod)
};

/// A workload's availability: the PDB's expected count (spec.replicas), the healthy (ready) pods now.
struct WorkloadAvailability {
    std::string name;
    std::int64_t desired = 0;
    std::int64_t healthy = 0;
    DisruptionBudget budget;
};

struct DrainPlan {
    std::vector<std::size_t> removed;  ///< node indices, in removal order
    /// For each candidate not removed, why (in candidate order).
    std::vector<std::string> blocked;
    [[nodiscard]] std::string summary() const;
};

inline std::string DrainPlan::summary() const {
    std::string out;
    for (const auto& b : blocked) out += (out.empty() ? "" : "; ") + b;
    return out;
}

/// Removes up to `max_removals` of `candidates` (node indices, tried in that order).
/// \throws InvalidArgument on a pod's node index out of range, negative resources, a duplicate
///         workload name, a negative desired/healthy count or an invalid budget.
template <typename Defer = void>
DrainPlan plan_drains(std::span<const DrainNode> nodes, std::span<const DrainPod> pods, std::span<const WorkloadAvailability> workloads,
                      std::span<const std::size_t> candidates, std::size_t max_removals) {
    std::vector<Resources> free(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (nodes[i].allocatable.any_negative() || nodes[i].requested.any_negative()) {
            throw InvalidArgument(continuum::detail::message("drain: node {} has negative allocatable {} or requested {}", nodes[i].name, nodes[i].allocatable, nodes[i].requested));
        }
        free[i] = nodes[i].allocatable - nodes[i].requested;
    }
    std::map<std::string, std::int64_t> allowed;  // disruptions left per workload with a budget
    std::map<std::string, std::string> budget_text;
    for (const auto& w : workloads) {
        w.budget.validate();
        if (w.desired < 0 || w.healthy < 0) throw InvalidArgument(continuum::detail::message("drain: workload {}: desired {} and healthy {} must be >= 0", w.name, w.desired, w.healthy));
        if (!allowed.emplace(w.name, w.budget.disruptions_allowed(w.desired, w.healthy)).second) {
            throw InvalidArgument(continuum::detail::message("drain: duplicate workload \"{}\"", w.name));
        }
        budget_text[w.name] = continuum::detail::message("{} ({} desired, {} ready)", w.budget.to_string(), w.desired, w.healthy);
    }
    std::vector<std::vector<std::size_t>> on_node(nodes.size());
    for (std::size_t p = 0; p < pods.size(); ++p) {
        if (pods[p].node >= nodes.size()) throw InvalidArgument(continuum::detail::message("drain: pods[{}].node = {} but there are {} nodes", p, pods[p].node, nodes.size()));
        if (pods[p].request.any_negative()) throw InvalidArgument(continuum::detail::message("drain: pods[{}] has a negative request {}", p, pods[p].request));
        on_node[pods[p].node].push_back(p);
    }
    DrainPlan plan;
    std::vector<bool> removed(nodes.size(), false), receiving(nodes.size(), false);
    for (const auto c : candidates) {
        if (c >= nodes.size()) throw InvalidArgument(continuum::detail::message("drain: candidate {} but there are {} nodes", c, nodes.size()));
        if (plan.removed.size() >= max_removals) break;
        if (removed[c]) continue;
        const auto& node = nodes[c];
        const auto block = [&](std::string why) { plan.blocked.push_back(continuum::detail::message("{} kept: {}", node.name, why)); };
        if (receiving[c]) {
            block("it receives pods from a node removed before it");
            continue;
        }
        // The budget: pods of each workload evicted from this node.
        std::map<std::string, std::int64_t> evicted;
        std::string unmovable;
        for (const auto p : on_node[c]) {
            if (!pods[p].movable) unmovable = pods[p].workload.empty() ? "a pod" : "a pod of " + pods[p].workload;
            if (allowed.contains(pods[p].workload)) ++evicted[pods[p].workload];
        }
        if (!unmovable.empty()) {
            block(unmovable + " cannot move");
            continue;
        }
        std::string over;
        for (const auto& [w, n] : evicted) {
            if (n > allowed[w]) over = continuum::detail::message("evicting {} of {} exceeds its budget, {} allowed by {}", continuum::detail::counted(n, "pod"), w,
                                            continuum::detail::counted(allowed[w], "disruption"), budget_text[w]);
        }
        if (!over.empty()) {
            block(over);
            continue;
        }
        // The reschedule: largest pod first, first fit on the other ready nodes still present.
        std::vector<std::size_t> order = on_node[c];
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const auto& ra = pods[a].request;
            const auto& rb = pods[b].request;
            return ra.cpu_millis() != rb.cpu_millis() ? ra.cpu_millis() > rb.cpu_millis() : ra.memory_bytes() > rb.memory_bytes();
        });
        std::vector<std::pair<std::size_t, std::size_t>> taken;  // (pod, destination)
        bool fits = true;
        for (const auto p : order) {
            bool moved = false;
            for (std::size_t d = 0; d < nodes.size() && !moved; ++d) {
                if (d == c || removed[d] || !nodes[d].ready || !pods[p].request.fits_in(free[d])) continue;
                free[d] -= pods[p].request;
                taken.emplace_back(p, d);
                moved = true;
            }
            if (!moved) {
                block(continuum::detail::message("a pod of {} (request {}) fits on no other ready node", pods[p].workload.empty() ? "an unnamed workload" : pods[p].workload, pods[p].request));
                fits = false;
                break;
            }
        }
        if (!fits) {
            for (const auto& [p, d] : taken) free[d] += pods[p].request;
            continue;
        }
        for (const auto& [p, d] : taken) receiving[d] = true;
        for (const auto& [w, n] : evicted) allowed[w] -= n;
        removed[c] = true;
        plan.removed.push_back(c);
    }
    return plan;
}

}  // namespace continuum::packing
