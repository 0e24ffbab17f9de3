// Seasonal naive forecaster: step h repeats the observation one season earlier,
// ŷ_{n+h} = y_{n+h−m(k+1)}, k = ⌊(h−1)/m⌋ (FPP §5.2). The reference every seasonal model must beat.
// Interval: σ√(k+1) with σ² the mean squared seasonal difference of the history.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/forecast/detail/checks.hpp>
#include <continuum/forecast/detail/interval.hpp>
#include <continuum/forecast/detail/state_checks.hpp>
#include <continuum/forecast/forecaster.hpp>

#include <cmath>
#include <cstdint>
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace continuum::forecast {

/// Everything a SeasonalNaive forecaster remembers; season_length echoes the configuration.
struct SeasonalNaiveState {
    int season_length = 0;
    std::vector<double> last_season;  ///< circular; last_season[next] is the oldest value
    std::uint64_t next = 0;
    double sum_squares = 0.0;
    std::uint64_t differences = 0;
    bool fitted = false;

    friend bool operator==(const SeasonalNaiveState&, const SeasonalNaiveState&) = default;
};

/// `SeasonalNaive` is `BasicSeasonalNaive<>` (below): the parameter only keeps the members from compiling in a
/// unit that does not use them (issue 21).
template <typename Defer = void>
class BasicSeasonalNaive {
public:
    using State = SeasonalNaiveState;

    [[nodiscard]] SeasonalNaiveState state() const { return {season_length_, last_season_, next_, sum_squares_, differences_, fitted_}; }
    /// A copy of this forecaster with `state`. \throws InvalidArgument naming the field: another
    ///         season_length, a fitted state without season_length values, next out of range, a
    ///         value that is not finite, sum_squares < 0.
    [[nodiscard]] BasicSeasonalNaive with_state(const SeasonalNaiveState& s) const {
        constexpr std::string_view who = "seasonal_naive";
        detail::require_state_matches(s.season_length, season_length_, who, "season_length");
        detail::require_state_size(s.last_season.size(), s.fitted ? static_cast<std::size_t>(season_length_) : 0, who, "last_season");
        detail::require_state_index(static_cast<std::size_t>(s.next), s.last_season.size(), who, "next");
        detail::require_state_values<double>(s.last_season, who, "last_season");
        detail::require_state_non_negative(s.sum_squares, who, "sum_squares");
        BasicSeasonalNaive out = *this;
        out.last_season_ = s.last_season;
        out.next_ = static_cast<std::size_t>(s.next);
        out.sum_squares_ = s.sum_squares;
        out.differences_ = static_cast<std::size_t>(s.differences);
        out.fitted_ = s.fitted;
        return out;
    }
    /// \throws InvalidArgument as the constructor and with_state.
    [[nodiscard]] static BasicSeasonalNaive restore(int season_length, const SeasonalNaiveState& s) { return BasicSeasonalNaive(season_length).with_state(s); }

    /// \throws InvalidArgument when season_length < 2.
    explicit BasicSeasonalNaive(int season_length) : season_length_(season_length) {
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
    [[nodiscard]] std::string name() const { return continuum::detail::message("seasonal_naive(m={})", season_length_); }
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

using SeasonalNaive = BasicSeasonalNaive<>;

static_assert(Forecaster<SeasonalNaive>);

}  // namespace continuum::forecast
