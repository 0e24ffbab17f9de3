// Drift forecaster: the line through the first and last observations extended into the future,
// ŷ_{n+h} = y_n + h·(y_n − y_1)/(n − 1) (FPP §5.2). Interval: σ√(h(1 + h/n)) with σ² the mean
// squared deviation of the one-step changes from the drift.
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

namespace continuum::forecast {

/// Everything a Drift forecaster remembers.
struct DriftState {
    double first = 0.0;
    double last = 0.0;
    std::uint64_t count = 0;
    double sum_squares = 0.0;  ///< of the one-step changes
    bool fitted = false;

    friend bool operator==(const DriftState&, const DriftState&) = default;
};

/// `Drift` is `BasicDrift<>` (below): the parameter only keeps the members from compiling in a
/// unit that does not use them (issue 21).
template <typename Defer = void>
class BasicDrift {
public:
    using State = DriftState;

    [[nodiscard]] DriftState state() const { return {first_, last_, count_, sum_squares_, fitted_}; }
    /// A copy of this forecaster with `state`. \throws InvalidArgument naming a non-finite or
    ///         negative field, or a fitted state with count < 2.
    [[nodiscard]] BasicDrift with_state(const DriftState& s) const {
        detail::require_state_value(s.first, "drift", "first");
        detail::require_state_value(s.last, "drift", "last");
        detail::require_state_non_negative(s.sum_squares, "drift", "sum_squares");
        if (s.fitted && s.count < 2) throw InvalidArgument(continuum::detail::message("drift restore: state.count = {} must be >= 2 once fitted", s.count));
        BasicDrift out = *this;
        out.first_ = s.first;
        out.last_ = s.last;
        out.count_ = static_cast<std::size_t>(s.count);
        out.sum_squares_ = s.sum_squares;
        out.fitted_ = s.fitted;
        return out;
    }
    /// \throws InvalidArgument as with_state.
    [[nodiscard]] static BasicDrift restore(const DriftState& s) { return BasicDrift{}.with_state(s); }

    /// \throws InvalidArgument when history has fewer than 2 points.
    void fit(SeriesView history) {
        detail::require_observation_range(history, "drift");
        detail::require_length(history.size(), 2, "drift", "a first and a last point");
        first_ = history[0];
        last_ = history.back();
        count_ = history.size();
        sum_squares_ = 0.0;
        for (std::size_t i = 1; i < history.size(); ++i) sum_squares_ += (history[i] - history[i - 1]) * (history[i] - history[i - 1]);
        fitted_ = true;
    }
    /// \throws InvalidArgument before fit(), when horizon < 1 or level is not 0 or in (0, 1).
    [[nodiscard]] Forecast forecast(int horizon, double level = 0.0) const {
        detail::require_fitted(fitted_, "drift");
        detail::require_horizon(horizon);
        detail::require_level(level);
        std::vector<double> mean(static_cast<std::size_t>(horizon));
        std::vector<double> sd(mean.size());
        const double n = static_cast<double>(count_);
        for (std::size_t i = 0; i < mean.size(); ++i) {
            const double h = static_cast<double>(i + 1);
            mean[i] = last_ + h * slope();
            sd[i] = sigma() * std::sqrt(h * (1.0 + h / n));
        }
        return detail::gaussian_forecast(std::move(mean), sd, level);
    }
    /// O(1). \throws InvalidArgument before fit() or when value is not finite.
    void update(double value) {
        detail::require_fitted(fitted_, "drift");
        detail::require_finite_observation(value);
        sum_squares_ += (value - last_) * (value - last_);
        last_ = value;
        ++count_;
    }
    [[nodiscard]] std::string name() const { return "drift"; }
    /// (y_n − y_1)/(n − 1).
    [[nodiscard]] double slope() const { return (last_ - first_) / static_cast<double>(count_ - 1); }
    /// Standard deviation of the one-step changes around the drift.
    [[nodiscard]] double sigma() const {
        const double changes = static_cast<double>(count_ - 1);
        const double mean_change = slope();
        const double variance = sum_squares_ / changes - mean_change * mean_change;
        return variance > 0.0 ? std::sqrt(variance) : 0.0;
    }

private:
    double first_ = 0.0;
    double last_ = 0.0;
    std::size_t count_ = 0;
    double sum_squares_ = 0.0;  // of the one-step changes
    bool fitted_ = false;
};

using Drift = BasicDrift<>;

static_assert(Forecaster<Drift>);

}  // namespace continuum::forecast
