// Argument checks shared by the forecasters: season lengths, minimum history lengths and
// positivity for multiplicative components, each throwing InvalidArgument naming the argument.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>

#include <cstddef>
#include <span>
#include <string_view>

#include <fmt/format.h>

namespace continuum::forecast::detail {

/// \throws InvalidArgument unless season_length >= 2.
inline void require_season_length(int season_length, std::string_view who) {
    if (season_length < 2) {
        throw InvalidArgument(continuum::detail::message("{}: season_length must be >= 2, got {}", who, season_length));
    }
}

/// \throws InvalidArgument when the history has fewer than `needed` points, saying how many.
inline void require_length(std::size_t size, std::size_t needed, std::string_view who, std::string_view why) {
    if (size < needed) {
        throw InvalidArgument(continuum::detail::message("{}: series has {} points, needs at least {} ({})", who, size, needed, why));
    }
}

/// \throws InvalidArgument naming the first value <= 0 (multiplicative components need y > 0).
template <typename Scalar>
void require_positive(std::span<const Scalar> values, std::string_view who, std::string_view component) {
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!(values[i] > Scalar(0))) {
            throw InvalidArgument(continuum::detail::message("{}: {} needs strictly positive data, but series[{}] = {}", who, component,
                                                             i, static_cast<double>(values[i])));
        }
    }
}

}  // namespace continuum::forecast::detail
