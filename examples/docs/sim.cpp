// docs/sim.md: seed 004's heartbeat load (three bursts to 4 cores) on a pool of 2-cpu VMs that
// the Cluster Autoscaler-like scaler grows and shrinks; cost, efficiency and delays come out.
#include <continuum/sim.hpp>

#include <fmt/core.h>

#include "check.hpp"

int main() {
    using namespace continuum::sim;
    NodePool vm;
    vm.name = "vm";
    vm.capacity = continuum::Resources{{"cpu", "2"}, {"memory", "4Gi"}};
    vm.cost_per_minute = 0.5;  // cold VMs: Ready 90 s after the request
    DeploymentSpec web;
    web.name = "web";
    web.namespace_name = "app";
    web.pod_request = continuum::Resources{{"cpu", "1"}};
    web.load = LoadProfile::from_stages(heartbeat_stages()).scaled(0.01);  // 400 VUs -> 4 cores
    Scenario s;
    s.pools = {vm};
    s.namespaces = {{"app", std::nullopt}};  // no quota
    s.deployments = {web};

    const SimulationResult result = Simulator(s).run(ClusterAutoscaler{});
    const auto& pool = result.pool_summary("vm");
    fmt::print("{} s simulated: cost {:.2f}, at most {} nodes, median efficiency {:.1f} %, "
               "median pod delay {:.1f} s, {} failed deployments\n",
               result.simulated.count() / 1000, result.total_cost, pool.max_nodes, result.efficiency.median(),
               result.deployment_delay.median, result.deployments_failed);
    CHECK(result.simulated == std::chrono::minutes(13));  // the stages' length
    CHECK(pool.max_nodes == 2);                            // 4 one-core pods on 2-cpu nodes
    CHECK(result.total_cost > 0.0 && result.total_cost <= 2 * 13 * 0.5);  // never more than 2 nodes all along
    CHECK(result.deployments_failed > 0);  // pods pend > 60 s while a cold VM boots for 90 s
}
