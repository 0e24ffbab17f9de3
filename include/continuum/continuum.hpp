// continuum: header-only autoscaling decision engines. This umbrella includes every public header;
// include the per-area umbrellas (<continuum/core.hpp>, <continuum/packing.hpp>, ...) for less.
#pragma once

#include <continuum/version.hpp>
#include <continuum/core.hpp>
#include <continuum/forecast/any_forecaster.hpp>
#include <continuum/forecast/forecaster.hpp>
