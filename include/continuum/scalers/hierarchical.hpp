// The MAS-H² hierarchical autoscaler (seed 004): one decide(snapshot, now) runs the paper's strict
// cycle — (1) strategic: resolve the active policy; (2) workload planning: forecast each
// application's peak with any Forecaster, replicas = ceil(peak / (request × target)) within the
// policy's bounds, noise-filtered; (3) node planning: all planned pods plus other workloads packed
// into the fewest nodes of each pool's type (FFD, or the exact solver); (4) execution: the diff as
// PatchDeployment / ResizeNodePool actions with reasons. A policy switch that changes the node pool
// runs the make-before-break migration: provision the new pool, wait until its nodes are ready, move
// the workloads there, wait until they are ready, then shrink the old pool.
#pragma once

#include <continuum/core/detail/counted.hpp>
#include <continuum/core/budget.hpp>
#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/detail/span_of.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/series.hpp>
#include <continuum/core/time.hpp>
#include <continuum/forecast/any_forecaster.hpp>
#include <continuum/forecast/forecaster.hpp>
#include <continuum/packing/disruption_budget.hpp>
#include <continuum/packing/drain.hpp>
#include <continuum/packing/exact.hpp>
#include <continuum/packing/model.hpp>
#include <continuum/packing/vector_heuristics.hpp>
#include <continuum/policy/policy.hpp>
#include <continuum/policy/selector.hpp>
#include <continuum/policy/utility.hpp>
#include <continuum/scalers/workload_planning.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace continuum::scalers {

/// One managed application (a Deployment) as the host observes it.
struct ApplicationState {
    std::string name;
    /// Requests of one pod; cpu must be > 0 (the replica formula divides by it).
    Resources pod_request;
    /// CPU demand history in cores (total over the application), oldest first, one value per step.
    std::vector<double> demand;
    /// spec.replicas now.
    std::int64_t replicas = 0;
    /// The pool the Deployment's pods are pinned to now; empty = the active policy's pool.
    std::string node_pool;
    /// Ready pods per pool (read during a migration, and summed as the healthy count of a drain).
    std::map<std::string, std::int64_t> ready_replicas;
    /// How many pods a node removal may evict (a PodDisruptionBudget); the default keeps the ready
    /// pods at or above the planned replicas.
    packing::DisruptionBudget disruption_budget;
};

/// One node of a pool and the managed pods bound to it: what a scale-in must drain.
struct PoolNodeState {
    std::string name;
    bool ready = true;
    /// Requests of every pod bound to it (managed or not).
    Resources requested;
    /// Bound pods of each managed application (by ApplicationState::name). The rest of `requested`
    /// is taken to be node-bound (DaemonSet-like) and leaves with the node.
    std::map<std::string, std::int64_t> application_pods;
};

/// Pods the scaler does not manage but that occupy a pool (DaemonSets, system pods, other teams).
struct OtherWorkload {
    std::string name;
    Resources request;  ///< of one pod
    std::int64_t count = 1;
    std::string node_pool;
};

/// A node pool (GKE node pool, CA node group) the scaler may resize.
struct NodePoolState {
    std::string name;
    std::int64_t size = 0;         ///< current target size
    std::int64_t ready_nodes = 0;  ///< nodes Ready now
    std::int64_t min_size = 0;
    std::int64_t max_size = packing::unlimited;
    /// The pool's node type; needed only for pools that no policy names but that host workloads.
    std::optional<packing::NodeType> node_type;
    /// The pool's nodes. When given, a scale-in outside a migration removes only nodes whose pods
    /// reschedule onto the remaining nodes within the applications' disruption budgets, and names
    /// them (ResizeNodePool::remove_nodes); when empty, the pool is resized by count alone.
    std::vector<PoolNodeState> nodes;
};

/// What the host hands the scaler each cycle.
struct ClusterSnapshot {
    std::vector<ApplicationState> applications;
    std::vector<OtherWorkload> other_workloads;
    std::vector<NodePoolState> node_pools;
    /// Signals and override for the Strategic Agent (its `now` is replaced by decide's `now`).
    policy::SelectionContext context;
};

enum class NodePlanner { first_fit_decreasing, exact };

struct HierarchicalConfig {
    /// Forecast horizon in steps of the demand series.
    int horizon = 5;
    /// Spacing of the demand series (passed to the forecaster).
    Duration step = std::chrono::minutes(1);
    /// With fewer observations the plan is reactive (the filtered maximum of the history).
    std::size_t min_history = 3;
    NoiseFilter noise;
    NodePlanner node_planner = NodePlanner::first_fit_decreasing;
    packing::VectorOrder order = packing::VectorOrder::sum_normalized;
    /// Budget of the exact node planner (per pool and tick; default: the per-tick deadline).
    Budget exact_budget = per_tick_budget();

    /// \throws InvalidArgument on horizon < 1, a non-positive step or an invalid noise filter/budget.
    void validate() const {
        if (horizon < 1) throw InvalidArgument(continuum::detail::message("hierarchical config: horizon must be >= 1, got {}", horizon));
        if (step <= Duration{0}) throw InvalidArgument(continuum::detail::message("hierarchical config: step must be > 0, got {} ms", step.count()));
        noise.validate();
        exact_budget.validate();
    }
};

/// Execution Agent action: set the Deployment's replicas and pin its pods to node_pool.
struct PatchDeployment {
    std::string name;
    std::int64_t replicas = 0;
    std::string node_pool;
    std::string reason;
};

/// Execution Agent action: set the node pool's size.
struct ResizeNodePool {
    std::string pool;
    std::int64_t size = 0;
    std::string reason;
    /// A shrink: the ready nodes to drain and delete (the rest of it cancels nodes not yet ready).
    std::vector<std::string> remove_nodes;
};

struct ApplicationPlan {
    std::string name;
    double peak_cores = 0.0;             ///< the demand the plan sizes for
    std::int64_t required_replicas = 0;  ///< eq. 3 within the policy bounds, before the noise filter
    std::int64_t planned_replicas = 0;   ///< after the noise filter
    std::int64_t current_replicas = 0;
    std::string reason;
};

struct PoolPlan {
    std::string pool;
    std::string node_type;
    std::int64_t pods = 0;            ///< pods packed into the pool
    std::int64_t required_nodes = 0;  ///< bins of the packing
    std::int64_t lower_bound = 0;     ///< proved lower bound on the nodes (exact planner; FFD: = required)
    bool optimal = false;             ///< proved minimal (exact planner)
    std::int64_t planned_size = 0;
    std::int64_t current_size = 0;
    std::int64_t ready_nodes = 0;
    std::string reason;
};

/// Pods larger than an empty node of their pool: reported, never dropped.
struct UnschedulablePods {
    std::string workload;
    std::string node_pool;
    Resources request;
    std::int64_t count = 0;
};

enum class MigrationPhase { none, provisioning, migrating, decommissioning };

inline const char* to_string(MigrationPhase phase) {
    switch (phase) {
        case MigrationPhase::none: return "none";
        case MigrationPhase::provisioning: return "provisioning";
        case MigrationPhase::migrating: return "migrating";
        case MigrationPhase::decommissioning: return "decommissioning";
    }
    return "?";
}

struct HierarchicalDecision {
    policy::Selection selection;  ///< what the Strategic Agent chose
    std::string policy;           ///< the policy the plan follows (the migration target while one runs)
    std::vector<ApplicationPlan> applications;
    std::vector<PoolPlan> pools;
    std::vector<PatchDeployment> patch_deployments;
    std::vector<ResizeNodePool> resize_node_pools;
    std::vector<UnschedulablePods> unschedulable;
    MigrationPhase migration = MigrationPhase::none;
    std::vector<std::string> migration_from;
    std::string migration_to;
    policy::UtilityState state;  ///< the planned state
    policy::UtilityTerms utility;
    std::string reason;
};

/// The hierarchical (MAS-H²) scaler over any Forecaster. Keeps the noise filter's memory and the
/// migration state between decisions; time is passed in.
/// A make-before-break migration in flight: its phase, the pools it leaves, the pool it fills and
/// the policy that started it (the active one while it runs).
struct HierarchicalMigration {
    MigrationPhase phase = MigrationPhase::none;
    std::vector<std::string> from;
    std::string to;
    std::string policy;

    friend bool operator==(const HierarchicalMigration&, const HierarchicalMigration&) = default;
};

/// Everything a HierarchicalScaler remembers: each application's noise-filter samples and the
/// migration in flight. (Its forecaster is refitted on the snapshot's demand every cycle.)
struct HierarchicalScalerState {
    std::map<std::string, std::vector<ReplicaStabilizer::Sample>> stabilizers;
    HierarchicalMigration migration;

    friend bool operator==(const HierarchicalScalerState&, const HierarchicalScalerState&) = default;
};

template <forecast::Forecaster F = forecast::AnyForecaster>
class HierarchicalScaler {
public:
    using State = HierarchicalScalerState;

private:
    /// T, spelled dependent on F: what the members name is compiled only where the scaler is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, F>;

public:

    /// The scaler with this configuration as it was when `state` was taken (a migration in flight
    /// continues where it was).
    /// \throws InvalidArgument on an invalid config, or naming the field: a negative replica count
    ///         in a stabilizer, a migration whose policy is not one of the selector's or whose `to`
    ///         is not that policy's node pool, a migration without source pools, or leftovers of a
    ///         finished one.
    HierarchicalScaler(policy::PolicySelector selector, F forecaster, HierarchicalConfig config, const HierarchicalScalerState& state)
        : HierarchicalScaler(std::move(selector), std::move(forecaster), std::move(config)) {
        Dep<std::unordered_map<std::string, ReplicaStabilizer>> stabilizers;
        for (const auto& [name, samples] : state.stabilizers) {
            try {
                stabilizers.emplace(name, ReplicaStabilizer(samples));
            } catch (const InvalidArgument& e) {
                throw InvalidArgument(continuum::detail::message("hierarchical restore: state.stabilizers[\"{}\"]: {}", name, e.what()));
            }
        }
        const auto& m = state.migration;
        if (m.phase == MigrationPhase::none) {
            if (!m.from.empty() || !m.to.empty() || !m.policy.empty()) {
                throw InvalidArgument("hierarchical restore: state.migration.phase is none but from, to or policy is set");
            }
        } else {
            const auto& policies = selector_.policies();
            const auto it = std::find_if(policies.begin(), policies.end(), [&](const policy::Policy& p) { return p.name == m.policy; });
            if (it == policies.end()) throw InvalidArgument(continuum::detail::message("hierarchical restore: state.migration.policy \"{}\" is not one of the selector's policies", m.policy));
            if (it->node_pool != m.to) {
                throw InvalidArgument(continuum::detail::message("hierarchical restore: state.migration.to = \"{}\" but policy {} uses node pool \"{}\"", m.to, m.policy, it->node_pool));
            }
            if (m.from.empty()) throw InvalidArgument("hierarchical restore: state.migration.from is empty during a migration");
        }
        stabilizers_ = std::move(stabilizers);
        migration_ = {m.phase, m.from, m.to, m.policy};
    }

    [[nodiscard]] HierarchicalScalerState state() const {
        HierarchicalScalerState out;
        for (const auto& [name, stabilizer] : stabilizers_) out.stabilizers.emplace(name, stabilizer.samples());
        out.migration = {migration_.phase, migration_.from, migration_.to, migration_.policy};
        return out;
    }

    /// \throws InvalidArgument on an invalid config (the selector validated its policies).
    HierarchicalScaler(policy::PolicySelector selector, F forecaster, HierarchicalConfig config = {})
        : selector_(std::move(selector)), prototype_(std::move(forecaster)), config_(std::move(config)) {
        config_.validate();
    }

    [[nodiscard]] const policy::PolicySelector& selector() const { return selector_; }
    [[nodiscard]] const HierarchicalConfig& config() const { return config_; }
    /// The forecaster fitted (a copy of it) on each application's demand every cycle.
    [[nodiscard]] const F& prototype() const { return prototype_; }
    [[nodiscard]] MigrationPhase migration_phase() const { return migration_.phase; }
    /// Forgets the noise filter's memory and any migration in progress.
    void reset() {
        stabilizers_.clear();
        migration_ = {};
    }

    /// One full cycle. \throws InvalidArgument on a malformed snapshot (naming the field), when the
    /// active policy's pool is missing from the snapshot, or a pool hosting workloads has no node
    /// type; Infeasible never (oversized pods are reported in `unschedulable`).
    HierarchicalDecision decide(const Dep<ClusterSnapshot>& snapshot, Time now) {
        validate(snapshot);
        Dep<HierarchicalDecision> out;

        // ---- 1. Strategic Agent: resolve the active policy.
        policy::SelectionContext context = snapshot.context;
        context.now = now;
        out.selection = selector_.maximizes_utility()
                            ? selector_.select(context, [&](const policy::Policy& p) { return evaluate(snapshot, p); })
                            : selector_.select(context);
        const policy::Policy* active = &selector_.policies()[out.selection.index];
        std::string strategic = out.selection.reason;
        if (migration_.phase != MigrationPhase::none && active->node_pool != migration_.to) {
            const auto& target = selector_.policy(migration_.policy);
            strategic = continuum::detail::message("{}; switch to {} deferred until the migration to {} completes", strategic, active->name, target.name);
            active = &target;
        }
        if (migration_.phase != MigrationPhase::none) migration_.policy = active->name;
        const policy::Policy& policy = *active;
        out.policy = policy.name;
        const NodePoolState& target_pool = pool_state(snapshot, policy.node_pool, "the active policy's node_pool");

        // ---- 2. Workload Planning Agents.
        Dep<std::set<std::string>> seen;
        for (const auto& app : snapshot.applications) {
            auto plan = plan_application(app, policy);
            if (!app.demand.empty()) {
                // The noise filter works on the plan within the policy bounds.
                std::string why;
                const std::int64_t current = std::clamp(app.replicas, policy.min_replicas, policy.max_replicas);
                plan.planned_replicas = stabilizers_[app.name].apply(plan.required_replicas, current, now, config_.noise, why);
                if (!why.empty()) plan.reason += "; noise filter: " + why;
            }
            out.applications.push_back(std::move(plan));
            seen.insert(app.name);
        }
        std::erase_if(stabilizers_, [&](const auto& entry) { return !seen.contains(entry.first); });

        // Migration bookkeeping: applications pinned elsewhere than the policy's pool must move.
        Dep<std::set<std::string>> sources(migration_.from.begin(), migration_.from.end());
        for (const auto& app : snapshot.applications) {
            if (!app.node_pool.empty() && app.node_pool != policy.node_pool) sources.insert(app.node_pool);
        }
        if (migration_.phase == MigrationPhase::none && !sources.empty()) {
            migration_.phase = MigrationPhase::provisioning;
            migration_.to = policy.node_pool;
            migration_.policy = policy.name;
        }
        migration_.from.assign(sources.begin(), sources.end());

        // ---- 3. Node Planning Agent: pack every pool.
        Dep<std::map<std::string, std::vector<Item>>> items_by_pool;
        for (std::size_t a = 0; a < snapshot.applications.size(); ++a) {
            const auto& app = snapshot.applications[a];
            items_by_pool[policy.node_pool].push_back({app.name, &app.pod_request, out.applications[a].planned_replicas});
        }
        for (const auto& other : snapshot.other_workloads) {
            items_by_pool[other.node_pool].push_back({other.name, &other.request, other.count});
        }
        // During provisioning and migration the old pods still run on the source pools: they are
        // held at their size, never packed down.
        Dep<std::map<std::string, Packed>> packed;
        for (const auto& pool : snapshot.node_pools) {
            const auto it = items_by_pool.find(pool.name);
            static const Dep<std::vector<Item>> none;
            packed[pool.name] = pack(pool, it == items_by_pool.end() ? none : it->second, out);
        }

        // ---- Migration state machine (make-before-break), then 4. Execution Agents.
        Dep<std::map<std::string, std::pair<std::int64_t, std::string>>> pool_targets;  // pool -> (size, reason)
        bool steady = migration_.phase == MigrationPhase::none;
        std::string migration_reason;
        if (!steady) {
            const std::int64_t needed = packed[policy.node_pool].nodes;
            if (migration_.phase == MigrationPhase::provisioning) {
                if (target_pool.ready_nodes >= needed) {
                    migration_.phase = MigrationPhase::migrating;
                } else {
                    migration_reason = continuum::detail::message("make-before-break 1/3 provisioning: grow {} to {} nodes ({} ready); workloads stay on {}",
                                                                  migration_.to, needed, target_pool.ready_nodes, fmt::join(migration_.from, ", "));
                }
            }
            if (migration_.phase == MigrationPhase::migrating) {
                bool all_ready = true;
                for (std::size_t a = 0; a < snapshot.applications.size(); ++a) {
                    const auto& app = snapshot.applications[a];
                    const auto ready = app.ready_replicas.find(policy.node_pool);
                    const std::int64_t ready_here = ready == app.ready_replicas.end() ? 0 : ready->second;
                    if (!(app.node_pool.empty() || app.node_pool == policy.node_pool) || ready_here < out.applications[a].planned_replicas) {
                        all_ready = false;
                    }
                }
                if (all_ready) {
                    migration_.phase = MigrationPhase::decommissioning;
                } else {
                    migration_reason = continuum::detail::message("make-before-break 2/3 migrating: {} has {} ready nodes; start the workloads there, "
                                                                  "old pods on {} keep serving until the new ones are ready",
                                                                  migration_.to, target_pool.ready_nodes, fmt::join(migration_.from, ", "));
                }
            }
            if (migration_.phase == MigrationPhase::decommissioning) {
                bool drained = true;
                for (const auto& source : migration_.from) {
                    const auto& pool = pool_state(snapshot, source, "migration source pool");
                    const std::int64_t size = bounded_size(pool, packed[source].nodes);
                    if (pool.size != size) drained = false;
                    pool_targets[source] = {size, continuum::detail::message("make-before-break 3/3 decommissioning: every workload is ready on {}; "
                                                                             "shrink {} to the {} its other workloads need",
                                                                             migration_.to, source, continuum::detail::counted(size, "node"))};
                }
                if (drained) {
                    migration_reason = continuum::detail::message("migration from {} to {} complete", fmt::join(migration_.from, ", "), migration_.to);
                    migration_ = {};
                    steady = true;
                } else {
                    migration_reason = continuum::detail::message("make-before-break 3/3 decommissioning {}", fmt::join(migration_.from, ", "));
                }
            }
        }
        out.migration = migration_.phase;
        out.migration_from = migration_.from;
        out.migration_to = migration_.to;

        const bool holding = migration_.phase == MigrationPhase::provisioning || migration_.phase == MigrationPhase::migrating;
        for (const auto& pool : snapshot.node_pools) {
            auto& p = packed[pool.name];
            Dep<PoolPlan> plan;
            plan.pool = pool.name;
            plan.node_type = p.node_type;
            plan.pods = p.pods;
            plan.required_nodes = p.nodes;
            plan.lower_bound = p.lower_bound;
            plan.optimal = p.optimal;
            plan.current_size = pool.size;
            plan.ready_nodes = pool.ready_nodes;
            const bool is_source = std::find(migration_.from.begin(), migration_.from.end(), pool.name) != migration_.from.end();
            if (const auto t = pool_targets.find(pool.name); t != pool_targets.end()) {
                plan.planned_size = t->second.first;
                plan.reason = t->second.second;
            } else if (holding && is_source) {
                plan.planned_size = pool.size;
                plan.reason = continuum::detail::message("held at {} while its workloads migrate to {}", pool.size, migration_.to);
            } else if (holding && pool.name == migration_.to) {
                plan.planned_size = std::max(pool.size, bounded_size(pool, p.nodes));
                plan.reason = continuum::detail::message("{} of the new policy need {}; never shrunk during a migration", continuum::detail::counted(p.pods, "pod"),
                                                         continuum::detail::counted(p.nodes, p.node_type + " node"));
            } else {
                plan.planned_size = bounded_size(pool, p.nodes);
                plan.reason = continuum::detail::message("{} pack into {}{}", continuum::detail::counted(p.pods, "pod"), continuum::detail::counted(p.nodes, (p.node_type.empty() ? "-" : p.node_type) + " node"),
                                                         bound_note(pool, p.nodes));
            }
            Dep<std::vector<std::string>> remove_nodes;
            if (plan.planned_size < pool.size && !pool.nodes.empty() && !pool_targets.contains(pool.name)) {
                remove_nodes = drain_for_shrink(snapshot, out, pool, plan);
            }
            if (plan.planned_size != pool.size) {
                out.resize_node_pools.push_back({pool.name, plan.planned_size,
                                                 continuum::detail::message("{}: {} -> {} nodes; {}", policy.name, pool.size, plan.planned_size, plan.reason),
                                                 std::move(remove_nodes)});
            }
            out.pools.push_back(std::move(plan));
        }

        // Horizontal Scaling Agent.
        if (migration_.phase == MigrationPhase::provisioning) {
            // The workloads keep serving on their old pools while the new one provisions: an
            // application whose plan grew is scaled up there (never down, never moved) as far as the
            // old pool's held nodes hold, so a load spike in the provisioning window is answered.
            scale_up_on_old_pools(snapshot, policy, out);
        }
        for (std::size_t a = 0; a < snapshot.applications.size(); ++a) {
            const auto& app = snapshot.applications[a];
            const auto& plan = out.applications[a];
            if (migration_.phase == MigrationPhase::provisioning) continue;  // handled above
            const bool moves = !app.node_pool.empty() && app.node_pool != policy.node_pool;
            if (plan.planned_replicas == app.replicas && !moves) continue;
            std::string why = moves ? continuum::detail::message("{}: start {} replicas on {} (from {}); the rollout must keep old pods until new ones are ready "
                                                                 "(maxUnavailable 0); {}",
                                                                 policy.name, plan.planned_replicas, policy.node_pool, app.node_pool, plan.reason)
                                    : continuum::detail::message("{}: {} -> {} replicas; {}", policy.name, app.replicas, plan.planned_replicas, plan.reason);
            out.patch_deployments.push_back({app.name, plan.planned_replicas, policy.node_pool, std::move(why)});
        }

        // Utility of the plan.
        out.state = planned_state(snapshot, out);
        out.utility = selector_.utility().evaluate(out.state, policy);
        out.reason = continuum::detail::message("strategic: {}; {} application(s), {} patch(es), {} resize(s){}{}", strategic, out.applications.size(),
                                                out.patch_deployments.size(), out.resize_node_pools.size(), migration_reason.empty() ? "" : "; ",
                                                migration_reason);
        if (!out.unschedulable.empty()) out.reason += continuum::detail::message("; {} {} pods larger than a node", continuum::detail::counted(std::ssize(out.unschedulable), "workload"), out.unschedulable.size() == 1 ? "has" : "have");
        return out;
    }

    /// What-if: the state the plan under `policy` would reach (no noise filter, no migration; only
    /// the policy's pool is costed). Used for utility-maximising policy selection.
    /// \throws InvalidArgument as decide.
    [[nodiscard]] policy::UtilityState evaluate(const Dep<ClusterSnapshot>& snapshot, const policy::Policy& policy) const {
        policy::UtilityState state;
        Dep<std::vector<Item>> items;
        std::int64_t smallest = -1;
        for (const auto& app : snapshot.applications) {
            const auto plan = plan_application(app, policy);
            state.demand_cores += plan.peak_cores;
            state.capacity_cores += static_cast<double>(plan.planned_replicas) * static_cast<double>(app.pod_request.cpu_millis()) / 1000.0;
            smallest = smallest < 0 ? plan.planned_replicas : std::min(smallest, plan.planned_replicas);
            items.push_back({app.name, &app.pod_request, plan.planned_replicas});
        }
        for (const auto& other : snapshot.other_workloads) {
            if (other.node_pool == policy.node_pool) items.push_back({other.name, &other.request, other.count});
        }
        NodePoolState pool;
        pool.name = policy.node_pool;
        for (const auto& p : snapshot.node_pools) {
            if (p.name == policy.node_pool) pool = p;
        }
        Dep<HierarchicalDecision> scratch;
        const auto packed = pack(pool, items, scratch);
        state.cost = static_cast<double>(bounded_size(pool, packed.nodes)) * policy.node_type.cost;
        state.replicas = smallest < 0 ? 0 : smallest;
        return state;
    }

private:
    struct Item {
        std::string workload;
        const Resources* request;
        std::int64_t count;
    };
    struct Packed {
        std::int64_t nodes = 0;
        std::int64_t pods = 0;
        std::int64_t lower_bound = 0;
        bool optimal = false;
        std::string node_type;
        double cost = 0.0;
    };
    struct Migration {
        MigrationPhase phase = MigrationPhase::none;
        Dep<std::vector<std::string>> from;
        std::string to;
        std::string policy;
    };

    /// Eq. 3 for one application under `policy` (before the noise filter's memory).
    [[nodiscard]] ApplicationPlan plan_application(const ApplicationState& app, const policy::Policy& policy) const {
        ApplicationPlan plan;
        plan.name = app.name;
        plan.current_replicas = app.replicas;
        std::string how;
        if (app.demand.empty()) {
            plan.required_replicas = std::clamp(app.replicas, policy.min_replicas, policy.max_replicas);
            plan.planned_replicas = plan.required_replicas;
            plan.reason = "no demand history: keep the current replicas within the policy bounds";
            return plan;
        }
        const auto history = trailing_median<continuum::detail::deferred_t<void, F>>(app.demand, config_.noise.median_window);
        double peak = history.back();
        if (history.size() >= config_.min_history) {
            try {
                F model = prototype_;
                model.fit(SeriesView(history, config_.step, "demand"));
                const forecast::Forecast fc = model.forecast(config_.horizon, 0.0);
                double forecast_peak = fc.peak();
                if (!std::isfinite(forecast_peak)) throw InvalidArgument(continuum::detail::message("forecast peak {} is not finite", forecast_peak));
                forecast_peak = std::max(forecast_peak, 0.0);
                peak = std::max(peak, forecast_peak);
                how = continuum::detail::message("{} forecasts a peak of {:.3f} cores over {} steps (now {:.3f})", model.name(), forecast_peak, config_.horizon,
                                                 history.back());
            } catch (const Error& e) {
                peak = *std::max_element(history.begin(), history.end());
                how = continuum::detail::message("forecast failed ({}); reactive peak {:.3f} cores", e.what(), peak);
            }
        } else {
            peak = *std::max_element(history.begin(), history.end());
            how = continuum::detail::message("{} < min_history {}: reactive peak {:.3f} cores", continuum::detail::counted(std::ssize(history), "observation"), config_.min_history, peak);
        }
        plan.peak_cores = peak;
        const std::int64_t raw = replicas_for_peak(peak, app.pod_request.cpu_millis(), policy.target_utilization);
        plan.required_replicas = std::clamp(raw, policy.min_replicas, policy.max_replicas);
        how += continuum::detail::message("; ceil({:.3f} / ({}m x {:g})) = {}", peak, app.pod_request.cpu_millis(), policy.target_utilization, raw);
        if (plan.required_replicas != raw) how += continuum::detail::message(", bounded to [{}, {}] = {}", policy.min_replicas, policy.max_replicas, plan.required_replicas);
        plan.planned_replicas = plan.required_replicas;
        plan.reason = std::move(how);
        return plan;
    }

    /// Capacity and node type of a pool: from the policy that names it, else from the snapshot.
    [[nodiscard]] std::optional<packing::NodeType> node_type_of(const NodePoolState& pool) const {
        for (const auto& p : selector_.policies()) {
            if (p.node_pool == pool.name) return p.node_type;
        }
        return pool.node_type;
    }

    Packed pack(const NodePoolState& pool, const std::vector<Item>& items, Dep<HierarchicalDecision>& out) const {
        Packed result;
        Dep<std::vector<Resources>> pods;
        Dep<std::vector<std::size_t>> owner;
        for (std::size_t i = 0; i < items.size(); ++i) {
            for (std::int64_t k = 0; k < items[i].count; ++k) {
                pods.push_back(*items[i].request);
                owner.push_back(i);
            }
        }
        result.pods = static_cast<std::int64_t>(pods.size());
        const auto type = node_type_of(pool);
        if (pods.empty()) {
            result.optimal = true;
            if (type) result.node_type = type->name;
            return result;
        }
        if (!type) {
            throw InvalidArgument(continuum::detail::message("node pool \"{}\" hosts {} but neither a policy nor NodePoolState.node_type gives its node type",
                                                             pool.name, continuum::detail::counted(std::ssize(pods), "pod")));
        }
        result.node_type = type->name;
        result.cost = type->cost;
        Dep<std::vector<std::size_t>> unplaced = plan_nodes(pods, type->capacity, result);
        Dep<std::map<std::size_t, std::int64_t>> oversized;
        for (std::size_t index : unplaced) ++oversized[owner[index]];
        for (const auto& [item, count] : oversized) {
            out.unschedulable.push_back({items[item].workload, pool.name, *items[item].request, count});
        }
        return result;
    }

    /// The Node Planning Agent's packing of `pods` into nodes of `capacity` with the configured
    /// planner (FFD, or the exact solver within its budget): sets nodes, lower_bound and optimal of
    /// `result`, returns the indices of pods larger than a node.
    std::vector<std::size_t> plan_nodes(const Dep<std::vector<Resources>>& pods, const Resources& capacity, Packed& result) const {
        if (config_.node_planner == NodePlanner::exact) {
            auto exact = packing::solve_exact(continuum::detail::span_of(pods), capacity, config_.exact_budget);
            result.nodes = static_cast<std::int64_t>(exact.num_bins());
            result.lower_bound = exact.lower_bound;
            result.optimal = exact.optimal;
            return std::move(exact.unplaced);
        }
        auto ffd = packing::first_fit_decreasing<continuum::detail::deferred_t<void, F>>(continuum::detail::span_of(pods), capacity, config_.order);
        result.nodes = static_cast<std::int64_t>(ffd.num_bins());
        result.lower_bound = result.nodes;
        return std::move(ffd.unplaced);
    }

    /// Provisioning phase: for each application pinned to a pool other than the policy's whose
    /// plan exceeds its replicas, the largest count in (replicas, planned] that, with everything
    /// else pinned to that pool, the configured node planner packs into the pool's current nodes.
    void scale_up_on_old_pools(const Dep<ClusterSnapshot>& snapshot, const policy::Policy& policy, Dep<HierarchicalDecision>& out) const {
        Dep<std::map<std::string, std::int64_t>> counts;  // application -> replicas on its old pool (raised as we go)
        for (const auto& app : snapshot.applications) counts[app.name] = app.replicas;
        for (std::size_t a = 0; a < snapshot.applications.size(); ++a) {
            const auto& app = snapshot.applications[a];
            const auto& plan = out.applications[a];
            if (app.node_pool.empty() || app.node_pool == policy.node_pool || plan.planned_replicas <= app.replicas) continue;
            const NodePoolState& pool = pool_state(snapshot, app.node_pool, "an application's node_pool");
            const auto type = node_type_of(pool);
            if (!type || pool.size <= 0) continue;
            const auto fits = [&](std::int64_t replicas) {
                Dep<std::vector<Resources>> pods;
                for (const auto& other : snapshot.applications) {
                    if (other.node_pool != pool.name) continue;
                    const std::int64_t n = other.name == app.name ? replicas : counts[other.name];
                    pods.insert(pods.end(), static_cast<std::size_t>(n), other.pod_request);
                }
                for (const auto& other : snapshot.other_workloads) {
                    if (other.node_pool == pool.name) pods.insert(pods.end(), static_cast<std::size_t>(other.count), other.request);
                }
                Packed packed;
                return plan_nodes(pods, type->capacity, packed).empty() && packed.nodes <= pool.size;
            };
            std::int64_t lo = app.replicas, hi = plan.planned_replicas;  // invariant: lo fits (or is the current count), hi + 1 does not
            while (lo < hi) {
                const std::int64_t mid = lo + (hi - lo + 1) / 2;
                if (fits(mid)) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            if (lo <= app.replicas) continue;
            counts[app.name] = lo;
            out.patch_deployments.push_back(
                {app.name, lo, app.node_pool,
                 continuum::detail::message("{}: {} -> {} replicas on {} while {} provisions ({} planned; {} of {} hold {}); {}", policy.name, app.replicas,
                                            lo, app.node_pool, policy.node_pool, plan.planned_replicas, continuum::detail::counted(pool.size, "node"), type->name, lo, plan.reason)});
        }
    }

    /// A scale-in outside a migration, as the Cluster Autoscaler drains: nodes not yet ready are
    /// cancelled first, then ready nodes (fewest managed pods first) are removed only while their
    /// pods reschedule onto the remaining ready nodes and every application's disruption budget,
    /// counted on min(ready, planned) healthy pods (the ReplicaSet may delete surplus pods elsewhere),
    /// allows the evictions. Lowers `plan.planned_size` by what can go; returns the nodes to remove.
    [[nodiscard]] std::vector<std::string> drain_for_shrink(const Dep<ClusterSnapshot>& snapshot, const Dep<HierarchicalDecision>& out, const NodePoolState& pool,
                                                            PoolPlan& plan) const {
        const std::int64_t wanted = pool.size - plan.planned_size;
        Dep<std::vector<packing::DrainNode>> nodes;
        Dep<std::vector<packing::DrainPod>> pods;
        Dep<std::vector<std::size_t>> candidates;
        std::int64_t not_ready = std::max<std::int64_t>(0, pool.size - static_cast<std::int64_t>(pool.nodes.size()));
        for (const auto& node : pool.nodes) {
            if (!node.ready) ++not_ready;
        }
        const std::int64_t cancelled = std::min(wanted, not_ready);
        for (const auto& node : pool.nodes) {
            if (!node.ready) continue;
            nodes.push_back({node.name, node_capacity(pool), node.requested, true});
            for (const auto& entry : node.application_pods) {  // not a structured binding: clang 14 cannot capture those
                const std::string& app = entry.first;
                const std::int64_t count = entry.second;
                const auto it = std::find_if(snapshot.applications.begin(), snapshot.applications.end(), [&](const ApplicationState& a) { return a.name == app; });
                if (it == snapshot.applications.end()) {
                    throw InvalidArgument(continuum::detail::message("node pool \"{}\": node {} lists pods of unknown application \"{}\"", pool.name, node.name, app));
                }
                for (std::int64_t k = 0; k < count; ++k) pods.push_back({nodes.size() - 1, app, it->pod_request, true});
            }
        }
        Dep<std::vector<packing::WorkloadAvailability>> workloads;
        for (std::size_t a = 0; a < snapshot.applications.size(); ++a) {
            const auto& app = snapshot.applications[a];
            std::int64_t ready = 0;
            for (const auto& [where, count] : app.ready_replicas) ready += count;
            const std::int64_t planned = out.applications[a].planned_replicas;
            workloads.push_back({app.name, planned, std::min(ready, planned), app.disruption_budget});
        }
        Dep<std::vector<std::int64_t>> load(nodes.size(), 0);
        for (const auto& pod : pods) ++load[pod.node];
        candidates.resize(nodes.size());
        std::iota(candidates.begin(), candidates.end(), std::size_t{0});
        std::stable_sort(candidates.begin(), candidates.end(), [&](std::size_t a, std::size_t b) {
            if (load[a] != load[b]) return load[a] < load[b];
            return nodes[a].requested.cpu_millis() < nodes[b].requested.cpu_millis();
        });
        const auto drained = packing::plan_drains<continuum::detail::deferred_t<void, F>>(nodes, pods, workloads, candidates, static_cast<std::size_t>(wanted - cancelled));
        Dep<std::vector<std::string>> names;
        for (const auto i : drained.removed) names.push_back(nodes[i].name);
        const std::int64_t removed = cancelled + static_cast<std::int64_t>(names.size());
        if (removed < wanted) {
            plan.planned_size = pool.size - removed;
            plan.reason += continuum::detail::message("; scale-in held at {}: {}", continuum::detail::counted(plan.planned_size, "node"), drained.summary().empty() ? "no node can be drained" : drained.summary());
        }
        if (!names.empty()) plan.reason += continuum::detail::message("; drain {}", fmt::join(names, ", "));
        return names;
    }

    [[nodiscard]] Resources node_capacity(const NodePoolState& pool) const {
        const auto type = node_type_of(pool);
        if (!type) throw InvalidArgument(continuum::detail::message("node pool \"{}\" lists nodes but neither a policy nor NodePoolState.node_type gives its node type", pool.name));
        return type->capacity;
    }

    static std::int64_t bounded_size(const NodePoolState& pool, std::int64_t nodes) {
        std::int64_t size = std::max(nodes, pool.min_size);
        if (pool.max_size != packing::unlimited) size = std::min(size, pool.max_size);
        return size;
    }

    static std::string bound_note(const NodePoolState& pool, std::int64_t nodes) {
        if (pool.max_size != packing::unlimited && nodes > pool.max_size) {
            return continuum::detail::message("; capped at max_size {}: {} short", pool.max_size, continuum::detail::counted(nodes - pool.max_size, "node"));
        }
        if (nodes < pool.min_size) return continuum::detail::message("; raised to min_size {}", pool.min_size);
        return "";
    }

    [[nodiscard]] policy::UtilityState planned_state(const Dep<ClusterSnapshot>& snapshot, const Dep<HierarchicalDecision>& out) const {
        policy::UtilityState state;
        std::int64_t smallest = -1;
        for (std::size_t a = 0; a < snapshot.applications.size(); ++a) {
            const auto& plan = out.applications[a];
            state.demand_cores += plan.peak_cores;
            state.capacity_cores += static_cast<double>(plan.planned_replicas) * static_cast<double>(snapshot.applications[a].pod_request.cpu_millis()) / 1000.0;
            smallest = smallest < 0 ? plan.planned_replicas : std::min(smallest, plan.planned_replicas);
        }
        for (std::size_t i = 0; i < snapshot.node_pools.size(); ++i) {
            const auto type = node_type_of(snapshot.node_pools[i]);
            if (type) state.cost += static_cast<double>(out.pools[i].planned_size) * type->cost;
        }
        state.replicas = smallest < 0 ? 0 : smallest;
        return state;
    }

    static const NodePoolState& pool_state(const Dep<ClusterSnapshot>& snapshot, const std::string& name, const char* role) {
        for (const auto& pool : snapshot.node_pools) {
            if (pool.name == name) return pool;
        }
        throw InvalidArgument(continuum::detail::message("snapshot.node_pools has no pool \"{}\" ({})", name, role));
    }

    static void validate(const Dep<ClusterSnapshot>& snapshot) {
        Dep<std::set<std::string>> pools;
        for (const auto& pool : snapshot.node_pools) {
            if (pool.name.empty()) throw InvalidArgument("snapshot.node_pools: a pool has an empty name");
            if (!pools.insert(pool.name).second) throw InvalidArgument(continuum::detail::message("snapshot.node_pools: duplicate pool \"{}\"", pool.name));
            if (pool.size < 0 || pool.ready_nodes < 0 || pool.min_size < 0) {
                throw InvalidArgument(continuum::detail::message("node pool \"{}\": size {}, ready_nodes {} and min_size {} must be >= 0", pool.name, pool.size,
                                                                 pool.ready_nodes, pool.min_size));
            }
            if (pool.max_size != packing::unlimited && (pool.max_size < 0 || pool.max_size < pool.min_size)) {
                throw InvalidArgument(continuum::detail::message("node pool \"{}\": max_size {} must be unlimited (-1) or >= min_size {}", pool.name, pool.max_size, pool.min_size));
            }
            for (const auto& node : pool.nodes) {
                if (node.name.empty() || node.requested.any_negative()) {
                    throw InvalidArgument(continuum::detail::message("node pool \"{}\": node \"{}\" needs a name and non-negative requests, got {}", pool.name, node.name, node.requested));
                }
                for (const auto& [app, count] : node.application_pods) {
                    if (count < 0) throw InvalidArgument(continuum::detail::message("node pool \"{}\": node {} has application_pods[{}] = {} < 0", pool.name, node.name, app, count));
                }
            }
        }
        Dep<std::set<std::string>> names;
        for (const auto& app : snapshot.applications) {
            if (app.name.empty()) throw InvalidArgument("snapshot.applications: an application has an empty name");
            if (!names.insert(app.name).second) throw InvalidArgument(continuum::detail::message("snapshot.applications: duplicate application \"{}\"", app.name));
            if (app.pod_request.cpu_millis() <= 0 || app.pod_request.any_negative()) {
                throw InvalidArgument(continuum::detail::message("application \"{}\": pod_request must have cpu > 0 and no negative amount, got {}", app.name, app.pod_request));
            }
            if (app.replicas < 0) throw InvalidArgument(continuum::detail::message("application \"{}\": replicas must be >= 0, got {}", app.name, app.replicas));
            continuum::detail::require_finite(continuum::detail::span_of(app.demand), continuum::detail::message("application \"{}\" demand", app.name));
            for (std::size_t i = 0; i < app.demand.size(); ++i) {
                if (app.demand[i] < 0) throw InvalidArgument(continuum::detail::message("application \"{}\" demand[{}] = {} is negative", app.name, i, app.demand[i]));
            }
            if (!app.node_pool.empty() && !pools.contains(app.node_pool)) {
                throw InvalidArgument(continuum::detail::message("application \"{}\": node_pool \"{}\" is not in snapshot.node_pools", app.name, app.node_pool));
            }
            for (const auto& [pool, ready] : app.ready_replicas) {
                if (ready < 0) throw InvalidArgument(continuum::detail::message("application \"{}\": ready_replicas[{}] = {} is negative", app.name, pool, ready));
            }
            try {
                app.disruption_budget.validate();
            } catch (const InvalidArgument& e) {
                throw InvalidArgument(continuum::detail::message("application \"{}\": {}", app.name, e.what()));
            }
        }
        for (const auto& other : snapshot.other_workloads) {
            if (other.count < 0) throw InvalidArgument(continuum::detail::message("other workload \"{}\": count must be >= 0, got {}", other.name, other.count));
            if (other.request.any_negative() || (other.count > 0 && other.request.empty())) {
                throw InvalidArgument(continuum::detail::message("other workload \"{}\": request must be non-negative and not empty, got {}", other.name, other.request));
            }
            if (!pools.contains(other.node_pool)) {
                throw InvalidArgument(continuum::detail::message("other workload \"{}\": node_pool \"{}\" is not in snapshot.node_pools", other.name, other.node_pool));
            }
        }
    }

    policy::PolicySelector selector_;
    F prototype_;
    HierarchicalConfig config_;
    Dep<std::unordered_map<std::string, ReplicaStabilizer>> stabilizers_;
    Migration migration_;
};

}  // namespace continuum::scalers
