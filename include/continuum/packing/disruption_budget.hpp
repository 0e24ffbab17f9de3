// A PodDisruptionBudget for scale-in: how many of a workload's pods a node removal may take away at
// once (minAvailable / maxUnavailable, a count or a percentage of the desired replicas), computed as
// Kubernetes' disruption controller does. The default budget (neither set) allows no pod below the
// desired count: a node is drained only when the workload has surplus pods or none on it.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include <fmt/format.h>

namespace continuum::packing {

/// An intstr.IntOrString of a PDB field: a count, or a percentage of the desired replicas.
struct CountOrPercent {
    std::int64_t value = 0;
    bool percent = false;

    static CountOrPercent count(std::int64_t n) { return {n, false}; }
    static CountOrPercent percentage(std::int64_t p) { return {p, true}; }

    /// The count for `total` replicas; percentages round up (GetScaledValueFromIntOrPercent(.., true)).
    [[nodiscard]] std::int64_t scaled(std::int64_t total) const { return percent ? (value * total + 99) / 100 : value; }
    [[nodiscard]] std::string to_string() const { return percent ? continuum::detail::message("{}%", value) : continuum::detail::message("{}", value); }
};

/// PodDisruptionBudget.spec of one workload. Set at most one of the two fields.
struct DisruptionBudget {
    std::optional<CountOrPercent> min_available;
    std::optional<CountOrPercent> max_unavailable;

    /// \throws InvalidArgument when both fields are set, a value is negative or a percentage is above 100.
    void validate() const {
        if (min_available && max_unavailable) {
            throw InvalidArgument(continuum::detail::message("disruption budget: set min_available ({}) or max_unavailable ({}), not both", min_available->to_string(),
                                                             max_unavailable->to_string()));
        }
        for (const auto& [field, v] : {std::pair{"min_available", min_available}, std::pair{"max_unavailable", max_unavailable}}) {
            if (v && (v->value < 0 || (v->percent && v->value > 100))) {
                throw InvalidArgument(continuum::detail::message("disruption budget: {} must be a count >= 0 or a percentage in [0, 100], got {}", field, v->to_string()));
            }
        }
    }

    /// Pods that must stay healthy when `desired` replicas are wanted (the controller's desiredHealthy):
    /// minAvailable scaled, or desired - maxUnavailable scaled (>= 0); neither set: desired.
    [[nodiscard]] std::int64_t desired_healthy(std::int64_t desired) const {
        if (min_available) return min_available->scaled(desired);
        if (max_unavailable) return std::max<std::int64_t>(0, desired - max_unavailable->scaled(desired));
        return desired;
    }

    /// status.disruptionsAllowed: healthy - desired_healthy, at least 0.
    [[nodiscard]] std::int64_t disruptions_allowed(std::int64_t desired, std::int64_t healthy) const {
        return std::max<std::int64_t>(0, healthy - desired_healthy(desired));
    }

    [[nodiscard]] std::string to_string() const {
        if (min_available) return "minAvailable " + min_available->to_string();
        if (max_unavailable) return "maxUnavailable " + max_unavailable->to_string();
        return "ready >= desired";
    }
};

}  // namespace continuum::packing
