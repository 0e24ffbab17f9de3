// The global utility function U(S | P) of the MAS-H² Strategic Agent (seed 004, eq. 2): how good a
// planned cluster state S is under policy P, balancing performance against cost (and resilience):
//   U(S | P) = w_perf · perf(S) − w_cost · cost(S) + w_res · res(S)
//   perf(S)  = min(1, capacity · u* / demand)   (1 when demand = 0)   share of demand served at target
//   cost(S)  = hourly cost / reference_cost
//   res(S)   = min(1, replicas / min_replicas)  (1 when min_replicas = 0)
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/policy/policy.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include <fmt/format.h>

namespace continuum::policy {

/// The state S the utility scores: a plan (or the live cluster).
struct UtilityState {
    double demand_cores = 0.0;    ///< (forecast) CPU demand of the applications, in cores
    double capacity_cores = 0.0;  ///< CPU requested by their (planned) replicas, in cores
    double cost = 0.0;            ///< cost per hour of the nodes that host them
    std::int64_t replicas = 0;    ///< the smallest replica count among the applications
};

/// The three terms and their weighted sum.
struct UtilityTerms {
    double performance = 0.0;
    double cost = 0.0;
    double resilience = 0.0;
    double utility = 0.0;
};

/// U(S | P). Uses P's weights, or `weights` when given: comparing candidate policies fairly means
/// scoring every candidate's plan under the same business weights. `Utility` is `BasicUtility<>`
/// (below): the parameter only keeps the members from compiling where unused (issue 21).
template <typename Defer = void>
class BasicUtility {
public:
    BasicUtility() = default;
    explicit BasicUtility(std::optional<UtilityWeights> weights) : weights_(weights) {
        if (weights_) {
            Policy probe;
            probe.name = "utility";
            probe.node_pool = "-";
            probe.node_type.capacity = Resources::from_units({{"cpu", 1}});
            probe.weights = *weights_;
            probe.template validate<Defer>();
        }
    }

    /// \throws InvalidArgument when a state field is negative or not finite, or the policy is invalid.
    [[nodiscard]] UtilityTerms evaluate(const UtilityState& state, const Policy& policy) const {
        policy.template validate<Defer>();
        for (const auto& [field, v] : {std::pair{"demand_cores", state.demand_cores}, std::pair{"capacity_cores", state.capacity_cores},
                                       std::pair{"cost", state.cost}}) {
            if (!std::isfinite(v) || v < 0) throw InvalidArgument(continuum::detail::message("utility: state.{} must be finite and >= 0, got {}", field, v));
        }
        if (state.replicas < 0) throw InvalidArgument(continuum::detail::message("utility: state.replicas must be >= 0, got {}", state.replicas));
        const UtilityWeights& w = weights_ ? *weights_ : policy.weights;
        UtilityTerms out;
        out.performance = state.demand_cores <= 0.0
                              ? 1.0
                              : std::min(1.0, state.capacity_cores * policy.target_utilization / state.demand_cores);
        out.cost = state.cost / policy.reference_cost;
        out.resilience = policy.min_replicas == 0
                             ? 1.0
                             : std::min(1.0, static_cast<double>(state.replicas) / static_cast<double>(policy.min_replicas));
        out.utility = w.performance * out.performance - w.cost * out.cost + w.resilience * out.resilience;
        return out;
    }

    [[nodiscard]] const std::optional<UtilityWeights>& weights() const { return weights_; }

private:
    std::optional<UtilityWeights> weights_;
};

using Utility = BasicUtility<>;

/// U(S | P) with P's own weights. \throws InvalidArgument as Utility::evaluate.
template <typename Defer = void>
[[nodiscard]] double utility(const UtilityState& state, const Policy& policy) { return BasicUtility<Defer>{}.evaluate(state, policy).utility; }

}  // namespace continuum::policy
