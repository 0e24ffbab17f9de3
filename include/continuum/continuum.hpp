// continuum: header-only autoscaling decision engines. This umbrella includes every decision area,
// in pipeline order; include an area umbrella (<continuum/packing.hpp>, ...) for less. The simulator
// is not a decision area: include <continuum/sim.hpp> on its own.
#pragma once

#include <continuum/version.hpp>

#include <continuum/core.hpp>
#include <continuum/forecast.hpp>
#include <continuum/capacity.hpp>
#include <continuum/packing.hpp>
#include <continuum/quota.hpp>
#include <continuum/federation.hpp>
#include <continuum/policy.hpp>
#include <continuum/scalers.hpp>
