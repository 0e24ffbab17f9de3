// Checks shared by the forecasters' restore functions: every field of a state value is validated
// before anything is kept, and a bad one throws InvalidArgument naming the forecaster and the
// field ("seasonal_naive restore: state.next = 30 is not below 24"). Not API.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/forecast/forecaster.hpp>

#include <cmath>
#include <cstddef>
#include <iterator>
#include <span>
#include <string_view>

#include <fmt/format.h>

namespace continuum::forecast::detail {

/// \throws InvalidArgument unless |value| is finite and at most max_observation.
inline void require_state_value(double value, std::string_view who, std::string_view field) {
    if (!std::isfinite(value) || std::fabs(value) > max_observation) {
        throw InvalidArgument(continuum::detail::message("{} restore: state.{} = {} is not a finite value within ±{:g}", who, field, value, max_observation));
    }
}
/// \throws InvalidArgument unless value is finite and >= 0.
inline void require_state_non_negative(double value, std::string_view who, std::string_view field) {
    if (!std::isfinite(value) || value < 0.0) throw InvalidArgument(continuum::detail::message("{} restore: state.{} = {} must be finite and >= 0", who, field, value));
}
/// As require_state_value for each element, naming the index. `values` is any sized container with
/// operator[] (a vector, a C array, a span), taken as it is: converting a vector to a std::span
/// parameter would check span's range constructor in every unit that includes this header (issue 21).
template <typename Scalar, class Values>
void require_state_values(const Values& values, std::string_view who, std::string_view field) {
    for (std::size_t i = 0; i < std::size(values); ++i) {
        const double v = static_cast<double>(values[i]);
        if (!std::isfinite(v) || std::fabs(v) > max_observation) {
            throw InvalidArgument(continuum::detail::message("{} restore: state.{}[{}] = {} is not a finite value within ±{:g}", who, field, i, v, max_observation));
        }
    }
}
/// \throws InvalidArgument when a state field that echoes the configuration differs from it.
template <typename T>
void require_state_matches(const T& state_value, const T& configured, std::string_view who, std::string_view field) {
    if (!(state_value == configured)) {
        throw InvalidArgument(continuum::detail::message("{} restore: state.{} = {} but the configuration has {}", who, field, state_value, configured));
    }
}
/// \throws InvalidArgument unless index < size (a circular buffer's next slot).
inline void require_state_index(std::size_t index, std::size_t size, std::string_view who, std::string_view field) {
    if (index >= size && !(index == 0 && size == 0)) throw InvalidArgument(continuum::detail::message("{} restore: state.{} = {} is not below {}", who, field, index, size));
}
/// \throws InvalidArgument when the buffer of a fitted model does not hold `expected` values.
inline void require_state_size(std::size_t size, std::size_t expected, std::string_view who, std::string_view field) {
    if (size != expected) throw InvalidArgument(continuum::detail::message("{} restore: state.{} has {} values, expected {}", who, field, size, expected));
}

}  // namespace continuum::forecast::detail
