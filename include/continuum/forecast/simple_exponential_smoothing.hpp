// Simple exponential smoothing (SES, ETS(A,N,N); FPP §8.1): ℓ_t = α·y_t + (1 − α)·ℓ_{t−1}, flat
// forecast ℓ_n. ℓ_0 = y_1 (statsmodels' "simple" initialisation); α is given or chosen in [0, 1] by
// golden-section search on the one-step SSE. Analytic interval: σ²[1 + α²(h − 1)], σ² = SSE/n.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/forecast/detail/interval.hpp>
#include <continuum/forecast/detail/state_checks.hpp>
#include <continuum/forecast/forecaster.hpp>

#include <cmath>
#include <cstdint>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace continuum::forecast {

/// Everything a SimpleExponentialSmoothing forecaster remembers; fixed_alpha echoes the
/// configuration (nullopt: α is fitted).
struct SimpleExponentialSmoothingState {
    std::optional<double> fixed_alpha;
    double alpha = 0.0;
    double level = 0.0;
    double sse = 0.0;
    std::uint64_t count = 0;
    bool fitted = false;

    friend bool operator==(const SimpleExponentialSmoothingState&, const SimpleExponentialSmoothingState&) = default;
};

/// `SimpleExponentialSmoothing` is `BasicSimpleExponentialSmoothing<>` (below): the parameter only keeps the members from compiling in a
/// unit that does not use them (issue 21).
template <typename Defer = void>
class BasicSimpleExponentialSmoothing {
public:
    using State = SimpleExponentialSmoothingState;

    [[nodiscard]] SimpleExponentialSmoothingState state() const { return {fixed_alpha_, alpha_, level_, sse_, count_, fitted_}; }
    /// A copy of this forecaster with `state`. \throws InvalidArgument when state.fixed_alpha differs
    ///         from the configuration, alpha is outside [0, 1] (or differs from a fixed α once
    ///         fitted), a field is not finite, sse < 0 or a fitted state has count 0.
    [[nodiscard]] BasicSimpleExponentialSmoothing with_state(const SimpleExponentialSmoothingState& s) const {
        constexpr std::string_view who = "simple_exponential_smoothing";
        if (s.fixed_alpha != fixed_alpha_) {
            throw InvalidArgument(continuum::detail::message("{} restore: state.fixed_alpha = {} but the configuration has {}", who,
                                                             s.fixed_alpha ? continuum::detail::message("{}", *s.fixed_alpha) : "none", fixed_alpha_ ? continuum::detail::message("{}", *fixed_alpha_) : "none"));
        }
        if (!(s.alpha >= 0.0 && s.alpha <= 1.0)) throw InvalidArgument(continuum::detail::message("{} restore: state.alpha = {} is outside [0, 1]", who, s.alpha));
        if (s.fitted && fixed_alpha_) detail::require_state_matches(s.alpha, *fixed_alpha_, who, "alpha");
        detail::require_state_value(s.level, who, "level");
        detail::require_state_non_negative(s.sse, who, "sse");
        if (s.fitted && s.count == 0) throw InvalidArgument(continuum::detail::message("{} restore: state.count must be >= 1 once fitted", who));
        BasicSimpleExponentialSmoothing out = *this;
        out.alpha_ = s.alpha;
        out.level_ = s.level;
        out.sse_ = s.sse;
        out.count_ = static_cast<std::size_t>(s.count);
        out.fitted_ = s.fitted;
        return out;
    }
    /// The forecaster configured with state.fixed_alpha, with `state`. \throws InvalidArgument as with_state.
    [[nodiscard]] static BasicSimpleExponentialSmoothing restore(const SimpleExponentialSmoothingState& s) {
        return BasicSimpleExponentialSmoothing(s.fixed_alpha).with_state(s);
    }

    /// alpha = nullopt fits α by minimum SSE. \throws InvalidArgument when alpha is outside [0, 1].
    explicit BasicSimpleExponentialSmoothing(std::optional<double> alpha = std::nullopt) : fixed_alpha_(alpha) {
        if (alpha && !(*alpha >= 0.0 && *alpha <= 1.0)) {
            throw InvalidArgument(continuum::detail::message("simple_exponential_smoothing: alpha must be in [0, 1], got {}", *alpha));
        }
    }

    /// \throws InvalidArgument when history is empty.
    void fit(SeriesView history) {
        detail::require_observation_range(history, "simple_exponential_smoothing");
        if (history.empty()) throw InvalidArgument("simple_exponential_smoothing: series is empty, needs at least 1 point");
        const auto values = history.values();
        if (fixed_alpha_) {
            alpha_ = *fixed_alpha_;
        } else {
            // Golden-section search; the SSE of SES is smooth and, on real data, unimodal in α.
            const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
            double lo = 0.0, hi = 1.0;
            double x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
            double f1 = sse(values, x1), f2 = sse(values, x2);
            for (int i = 0; i < 60 && hi - lo > 1e-10; ++i) {
                if (f1 <= f2) {
                    hi = x2; x2 = x1; f2 = f1; x1 = hi - ratio * (hi - lo); f1 = sse(values, x1);
                } else {
                    lo = x1; x1 = x2; f1 = f2; x2 = lo + ratio * (hi - lo); f2 = sse(values, x2);
                }
            }
            alpha_ = 0.5 * (lo + hi);
            for (double edge : {0.0, 1.0}) {
                if (sse(values, edge) < sse(values, alpha_)) alpha_ = edge;
            }
        }
        sse_ = sse(values, alpha_);
        count_ = values.size();
        level_ = values[0];
        for (std::size_t i = 1; i < values.size(); ++i) level_ = alpha_ * values[i] + (1.0 - alpha_) * level_;
        fitted_ = true;
    }
    /// \throws InvalidArgument before fit(), when horizon < 1 or level is not 0 or in (0, 1).
    [[nodiscard]] Forecast forecast(int horizon, double level = 0.0) const {
        detail::require_fitted(fitted_, "simple_exponential_smoothing");
        detail::require_horizon(horizon);
        detail::require_level(level);
        std::vector<double> sd(static_cast<std::size_t>(horizon));
        for (std::size_t i = 0; i < sd.size(); ++i) sd[i] = sigma() * std::sqrt(1.0 + alpha_ * alpha_ * static_cast<double>(i));
        return detail::gaussian_forecast(std::vector<double>(sd.size(), level_), sd, level);
    }
    /// O(1). \throws InvalidArgument before fit() or when value is not finite.
    void update(double value) {
        detail::require_fitted(fitted_, "simple_exponential_smoothing");
        detail::require_finite_observation(value);
        sse_ += (value - level_) * (value - level_);
        ++count_;
        level_ = alpha_ * value + (1.0 - alpha_) * level_;
    }
    [[nodiscard]] std::string name() const { return continuum::detail::message("ses(alpha={:.4g})", alpha_); }
    [[nodiscard]] double alpha() const { return alpha_; }
    [[nodiscard]] double level() const { return level_; }
    /// Sum of squared one-step errors over the history and every update.
    [[nodiscard]] double sse() const { return sse_; }
    [[nodiscard]] double sigma() const { return std::sqrt(sse_ / static_cast<double>(count_)); }

private:
    static double sse(std::span<const double> y, double alpha) {
        double level = y[0], total = 0.0;
        for (std::size_t i = 1; i < y.size(); ++i) {
            const double e = y[i] - level;
            total += e * e;
            level += alpha * e;
        }
        return total;
    }

    std::optional<double> fixed_alpha_;
    double alpha_ = 0.0;
    double level_ = 0.0;
    double sse_ = 0.0;
    std::size_t count_ = 0;
    bool fitted_ = false;
};

using SimpleExponentialSmoothing = BasicSimpleExponentialSmoothing<>;

static_assert(Forecaster<SimpleExponentialSmoothing>);

}  // namespace continuum::forecast
