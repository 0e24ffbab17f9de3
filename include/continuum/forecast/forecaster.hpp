// The Forecaster concept: what every demand forecaster in continuum provides (baselines,
// Holt-Winters, LSTM, portfolios), so scalers can be templates over it. Seeds 001 (LSTM) and
// 004 (Prophet, portfolios as future work) both start proactive scaling from such a forecast.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/series.hpp>

#include <cmath>
#include <concepts>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace continuum::forecast {

/// A forecast of the next `mean.size()` steps. `lower`/`upper` hold a prediction interval at
/// `level` (e.g. 0.95) when one was requested and the model provides one; otherwise they are empty
/// and `level` is 0.
struct Forecast {
    std::vector<double> mean;
    std::vector<double> lower;
    std::vector<double> upper;
    double level = 0.0;

    [[nodiscard]] std::size_t horizon() const { return mean.size(); }
    [[nodiscard]] bool has_interval() const { return !lower.empty(); }
    /// Largest mean value over the horizon (the peak a planner sizes for); 0 for an empty forecast.
    [[nodiscard]] double peak() const {
        double out = mean.empty() ? 0.0 : mean.front();
        for (double v : mean) out = v > out ? v : out;
        return out;
    }
};

/// A demand forecaster.
///  - `fit(series)` learns from history (oldest first); it may be called again to refit.
///  - `forecast(horizon, level)` predicts the next `horizon` steps after the last observation,
///    with a prediction interval at `level` in (0, 1) when level > 0 (0 = mean only).
///  - `update(value)` absorbs one new observation without refitting (O(1) or O(season)).
///  - `name()` is a short human-readable description used in decision reasons.
/// Calling forecast or update before fit throws continuum::InvalidArgument.
template <typename F>
concept Forecaster = requires(F f, const F cf, SeriesView history, double value, int horizon, double level) {
    f.fit(history);
    { cf.forecast(horizon, level) } -> std::convertible_to<Forecast>;
    f.update(value);
    { cf.name() } -> std::convertible_to<std::string>;
};

/// Largest |observation| every forecaster accepts in fit() and update(), about sqrt(DBL_MAX) / 1e4:
/// beyond it squared errors and variances overflow and intervals would be infinite or NaN. CPU in
/// millicores and memory in bytes are far below it.
inline constexpr double max_observation = 1.3e150;

namespace detail {
/// \throws InvalidArgument naming the first value whose magnitude exceeds max_observation.
inline void require_observation_range(SeriesView history, std::string_view who) {
    for (std::size_t i = 0; i < history.size(); ++i) {
        if (std::fabs(history[i]) > max_observation) {
            throw InvalidArgument(continuum::detail::message("{}: series[{}] = {} is beyond ±{:g}, where squared errors overflow; rescale the series", who, i,
                                                             history[i], max_observation));
        }
    }
}
/// \throws InvalidArgument unless 1 <= horizon.
inline void require_horizon(int horizon) {
    if (horizon <= 0) throw InvalidArgument(continuum::detail::message("horizon must be >= 1, got {}", horizon));
}
/// \throws InvalidArgument unless level == 0 or 0 < level < 1.
inline void require_level(double level) {
    if (!(level == 0.0 || (level > 0.0 && level < 1.0))) {
        throw InvalidArgument(continuum::detail::message("level must be 0 (no interval) or in (0, 1), got {}", level));
    }
}
/// \throws InvalidArgument when value is NaN or infinite.
inline void require_finite_observation(double value) {
    if (!std::isfinite(value)) throw InvalidArgument(continuum::detail::message("update: observation {} is not finite", value));
    if (std::fabs(value) > max_observation) {
        throw InvalidArgument(continuum::detail::message("update: observation {} is beyond ±{:g}, where squared errors overflow", value, max_observation));
    }
}
}  // namespace detail

}  // namespace continuum::forecast
