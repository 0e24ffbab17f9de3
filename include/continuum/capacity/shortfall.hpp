// Shortfall: how much of each resource is still missing when `required` must fit in `available`.
// Seed 001 (hybrid quota scaling) uses it twice: Algorithm 1 line 8 (Shortfall = w_pred -
// CurrentClusterResources) and Algorithm 2 lines 6 and 13 (W_req - Q_current, Shortfall - R_avail).
// Resources are vectors, so the difference is taken per resource and only its positive part kept.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>

#include <string_view>

#include <fmt/format.h>

namespace continuum::capacity {

namespace detail {
/// \throws InvalidArgument naming `argument` and the first negative resource.
inline void require_non_negative(const Resources& resources, std::string_view argument) {
    for (const auto& [name, value] : resources) {
        if (value < 0) {
            throw InvalidArgument(continuum::detail::message("{}: resource \"{}\" must be >= 0, got {} ({} canonical units)", argument, name,
                                                             format_resource(name, value), value));
        }
    }
}
}  // namespace detail

/// Per resource, max(required - available, 0): what must be added to `available` so that
/// `required` fits in it. Empty when `required.fits_in(available)`.
/// Example: shortfall({cpu: 7, memory: 2Gi}, {cpu: 5, memory: 4Gi}) == {cpu: 2}.
/// \throws InvalidArgument when either argument has a negative amount (naming it).
[[nodiscard]] inline Resources shortfall(const Resources& required, const Resources& available) {
    detail::require_non_negative(required, "shortfall: required");
    detail::require_non_negative(available, "shortfall: available");
    Resources out;
    for (const auto& [name, value] : required) {
        const std::int64_t have = available.get(name);
        if (value > have) out.set(name, value - have);  // both >= 0: no overflow
    }
    return out;
}

}  // namespace continuum::capacity
