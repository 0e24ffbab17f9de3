// Umbrella header for continuum/scalers: the Kubernetes HPA reference and the MAS-H² hierarchical
// scaler with its workload planning (replica formula, noise filter).
#pragma once

#include <continuum/scalers/hierarchical.hpp>
#include <continuum/scalers/hpa.hpp>
#include <continuum/scalers/hpa_metrics.hpp>
#include <continuum/scalers/workload_planning.hpp>
