// Umbrella header for continuum/sim: the trace-driven simulator, workload shapes, metrics and the
// baseline scalers (static, Cluster Autoscaler). The adapters that run continuum's own scalers in it
// include every decision area, so they are in <continuum/sim/adapters.hpp>. The seed papers'
// experiments replayed with it live in examples/demo/replay/ (the demo's machinery, not a header).
#pragma once

#include <continuum/sim/cluster_autoscaler.hpp>
#include <continuum/sim/decision.hpp>
#include <continuum/sim/load_profile.hpp>
#include <continuum/sim/metrics.hpp>
#include <continuum/sim/node_pool.hpp>
#include <continuum/sim/scaler.hpp>
#include <continuum/sim/scenario.hpp>
#include <continuum/sim/simulator.hpp>
#include <continuum/sim/snapshot.hpp>
#include <continuum/sim/static_scaler.hpp>
#include <continuum/sim/workload_shapes.hpp>
