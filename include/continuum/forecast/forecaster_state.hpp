// The state of a forecaster chosen at run time: ForecasterState holds the state of any built-in
// model (the baselines, SES, Holt-Winters, an LSTM with its weights), each echoing its
// configuration, so an AnyForecaster, a Portfolio's members or a scaler's per-namespace models can
// be saved and restored. state_of() and with_state() are the entry points generic code calls.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/forecast/any_forecaster.hpp>
#include <continuum/forecast/drift.hpp>
#include <continuum/forecast/holt_winters.hpp>
#include <continuum/forecast/linear_regression.hpp>
#include <continuum/forecast/lstm_model_state.hpp>
#include <continuum/forecast/moving_average.hpp>
#include <continuum/forecast/moving_median.hpp>
#include <continuum/forecast/naive.hpp>
#include <continuum/forecast/seasonal_median.hpp>
#include <continuum/forecast/seasonal_naive.hpp>
#include <continuum/forecast/simple_exponential_smoothing.hpp>

#include <algorithm>
#include <concepts>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include <fmt/format.h>

namespace continuum::forecast {

/// The state of one built-in model, configuration included (season length, window, spec, fixed α,
/// an LSTM's weights).
using ForecasterState = std::variant<NaiveState, DriftState, SimpleExponentialSmoothingState, SeasonalNaiveState, SeasonalMedianState,
                                     MovingAverageState, LinearRegressionState, HoltWintersState<double>, LstmModelState<double>, LstmModelState<float>,
                                     MovingMedianState>;

/// The model a ForecasterState describes: "naive", "drift", "simple_exponential_smoothing",
/// "seasonal_naive", "seasonal_median", "moving_average", "linear_regression", "holt_winters",
/// "lstm" (double), "lstm_float" or "moving_median" (added last: the indices before it are kept).
[[nodiscard]] inline std::string_view kind_of(const ForecasterState& state) {
    constexpr std::string_view names[] = {"naive", "drift", "simple_exponential_smoothing", "seasonal_naive", "seasonal_median", "moving_average",
                                          "linear_regression", "holt_winters", "lstm", "lstm_float", "moving_median"};
    static_assert(std::size(names) == std::variant_size_v<ForecasterState>);
    return names[state.index()];
}

/// A forecaster whose state can be taken (`state()`) and put back into a copy of a configured
/// instance (`with_state(state)`).
template <typename F>
concept StatefulForecaster = Forecaster<F> && requires(const F f, const typename F::State s) {
    { f.state() } -> std::same_as<typename F::State>;
    { f.with_state(s) } -> std::same_as<F>;
};

/// The state of a stateful forecaster.
template <StatefulForecaster F>
[[nodiscard]] typename F::State state_of(const F& model) {
    return model.state();
}
/// A copy of the configured `prototype` with `state`. \throws InvalidArgument as F::with_state.
template <StatefulForecaster F>
[[nodiscard]] F with_state(const F& prototype, const typename F::State& state) {
    return prototype.with_state(state);
}

/// The state of the built-in model `model` wraps.
/// \throws InvalidArgument when it is empty or wraps a type ForecasterState does not cover (an LSTM,
///         a user-defined model), naming it.
template <typename = void>  // a template, so the states of every model are instantiated only where called
[[nodiscard]] ForecasterState state_of(const AnyForecaster& model) {
    if (const auto* m = model.target<Naive>()) return m->state();
    if (const auto* m = model.target<Drift>()) return m->state();
    if (const auto* m = model.target<SimpleExponentialSmoothing>()) return m->state();
    if (const auto* m = model.target<SeasonalNaive>()) return m->state();
    if (const auto* m = model.target<SeasonalMedian>()) return m->state();
    if (const auto* m = model.target<MovingAverage>()) return m->state();
    if (const auto* m = model.target<MovingMedian>()) return m->state();
    if (const auto* m = model.target<LinearRegression>()) return m->state();
    if (const auto* m = model.target<HoltWinters<double>>()) return m->state();
    LstmModelState<double> lstm_double;
    LstmModelState<float> lstm_float;
    if (model.lstm_model_state(&lstm_double, &lstm_float)) {
        if (!lstm_double.parameters.empty()) return lstm_double;
        return lstm_float;
    }
    throw InvalidArgument(continuum::detail::message("forecaster state: {} is not a built-in forecaster (naive, drift, ses, seasonal naive or median, "
                                                     "moving average or median, linear regression, Holt-Winters, LSTM); its state cannot be taken",
                                                     model.name()));
}

/// The built-in model `state` describes, restored. Holt-Winters gets `holt_winters` options (the
/// interval simulation and statsmodels quirk settings are configuration, not state).
/// \throws InvalidArgument as the model's restore.
template <typename = void>  // as state_of(const AnyForecaster&)
[[nodiscard]] AnyForecaster restore_forecaster(const ForecasterState& state, const HoltWintersOptions& holt_winters = {}) {
    return std::visit(
        [&](const auto& s) -> AnyForecaster {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, NaiveState>) return Naive::restore(s);
            else if constexpr (std::is_same_v<S, DriftState>) return Drift::restore(s);
            else if constexpr (std::is_same_v<S, SimpleExponentialSmoothingState>) return SimpleExponentialSmoothing::restore(s);
            else if constexpr (std::is_same_v<S, SeasonalNaiveState>) return SeasonalNaive::restore(s.season_length, s);
            else if constexpr (std::is_same_v<S, SeasonalMedianState>) return SeasonalMedian::restore(s.season_length, s.seasons, s);
            else if constexpr (std::is_same_v<S, MovingAverageState>) return MovingAverage::restore(s.window, s);
            else if constexpr (std::is_same_v<S, MovingMedianState>) return MovingMedian::restore(s.window, s);
            else if constexpr (std::is_same_v<S, LinearRegressionState>) return LinearRegression::restore(s.window, s);
            else if constexpr (std::is_same_v<S, HoltWintersState<double>>) return HoltWinters<double>::restore(s, holt_winters);
            else return s.parameters.restore(s.state, s.source);
        },
        state);
}

/// A copy of `prototype` with `state`: the wrapped model's with_state (so its configuration is
/// checked); an empty prototype gives the state's own model (restore_forecaster).
/// \throws InvalidArgument when the prototype wraps another model than the state describes, or as
///         the model's with_state or restore.
template <typename = void>  // as state_of(const AnyForecaster&)
[[nodiscard]] AnyForecaster with_state(const AnyForecaster& prototype, const ForecasterState& state) {
    return std::visit(
        [&](const auto& s) -> AnyForecaster {
            using S = std::decay_t<decltype(s)>;
            const auto unconfigured = [&]() -> AnyForecaster {
                if (prototype.empty()) return restore_forecaster(state);
                throw InvalidArgument(continuum::detail::message("forecaster restore: the state is of a {} model but the configured forecaster is {}", kind_of(state),
                                                                 prototype.name()));
            };
            const auto from = [&]<typename M>(const M* configured) -> AnyForecaster {
                if (configured) return configured->with_state(s);
                return unconfigured();
            };
            if constexpr (std::is_same_v<S, NaiveState>) return from(prototype.target<Naive>());
            else if constexpr (std::is_same_v<S, DriftState>) return from(prototype.target<Drift>());
            else if constexpr (std::is_same_v<S, SimpleExponentialSmoothingState>) return from(prototype.target<SimpleExponentialSmoothing>());
            else if constexpr (std::is_same_v<S, SeasonalNaiveState>) return from(prototype.target<SeasonalNaive>());
            else if constexpr (std::is_same_v<S, SeasonalMedianState>) return from(prototype.target<SeasonalMedian>());
            else if constexpr (std::is_same_v<S, MovingAverageState>) return from(prototype.target<MovingAverage>());
            else if constexpr (std::is_same_v<S, MovingMedianState>) return from(prototype.target<MovingMedian>());
            else if constexpr (std::is_same_v<S, LinearRegressionState>) return from(prototype.target<LinearRegression>());
            else if constexpr (std::is_same_v<S, HoltWintersState<double>>) return from(prototype.target<HoltWinters<double>>());
            else {
                // An LSTM: the configured model's weights must be the state's (checked by the box).
                if (auto restored = s.parameters.with_state(prototype, s.state)) return std::move(*restored);
                return unconfigured();
            }
        },
        state);
}

/// Stands in for the state of a forecaster that has none to give (generic code that stores
/// per-model states still compiles; taking or restoring such a state does not).
struct NoForecasterState {
    friend bool operator==(const NoForecasterState&, const NoForecasterState&) = default;
};

template <typename F>
struct ForecasterStateType {
    using type = NoForecasterState;
};
template <typename F>
    requires requires(const F& f) { state_of(f); }
struct ForecasterStateType<F> {
    using type = decltype(state_of(std::declval<const F&>()));
};

/// The state type state_of gives for F (F::State, or ForecasterState for AnyForecaster).
template <typename F>
using StateOf = typename ForecasterStateType<F>::type;

}  // namespace continuum::forecast
