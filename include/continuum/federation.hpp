// continuum::federation: offers, cost models, the Federation Recommender, the Cluster Autoscaler's
// expanders and the federated cluster scaler (seed 000, Liqo-aware multi-provider Cluster Autoscaler).
#pragma once

#include <continuum/federation/cost_model.hpp>
#include <continuum/federation/expander.hpp>
#include <continuum/federation/expander_chain.hpp>
#include <continuum/federation/federated_cluster_scaler.hpp>
#include <continuum/federation/ledger.hpp>
#include <continuum/federation/offer.hpp>
#include <continuum/federation/offer_catalogue.hpp>
#include <continuum/federation/price_expander.hpp>
#include <continuum/federation/recommender.hpp>
#include <continuum/federation/scale_in.hpp>
#include <continuum/federation/scale_out.hpp>
#include <continuum/federation/selector.hpp>
#include <continuum/federation/virtual_node.hpp>

// The priority expander's ConfigMap reader needs yaml-cpp and RE2 (compiled libraries): only code
// linking continuum::priority_config (which defines this macro) gets it through the umbrella.
#if defined(CONTINUUM_HAVE_PRIORITY_CONFIG)
#include <continuum/federation/priority_config.hpp>
#endif
