// Naive forecaster: every future step equals the last observation (the random-walk forecast,
// FPP §5.2). Interval: σ√h with σ² the mean squared one-step change of the history.
#pragma once

#include <continuum/forecast/detail/interval.hpp>
#include <continuum/forecast/detail/state_checks.hpp>
#include <continuum/forecast/forecaster.hpp>

#include <cmath>
#include <cstdint>
#include <cstddef>
#include <string>
#include <vector>

namespace continuum::forecast {

/// Everything a Naive forecaster remembers.
struct NaiveState {
    double last = 0.0;
    double sum_squares = 0.0;  ///< of the one-step changes
    std::uint64_t changes = 0;
    bool fitted = false;

    friend bool operator==(const NaiveState&, const NaiveState&) = default;
};

class Naive {
public:
    using State = NaiveState;

    [[nodiscard]] NaiveState state() const { return {last_, sum_squares_, changes_, fitted_}; }
    /// A copy of this forecaster with `state`. \throws InvalidArgument naming a non-finite or
    ///         negative field.
    [[nodiscard]] Naive with_state(const NaiveState& s) const {
        detail::require_state_value(s.last, "naive", "last");
        detail::require_state_non_negative(s.sum_squares, "naive", "sum_squares");
        Naive out = *this;
        out.last_ = s.last;
        out.sum_squares_ = s.sum_squares;
        out.changes_ = static_cast<std::size_t>(s.changes);
        out.fitted_ = s.fitted;
        return out;
    }
    /// \throws InvalidArgument as with_state.
    [[nodiscard]] static Naive restore(const NaiveState& s) { return Naive{}.with_state(s); }

    /// \throws InvalidArgument when history is empty.
    void fit(SeriesView history) {
        detail::require_observation_range(history, "naive");
        if (history.empty()) throw InvalidArgument("naive: series is empty, needs at least 1 point");
        last_ = history.back();
        sum_squares_ = 0.0;
        for (std::size_t i = 1; i < history.size(); ++i) sum_squares_ += (history[i] - history[i - 1]) * (history[i] - history[i - 1]);
        changes_ = history.size() - 1;
        fitted_ = true;
    }
    /// \throws InvalidArgument before fit(), when horizon < 1 or level is not 0 or in (0, 1).
    [[nodiscard]] Forecast forecast(int horizon, double level = 0.0) const {
        detail::require_fitted(fitted_, "naive");
        detail::require_horizon(horizon);
        detail::require_level(level);
        std::vector<double> sd(static_cast<std::size_t>(horizon));
        for (int h = 1; h <= horizon; ++h) sd[static_cast<std::size_t>(h - 1)] = sigma() * std::sqrt(static_cast<double>(h));
        return detail::gaussian_forecast(std::vector<double>(static_cast<std::size_t>(horizon), last_), sd, level);
    }
    /// O(1). \throws InvalidArgument before fit() or when value is not finite.
    void update(double value) {
        detail::require_fitted(fitted_, "naive");
        detail::require_finite_observation(value);
        sum_squares_ += (value - last_) * (value - last_);
        ++changes_;
        last_ = value;
    }
    [[nodiscard]] std::string name() const { return "naive"; }
    /// Standard deviation of the one-step change (0 with a single observation).
    [[nodiscard]] double sigma() const { return changes_ ? std::sqrt(sum_squares_ / static_cast<double>(changes_)) : 0.0; }

private:
    double last_ = 0.0;
    double sum_squares_ = 0.0;
    std::size_t changes_ = 0;
    bool fitted_ = false;
};

static_assert(Forecaster<Naive>);

}  // namespace continuum::forecast
