// How many identical worker nodes cover a shortfall: the paper's CalculateRequiredNodes (seed 001,
// Algorithm 1 line 9 and Algorithm 2 line 13). With vector resources it is the smallest count n
// such that n x node_capacity >= shortfall in every resource: max over resources of the ceiling.
#pragma once

#include <continuum/capacity/shortfall.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>

#include <cstdint>

#include <fmt/format.h>

namespace continuum::capacity {

/// The smallest number of nodes of capacity `node_capacity` whose total covers `shortfall` in
/// every resource: max over resources r with shortfall[r] > 0 of ceil(shortfall[r] / capacity[r]).
/// Zero for an empty shortfall. Example: required_nodes({cpu: 7, memory: 20Gi}, {cpu: 4,
/// memory: 16Gi}) == 2. Resources the shortfall does not mention are ignored.
/// \throws InvalidArgument when shortfall or node_capacity has a negative amount, or node_capacity
///         is empty while the shortfall is not;
///         Infeasible naming the resource when the shortfall needs a resource the node lacks.
[[nodiscard]] inline std::int64_t required_nodes(const Resources& shortfall, const Resources& node_capacity) {
    detail::require_non_negative(shortfall, "required_nodes: shortfall");
    detail::require_non_negative(node_capacity, "required_nodes: node_capacity");
    if (shortfall.empty()) return 0;
    if (node_capacity.empty()) {
        throw InvalidArgument(continuum::detail::message("required_nodes: node_capacity is empty (every resource 0) but the shortfall is {}", shortfall));
    }
    std::int64_t count = 0;
    for (const auto& [name, missing] : shortfall) {
        const std::int64_t per_node = node_capacity.get(name);
        if (per_node == 0) {
            throw Infeasible(continuum::detail::message("required_nodes: the shortfall needs {} {} but node_capacity provides no \"{}\"",
                                                        format_resource(name, missing), name, name));
        }
        const std::int64_t nodes = missing / per_node + (missing % per_node != 0 ? 1 : 0);
        if (nodes > count) count = nodes;
    }
    return count;
}

}  // namespace continuum::capacity
