// Umbrella header for continuum/packing: 1-D and vector heuristics, lower bounds, the exact
// solver, node types with cost, consolidation, and drain simulation under disruption budgets.
#pragma once

#include <continuum/packing/consolidation.hpp>
#include <continuum/packing/disruption_budget.hpp>
#include <continuum/packing/drain.hpp>
#include <continuum/packing/exact.hpp>
#include <continuum/packing/lower_bounds.hpp>
#include <continuum/packing/model.hpp>
#include <continuum/packing/node_types.hpp>
#include <continuum/packing/one_dimensional.hpp>
#include <continuum/packing/placement.hpp>
#include <continuum/packing/vector_heuristics.hpp>
