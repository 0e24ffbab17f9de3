// continuum: header-only autoscaling decision engines. This umbrella includes every public header,
// area by area in pipeline order; include an area umbrella (<continuum/packing.hpp>, ...) for less.
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
#include <continuum/sim.hpp>
