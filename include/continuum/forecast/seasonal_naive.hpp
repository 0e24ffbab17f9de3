// Seasonal naive forecaster: step h repeats the observation one season earlier,
// ŷ_{n+h} = y_{n+h−m(k+1)}, k = ⌊(h−1)/m⌋ (FPP §5.2). The reference every seasonal model must beat.
// Interval: σ√(k+1) with σ² the mean squared seasonal difference of the history.
#pragma once

#include <continuum/forecast/detail/checks.hpp>
#include <continuum/forecast/detail/interval.hpp>
#include <continuum/forecast/forecaster.hpp>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace continuum::forecast {

class SeasonalNaive {
public:
    /// \throws InvalidArgument when season_length < 2.
    explicit SeasonalNaive(int season_length) : season_length_(season_length) {
        detail::require_season_length(season_length, "seasonal_naive");
    }

    /// Keeps the last season. \throws InvalidArgument when history has fewer than season_length points.
    void fit(SeriesView history) {
        detail::require_observation_range(history, "seasonal_naive");
        const auto m = static_cast<std::size_t>(season_length_);
        detail::require_length(history.size(), m, "seasonal_naive", "one full season");
        last_season_.assign(history.end() - static_cast<std::ptrdiff_t>(m), history.end());
        next_ = 0;
        sum_squares_ = 0.0;
        for (std::size_t i = m; i < history.size(); ++i) sum_squares_ += (history[i] - history[i - m]) * (history[i] - history[i - m]);
        differences_ = history.size() - m;
        fitted_ = true;
    }
    /// \throws InvalidArgument before fit(), when horizon < 1 or level is not 0 or in (0, 1).
    [[nodiscard]] Forecast forecast(int horizon, double level = 0.0) const {
        detail::require_fitted(fitted_, "seasonal_naive");
        detail::require_horizon(horizon);
        detail::require_level(level);
        const auto m = static_cast<std::size_t>(season_length_);
        std::vector<double> mean(static_cast<std::size_t>(horizon));
        std::vector<double> sd(mean.size());
        for (std::size_t h = 0; h < mean.size(); ++h) {
            mean[h] = last_season_[(next_ + h) % m];
            sd[h] = sigma() * std::sqrt(static_cast<double>(h / m + 1));
        }
        return detail::gaussian_forecast(std::move(mean), sd, level);
    }
    /// O(1): overwrites the oldest value of the kept season. \throws InvalidArgument before fit()
    /// or when value is not finite.
    void update(double value) {
        detail::require_fitted(fitted_, "seasonal_naive");
        detail::require_finite_observation(value);
        const double previous = last_season_[next_];
        sum_squares_ += (value - previous) * (value - previous);
        ++differences_;
        last_season_[next_] = value;
        next_ = next_ + 1 == last_season_.size() ? 0 : next_ + 1;
    }
    [[nodiscard]] std::string name() const { return fmt::format("seasonal_naive(m={})", season_length_); }
    [[nodiscard]] int season_length() const { return season_length_; }
    /// Standard deviation of the seasonal difference y_t − y_{t−m} (0 with a single season).
    [[nodiscard]] double sigma() const {
        return differences_ ? std::sqrt(sum_squares_ / static_cast<double>(differences_)) : 0.0;
    }

private:
    int season_length_;
    std::vector<double> last_season_;  // circular; last_season_[next_] is the oldest value
    std::size_t next_ = 0;
    double sum_squares_ = 0.0;
    std::size_t differences_ = 0;
    bool fitted_ = false;
};

static_assert(Forecaster<SeasonalNaive>);

}  // namespace continuum::forecast
