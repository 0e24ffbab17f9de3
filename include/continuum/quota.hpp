// Umbrella header for continuum/quota: quota levels (snapping), reactive (Algorithm 2), proactive
// (Algorithm 1) and hybrid quota scaling of seed 001, the multi-namespace fairness rule, and the
// split of a quota across member clusters for Karmada's FederatedResourceQuota.
#pragma once

#include <continuum/quota/cluster_assignment.hpp>
#include <continuum/quota/fair_share.hpp>
#include <continuum/quota/hybrid.hpp>
#include <continuum/quota/levels.hpp>
#include <continuum/quota/proactive.hpp>
#include <continuum/quota/reactive.hpp>
