// Scale-in of a federated cluster with the Cluster Autoscaler's scale-down rules (FAQ "How does
// scale-down work?", simulator/utilization/info.go): a virtual node is unneeded when its
// utilisation (max of cpu and memory requested / allocatable; GPU nodes by GPU) is below a
// threshold (0.5) and its pods fit elsewhere; it is released once unneeded for 10 minutes and
// nothing was added in the last 10 minutes. With workload budgets (PodDisruptionBudgets) a node is
// also kept when evicting its pods would exceed one. ScaleInTracker keeps the timers; time is passed in.
#pragma once

#include <continuum/core/detail/counted.hpp>
#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/detail/span_of.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>
#include <continuum/federation/virtual_node.hpp>
#include <continuum/packing/disruption_budget.hpp>
#include <continuum/packing/drain.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::federation {

/// CA's scale-down parameters and their defaults.
struct ScaleInOptions {
    double utilization_threshold = 0.5;       ///< --scale-down-utilization-threshold
    double gpu_utilization_threshold = 0.5;   ///< --scale-down-gpu-utilization-threshold
    Duration unneeded_time = std::chrono::minutes(10);    ///< --scale-down-unneeded-time
    Duration delay_after_add = std::chrono::minutes(10);  ///< --scale-down-delay-after-add
    std::size_t max_nodes_per_decision = 10;  ///< --max-scale-down-parallelism

    /// \throws InvalidArgument on a threshold outside [0, 1], a negative duration or a zero limit.
    template <typename Defer = void>  // called as validate(): compiled only where called (issue 21)
    void validate() const {
        for (const double t : {utilization_threshold, gpu_utilization_threshold}) {
            if (!std::isfinite(t) || t < 0.0 || t > 1.0) throw InvalidArgument(continuum::detail::message("scale-in: utilization thresholds must be in [0, 1], got {}", t));
        }
        if (unneeded_time.count() < 0) throw InvalidArgument(continuum::detail::message("scale-in: unneeded_time must be >= 0, got {} ms", unneeded_time.count()));
        if (delay_after_add.count() < 0) throw InvalidArgument(continuum::detail::message("scale-in: delay_after_add must be >= 0, got {} ms", delay_after_add.count()));
        if (max_nodes_per_decision == 0) throw InvalidArgument("scale-in: max_nodes_per_decision must be >= 1");
    }
};

/// CA's node utilisation: GPU requested / allocatable on nodes with GPUs, otherwise the maximum of
/// cpu and memory requested / allocatable. Requests beyond allocatable give values above 1.
inline double node_utilization(const VirtualNode& node) {
    const Resources requested = detail::requested_on(node);
    const auto ratio = [](std::int64_t used, std::int64_t total) { return total > 0 ? static_cast<double>(used) / static_cast<double>(total) : 0.0; };
    if (node.allocatable.gpus() > 0) return ratio(requested.gpus(), node.allocatable.gpus());
    return std::max(ratio(requested.cpu_millis(), node.allocatable.cpu_millis()), ratio(requested.memory_bytes(), node.allocatable.memory_bytes()));
}

/// What happened to one node in a scale-in decision.
struct NodeScaleInStatus {
    std::string node;
    double utilization = 0.0;
    bool unneeded = false;                 ///< below threshold and its pods fit elsewhere
    Duration unneeded_for{0};              ///< how long it has been unneeded (0 when not)
    bool released = false;
    std::string reason;
};

/// The scale-in decision: nodes to release (unpeer), the pod moves that empty them, the cost saved.
struct ScaleInDecision {
    std::vector<std::string> nodes_to_release;
    std::vector<PodMove> moves;
    double saved_cost = 0.0;
    std::vector<NodeScaleInStatus> nodes;  ///< one per input node, in input order
    std::string reason;
};

namespace detail {

/// Tries to move every pod of `source` onto the `free` room of the nodes in `destinations` (largest
/// pod first, first fit in destination order), skipping the source itself. On success the room is
/// taken (unless `keep` is false: a dry run) and `moves` / `targets` list where each pod goes; on failure `free` is restored and
/// `blocker` says which pod could not move.
template <typename Defer = void>
inline bool simulate_drain(std::size_t source_index, std::span<const std::size_t> destinations, std::span<const VirtualNode> nodes, continuum::detail::deferred_t<std::vector<Resources>, Defer>& free,
                           std::vector<PodMove>& moves, std::vector<std::size_t>& targets, std::string& blocker, bool keep) {
    const VirtualNode& source = nodes[source_index];
    continuum::detail::deferred_t<std::vector<std::pair<std::size_t, Resources>>, Defer> taken;
    continuum::detail::deferred_t<std::vector<std::size_t>, Defer> order(source.pods.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto& ra = source.pods[a].request;
        const auto& rb = source.pods[b].request;
        if (ra.cpu_millis() != rb.cpu_millis()) return ra.cpu_millis() > rb.cpu_millis();
        if (ra.memory_bytes() != rb.memory_bytes()) return ra.memory_bytes() > rb.memory_bytes();
        return source.pods[a].name < source.pods[b].name;
    });
    for (const auto i : order) {
        const auto& pod = source.pods[i];
        const auto fail = [&](std::string why) {
            for (auto& [d, item] : taken) free[d] += item;
            blocker = std::move(why);
            return false;
        };
        if (!pod.movable) return fail(continuum::detail::message("pod {} is not movable", pod.name));
        const Resources item = with_pod_slot(pod.request);
        bool moved = false;
        for (const auto d : destinations) {
            if (d == source_index || !item.fits_in(free[d])) continue;
            free[d] -= item;
            taken.emplace_back(d, item);
            moved = true;
            break;
        }
        if (!moved) return fail(continuum::detail::message("pod {} (request {}) fits on no other node", pod.name, pod.request));
    }
    for (std::size_t k = 0; k < taken.size(); ++k) {
        moves.push_back({source.pods[order[k]].name, source.name, nodes[taken[k].first].name});
        targets.push_back(taken[k].first);
    }
    if (!keep) {
        for (auto& [d, item] : taken) free[d] += item;
    }
    return true;
}

/// The workload a pod belongs to: the budget with the longest name that, followed by '-' or '/',
/// starts the pod's name (a ReplicaSet names its pods <deployment>-<hash>-<suffix>, so "web-api-x"
/// belongs to "web-api", not "web"); nullptr when none does.
inline const packing::WorkloadAvailability* owner_of(const PlacedPod& pod, std::span<const packing::WorkloadAvailability> budgets) {
    const packing::WorkloadAvailability* owner = nullptr;
    for (const auto& w : budgets) {
        const bool prefix = pod.name.size() > w.name.size() && pod.name.compare(0, w.name.size(), w.name) == 0 &&
                            (pod.name[w.name.size()] == '-' || pod.name[w.name.size()] == '/');
        if (prefix && (!owner || w.name.size() > owner->name.size())) owner = &w;
    }
    return owner;
}

/// Whether evicting every pod of `node` stays within `allowed` (disruptions left per workload);
/// when `take`, the evictions are taken from it. On refusal `blocker` says which budget.
template <typename = void>
inline bool within_budgets(const VirtualNode& node, std::span<const packing::WorkloadAvailability> budgets, std::map<std::string, std::int64_t>& allowed,
                           std::string& blocker, bool take) {
    std::map<std::string, std::int64_t> evicted;
    for (const auto& pod : node.pods) {
        if (const auto* w = owner_of(pod, budgets)) ++evicted[w->name];
    }
    for (const auto& w : budgets) {
        const auto it = evicted.find(w.name);
        if (it != evicted.end() && it->second > allowed[w.name]) {
            blocker = continuum::detail::message("evicting {} of {} exceeds its budget: {} allowed by {} ({} desired, {} ready)", continuum::detail::counted(it->second, "pod"),
                                                 w.name, continuum::detail::counted(allowed[w.name], "disruption"), w.budget.to_string(), w.desired, w.healthy);
            return false;
        }
    }
    if (take) {
        for (const auto& [name, n] : evicted) allowed[name] -= n;
    }
    return true;
}

}  // namespace detail

/// Everything a ScaleInTracker remembers: since when each node has been unneeded, the last
/// scale-out and the last decision's time.
struct ScaleInTrackerState {
    std::map<std::string, Time> unneeded_since;
    std::optional<Time> last_scale_out;
    std::optional<Time> last_decision;

    friend bool operator==(const ScaleInTrackerState&, const ScaleInTrackerState&) = default;
};

/// The stateful part of scale-in: when each node became unneeded, and when nodes were last added.
template <typename Defer = void>
class BasicScaleInTracker {
private:
    /// T, spelled dependent on Defer: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, Defer>;

public:
    using State = ScaleInTrackerState;

    /// \throws InvalidArgument on invalid options.
    explicit BasicScaleInTracker(ScaleInOptions options = {}) : options_(options) { options_.template validate<Defer>(); }

    /// The tracker with `options` as it was when `state` was taken.
    /// \throws InvalidArgument on invalid options, an empty node name in state.unneeded_since, or a
    ///         timer that starts after state.last_decision (naming the node).
    BasicScaleInTracker(ScaleInOptions options, const ScaleInTrackerState& state) : BasicScaleInTracker(options) {
        for (const auto& [node, since] : state.unneeded_since) {
            if (node.empty()) throw InvalidArgument("scale-in restore: state.unneeded_since has an empty node name");
            if (!state.last_decision || since > *state.last_decision) {
                throw InvalidArgument(continuum::detail::message("scale-in restore: state.unneeded_since[\"{}\"] = {} ms is not before state.last_decision", node, since.count()));
            }
        }
        unneeded_since_ = state.unneeded_since;
        last_scale_out_ = state.last_scale_out;
        last_decision_ = state.last_decision;
    }

    [[nodiscard]] ScaleInTrackerState state() const { return {unneeded_since_, last_scale_out_, last_decision_}; }

    [[nodiscard]] const ScaleInOptions& options() const { return options_; }

    /// Records that nodes were added at `when` (starts the delay-after-add cool-down).
    void observe_scale_out(Time when) {
        if (!last_scale_out_ || when > *last_scale_out_) last_scale_out_ = when;
    }
    [[nodiscard]] std::optional<Time> last_scale_out() const { return last_scale_out_; }
    /// Since when `node` has been unneeded, if it is.
    [[nodiscard]] std::optional<Time> unneeded_since(const std::string& node) const {
        const auto it = unneeded_since_.find(node);
        return it == unneeded_since_.end() ? std::nullopt : std::optional<Time>(it->second);
    }

    /// One scale-down pass at time `now`: updates the unneeded timers, then releases (at most
    /// max_nodes_per_decision) nodes unneeded for at least unneeded_time, lowest utilisation first,
    /// when no scale-out happened within delay_after_add. Drains are simulated one after another on
    /// the remaining room: a node that receives pods is kept, a released node receives nothing.
    /// \throws InvalidArgument on invalid nodes (see plan_scale_out) or when `now` is before an
    ///         earlier call's time.
    template <typename T = void>  // a template like the overload it calls, which it would otherwise compile in every unit
    ScaleInDecision decide(std::span<const VirtualNode> nodes, Time now) {
        return decide<T>(nodes, now, {});
    }

    /// As decide(nodes, now), and a node is unneeded only when evicting its pods fits every
    /// workload's disruption budget (`budgets`: desired and ready pods, the PDB; a pod belongs to
    /// the budget whose name followed by '-' or '/' starts its own). Budgets are shared by the
    /// releases of one decision. \throws InvalidArgument also on an invalid or duplicate budget.
    template <typename D = void>  // compiled only in units that call it (with its detail:: helpers)
    ScaleInDecision decide(std::span<const VirtualNode> nodes, Time now, std::span<const packing::WorkloadAvailability> budgets) {
        detail::validate_virtual_nodes<D>(nodes);
        Dep<std::map<std::string, std::int64_t>> allowed;
        for (const auto& w : budgets) {
            w.budget.validate();
            if (w.desired < 0 || w.healthy < 0) throw InvalidArgument(continuum::detail::message("scale-in: budget {}: desired {} and healthy {} must be >= 0", w.name, w.desired, w.healthy));
            if (!allowed.emplace(w.name, w.budget.disruptions_allowed(w.desired, w.healthy)).second) throw InvalidArgument(continuum::detail::message("scale-in: duplicate budget \"{}\"", w.name));
        }
        if (last_decision_ && now < *last_decision_) {
            throw InvalidArgument(continuum::detail::message("scale-in: now = {} ms is before the previous decision at {} ms", now.count(), last_decision_->count()));
        }
        last_decision_ = now;
        ScaleInDecision out;
        const std::size_t n = nodes.size();
        Dep<std::vector<Resources>> free(n);
        for (std::size_t i = 0; i < n; ++i) {
            free[i] = detail::with_pod_slots(nodes[i].allocatable, static_cast<std::int64_t>(nodes[i].pods.size())) - detail::requested_on(nodes[i]);
        }
        Dep<std::vector<std::size_t>> by_name(n);
        std::iota(by_name.begin(), by_name.end(), std::size_t{0});
        std::sort(by_name.begin(), by_name.end(), [&](std::size_t a, std::size_t b) { return nodes[a].name < nodes[b].name; });

        // 1. Unneeded: below threshold and drainable onto the others as they are now.
        Dep<std::map<std::string, Time>> still_unneeded;
        out.nodes.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            auto& status = out.nodes[i];
            status.node = nodes[i].name;
            status.utilization = node_utilization(nodes[i]);
            const bool gpu = nodes[i].allocatable.gpus() > 0;
            const double threshold = gpu ? options_.gpu_utilization_threshold : options_.utilization_threshold;
            if (status.utilization >= threshold) {
                status.reason = continuum::detail::message("{}utilization {:.3f} >= threshold {}", gpu ? "GPU " : "", status.utilization, threshold);
                continue;
            }
            Dep<std::vector<PodMove>> moves;
            Dep<std::vector<std::size_t>> targets;
            std::string blocker;
            if (!detail::within_budgets(nodes[i], budgets, allowed, blocker, false) ||
                !detail::simulate_drain(i, continuum::detail::span_of(by_name), nodes, free, moves, targets, blocker, false)) {
                status.reason = continuum::detail::message("utilization {:.3f} < {} but {}", status.utilization, threshold, blocker);
                continue;
            }
            status.unneeded = true;
            const auto previous = unneeded_since_.find(nodes[i].name);
            const Time since = previous == unneeded_since_.end() ? now : previous->second;
            still_unneeded[nodes[i].name] = since;
            status.unneeded_for = now - since;
        }
        unneeded_since_ = std::move(still_unneeded);

        // 2. Cool-down after a scale-out.
        const bool cooling = last_scale_out_ && now - *last_scale_out_ < options_.delay_after_add;
        Dep<std::vector<std::size_t>> eligible;
        for (std::size_t i = 0; i < n; ++i) {
            auto& status = out.nodes[i];
            if (!status.unneeded) continue;
            if (status.unneeded_for < options_.unneeded_time) {
                status.reason = continuum::detail::message("unneeded for {:.0f} s of the required {:.0f} s", to_seconds(status.unneeded_for), to_seconds(options_.unneeded_time));
            } else if (cooling) {
                status.reason = continuum::detail::message("unneeded, but nodes were added {:.0f} s ago (delay after add {:.0f} s)", to_seconds(now - *last_scale_out_),
                                                           to_seconds(options_.delay_after_add));
            } else {
                eligible.push_back(i);
            }
        }
        std::sort(eligible.begin(), eligible.end(), [&](std::size_t a, std::size_t b) {
            if (out.nodes[a].utilization != out.nodes[b].utilization) return out.nodes[a].utilization < out.nodes[b].utilization;
            return nodes[a].name < nodes[b].name;
        });

        // 3. Sequential drains on the shared remaining room.
        Dep<std::vector<bool>> released(n, false);
        Dep<std::vector<bool>> receiving(n, false);
        for (const auto i : eligible) {
            auto& status = out.nodes[i];
            if (out.nodes_to_release.size() >= options_.max_nodes_per_decision) {
                status.reason = continuum::detail::message("unneeded, but {} nodes are already released in this decision (max_nodes_per_decision)", options_.max_nodes_per_decision);
                continue;
            }
            if (receiving[i]) {
                status.reason = "unneeded, but it receives pods from a node released in this decision";
                continue;
            }
            Dep<std::vector<std::size_t>> destinations;
            for (const auto j : by_name) {
                if (!released[j]) destinations.push_back(j);
            }
            Dep<std::vector<PodMove>> moves;
            Dep<std::vector<std::size_t>> targets;
            std::string blocker;
            if (!detail::within_budgets(nodes[i], budgets, allowed, blocker, false) ||
                !detail::simulate_drain(i, continuum::detail::span_of(destinations), nodes, free, moves, targets, blocker, true)) {
                status.reason = continuum::detail::message("unneeded, but after this decision's other releases {}", blocker);
                continue;
            }
            detail::within_budgets(nodes[i], budgets, allowed, blocker, true);
            released[i] = true;
            for (const auto j : targets) receiving[j] = true;
            status.released = true;
            status.reason = continuum::detail::message("released: utilization {:.3f}, unneeded for {:.0f} s, {} pod{} moved", status.utilization, to_seconds(status.unneeded_for),
                                                       moves.size(), moves.size() == 1 ? "" : "s");
            out.nodes_to_release.push_back(nodes[i].name);
            out.saved_cost += nodes[i].cost;
            out.moves.insert(out.moves.end(), moves.begin(), moves.end());
        }
        for (const auto& name : out.nodes_to_release) unneeded_since_.erase(name);
        out.reason = out.nodes_to_release.empty()
                         ? continuum::detail::message("no node released ({} of {} unneeded)", unneeded_since_.size(), n)
                         : continuum::detail::message("release {} of {} nodes, move {} pod{}, save {:.6g} per unit of time", out.nodes_to_release.size(), n, out.moves.size(),
                                                      out.moves.size() == 1 ? "" : "s", out.saved_cost);
        return out;
    }

private:
    ScaleInOptions options_;
    Dep<std::map<std::string, Time>> unneeded_since_;
    std::optional<Time> last_scale_out_;
    std::optional<Time> last_decision_;
};

/// `ScaleInTracker` is `BasicScaleInTracker<>`; the parameter only keeps the members from compiling in a unit that does
/// not use them (issue 21).
using ScaleInTracker = BasicScaleInTracker<>;

}  // namespace continuum::federation
