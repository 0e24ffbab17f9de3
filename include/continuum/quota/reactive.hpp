// Reactive quota scaling: Algorithm 2 of seed 001 (hybrid resource-quota scaling, section 3.4).
// On a failed or pending deployment, given the namespace's request, its quota, the free cluster
// resources and the waiting-node pool: case 1 deploy as is; case 2 raise the quota by the
// shortfall; case 3 also resume waiting nodes for (shortfall - available). Stateless.
#pragma once

#include <continuum/capacity/activation.hpp>
#include <continuum/capacity/shortfall.hpp>
#include <continuum/capacity/waiting_pool.hpp>
#include <continuum/core/budget.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace continuum::quota {

/// Which case of Algorithm 2 applied.
enum class ReactiveCase {
    sufficient_quota = 1,  ///< case 1: W_req <= Q_current, deploy
    raise_quota = 2,       ///< case 2: raise the quota by the shortfall, the free resources back it
    activate_nodes = 3,    ///< case 3: raise the quota and resume waiting nodes for shortfall - R_avail
    infeasible = 0,        ///< even every waiting node cannot back the shortfall: nothing changes
};

/// "sufficient_quota", "raise_quota", "activate_nodes" or "infeasible".
inline std::string_view to_string(ReactiveCase c) {
    switch (c) {
        case ReactiveCase::sufficient_quota: return "sufficient_quota";
        case ReactiveCase::raise_quota: return "raise_quota";
        case ReactiveCase::activate_nodes: return "activate_nodes";
        case ReactiveCase::infeasible: return "infeasible";
    }
    return "unknown";
}

/// What Algorithm 2 sees when a deployment fails or stays pending for lack of quota.
struct ReactiveSnapshot {
    /// W_req: what the namespace's quota must admit for the deployment to proceed, i.e. the
    /// namespace's current usage plus the new pods' requests (ResourceQuota status.used + request).
    Resources request;
    /// Q_current: the namespace's current quota (ResourceQuota / FRQ spec.overall hard limits).
    Resources current_quota;
    /// R_avail: cluster resources not yet promised to any quota (free capacity).
    Resources available;
    /// WWN: the paused / hibernated nodes that may be resumed.
    std::span<const capacity::WaitingNode> waiting_nodes;
};

/// Tuning of the reactive scaler.
struct ReactiveConfig {
    /// How to choose among waiting nodes in case 3.
    capacity::ActivationObjective objective = capacity::ActivationObjective::fewest_nodes;
    /// Work limit for the node choice.
    Budget budget{capacity::default_activation_node_limit, {}};
};

/// The decision of one reactive step.
struct ReactiveDecision {
    ReactiveCase kind = ReactiveCase::sufficient_quota;
    Resources new_quota;                 ///< the quota to write; equals current_quota in cases 1 and infeasible
    Resources quota_increase;            ///< new_quota - current_quota (the paper's Shortfall; empty in case 1)
    capacity::ActivationPlan activation; ///< nodes to resume (case 3 only)
    Resources still_missing;             ///< infeasible: what the free resources and the whole pool lack
    std::string reason;                  ///< one readable line naming the case

    /// 1, 2 or 3 as in the paper; 0 when infeasible.
    [[nodiscard]] int case_number() const { return static_cast<int>(kind); }
    /// True when the deployment can proceed once the decision is applied (every case but infeasible).
    [[nodiscard]] bool deploy() const { return kind != ReactiveCase::infeasible; }
    /// Names of the waiting nodes to resume (empty unless case 3).
    [[nodiscard]] const std::vector<std::string>& nodes_to_activate() const { return activation.names; }
};

/// Algorithm 2, one step. Resources are compared per resource: case 1 when request fits in the
/// quota in every resource; otherwise Shortfall = positive part of (request - quota) and the new
/// quota is quota + Shortfall (= per-resource max(quota, request): a reactive step never lowers a
/// quota). Case 2 when Shortfall fits in `available`; case 3 when waiting nodes covering
/// positive part of (Shortfall - available) exist (chosen by choose_nodes_to_activate); otherwise
/// the decision is `infeasible`, the quota is left unchanged, no node is resumed and
/// `still_missing` says what the free resources plus the whole pool lack.
/// Invariant (property-tested): unless infeasible, request.fits_in(new_quota).
/// \throws InvalidArgument for a negative amount in request, current_quota or available (naming
///         it), an invalid pool or budget.
template <typename Defer = void>
[[nodiscard]] ReactiveDecision reactive_quota_step(const ReactiveSnapshot& snapshot, const ReactiveConfig& config = {}) {
    capacity::detail::require_non_negative(snapshot.request, "reactive quota scaling: request");
    capacity::detail::require_non_negative(snapshot.current_quota, "reactive quota scaling: current_quota");
    capacity::detail::require_non_negative(snapshot.available, "reactive quota scaling: available");
    capacity::validate_pool<Defer>(snapshot.waiting_nodes);
    ReactiveDecision decision;
    decision.new_quota = snapshot.current_quota;
    if (snapshot.request.fits_in(snapshot.current_quota)) {
        decision.kind = ReactiveCase::sufficient_quota;
        decision.reason = continuum::detail::message("case 1 (sufficient quota): request {} fits in quota {}; deploy", snapshot.request, snapshot.current_quota);
        return decision;
    }
    const Resources shortfall = capacity::shortfall(snapshot.request, snapshot.current_quota);
    if (shortfall.fits_in(snapshot.available)) {
        decision.kind = ReactiveCase::raise_quota;
        decision.quota_increase = shortfall;
        decision.new_quota = snapshot.current_quota + shortfall;
        decision.reason = continuum::detail::message("case 2 (raise quota): request {} exceeds quota {} by {}, which the free cluster resources {} cover; quota -> {}",
                                                     snapshot.request, snapshot.current_quota, shortfall, snapshot.available, decision.new_quota);
        return decision;
    }
    const Resources node_shortfall = capacity::shortfall(shortfall, snapshot.available);
    capacity::ActivationPlan plan = capacity::choose_nodes_to_activate<Defer>(node_shortfall, snapshot.waiting_nodes, config.objective, config.budget);
    if (!plan.covers()) {
        decision.kind = ReactiveCase::infeasible;
        decision.still_missing = plan.still_missing;
        decision.reason = continuum::detail::message("infeasible: request {} exceeds quota {} by {}; the free resources {} lack {} and {}; quota unchanged",
                                                     snapshot.request, snapshot.current_quota, shortfall, snapshot.available, node_shortfall,
                                                     capacity::detail::uncovered_by_pool(snapshot.waiting_nodes.size(), plan.still_missing));
        return decision;
    }
    decision.kind = ReactiveCase::activate_nodes;
    decision.quota_increase = shortfall;
    decision.new_quota = snapshot.current_quota + shortfall;
    decision.activation = std::move(plan);
    decision.reason = continuum::detail::message("case 3 (activate nodes): request {} exceeds quota {} by {}; free resources {} lack {}; {}; quota -> {}",
                                                 snapshot.request, snapshot.current_quota, shortfall, snapshot.available, node_shortfall,
                                                 decision.activation.reason, decision.new_quota);
    return decision;
}

/// The state of a ReactiveQuotaScaler: none (Algorithm 2 is stateless); kept so every scaler has one.
struct ReactiveQuotaScalerState {
    friend bool operator==(const ReactiveQuotaScalerState&, const ReactiveQuotaScalerState&) = default;
};

/// Algorithm 2 as an object holding its configuration; decide() is const and stateless.
template <typename Defer = void>
class BasicReactiveQuotaScaler {
public:
    using State = ReactiveQuotaScalerState;

    explicit BasicReactiveQuotaScaler(ReactiveConfig config = {}) : config_(std::move(config)) { config_.budget.validate(); }
    /// The scaler with `config` (the state is empty). \throws InvalidArgument on an invalid budget.
    BasicReactiveQuotaScaler(ReactiveConfig config, const ReactiveQuotaScalerState& /*state*/) : BasicReactiveQuotaScaler(std::move(config)) {}
    [[nodiscard]] ReactiveQuotaScalerState state() const { return {}; }
    /// One reactive step (see reactive_quota_step). \throws as reactive_quota_step.
    [[nodiscard]] ReactiveDecision decide(const ReactiveSnapshot& snapshot) const { return reactive_quota_step<Defer>(snapshot, config_); }
    [[nodiscard]] const ReactiveConfig& config() const { return config_; }

private:
    ReactiveConfig config_;
};

/// `ReactiveQuotaScaler` is `BasicReactiveQuotaScaler<>`; the parameter only keeps the members from compiling in a unit that does
/// not use them (issue 21).
using ReactiveQuotaScaler = BasicReactiveQuotaScaler<>;

}  // namespace continuum::quota
