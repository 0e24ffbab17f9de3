// Trailing-window linear regression forecaster: ordinary least squares of the last `window`
// observations on time, extrapolated h steps ahead. This is the "linear" model of the
// predictive-horizontal-pod-autoscaler (PHPA). Interval: the OLS prediction interval with a
// normal quantile, σ²(1 + 1/w + (x − x̄)²/Sxx), σ² = SSE/(w − 2) (0 when w <= 2).
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/forecast/detail/checks.hpp>
#include <continuum/forecast/detail/interval.hpp>
#include <continuum/forecast/detail/state_checks.hpp>
#include <continuum/forecast/forecaster.hpp>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace continuum::forecast {

/// Everything a LinearRegression forecaster remembers: the window of observations (the fit is
/// recomputed from it, deterministically); window echoes the configuration.
struct LinearRegressionState {
    int window = 0;
    std::vector<double> buffer;  ///< oldest first, at most `window` values
    bool fitted = false;

    friend bool operator==(const LinearRegressionState&, const LinearRegressionState&) = default;
};

/// `LinearRegression` is `BasicLinearRegression<>` (below): the parameter only keeps the members from compiling in a
/// unit that does not use them (issue 21).
template <typename Defer = void>
class BasicLinearRegression {
public:
    using State = LinearRegressionState;

    [[nodiscard]] LinearRegressionState state() const { return {window_, buffer_, fitted_}; }
    /// A copy of this forecaster with `state`. \throws InvalidArgument naming the field: another
    ///         window, a fitted buffer with fewer than 2 or more than window values, a value that
    ///         is not finite.
    [[nodiscard]] BasicLinearRegression with_state(const LinearRegressionState& s) const {
        constexpr std::string_view who = "linear_regression";
        detail::require_state_matches(s.window, window_, who, "window");
        if (s.fitted ? (s.buffer.size() < 2 || s.buffer.size() > static_cast<std::size_t>(window_)) : !s.buffer.empty()) {
            throw InvalidArgument(continuum::detail::message("{} restore: state.buffer has {} values, expected {}", who, s.buffer.size(),
                                                             s.fitted ? continuum::detail::message("2 to {}", window_) : std::string("none before fit")));
        }
        detail::require_state_values<double>(s.buffer, who, "buffer");
        BasicLinearRegression out = *this;
        out.buffer_ = s.buffer;
        out.fitted_ = s.fitted;
        if (s.fitted) out.refit();
        return out;
    }
    /// \throws InvalidArgument as the constructor and with_state.
    [[nodiscard]] static BasicLinearRegression restore(int window, const LinearRegressionState& s) { return BasicLinearRegression(window).with_state(s); }

    /// \throws InvalidArgument when window < 2.
    explicit BasicLinearRegression(int window) : window_(window) {
        if (window < 2) throw InvalidArgument(continuum::detail::message("linear_regression: window must be >= 2, got {}", window));
    }

    /// Fits on the last `window` points (fewer if the history is shorter).
    /// \throws InvalidArgument when history has fewer than 2 points.
    void fit(SeriesView history) {
        detail::require_observation_range(history, "linear_regression");
        detail::require_length(history.size(), 2, "linear_regression", "two points define a line");
        const std::size_t w = std::min(history.size(), static_cast<std::size_t>(window_));
        buffer_.assign(history.end() - static_cast<std::ptrdiff_t>(w), history.end());
        refit();
        fitted_ = true;
    }
    /// \throws InvalidArgument before fit(), when horizon < 1 or level is not 0 or in (0, 1).
    [[nodiscard]] Forecast forecast(int horizon, double level = 0.0) const {
        detail::require_fitted(fitted_, "linear_regression");
        detail::require_horizon(horizon);
        detail::require_level(level);
        const double w = static_cast<double>(buffer_.size());
        const double x_mean = (w - 1.0) / 2.0;
        const double sxx = w * (w * w - 1.0) / 12.0;
        std::vector<double> mean(static_cast<std::size_t>(horizon));
        std::vector<double> sd(mean.size());
        for (std::size_t i = 0; i < mean.size(); ++i) {
            const double x = w - 1.0 + static_cast<double>(i + 1);
            mean[i] = intercept_ + slope_ * x;
            sd[i] = sigma_ * std::sqrt(1.0 + 1.0 / w + (x - x_mean) * (x - x_mean) / sxx);
        }
        return detail::gaussian_forecast(std::move(mean), sd, level);
    }
    /// Slides the window by one and refits: O(window). \throws InvalidArgument before fit() or
    /// when value is not finite.
    void update(double value) {
        detail::require_fitted(fitted_, "linear_regression");
        detail::require_finite_observation(value);
        if (buffer_.size() == static_cast<std::size_t>(window_)) buffer_.erase(buffer_.begin());
        buffer_.push_back(value);
        refit();
    }
    [[nodiscard]] std::string name() const { return continuum::detail::message("linear_regression(window={})", window_); }
    /// Slope per step of the current fit.
    [[nodiscard]] double slope() const { return slope_; }
    /// Fitted value at the newest observation of the window.
    [[nodiscard]] double level() const { return intercept_ + slope_ * static_cast<double>(buffer_.size() - 1); }

private:
    void refit() {
        const double w = static_cast<double>(buffer_.size());
        const double x_mean = (w - 1.0) / 2.0;
        double y_mean = 0.0;
        for (double v : buffer_) y_mean += v;
        y_mean /= w;
        double sxy = 0.0;
        for (std::size_t i = 0; i < buffer_.size(); ++i) sxy += (static_cast<double>(i) - x_mean) * (buffer_[i] - y_mean);
        const double sxx = w * (w * w - 1.0) / 12.0;
        slope_ = sxy / sxx;
        intercept_ = y_mean - slope_ * x_mean;
        double sse = 0.0;
        for (std::size_t i = 0; i < buffer_.size(); ++i) {
            const double e = buffer_[i] - (intercept_ + slope_ * static_cast<double>(i));
            sse += e * e;
        }
        sigma_ = buffer_.size() > 2 ? std::sqrt(sse / (w - 2.0)) : 0.0;
    }

    int window_;
    std::vector<double> buffer_;
    double slope_ = 0.0;
    double intercept_ = 0.0;
    double sigma_ = 0.0;
    bool fitted_ = false;
};

using LinearRegression = BasicLinearRegression<>;

static_assert(Forecaster<LinearRegression>);

}  // namespace continuum::forecast
