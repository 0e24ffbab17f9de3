// The static baseline: a scaler that never changes anything, so the scenario's initial nodes and
// quotas stay for the whole run (seed 000's five always-on nodes, seed 001's fixed 100-CPU quota).
#pragma once

#include <continuum/sim/decision.hpp>
#include <continuum/sim/scaler.hpp>
#include <continuum/sim/snapshot.hpp>

namespace continuum::sim {

struct StaticScaler {
    Decision decide(const Snapshot& /*snapshot*/) { return {}; }
};
static_assert(Scaler<StaticScaler>);

}  // namespace continuum::sim
