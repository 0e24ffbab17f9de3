// Moving-average forecaster: every future step equals the mean of the last `window` observations
// (the smoother Kubernetes-style controllers use). Interval: ±z·σ, constant over the horizon, with σ
// the root mean squared one-step error of the same rule over the history.
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

/// Everything a MovingAverage forecaster remembers; window echoes the configuration. `sum` is kept
/// as it is (a running sum), so a restored model continues bit-identically.
struct MovingAverageState {
    int window = 0;
    std::vector<double> buffer;  ///< circular; buffer[next] is the oldest value
    std::uint64_t next = 0;
    double sum = 0.0;
    double sum_squares = 0.0;
    std::uint64_t errors = 0;
    bool fitted = false;

    friend bool operator==(const MovingAverageState&, const MovingAverageState&) = default;
};

/// `MovingAverage` is `BasicMovingAverage<>` (below): the parameter only keeps the members from compiling in a
/// unit that does not use them (issue 21).
template <typename Defer = void>
class BasicMovingAverage {
public:
    using State = MovingAverageState;

    [[nodiscard]] MovingAverageState state() const { return {window_, buffer_, next_, sum_, sum_squares_, errors_, fitted_}; }
    /// A copy of this forecaster with `state`. \throws InvalidArgument naming the field: another
    ///         window, a fitted state without window values, next out of range, a value that is
    ///         not finite, sum_squares < 0.
    [[nodiscard]] BasicMovingAverage with_state(const MovingAverageState& s) const {
        constexpr std::string_view who = "moving_average";
        detail::require_state_matches(s.window, window_, who, "window");
        detail::require_state_size(s.buffer.size(), s.fitted ? static_cast<std::size_t>(window_) : 0, who, "buffer");
        detail::require_state_index(static_cast<std::size_t>(s.next), s.buffer.size(), who, "next");
        detail::require_state_values<double>(s.buffer, who, "buffer");
        if (!std::isfinite(s.sum)) throw InvalidArgument(continuum::detail::message("{} restore: state.sum = {} is not finite", who, s.sum));
        detail::require_state_non_negative(s.sum_squares, who, "sum_squares");
        BasicMovingAverage out = *this;
        out.buffer_ = s.buffer;
        out.next_ = static_cast<std::size_t>(s.next);
        out.sum_ = s.sum;
        out.sum_squares_ = s.sum_squares;
        out.errors_ = static_cast<std::size_t>(s.errors);
        out.fitted_ = s.fitted;
        return out;
    }
    /// \throws InvalidArgument as the constructor and with_state.
    [[nodiscard]] static BasicMovingAverage restore(int window, const MovingAverageState& s) { return BasicMovingAverage(window).with_state(s); }

    /// \throws InvalidArgument when window < 1.
    explicit BasicMovingAverage(int window) : window_(window) {
        if (window < 1) throw InvalidArgument(continuum::detail::message("moving_average: window must be >= 1, got {}", window));
    }

    /// \throws InvalidArgument when history has fewer than `window` points.
    void fit(SeriesView history) {
        detail::require_observation_range(history, "moving_average");
        const auto w = static_cast<std::size_t>(window_);
        detail::require_length(history.size(), w, "moving_average", "one full window");
        buffer_.assign(history.end() - static_cast<std::ptrdiff_t>(w), history.end());
        next_ = 0;
        sum_squares_ = 0.0;
        errors_ = 0;
        double running = 0.0;
        for (std::size_t i = 0; i < w; ++i) running += history[i];
        for (std::size_t i = w; i < history.size(); ++i) {
            const double error = history[i] - running / static_cast<double>(w);
            sum_squares_ += error * error;
            ++errors_;
            running += history[i] - history[i - w];
        }
        sum_ = 0.0;  // recomputed from the buffer: no drift from the running update
        for (double v : buffer_) sum_ += v;
        fitted_ = true;
    }
    /// \throws InvalidArgument before fit(), when horizon < 1 or level is not 0 or in (0, 1).
    [[nodiscard]] Forecast forecast(int horizon, double level = 0.0) const {
        detail::require_fitted(fitted_, "moving_average");
        detail::require_horizon(horizon);
        detail::require_level(level);
        const auto h = static_cast<std::size_t>(horizon);
        return detail::gaussian_forecast(std::vector<double>(h, mean()), std::vector<double>(h, sigma()), level);
    }
    /// O(1). \throws InvalidArgument before fit() or when value is not finite.
    void update(double value) {
        detail::require_fitted(fitted_, "moving_average");
        detail::require_finite_observation(value);
        const double error = value - mean();
        sum_squares_ += error * error;
        ++errors_;
        sum_ += value - buffer_[next_];
        buffer_[next_] = value;
        next_ = next_ + 1 == buffer_.size() ? 0 : next_ + 1;
    }
    [[nodiscard]] std::string name() const { return continuum::detail::message("moving_average(window={})", window_); }
    /// The current window mean.
    [[nodiscard]] double mean() const { return sum_ / static_cast<double>(window_); }
    /// Root mean squared one-step error over the history (0 when there was none).
    [[nodiscard]] double sigma() const { return errors_ ? std::sqrt(sum_squares_ / static_cast<double>(errors_)) : 0.0; }

private:
    int window_;
    std::vector<double> buffer_;
    std::size_t next_ = 0;
    double sum_ = 0.0;
    double sum_squares_ = 0.0;
    std::size_t errors_ = 0;
    bool fitted_ = false;
};

using MovingAverage = BasicMovingAverage<>;

static_assert(Forecaster<MovingAverage>);

}  // namespace continuum::forecast
