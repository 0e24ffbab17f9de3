// Umbrella header for continuum/forecast: the Forecaster concept, baselines, Holt-Winters (ETS)
// with automatic model choice, the rolling-origin portfolio and accuracy metrics (the LSTM, which
// needs Eigen, is included on its own: <continuum/forecast/lstm.hpp>).
#pragma once

#include <continuum/forecast/any_forecaster.hpp>
#include <continuum/forecast/auto_ets.hpp>
#include <continuum/forecast/drift.hpp>
#include <continuum/forecast/forecaster.hpp>
#include <continuum/forecast/forecaster_state.hpp>
#include <continuum/forecast/holt_winters.hpp>
#include <continuum/forecast/holt_winters_batch.hpp>
#include <continuum/forecast/holt_winters_initialization.hpp>
#include <continuum/forecast/holt_winters_model.hpp>
#include <continuum/forecast/linear_regression.hpp>
#include <continuum/forecast/metrics.hpp>
#include <continuum/forecast/moving_average.hpp>
#include <continuum/forecast/naive.hpp>
#include <continuum/forecast/portfolio.hpp>
#include <continuum/forecast/seasonal_median.hpp>
#include <continuum/forecast/seasonal_naive.hpp>
#include <continuum/forecast/simple_exponential_smoothing.hpp>

// Not included since 0.2.0: <continuum/forecast/lstm.hpp>, the LSTM. It brings Eigen into every unit
// (with packing's LP free of Eigen, the only Eigen of the umbrella); include it where forecast::Lstm,
// LstmParameters or Scaling are used. Deprecation path (CHANGELOG): until 0.3.0, defining
// CONTINUUM_DEPRECATED_UMBRELLA_LSTM before including continuum includes it here as before.
#if defined(CONTINUUM_DEPRECATED_UMBRELLA_LSTM)
#include <continuum/forecast/lstm.hpp>
#else
#include <concepts>
namespace continuum::forecast {
template <std::floating_point T>
class Lstm;  // incomplete here: include continuum/forecast/lstm.hpp to use forecast::Lstm
}  // namespace continuum::forecast
#endif
// Not included: <continuum/forecast/lstm_loader.hpp>, the safetensors weights loader. It needs
// nlohmann_json (an optional dependency) and its parser is costly to compile; include it on its own.
