// Umbrella header for continuum/capacity: shortfall, required node counts, waiting (paused)
// worker-node pools and the choice of which waiting nodes to resume (seed 001, sections 3.3-3.4).
#pragma once

#include <continuum/capacity/activation.hpp>
#include <continuum/capacity/required_nodes.hpp>
#include <continuum/capacity/shortfall.hpp>
#include <continuum/capacity/waiting_pool.hpp>
