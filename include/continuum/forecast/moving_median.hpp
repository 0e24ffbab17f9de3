// Moving-median forecaster: every future step equals the median of the last `window` observations
// (a robust level: a burst of fewer than half the window does not move it, a level shift moves it
// after window/2 + 1 points). Portfolio adds it as a candidate at short horizons (issue 19, session
// 12; docs/forecast.md). Interval: ±z·σ, constant over the horizon, with σ the root mean squared
// one-step error of the same rule over the history.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/forecast/detail/checks.hpp>
#include <continuum/forecast/detail/interval.hpp>
#include <continuum/forecast/detail/median.hpp>
#include <continuum/forecast/detail/state_checks.hpp>
#include <continuum/forecast/forecaster.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace continuum::forecast {

/// Everything a MovingMedian forecaster remembers; window echoes the configuration.
struct MovingMedianState {
    int window = 0;
    std::vector<double> buffer;  ///< circular; buffer[next] is the oldest value
    std::uint64_t next = 0;
    double sum_squares = 0.0;
    std::uint64_t errors = 0;
    bool fitted = false;

    friend bool operator==(const MovingMedianState&, const MovingMedianState&) = default;
};

/// `MovingMedian` is `BasicMovingMedian<>` (below): the parameter only keeps the members from compiling in a
/// unit that does not use them (issue 21).
template <typename Defer = void>
class BasicMovingMedian {
public:
    using State = MovingMedianState;

    [[nodiscard]] MovingMedianState state() const { return {window_, buffer_, next_, sum_squares_, errors_, fitted_}; }
    /// A copy of this forecaster with `state`. \throws InvalidArgument naming the field: another
    ///         window, a fitted state without window values, next out of range, a value that is
    ///         not finite, sum_squares < 0.
    [[nodiscard]] BasicMovingMedian with_state(const MovingMedianState& s) const {
        constexpr std::string_view who = "moving_median";
        detail::require_state_matches(s.window, window_, who, "window");
        detail::require_state_size(s.buffer.size(), s.fitted ? static_cast<std::size_t>(window_) : 0, who, "buffer");
        detail::require_state_index(static_cast<std::size_t>(s.next), s.buffer.size(), who, "next");
        detail::require_state_values<double>(s.buffer, who, "buffer");
        detail::require_state_non_negative(s.sum_squares, who, "sum_squares");
        BasicMovingMedian out = *this;
        out.buffer_ = s.buffer;
        out.next_ = static_cast<std::size_t>(s.next);
        out.sum_squares_ = s.sum_squares;
        out.errors_ = static_cast<std::size_t>(s.errors);
        out.fitted_ = s.fitted;
        return out;
    }
    /// \throws InvalidArgument as the constructor and with_state.
    [[nodiscard]] static BasicMovingMedian restore(int window, const MovingMedianState& s) { return BasicMovingMedian(window).with_state(s); }

    /// \throws InvalidArgument when window < 1.
    explicit BasicMovingMedian(int window) : window_(window) {
        if (window < 1) throw InvalidArgument(continuum::detail::message("moving_median: window must be >= 1, got {}", window));
    }

    /// O(n · window). \throws InvalidArgument when history has fewer than `window` points.
    void fit(SeriesView history) {
        detail::require_observation_range(history, "moving_median");
        const auto w = static_cast<std::size_t>(window_);
        detail::require_length(history.size(), w, "moving_median", "one full window");
        const auto values = history.values();
        sum_squares_ = 0.0;
        errors_ = 0;
        std::vector<double> scratch(w);
        for (std::size_t i = w; i < values.size(); ++i) {
            std::copy(values.begin() + static_cast<std::ptrdiff_t>(i - w), values.begin() + static_cast<std::ptrdiff_t>(i), scratch.begin());
            const double error = values[i] - detail::median_in_place(scratch);
            sum_squares_ += error * error;
            ++errors_;
        }
        buffer_.assign(values.end() - static_cast<std::ptrdiff_t>(w), values.end());
        next_ = 0;
        fitted_ = true;
    }
    /// \throws InvalidArgument before fit(), when horizon < 1 or level is not 0 or in (0, 1).
    [[nodiscard]] Forecast forecast(int horizon, double level = 0.0) const {
        detail::require_fitted(fitted_, "moving_median");
        detail::require_horizon(horizon);
        detail::require_level(level);
        const auto h = static_cast<std::size_t>(horizon);
        return detail::gaussian_forecast(std::vector<double>(h, median()), std::vector<double>(h, sigma()), level);
    }
    /// O(window). \throws InvalidArgument before fit() or when value is not finite.
    void update(double value) {
        detail::require_fitted(fitted_, "moving_median");
        detail::require_finite_observation(value);
        const double error = value - median();
        sum_squares_ += error * error;
        ++errors_;
        buffer_[next_] = value;
        next_ = next_ + 1 == buffer_.size() ? 0 : next_ + 1;
    }
    [[nodiscard]] std::string name() const { return continuum::detail::message("moving_median(window={})", window_); }
    /// The median of the current window. \throws InvalidArgument before fit().
    [[nodiscard]] double median() const {
        detail::require_fitted(fitted_, "moving_median");
        std::vector<double> scratch = buffer_;
        return detail::median_in_place(scratch);
    }
    /// Root mean squared one-step error over the history and updates (0 when there was none).
    [[nodiscard]] double sigma() const { return errors_ ? std::sqrt(sum_squares_ / static_cast<double>(errors_)) : 0.0; }

private:
    int window_;
    std::vector<double> buffer_;
    std::size_t next_ = 0;
    double sum_squares_ = 0.0;
    std::size_t errors_ = 0;
    bool fitted_ = false;
};

using MovingMedian = BasicMovingMedian<>;

static_assert(Forecaster<MovingMedian>);

}  // namespace continuum::forecast
