// Seasonal median forecaster: step h is the median of the observations at the same phase of the
// last `seasons` seasons. A robust relative of seasonal naive (seasons = 1): it averages out one-off
// spikes, and the median is the point forecast that minimises absolute error (MAE, MASE) and, on
// bursty on/off workloads, sMAPE. Interval: ±z·σ with σ the RMS in-sample one-season-ahead error.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/forecast/detail/checks.hpp>
#include <continuum/forecast/detail/interval.hpp>
#include <continuum/forecast/detail/median.hpp>
#include <continuum/forecast/detail/state_checks.hpp>
#include <continuum/forecast/forecaster.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace continuum::forecast {

/// Everything a SeasonalMedian forecaster remembers; season_length and seasons echo the configuration.
struct SeasonalMedianState {
    int season_length = 0;
    int seasons = 0;
    std::vector<double> buffer;  ///< circular, whole seasons; buffer[next] is the oldest value
    std::uint64_t next = 0;
    double sum_squares = 0.0;
    std::uint64_t errors = 0;
    bool fitted = false;

    friend bool operator==(const SeasonalMedianState&, const SeasonalMedianState&) = default;
};

/// `SeasonalMedian` is `BasicSeasonalMedian<>` (below): the parameter only keeps the members from compiling in a
/// unit that does not use them (issue 21).
template <typename Defer = void>
class BasicSeasonalMedian {
public:
    using State = SeasonalMedianState;

    [[nodiscard]] SeasonalMedianState state() const { return {season_length_, seasons_, buffer_, next_, sum_squares_, errors_, fitted_}; }
    /// A copy of this forecaster with `state`. \throws InvalidArgument naming the field: another
    ///         season_length or seasons, a buffer that is not 1 to `seasons` whole seasons once
    ///         fitted, next out of range, a value that is not finite, sum_squares < 0.
    [[nodiscard]] BasicSeasonalMedian with_state(const SeasonalMedianState& s) const {
        constexpr std::string_view who = "seasonal_median";
        detail::require_state_matches(s.season_length, season_length_, who, "season_length");
        detail::require_state_matches(s.seasons, seasons_, who, "seasons");
        const auto m = static_cast<std::size_t>(season_length_);
        const bool whole = s.buffer.size() % m == 0 && s.buffer.size() <= m * static_cast<std::size_t>(seasons_);
        if (s.fitted ? (s.buffer.empty() || !whole) : !s.buffer.empty()) {
            throw InvalidArgument(continuum::detail::message("{} restore: state.buffer has {} values, expected {}", who, s.buffer.size(),
                                                             s.fitted ? continuum::detail::message("1 to {} whole seasons of {}", seasons_, m) : std::string("none before fit")));
        }
        detail::require_state_index(static_cast<std::size_t>(s.next), s.buffer.size(), who, "next");
        detail::require_state_values<double>(s.buffer, who, "buffer");
        detail::require_state_non_negative(s.sum_squares, who, "sum_squares");
        BasicSeasonalMedian out = *this;
        out.buffer_ = s.buffer;
        out.next_ = static_cast<std::size_t>(s.next);
        out.sum_squares_ = s.sum_squares;
        out.errors_ = static_cast<std::size_t>(s.errors);
        out.fitted_ = s.fitted;
        return out;
    }
    /// \throws InvalidArgument as the constructor and with_state.
    [[nodiscard]] static BasicSeasonalMedian restore(int season_length, int seasons, const SeasonalMedianState& s) {
        return BasicSeasonalMedian(season_length, seasons).with_state(s);
    }

    /// \throws InvalidArgument when season_length < 2 or seasons < 1.
    BasicSeasonalMedian(int season_length, int seasons) : season_length_(season_length), seasons_(seasons) {
        detail::require_season_length(season_length, "seasonal_median");
        if (seasons < 1) throw InvalidArgument(continuum::detail::message("seasonal_median: seasons must be >= 1, got {}", seasons));
    }

    /// Keeps the last min(seasons, ⌊n/m⌋) full seasons. \throws InvalidArgument when history has
    /// fewer than season_length points.
    void fit(SeriesView history) {
        detail::require_observation_range(history, "seasonal_median");
        const auto m = static_cast<std::size_t>(season_length_);
        detail::require_length(history.size(), m, "seasonal_median", "one full season");
        const std::size_t kept = std::min(static_cast<std::size_t>(seasons_), history.size() / m) * m;
        buffer_.assign(history.end() - static_cast<std::ptrdiff_t>(kept), history.end());
        next_ = 0;
        // In-sample errors of the rule over the history (each point from the seasons before it).
        sum_squares_ = 0.0;
        errors_ = 0;
        std::vector<double> same_phase;
        for (std::size_t t = m; t < history.size(); ++t) {
            same_phase.clear();
            for (std::size_t k = 1; k <= static_cast<std::size_t>(seasons_) && k * m <= t; ++k) same_phase.push_back(history[t - k * m]);
            const double e = history[t] - detail::median_in_place(same_phase);
            sum_squares_ += e * e;
            ++errors_;
        }
        fitted_ = true;
    }
    /// \throws InvalidArgument before fit(), when horizon < 1 or level is not 0 or in (0, 1).
    [[nodiscard]] Forecast forecast(int horizon, double level = 0.0) const {
        detail::require_fitted(fitted_, "seasonal_median");
        detail::require_horizon(horizon);
        detail::require_level(level);
        const auto m = static_cast<std::size_t>(season_length_);
        const std::size_t count = buffer_.size() / m;
        std::vector<double> phase_medians(m);
        std::vector<double> same_phase(count);
        for (std::size_t p = 0; p < m; ++p) {
            for (std::size_t k = 0; k < count; ++k) same_phase[k] = buffer_[(next_ + p + k * m) % buffer_.size()];
            phase_medians[p] = detail::median_in_place(same_phase);
        }
        std::vector<double> mean(static_cast<std::size_t>(horizon));
        for (std::size_t h = 0; h < mean.size(); ++h) mean[h] = phase_medians[h % m];
        return detail::gaussian_forecast(std::move(mean), std::vector<double>(static_cast<std::size_t>(horizon), sigma()), level);
    }
    /// O(1): overwrites the oldest kept value. \throws InvalidArgument before fit() or when value
    /// is not finite.
    void update(double value) {
        detail::require_fitted(fitted_, "seasonal_median");
        detail::require_finite_observation(value);
        const double predicted = forecast(1).mean[0];
        sum_squares_ += (value - predicted) * (value - predicted);
        ++errors_;
        buffer_[next_] = value;
        next_ = next_ + 1 == buffer_.size() ? 0 : next_ + 1;
    }
    [[nodiscard]] std::string name() const { return continuum::detail::message("seasonal_median(m={}, seasons={})", season_length_, seasons_); }
    [[nodiscard]] double sigma() const { return errors_ ? std::sqrt(sum_squares_ / static_cast<double>(errors_)) : 0.0; }

private:
    int season_length_;
    int seasons_;
    std::vector<double> buffer_;  // circular, a whole number of seasons; buffer_[next_] is the oldest
    std::size_t next_ = 0;
    double sum_squares_ = 0.0;
    std::size_t errors_ = 0;
    bool fitted_ = false;
};

using SeasonalMedian = BasicSeasonalMedian<>;

static_assert(Forecaster<SeasonalMedian>);

}  // namespace continuum::forecast
