// Forecast accuracy metrics: MAE, RMSE, MAPE, sMAPE, MASE (Hyndman & Koehler 2006, scaled by the
// in-sample seasonal-naive error) and OWA (the M4 competition's overall weighted average of sMAPE
// and MASE relative to a reference method). Percentages are returned in percent (0-100 / 0-200).
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/series.hpp>

#include <cmath>
#include <cstddef>
#include <span>
#include <string_view>

#include <fmt/format.h>

namespace continuum::forecast {

namespace detail {
inline void require_pair(std::span<const double> actual, std::span<const double> predicted, std::string_view who) {
    if (actual.empty()) throw InvalidArgument(continuum::detail::message("{}: actual is empty", who));
    if (actual.size() != predicted.size()) {
        throw InvalidArgument(continuum::detail::message("{}: actual has {} values but forecast has {}", who, actual.size(), predicted.size()));
    }
    continuum::detail::require_finite(actual, "actual");
    continuum::detail::require_finite(predicted, "forecast");
}
}  // namespace detail

/// Mean absolute error. \throws InvalidArgument on empty or mismatched sizes, or non-finite values.
inline double mae(std::span<const double> actual, std::span<const double> predicted) {
    detail::require_pair(actual, predicted, "mae");
    double sum = 0.0;
    for (std::size_t i = 0; i < actual.size(); ++i) sum += std::fabs(actual[i] - predicted[i]);
    return sum / static_cast<double>(actual.size());
}

/// Root mean squared error. \throws InvalidArgument as mae().
inline double rmse(std::span<const double> actual, std::span<const double> predicted) {
    detail::require_pair(actual, predicted, "rmse");
    double sum = 0.0;
    for (std::size_t i = 0; i < actual.size(); ++i) sum += (actual[i] - predicted[i]) * (actual[i] - predicted[i]);
    return std::sqrt(sum / static_cast<double>(actual.size()));
}

/// Mean absolute percentage error, 100·mean|(y − f)/y|.
/// \throws InvalidArgument as mae(), or when an actual value is 0 (MAPE is undefined there).
inline double mape(std::span<const double> actual, std::span<const double> predicted) {
    detail::require_pair(actual, predicted, "mape");
    double sum = 0.0;
    for (std::size_t i = 0; i < actual.size(); ++i) {
        if (actual[i] == 0.0) throw InvalidArgument(continuum::detail::message("mape: actual[{}] = 0, MAPE is undefined; use smape or mase", i));
        sum += std::fabs((actual[i] - predicted[i]) / actual[i]);
    }
    return 100.0 * sum / static_cast<double>(actual.size());
}

/// Symmetric MAPE as in the M4 competition, 100·mean(2|y − f| / (|y| + |f|)), in [0, 200]; a term
/// where y = f = 0 counts as 0. \throws InvalidArgument as mae().
inline double smape(std::span<const double> actual, std::span<const double> predicted) {
    detail::require_pair(actual, predicted, "smape");
    double sum = 0.0;
    for (std::size_t i = 0; i < actual.size(); ++i) {
        const double denominator = std::fabs(actual[i]) + std::fabs(predicted[i]);
        if (denominator > 0.0) sum += 2.0 * std::fabs(actual[i] - predicted[i]) / denominator;
    }
    return 100.0 * sum / static_cast<double>(actual.size());
}

/// The MASE scale: mean |y_t − y_{t−m}| over the training series.
/// \throws InvalidArgument when season_length < 1, training has <= season_length values or
///         non-finite values, or the scale is 0 (a series that repeats exactly with period m).
inline double mase_scale(std::span<const double> training, int season_length) {
    if (season_length < 1) throw InvalidArgument(continuum::detail::message("mase: season_length must be >= 1, got {}", season_length));
    continuum::detail::require_finite(training, "training");
    const auto m = static_cast<std::size_t>(season_length);
    if (training.size() <= m) {
        throw InvalidArgument(continuum::detail::message("mase: training has {} values, needs at least {} (season_length + 1)", training.size(), m + 1));
    }
    double sum = 0.0;
    for (std::size_t i = m; i < training.size(); ++i) sum += std::fabs(training[i] - training[i - m]);
    const double scale = sum / static_cast<double>(training.size() - m);
    if (!(scale > 0.0)) {
        throw InvalidArgument(continuum::detail::message("mase: the in-sample seasonal naive error of training (season_length {}) is 0", season_length));
    }
    return scale;
}

/// Mean absolute scaled error: mae(actual, predicted) / mean |y_t − y_{t−m}| over `training`
/// (m = season_length; m = 1 scales by the naive forecast). \throws InvalidArgument as mae() and
/// mase_scale().
inline double mase(std::span<const double> training, std::span<const double> actual, std::span<const double> predicted,
                   int season_length) {
    const double scale = mase_scale(training, season_length);
    return mae(actual, predicted) / scale;
}

/// Overall weighted average (M4): (sMAPE / sMAPE_ref + MASE / MASE_ref) / 2; below 1 means better
/// than the reference. \throws InvalidArgument when a reference value is not positive or a value
/// is negative or not finite.
inline double owa(double smape_value, double mase_value, double reference_smape, double reference_mase) {
    const double values[] = {smape_value, mase_value, reference_smape, reference_mase};
    const char* names[] = {"smape", "mase", "reference_smape", "reference_mase"};
    for (int i = 0; i < 4; ++i) {
        if (!std::isfinite(values[i]) || values[i] < 0.0 || (i >= 2 && values[i] == 0.0)) {
            throw InvalidArgument(continuum::detail::message("owa: {} = {} must be finite and {}", names[i], values[i], i >= 2 ? "> 0" : ">= 0"));
        }
    }
    return 0.5 * (smape_value / reference_smape + mase_value / reference_mase);
}

/// OWA of `predicted` against `reference` (both forecasts of `actual`), with MASE scaled on
/// `training` at season_length. \throws InvalidArgument as smape(), mase() and owa().
inline double owa(std::span<const double> training, std::span<const double> actual, std::span<const double> predicted,
                  std::span<const double> reference, int season_length) {
    return owa(smape(actual, predicted), mase(training, actual, predicted, season_length), smape(actual, reference),
               mase(training, actual, reference, season_length));
}

}  // namespace continuum::forecast
