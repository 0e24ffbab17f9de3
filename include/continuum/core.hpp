// Umbrella header for continuum/core: errors, Kubernetes quantities, resources, time and series.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/quantity.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/series.hpp>
#include <continuum/core/time.hpp>
