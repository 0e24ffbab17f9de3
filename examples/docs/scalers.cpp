// docs/scalers.md: one MAS-H2 cycle (policy -> forecast -> replicas -> nodes -> actions), then a
// flash-sale signal that switches policy and starts a make-before-break migration.
#include <continuum/forecast/drift.hpp>
#include <continuum/scalers.hpp>

#include <chrono>

#include <fmt/core.h>

#include "check.hpp"

int main() {
    using namespace continuum;
    policy::PolicySelector selector({policy::cost_saving(), policy::performance()}, "COST_SAVING");
    selector.add_signal_rule({"flash_sale", "on", "PERFORMANCE"});
    scalers::HierarchicalScaler<forecast::AnyForecaster> scaler(selector, forecast::Drift{});

    scalers::ApplicationState web;
    web.name = "web";
    web.pod_request = Resources{{"cpu", "500m"}, {"memory", "512Mi"}};
    web.demand = {1.6, 2.0, 2.4, 2.8};  // cores, one value a minute, oldest first
    web.replicas = 4;
    scalers::NodePoolState staging, performance;
    staging.name = "mas-h2-staging-pool";  // COST_SAVING's pool: e2-medium, 2 cpu / 4Gi
    staging.size = staging.ready_nodes = 2;
    performance.name = "performance-pool";  // PERFORMANCE's pool, empty
    scalers::ClusterSnapshot snapshot;
    snapshot.applications = {web};
    snapshot.node_pools = {staging, performance};
    auto d = scaler.decide(snapshot, Time{std::chrono::minutes(10)});
    fmt::print("policy {}: {}\n", d.policy, d.applications[0].reason);
    for (const auto& p : d.patch_deployments) fmt::print("  patch {} -> {} replicas on {}\n", p.name, p.replicas, p.node_pool);
    for (const auto& r : d.resize_node_pools) fmt::print("  resize {} -> {} nodes\n", r.pool, r.size);
    CHECK(d.policy == "COST_SAVING");
    CHECK(d.patch_deployments.size() == 1 && d.patch_deployments[0].replicas == 10);  // 5 cpu of pods
    CHECK(d.resize_node_pools.size() == 1 && d.resize_node_pools[0].size == 3);

    // The host applied the actions; then a flash sale starts: PERFORMANCE runs on another pool, so
    // the scaler first grows that pool and keeps the application where it is, scaled up only as far
    // as the old pool's three nodes hold (12 pods of 500m) until the new nodes are ready.
    snapshot.applications[0].replicas = 10;
    snapshot.applications[0].node_pool = "mas-h2-staging-pool";
    snapshot.node_pools[0].size = snapshot.node_pools[0].ready_nodes = 3;
    snapshot.context.signals["flash_sale"] = "on";
    d = scaler.decide(snapshot, Time{std::chrono::minutes(11)});
    fmt::print("policy {}: migration {} ({})\n", d.policy, to_string(d.migration), d.reason);
    for (const auto& p : d.patch_deployments) fmt::print("  patch {} -> {} replicas on {}\n", p.name, p.replicas, p.node_pool);
    for (const auto& r : d.resize_node_pools) fmt::print("  resize {} -> {} nodes\n", r.pool, r.size);
    CHECK(d.policy == "PERFORMANCE" && d.migration == scalers::MigrationPhase::provisioning);
    CHECK(d.patch_deployments.size() == 1 && d.patch_deployments[0].replicas == 12);
    CHECK(d.patch_deployments[0].node_pool == "mas-h2-staging-pool");
    CHECK(d.resize_node_pools.size() == 1 && d.resize_node_pools[0].pool == "performance-pool");
    CHECK(d.resize_node_pools[0].size == 5);  // 19 pods of 500m at the 0.4 target, 2 cpu per node
}
