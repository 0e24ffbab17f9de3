// A strategic policy of the MAS-H² hierarchical autoscaler (seed 004, §3.1): the tuple the
// Strategic Agent broadcasts down the hierarchy — node type (capacity, cost) and the pool that
// provides it, replica bounds (the resilience floor), target utilisation and utility weights —
// plus the paper's two built-ins, COST_SAVING (e2-medium) and PERFORMANCE (n2-standard-2).
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/packing/model.hpp>

#include <cmath>
#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace continuum::policy {

/// Weights of the utility U(S | P) = w_performance·perf(S) − w_cost·cost(S) + w_resilience·res(S)
/// (policy/utility.hpp). Each weight is finite and >= 0.
struct UtilityWeights {
    double performance = 0.5;
    double cost = 0.5;
    double resilience = 0.0;
};

/// The policy tuple P = (node type, pool, min/max replicas, target utilisation, weights).
struct Policy {
    std::string name;
    /// The VM instance type the policy runs workloads on: allocatable capacity and cost per hour.
    packing::NodeType node_type;
    /// The node pool (GKE node pool, CA node group) that provides node_type.
    std::string node_pool;
    /// Resilience floor: every application keeps at least this many replicas (>= 0).
    std::int64_t min_replicas = 1;
    /// Upper bound on an application's replicas (>= min_replicas).
    std::int64_t max_replicas = 100;
    /// Target CPU utilisation of a pod's request, in (0, 1]: replicas = ceil(peak / (request × target)).
    double target_utilization = 0.7;
    UtilityWeights weights;
    /// Normaliser of the cost term: cost(S) = (cost per hour of the plan) / reference_cost. > 0.
    double reference_cost = 1.0;

    /// \throws InvalidArgument naming the field and value: empty name or pool, a node type without
    ///         cpu, a negative or non-finite cost or weight, min > max, min < 0, target outside (0, 1],
    ///         reference_cost <= 0.
    /// (A template on a defaulted parameter, called as `validate()`, so that its body compiles only
    /// where a policy is validated, issue 21; its address is `&Policy::validate<>`.)
    template <typename Defer = void>
    void validate() const {
        const auto fail = [&](const std::string& what) { throw InvalidArgument(continuum::detail::message("policy \"{}\": {}", name, what)); };
        if (name.empty()) throw InvalidArgument("policy: name must not be empty");
        if (node_pool.empty()) fail("node_pool must not be empty");
        if (node_type.capacity.cpu_millis() <= 0) fail(continuum::detail::message("node_type.capacity must have cpu > 0, got {}", node_type.capacity));
        if (node_type.capacity.any_negative()) fail(continuum::detail::message("node_type.capacity has a negative amount: {}", node_type.capacity));
        if (!std::isfinite(node_type.cost) || node_type.cost < 0) fail(continuum::detail::message("node_type.cost must be finite and >= 0, got {}", node_type.cost));
        if (min_replicas < 0) fail(continuum::detail::message("min_replicas must be >= 0, got {}", min_replicas));
        if (max_replicas < min_replicas) fail(continuum::detail::message("max_replicas ({}) must be >= min_replicas ({})", max_replicas, min_replicas));
        if (!(target_utilization > 0.0 && target_utilization <= 1.0)) {
            fail(continuum::detail::message("target_utilization must be in (0, 1], got {}", target_utilization));
        }
        for (const auto& [field, w] : {std::pair{"performance", weights.performance}, std::pair{"cost", weights.cost},
                                       std::pair{"resilience", weights.resilience}}) {
            if (!std::isfinite(w) || w < 0) fail(continuum::detail::message("weights.{} must be finite and >= 0, got {}", field, w));
        }
        if (!std::isfinite(reference_cost) || reference_cost <= 0) fail(continuum::detail::message("reference_cost must be finite and > 0, got {}", reference_cost));
    }
};

/// COST_SAVING (seed 004 §4.1.1: the "mas-h2-staging-pool" of e2-medium, 2 vCPU / 4 GiB): packs
/// pods hot (target 80 %, the HPA baseline's threshold), one replica minimum, weights favour cost.
/// The price is the approximate us-central1 on-demand list price in USD/h; set your own.
inline Policy cost_saving() {
    Policy p;
    p.name = "COST_SAVING";
    p.node_type = packing::NodeType{"e2-medium", Resources{{"cpu", "2"}, {"memory", "4Gi"}}, 0.0335, packing::unlimited};
    p.node_pool = "mas-h2-staging-pool";
    p.min_replicas = 1;
    p.max_replicas = 100;
    p.target_utilization = 0.8;
    p.weights = {0.3, 0.7, 0.0};
    p.reference_cost = 1.0;
    return p;
}

/// PERFORMANCE (seed 004 §4.1.1: the "performance-pool" of n2-standard-2, 2 vCPU / 8 GiB): keeps
/// pods cool (target 40 %: the paper's MAS-H² held CPU under 40 %), two replicas minimum for
/// resilience, weights favour performance. Price: approximate us-central1 on-demand USD/h.
inline Policy performance() {
    Policy p;
    p.name = "PERFORMANCE";
    p.node_type = packing::NodeType{"n2-standard-2", Resources{{"cpu", "2"}, {"memory", "8Gi"}}, 0.0971, packing::unlimited};
    p.node_pool = "performance-pool";
    p.min_replicas = 2;
    p.max_replicas = 100;
    p.target_utilization = 0.4;
    p.weights = {0.6, 0.2, 0.2};
    p.reference_cost = 1.0;
    return p;
}

}  // namespace continuum::policy
