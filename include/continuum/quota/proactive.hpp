// Proactive quota scaling: Algorithm 1 of seed 001 (hybrid resource-quota scaling, section 3.3).
// A predicted increase raises the quota to the prediction, resuming waiting nodes first when the
// cluster cannot back it; a predicted decrease targets snap_up(prediction) but is applied only once
// actual usage has come down (WaitUntilActualDemandDecreases, kept as explicit state with the time
// passed in), followed by a consolidation plan that lets redundant nodes stop (packing module).
#pragma once

#include <continuum/capacity/activation.hpp>
#include <continuum/capacity/shortfall.hpp>
#include <continuum/capacity/waiting_pool.hpp>
#include <continuum/core/budget.hpp>
#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>
#include <continuum/packing/consolidation.hpp>
#include <continuum/quota/detail/resources_ops.hpp>
#include <continuum/quota/levels.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace continuum::quota {

/// When a pending decrease may be applied (Algorithm 1 lines 16-17).
enum class DecreaseCondition {
    /// Usage fits in the lowered target in every decreasing resource (default): the quota is never
    /// set below what the namespace is using right now.
    usage_within_target,
    /// The paper's literal line 17, CurrentUsage < CurrentQuota, in every decreasing resource.
    /// Since a namespace's usage can never exceed its quota, this is nearly always true; it may
    /// set the quota below current usage (Kubernetes then admits no new pods until usage drops).
    usage_below_current_quota,
};

/// What the proactive step decided.
enum class ProactiveAction {
    hold,                     ///< nothing to change
    raise_quota,              ///< predicted increase the cluster backs: quota = prediction
    activate_and_raise_quota, ///< predicted increase: resume waiting nodes, then quota = prediction
    infeasible,               ///< predicted increase that even the whole waiting pool cannot back: quota unchanged
    wait_for_usage_decrease,  ///< predicted decrease pending: usage has not come down yet
    lower_quota,              ///< predicted decrease applied: quota = snap_up(prediction), consolidation follows
};

/// "hold", "raise_quota", ... as written in code.
inline std::string_view to_string(ProactiveAction action) {
    switch (action) {
        case ProactiveAction::hold: return "hold";
        case ProactiveAction::raise_quota: return "raise_quota";
        case ProactiveAction::activate_and_raise_quota: return "activate_and_raise_quota";
        case ProactiveAction::infeasible: return "infeasible";
        case ProactiveAction::wait_for_usage_decrease: return "wait_for_usage_decrease";
        case ProactiveAction::lower_quota: return "lower_quota";
    }
    return "unknown";
}

/// Tuning of the proactive scaler.
struct ProactiveConfig {
    /// The resources the scaler manages (the ones it is given predictions for); others are never
    /// touched. The paper forecasts CPU only. Must be non-empty, names unique.
    std::vector<std::string> resources{"cpu"};
    /// Operator-defined levels used when lowering (GetNearestQuotaLevel). A managed resource
    /// without levels is lowered to the prediction itself.
    ResourceQuotaLevels levels;
    /// When a pending decrease may be applied.
    DecreaseCondition condition = DecreaseCondition::usage_within_target;
    /// How long the condition must hold without interruption before lowering (0 = at once).
    Duration decrease_hold{0};
    /// How to choose among waiting nodes.
    capacity::ActivationObjective objective = capacity::ActivationObjective::fewest_nodes;
    /// Work limit for the node choice and for consolidation.
    Budget budget{capacity::default_activation_node_limit, {}};

    /// \throws InvalidArgument on an empty or duplicated resource list, a negative hold, a bad budget.
    template <typename Defer = void>  // called as validate(): compiled only where called (issue 21)
    void validate() const {
        if (resources.empty()) throw InvalidArgument("proactive quota scaling: config.resources must name at least one resource");
        for (std::size_t i = 0; i < resources.size(); ++i) {
            if (resources[i].empty()) throw InvalidArgument(continuum::detail::message("proactive quota scaling: config.resources[{}] is empty", i));
            for (std::size_t j = 0; j < i; ++j) {
                if (resources[i] == resources[j]) {
                    throw InvalidArgument(continuum::detail::message("proactive quota scaling: config.resources names \"{}\" twice", resources[i]));
                }
            }
        }
        if (decrease_hold.count() < 0) {
            throw InvalidArgument(continuum::detail::message("proactive quota scaling: config.decrease_hold must be >= 0 ms, got {} ms", decrease_hold.count()));
        }
        budget.validate();
    }
};

/// What Algorithm 1 sees at one tick.
struct ProactiveSnapshot {
    Time now{0};                  ///< the host's clock; must not go backwards between calls
    Resources prediction;         ///< w_pred for the managed resources (build with Resources::from_forecast); absent = 0
    Resources current_quota;      ///< CurrentQuota
    Resources current_usage;      ///< the namespace's actual usage (ResourceQuota status.used)
    /// CurrentClusterResources: the capacity this namespace's quota may draw on (a cluster
    /// dedicated to it: the allocatable capacity of its active nodes; shared: that minus the
    /// other namespaces' quotas).
    Resources cluster_resources;
    std::span<const capacity::WaitingNode> waiting_nodes;  ///< WaitingWorkerNodes
    /// The active nodes and their pods, for the consolidation that follows a decrease (optional:
    /// empty = no consolidation plan).
    std::span<const packing::NodeState> nodes;
};

/// The decision of one proactive step.
struct ProactiveDecision {
    ProactiveAction action = ProactiveAction::hold;
    Resources new_quota;                   ///< the quota to write (equal to current_quota when unchanged)
    Resources target_quota;                ///< where the scaler is heading (a pending decrease's target, else new_quota)
    capacity::ActivationPlan activation;   ///< waiting nodes to resume first (activate_and_raise_quota)
    std::optional<packing::ConsolidationPlan> consolidation;  ///< after lower_quota, when nodes were given
    Resources still_missing;               ///< infeasible: what cluster_resources plus the whole pool lack
    std::vector<std::string> above_top_level;  ///< managed resources whose prediction exceeded their top level
    std::string reason;                    ///< one readable line

    /// Names of the waiting nodes to resume (empty unless activate_and_raise_quota).
    [[nodiscard]] const std::vector<std::string>& nodes_to_activate() const { return activation.names; }
};

/// The explicit state of WaitUntilActualDemandDecreases: a lowered target waiting for usage.
struct PendingDecrease {
    Resources target;                      ///< the lowered quota for the decreasing resources
    Time since{0};                         ///< when the decrease was first predicted
    std::optional<Time> condition_since;   ///< since when the decrease condition has held, if it holds

    friend bool operator==(const PendingDecrease&, const PendingDecrease&) = default;
};

/// Everything a ProactiveQuotaScaler remembers: the pending decrease and the last time seen.
struct ProactiveQuotaScalerState {
    std::optional<PendingDecrease> pending;
    std::optional<Time> last_now;

    friend bool operator==(const ProactiveQuotaScalerState&, const ProactiveQuotaScalerState&) = default;
};

namespace detail {

/// \throws InvalidArgument when `r` has a resource the config does not manage.
template <typename Defer = void>  // compiled only where called (issue 21)
void require_managed(const Resources& r, const ProactiveConfig& config, std::string_view argument) {
    for (const auto& [name, value] : r) {
        bool managed = false;
        for (const auto& m : config.resources) managed = managed || same_name(m, name);
        if (!managed) {
            throw InvalidArgument(continuum::detail::message("proactive quota scaling: {} has \"{}\" = {} but the scaler manages only [{}]", argument, name,
                                                             format_resource(name, value), fmt::join(config.resources, ", ")));
        }
    }
}

/// The per-resource intent of Algorithm 1, before any capacity check.
struct ProactiveIntent {
    Resources increase;        ///< managed resources predicted above the quota: their prediction
    Resources decrease;        ///< managed resources to lower: their new, smaller (and positive) quota
    std::vector<std::string> above_top_level;
};

/// Splits the managed resources into predicted increases and decreases (Algorithm 1 lines 2, 13,
/// 15). A decrease whose snapped target would not lower the quota, or would lower it to zero
/// (which a Resources cannot tell from "no limit"), is dropped.
template <typename Defer = void>  // compiled only where called (issue 21)
ProactiveIntent proactive_intent(const ProactiveConfig& config, const Resources& prediction, const Resources& quota) {
    ProactiveIntent intent;
    for (const auto& name : config.resources) {
        const std::int64_t predicted = prediction.get(name);
        const std::int64_t current = quota.get(name);
        if (predicted > current) {
            intent.increase.set(name, predicted);
        } else if (predicted < current) {
            std::int64_t target = predicted;
            if (const QuotaLevels* levels = config.levels.find(name)) {
                const Snap snap = levels->try_snap_up(predicted);
                if (snap.outcome == SnapOutcome::above_top) intent.above_top_level.push_back(name);
                target = snap.value;
            }
            if (target > 0 && target < current) intent.decrease.set(name, target);
        }
    }
    return intent;
}

/// Why a step changes nothing (no increase, no decrease), as a sentence after "hold: ": the prediction
/// equals the quota, or it snaps up to the quota levels at the quota (or above it), or it is zero
/// (a quota is never lowered to zero).
template <typename Defer = void>  // compiled only where called (issue 21)
std::string hold_reason(const ProactiveConfig& config, const Resources& prediction, const Resources& quota) {
    Resources managed_quota;
    Resources snapped;
    for (const auto& name : config.resources) {
        const std::int64_t current = quota.get(name);
        if (current != 0) managed_quota.set(name, current);
        std::int64_t target = prediction.get(name);
        if (const QuotaLevels* levels = config.levels.find(name); levels != nullptr && target < current) target = levels->try_snap_up(target).value;
        if (target != 0) snapped.set(name, target);
    }
    if (prediction == managed_quota) return continuum::detail::message("prediction {} equals the quota; quota unchanged", prediction);
    if (snapped.empty()) return continuum::detail::message("the prediction is zero and a quota is never lowered to zero; quota {} unchanged", managed_quota);
    if (snapped == managed_quota) {
        return continuum::detail::message("prediction {} snaps up to the quota level {}, the current quota; quota unchanged", prediction, snapped);
    }
    return continuum::detail::message("prediction {} snaps up to {} on the quota levels, not below the quota {}; quota unchanged", prediction, snapped, managed_quota);
}

/// True when the pending decrease may be applied now (condition only; the hold is separate).
template <typename Defer = void>  // compiled only where called (issue 21)
bool decrease_condition_holds(DecreaseCondition condition, const Resources& decrease, const Resources& usage, const Resources& quota) {
    for (const auto& [name, target] : decrease) {
        const std::int64_t used = usage.get(name);
        if (condition == DecreaseCondition::usage_within_target ? used > target : used >= quota.get(name)) return false;
    }
    return true;
}

/// What a DecreaseStep did.
enum class DecreaseOutcome { none, waiting_for_usage, holding, lowered };

/// The condition-and-hold part of advance_decrease, once `pending` (non-empty) holds the target:
/// `condition_holds` is decrease_condition_holds for this step.
template <typename Defer = void>  // compiled only where called (issue 21)
DecreaseOutcome advance_pending(std::optional<PendingDecrease>& pending, const ProactiveConfig& config, bool condition_holds, Time now,
                                       Duration* hold_left = nullptr) {
    if (!condition_holds) {
        pending->condition_since.reset();
        return DecreaseOutcome::waiting_for_usage;
    }
    if (!pending->condition_since) pending->condition_since = now;
    const Duration held = now - *pending->condition_since;
    if (held < config.decrease_hold) {
        if (hold_left) *hold_left = config.decrease_hold - held;
        return DecreaseOutcome::holding;
    }
    pending.reset();
    return DecreaseOutcome::lowered;
}

/// WaitUntilActualDemandDecreases as a step function over the explicit PendingDecrease state,
/// shared by ProactiveQuotaScaler and HybridQuotaScaler. `intent.decrease` are the lowered targets.
/// \throws InvalidArgument naming `field` when a restored pending decrease has a negative target
///         or times after `last_now` (or condition_since before since).
template <typename Defer = void>  // compiled only where called (issue 21)
void validate_pending(const std::optional<PendingDecrease>& pending, const std::optional<Time>& last_now, std::string_view who,
                             std::string_view field) {
    if (!pending) return;
    if (pending->target.any_negative()) throw InvalidArgument(continuum::detail::message("{} restore: {}.target has a negative amount: {}", who, field, pending->target));
    if (!last_now || pending->since > *last_now) {
        throw InvalidArgument(continuum::detail::message("{} restore: {}.since = {} ms is not before the last time seen", who, field, pending->since.count()));
    }
    if (pending->condition_since && (*pending->condition_since < pending->since || *pending->condition_since > *last_now)) {
        throw InvalidArgument(continuum::detail::message("{} restore: {}.condition_since = {} ms is not between since and the last time seen", who, field,
                                                         pending->condition_since->count()));
    }
}

template <typename Defer = void>  // compiled only where called (issue 21)
DecreaseOutcome advance_decrease(std::optional<PendingDecrease>& pending, const ProactiveConfig& config, const ProactiveIntent& intent,
                                        const Resources& usage, const Resources& quota, Time now, Duration* hold_left = nullptr) {
    if (intent.decrease.empty()) {
        pending.reset();
        return DecreaseOutcome::none;
    }
    Resources target = quota;
    for (const auto& [name, value] : intent.decrease) target.set(name, value);
    if (!pending) pending = PendingDecrease{Resources{}, now, std::nullopt};
    pending->target = std::move(target);
    return advance_pending(pending, config, decrease_condition_holds(config.condition, intent.decrease, usage, quota), now, hold_left);
}

}  // namespace detail

/// Algorithm 1 with its WaitUntilActualDemandDecreases state. Call decide() once per prediction.
///
/// Per managed resource r: if prediction[r] > quota[r] (increase), the new quota is the prediction
/// when cluster_resources covers the predictions of every increasing resource; otherwise the
/// shortfall (prediction - cluster_resources) is covered by resuming waiting nodes (chosen by
/// choose_nodes_to_activate) and then the quota is set (the paper's text: "once the waiting nodes
/// are activated, the quota is adjusted"); if even the whole pool cannot cover it the decision is
/// `infeasible` and the quota unchanged. If prediction[r] < quota[r] (decrease), the target is
/// snap_up(prediction[r]) (the prediction itself above the top level, reported in
/// above_top_level, or without levels); it is applied once `condition` has held for
/// `decrease_hold`, and then a consolidation plan is computed over `nodes` (when given).
/// Increases and decreases of different resources may happen in one step; consolidation is
/// planned only when nothing increases.
template <typename Defer = void>
class BasicProactiveQuotaScaler {
private:
    /// T, spelled dependent on Defer: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, Defer>;

public:
    using State = ProactiveQuotaScalerState;

    /// \throws InvalidArgument when the config is invalid (see ProactiveConfig::validate).
    explicit BasicProactiveQuotaScaler(ProactiveConfig config = {}) : config_(std::move(config)) { config_.template validate<Defer>(); }
    /// The scaler with `config` as it was when `state` was taken.
    /// \throws InvalidArgument when the config is invalid, or the pending decrease has a negative
    ///         target or times after state.last_now (naming the field).
    BasicProactiveQuotaScaler(ProactiveConfig config, const ProactiveQuotaScalerState& state) : BasicProactiveQuotaScaler(std::move(config)) {
        detail::validate_pending(state.pending, state.last_now, "proactive quota scaling", "state.pending");
        pending_ = state.pending;
        last_now_ = state.last_now;
    }
    [[nodiscard]] ProactiveQuotaScalerState state() const { return {pending_, last_now_}; }

    /// One step of Algorithm 1 at snapshot.now.
    /// \throws InvalidArgument for a negative amount in any Resources (naming it), a prediction for
    ///         a resource the scaler does not manage, time going backwards, an invalid pool.
    template <typename = void>  // compiled only where called, with the consolidation it plans
    ProactiveDecision decide(const ProactiveSnapshot& s) {
        capacity::detail::require_non_negative(s.prediction, "proactive quota scaling: prediction");
        capacity::detail::require_non_negative(s.current_quota, "proactive quota scaling: current_quota");
        capacity::detail::require_non_negative(s.current_usage, "proactive quota scaling: current_usage");
        capacity::detail::require_non_negative(s.cluster_resources, "proactive quota scaling: cluster_resources");
        detail::require_managed(s.prediction, config_, "prediction");
        capacity::validate_pool<Defer>(s.waiting_nodes);
        if (last_now_ && s.now < *last_now_) {
            throw InvalidArgument(continuum::detail::message("proactive quota scaling: now = {} ms is before the previous call's {} ms", s.now.count(), last_now_->count()));
        }
        last_now_ = s.now;

        const detail::ProactiveIntent intent = detail::proactive_intent(config_, s.prediction, s.current_quota);
        ProactiveDecision d;
        d.new_quota = s.current_quota;
        d.above_top_level = intent.above_top_level;
        Dep<std::vector<std::string>> parts;

        // Case 1 of Algorithm 1: predicted increase.
        if (!intent.increase.empty()) {
            const Resources missing = capacity::shortfall(intent.increase, s.cluster_resources);
            if (missing.empty()) {
                d.action = ProactiveAction::raise_quota;
                for (const auto& [name, value] : intent.increase) d.new_quota.set(name, value);
                parts.push_back(continuum::detail::message("predicted increase to {} fits in the cluster resources {}: quota raised to the prediction",
                                                           intent.increase, s.cluster_resources));
            } else {
                capacity::ActivationPlan plan = capacity::choose_nodes_to_activate<Defer>(missing, s.waiting_nodes, config_.objective, config_.budget);
                if (plan.covers()) {
                    d.action = ProactiveAction::activate_and_raise_quota;
                    for (const auto& [name, value] : intent.increase) d.new_quota.set(name, value);
                    parts.push_back(continuum::detail::message("predicted increase to {} exceeds the cluster resources {} by {}: {}; then quota raised to the prediction",
                                                               intent.increase, s.cluster_resources, missing, plan.reason));
                    d.activation = std::move(plan);
                } else {
                    d.action = ProactiveAction::infeasible;
                    d.still_missing = plan.still_missing;
                    parts.push_back(continuum::detail::message("predicted increase to {} exceeds the cluster resources {} by {} and {}; quota unchanged", intent.increase,
                                                               s.cluster_resources, missing, capacity::detail::uncovered_by_pool(s.waiting_nodes.size(), plan.still_missing)));
                }
            }
        }

        // Case 2 of Algorithm 1: predicted decrease, applied only once usage has come down.
        Duration hold_left{0};
        const detail::DecreaseOutcome outcome =
            detail::advance_decrease(pending_, config_, intent, s.current_usage, s.current_quota, s.now, &hold_left);
        const bool lowered = outcome == detail::DecreaseOutcome::lowered;
        switch (outcome) {
            case detail::DecreaseOutcome::none: break;
            case detail::DecreaseOutcome::lowered:
                for (const auto& [name, value] : intent.decrease) d.new_quota.set(name, value);
                parts.push_back(continuum::detail::message("predicted decrease to {}: usage {} has come down, quota lowered to {} (prediction snapped up to the quota levels){}",
                                                           s.prediction, s.current_usage, intent.decrease, above_top_note(intent)));
                break;
            case detail::DecreaseOutcome::holding:
                parts.push_back(continuum::detail::message("predicted decrease to {}: usage {} is down, target {} waits {} s more (hold {} s)", s.prediction,
                                                           s.current_usage, intent.decrease, to_seconds(hold_left), to_seconds(config_.decrease_hold)));
                break;
            case detail::DecreaseOutcome::waiting_for_usage:
                parts.push_back(continuum::detail::message("predicted decrease to {}: target {} waits until usage {} actually comes down{}", s.prediction,
                                                           intent.decrease, s.current_usage, above_top_note(intent)));
                break;
        }

        if (d.action == ProactiveAction::hold) {
            if (lowered) {
                d.action = ProactiveAction::lower_quota;
                if (!s.nodes.empty()) {
                    d.consolidation = packing::plan_consolidation(s.nodes, config_.budget);
                    parts.push_back(continuum::detail::message("consolidation: {}", d.consolidation->reason));
                }
            } else if (pending_) {
                d.action = ProactiveAction::wait_for_usage_decrease;
            }
        }
        if (parts.empty()) parts.push_back(detail::hold_reason(config_, s.prediction, s.current_quota));
        d.target_quota = pending_ ? pending_->target : d.new_quota;
        d.reason = continuum::detail::message("{}: {}", to_string(d.action), fmt::join(parts, "; "));
        return d;
    }

    /// The pending decrease, if one is waiting for usage to come down.
    [[nodiscard]] const std::optional<PendingDecrease>& pending() const { return pending_; }
    /// Forgets the pending decrease and the last time seen.
    void reset() {
        pending_.reset();
        last_now_.reset();
    }
    [[nodiscard]] const ProactiveConfig& config() const { return config_; }

private:
    static std::string above_top_note(const detail::ProactiveIntent& intent) {
        if (intent.above_top_level.empty()) return "";
        return continuum::detail::message(" (no quota level covers the prediction for [{}]: the prediction itself is used)", fmt::join(intent.above_top_level, ", "));
    }

    ProactiveConfig config_;
    std::optional<PendingDecrease> pending_;
    std::optional<Time> last_now_;
};

/// `ProactiveQuotaScaler` is `BasicProactiveQuotaScaler<>`; the parameter only keeps the members from compiling in a unit that does
/// not use them (issue 21).
using ProactiveQuotaScaler = BasicProactiveQuotaScaler<>;

}  // namespace continuum::quota
