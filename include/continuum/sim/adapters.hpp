// The simulator with the adapters that run continuum's scalers in it (HPA, quota scalers, federated
// cluster scaler, hierarchical planner). Each adapter includes its decision area, so this header costs
// about what <continuum/continuum.hpp> does; <continuum/sim.hpp> alone is the simulator.
#pragma once

#include <continuum/sim.hpp>
#include <continuum/sim/adapters/federated.hpp>
#include <continuum/sim/adapters/hierarchical.hpp>
#include <continuum/sim/adapters/hpa.hpp>
#include <continuum/sim/adapters/quota_scalers.hpp>
