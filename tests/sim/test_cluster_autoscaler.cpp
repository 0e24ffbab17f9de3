// Tests of sim/cluster_autoscaler.hpp: scale-up sized by first fit, expanders, scale-down after the
// unneeded time and delay-after-add.
#include <continuum/sim/cluster_autoscaler.hpp>
#include <continuum/sim/simulator.hpp>

#include <doctest/doctest.h>

using namespace continuum;
using namespace continuum::sim;
using namespace std::chrono_literals;

namespace {
Scenario ca_scenario(std::vector<double> replicas, Duration step) {
    Scenario s;
    NodePool small;
    small.name = "small";
    small.capacity = Resources{{"cpu", "2"}, {"memory", "4Gi"}};
    small.cost_per_minute = 1;
    small.provisioning_latency = 20s;
    small.max_size = 5;
    NodePool big = small;
    big.name = "big";
    big.capacity = Resources{{"cpu", "4"}, {"memory", "4Gi"}};
    big.cost_per_minute = 5;
    big.max_size = 1;
    s.pools = {small, big};
    s.namespaces.push_back({"app", std::nullopt});
    DeploymentSpec d;
    d.name = "job";
    d.namespace_name = "app";
    d.pod_request = Resources{{"cpu", "1"}, {"memory", "256Mi"}};
    d.load = LoadProfile::from_samples(replicas, step);
    d.load_kind = LoadKind::replicas;
    s.deployments.push_back(d);
    s.config.tick = 5s;
    s.config.pending_timeout = 5min;
    return s;
}
}  // namespace

TEST_CASE("scale-up adds the nodes a first-fit estimate needs, once") {
    Simulator sim(ca_scenario({5, 5}, 5min));
    ClusterAutoscaler ca;  // priority: "small" first
    const auto r = sim.run(ca);
    // 5 pods of 1 CPU on 2-CPU nodes: 3 nodes, requested at t = 0, never more (upcoming nodes count).
    CHECK(r.pool_summary("small").max_nodes == 3);
    CHECK(r.pool_summary("big").max_nodes == 0);
    CHECK(r.deployments_succeeded == 5);
    // Ready at 20 s, pods ready 3 s later.
    // Nodes requested at t = 0 are Ready at 20 s (a tick boundary), pods bound then, Ready at 23 s,
    // seen at the 25 s tick: the pod's ready time is 23 s exactly.
    CHECK(r.deployment_delay.max == doctest::Approx(23.0));
}

TEST_CASE("expanders: most_pods takes the big node, cheapest the small ones") {
    SUBCASE("most pods") {
        ClusterAutoscalerConfig config;
        config.expander = Expander::most_pods;
        Simulator sim(ca_scenario({4, 4}, 5min));
        const auto r = sim.run(ClusterAutoscaler(config));
        CHECK(r.pool_summary("big").max_nodes == 1);
        CHECK(r.pool_summary("small").max_nodes == 0);
    }
    SUBCASE("cheapest per pod") {
        ClusterAutoscalerConfig config;
        config.expander = Expander::cheapest;
        Simulator sim(ca_scenario({4, 4}, 5min));
        const auto r = sim.run(ClusterAutoscaler(config));
        CHECK(r.pool_summary("big").max_nodes == 0);
        CHECK(r.pool_summary("small").max_nodes == 2);
    }
}

TEST_CASE("scale-down waits for the unneeded time and the delay after add") {
    // 4 pods for 5 minutes, then none for 30 minutes.
    Simulator sim(ca_scenario({4, 0, 0, 0, 0, 0, 0}, 5min));
    const auto r = sim.run(ClusterAutoscaler{});
    const auto& nodes = r.series.column("nodes_small");
    const auto& time = r.series.column("time_s");
    // Nodes become empty at 300 s; unneeded from the 300 s scan, removable at 900 s (10 min later;
    // the delay after the 0 s scale-up has passed by then).
    double removed_at = -1;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (time[i] > 0 && nodes[i] == 0 && removed_at < 0) removed_at = time[i];
    }
    CHECK(removed_at == doctest::Approx(900.0));
    ClusterAutoscalerConfig bad;
    bad.scan_interval = 0s;
    CHECK_THROWS_AS(ClusterAutoscaler{bad}, InvalidArgument);
}
