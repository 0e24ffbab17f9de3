// Simple exponential smoothing (SES, ETS(A,N,N); FPP §8.1): ℓ_t = α·y_t + (1 − α)·ℓ_{t−1}, flat
// forecast ℓ_n. ℓ_0 = y_1 (statsmodels' "simple" initialisation); α is given or chosen in [0, 1] by
// golden-section search on the one-step SSE. Analytic interval: σ²[1 + α²(h − 1)], σ² = SSE/n.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/forecast/detail/interval.hpp>
#include <continuum/forecast/detail/state_checks.hpp>
#include <continuum/forecast/forecaster.hpp>

#include <array>
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
            // Golden-section search; the SSE of SES is smooth and, on real data, unimodal in α. Each
            // pass over the series evaluates the next point and both points the step after it may
            // need (which one depends on the comparison the next point decides), so a pass advances
            // the search two steps: the points, values and α are those of one evaluation at a time.
            const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
            Bracket b;
            b.x1 = b.hi - ratio * (b.hi - b.lo);
            b.x2 = b.lo + ratio * (b.hi - b.lo);
            {
                const std::array<double, 2> at{b.x1, b.x2};
                const auto f = sse_many(values, at);
                b.f1 = f[0];
                b.f2 = f[1];
            }
            for (int i = 0; i < 60 && b.hi - b.lo > 1e-10;) {
                const bool left = b.f1 <= b.f2;
                Bracket next = b.step(left, ratio);  // its new point's value still unknown
                const double point = left ? next.x1 : next.x2;
                if (i + 1 < 60 && next.hi - next.lo > 1e-10) {
                    const Bracket after_left = next.step(true, ratio), after_right = next.step(false, ratio);
                    const std::array<double, 3> at{point, after_left.x1, after_right.x2};
                    const auto f = sse_many(values, at);
                    (left ? next.f1 : next.f2) = f[0];
                    const bool left_again = next.f1 <= next.f2;
                    b = left_again ? after_left : after_right;
                    (left_again ? b.f1 : b.f2) = left_again ? f[1] : f[2];
                    (left_again ? b.f2 : b.f1) = left_again ? next.f1 : next.f2;
                    i += 2;
                } else {
                    const std::array<double, 1> at{point};
                    (left ? next.f1 : next.f2) = sse_many(values, at)[0];
                    b = next;
                    ++i;
                }
            }
            alpha_ = 0.5 * (b.lo + b.hi);
            // The edges win only when strictly better.
            const std::array<double, 3> at{alpha_, 0.0, 1.0};
            const auto f = sse_many(values, at);
            double best = f[0];
            for (std::size_t k = 1; k < 3; ++k) {
                if (f[k] < best) {
                    best = f[k];
                    alpha_ = at[k];
                }
            }
            sse_ = best;
        }
        if (fixed_alpha_) sse_ = sse(values, alpha_);
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
    /// A golden-section bracket [lo, hi] with its inner points x1 < x2 and their SSEs.
    struct Bracket {
        double lo = 0.0, hi = 1.0, x1 = 0.0, x2 = 0.0, f1 = 0.0, f2 = 0.0;
        /// The bracket after one step, keeping [lo, x2] (left) or [x1, hi]; the new point's value
        /// (f1 when left, f2 otherwise) is left for the caller.
        [[nodiscard]] Bracket step(bool left, double ratio) const {
            Bracket out = *this;
            if (left) {
                out.hi = x2;
                out.x2 = x1;
                out.f2 = f1;
                out.x1 = out.hi - ratio * (out.hi - out.lo);
            } else {
                out.lo = x1;
                out.x1 = x2;
                out.f1 = f2;
                out.x2 = out.lo + ratio * (out.hi - out.lo);
            }
            return out;
        }
    };

    /// sse(y, alpha[k]) for every k in one pass (independent chains side by side; each the same
    /// arithmetic as sse()).
    template <std::size_t K>
    static std::array<double, K> sse_many(std::span<const double> y, const std::array<double, K>& alpha) {
        std::array<double, K> level, total{};
        level.fill(y[0]);
        for (std::size_t i = 1; i < y.size(); ++i) {
            for (std::size_t k = 0; k < K; ++k) {
                const double e = y[i] - level[k];
                total[k] += e * e;
                level[k] += alpha[k] * e;
            }
        }
        return total;
    }

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
