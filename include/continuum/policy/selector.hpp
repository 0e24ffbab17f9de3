// The MAS-H² Strategic Agent's choice P* = SA(C) (seed 004, eq. 1): the active policy from the
// context C — an explicit override (the paper's ConfigMap), external signals ("flash_sale" = "on"),
// time windows (business hours) — or, when no rule applies and it is enabled, the candidate whose
// planned state maximises the utility U(S | P). Precedence: override, signals, windows, utility,
// default. Stateless: the context, including the time, is passed in.
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/time.hpp>
#include <continuum/policy/policy.hpp>
#include <continuum/policy/utility.hpp>

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::policy {

/// The policy applies while (now mod period) lies in [begin, end); when begin > end the window
/// wraps around the period's end (22:00–06:00). Times are offsets within the period.
struct TimeWindow {
    std::string policy;
    Duration begin{0};
    Duration end{0};
    Duration period = std::chrono::hours(24);
};

/// The policy applies while the external signal `signal` has the value `value`.
struct SignalRule {
    std::string signal;
    std::string value;
    std::string policy;
};

/// The context C.
struct SelectionContext {
    Time now{0};
    std::map<std::string, std::string> signals;
    /// An explicit policy name (operator override); wins over every rule.
    std::optional<std::string> override_policy;
};

enum class SelectionSource { override_policy, signal, time_window, utility, default_policy };

/// The chosen policy and why.
struct Selection {
    std::size_t index = 0;  ///< into PolicySelector::policies()
    std::string policy;
    SelectionSource source = SelectionSource::default_policy;
    /// Per candidate utility when source == utility (same order as policies()), else empty.
    std::vector<double> utilities;
    std::string reason;
};

/// `PolicySelector` is `BasicPolicySelector<>` (below); the parameter only keeps the members from
/// compiling in a unit that does not use them (issue 21).
template <typename Defer = void>
class BasicPolicySelector {
private:
    /// T, spelled dependent on Defer: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, Defer>;

public:
    /// \throws InvalidArgument when `policies` is empty, a policy is invalid, two share a name, two
    ///         on the same pool disagree on its node type capacity, or `default_policy` is unknown.
    BasicPolicySelector(std::vector<Policy> policies, std::string default_policy)
        : policies_(std::move(policies)), default_(std::move(default_policy)) {
        if (policies_.empty()) throw InvalidArgument("policy selector: policies must not be empty");
        for (std::size_t i = 0; i < policies_.size(); ++i) {
            policies_[i].template validate<Defer>();
            for (std::size_t j = 0; j < i; ++j) {
                if (policies_[j].name == policies_[i].name) {
                    throw InvalidArgument(continuum::detail::message("policy selector: duplicate policy name \"{}\"", policies_[i].name));
                }
                if (policies_[j].node_pool == policies_[i].node_pool && !(policies_[j].node_type.capacity == policies_[i].node_type.capacity)) {
                    throw InvalidArgument(continuum::detail::message("policy selector: policies \"{}\" and \"{}\" share pool \"{}\" with different capacities {} and {}",
                                                                     policies_[j].name, policies_[i].name, policies_[i].node_pool,
                                                                     policies_[j].node_type.capacity, policies_[i].node_type.capacity));
                }
            }
        }
        (void)index_of(default_, "default_policy");
    }

    /// \throws InvalidArgument when the policy is unknown or the window is malformed.
    BasicPolicySelector& add_time_window(TimeWindow window) {
        (void)index_of(window.policy, "time window policy");
        if (window.period <= Duration{0}) throw InvalidArgument(continuum::detail::message("time window: period must be > 0, got {} ms", window.period.count()));
        if (window.begin < Duration{0} || window.begin >= window.period || window.end < Duration{0} || window.end > window.period) {
            throw InvalidArgument(continuum::detail::message("time window: begin {} ms and end {} ms must lie within the period of {} ms", window.begin.count(),
                                                             window.end.count(), window.period.count()));
        }
        windows_.push_back(std::move(window));
        return *this;
    }

    /// \throws InvalidArgument when the policy is unknown or the signal name is empty.
    BasicPolicySelector& add_signal_rule(SignalRule rule) {
        (void)index_of(rule.policy, "signal rule policy");
        if (rule.signal.empty()) throw InvalidArgument("signal rule: signal name must not be empty");
        signal_rules_.push_back(std::move(rule));
        return *this;
    }

    /// When no rule applies, pick the candidate of maximum utility (ties: first) instead of the
    /// default. `weights` scores every candidate under the same weights (recommended); nullopt
    /// scores each candidate under its own. \throws InvalidArgument on invalid weights.
    BasicPolicySelector& maximize_utility(bool enabled, std::optional<UtilityWeights> weights = std::nullopt) {
        maximize_utility_ = enabled;
        utility_ = BasicUtility<Defer>(weights);
        return *this;
    }
    [[nodiscard]] bool maximizes_utility() const { return maximize_utility_; }

    [[nodiscard]] const std::vector<Policy>& policies() const { return policies_; }
    [[nodiscard]] const std::string& default_policy() const { return default_; }
    [[nodiscard]] const std::vector<TimeWindow>& time_windows() const { return windows_; }
    [[nodiscard]] const std::vector<SignalRule>& signal_rules() const { return signal_rules_; }
    [[nodiscard]] const BasicUtility<Defer>& utility() const { return utility_; }

    /// \throws InvalidArgument when no policy has this name.
    [[nodiscard]] const Policy& policy(const std::string& name) const { return policies_[index_of(name, "policy")]; }

    /// Rules only; falls back to the default policy (utility maximisation needs the states: use the
    /// overload with `state_of`). \throws InvalidArgument when the override names an unknown policy.
    [[nodiscard]] Selection select(const SelectionContext& context) const {
        return select(context, [](const Policy&) -> UtilityState { return {}; }, false);
    }

    /// Rules, then (when enabled) the maximum of U(state_of(P) | P) over the candidates, then the
    /// default. `state_of(const Policy&) -> UtilityState` is called only when utility decides.
    /// \throws InvalidArgument when the override names an unknown policy; whatever state_of throws.
    template <typename StateOf>
    [[nodiscard]] Selection select(const SelectionContext& context, StateOf&& state_of) const {
        return select(context, std::forward<StateOf>(state_of), true);
    }

private:
    template <typename StateOf>
    Selection select(const SelectionContext& context, StateOf&& state_of, bool can_evaluate) const {
        const auto make = [&](std::size_t index, SelectionSource source, std::string reason) {
            Selection s;
            s.index = index;
            s.policy = policies_[index].name;
            s.source = source;
            s.reason = std::move(reason);
            return s;
        };
        if (context.override_policy) {
            return make(index_of(*context.override_policy, "override_policy"), SelectionSource::override_policy,
                        continuum::detail::message("explicit override selects {}", *context.override_policy));
        }
        for (const auto& rule : signal_rules_) {
            const auto it = context.signals.find(rule.signal);
            if (it != context.signals.end() && it->second == rule.value) {
                return make(index_of(rule.policy, "signal rule policy"), SelectionSource::signal,
                            continuum::detail::message("signal {}={} selects {}", rule.signal, rule.value, rule.policy));
            }
        }
        for (const auto& window : windows_) {
            if (in_window(window, context.now)) {
                return make(index_of(window.policy, "time window policy"), SelectionSource::time_window,
                            continuum::detail::message("time window [{} s, {} s) of every {} s selects {}", to_seconds(window.begin), to_seconds(window.end),
                                                       to_seconds(window.period), window.policy));
            }
        }
        if (maximize_utility_ && can_evaluate) {
            Dep<std::vector<double>> utilities;
            std::size_t best = 0;
            for (std::size_t i = 0; i < policies_.size(); ++i) {
                const UtilityState state = state_of(policies_[i]);
                utilities.push_back(utility_.evaluate(state, policies_[i]).utility);
                if (utilities[i] > utilities[best]) best = i;
            }
            auto s = make(best, SelectionSource::utility, continuum::detail::message("no rule applies; {} has the highest utility {:.4g}", policies_[best].name, utilities[best]));
            s.utilities = std::move(utilities);
            return s;
        }
        return make(index_of(default_, "default_policy"), SelectionSource::default_policy, continuum::detail::message("no rule applies; default {}", default_));
    }

    static bool in_window(const TimeWindow& window, Time now) {
        auto offset = now.count() % window.period.count();
        if (offset < 0) offset += window.period.count();
        const auto begin = window.begin.count();
        const auto end = window.end.count();
        if (begin <= end) return offset >= begin && offset < end;
        return offset >= begin || offset < end;
    }

    [[nodiscard]] std::size_t index_of(const std::string& name, const char* argument) const {
        for (std::size_t i = 0; i < policies_.size(); ++i) {
            if (policies_[i].name == name) return i;
        }
        throw InvalidArgument(continuum::detail::message("policy selector: {} \"{}\" is not one of the policies", argument, name));
    }

    Dep<std::vector<Policy>> policies_;
    std::string default_;
    Dep<std::vector<TimeWindow>> windows_;
    Dep<std::vector<SignalRule>> signal_rules_;
    bool maximize_utility_ = false;
    BasicUtility<Defer> utility_;
};

using PolicySelector = BasicPolicySelector<>;

}  // namespace continuum::policy
