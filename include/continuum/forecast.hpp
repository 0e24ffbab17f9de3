// Umbrella header for continuum/forecast: the Forecaster concept, baselines, Holt-Winters (ETS)
// with automatic model choice, the rolling-origin portfolio and accuracy metrics.
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
#include <continuum/forecast/moving_median.hpp>
#include <continuum/forecast/naive.hpp>
#include <continuum/forecast/portfolio.hpp>
#include <continuum/forecast/seasonal_median.hpp>
#include <continuum/forecast/seasonal_naive.hpp>
#include <continuum/forecast/simple_exponential_smoothing.hpp>

#include <continuum/forecast/lstm.hpp>
// Not included: <continuum/forecast/lstm_loader.hpp>, the safetensors weights loader. It needs
// nlohmann_json (an optional dependency) and its parser is costly to compile; include it on its own.
