// Tests of sim/adapters/federated.hpp: federation::FederatedClusterScaler in the simulator (offers
// from remote pools, cost-aware vs cost-unaware ranking, Liqo peering latency, CA scale-in rules).
#include <continuum/sim/adapters/federated.hpp>
#include <continuum/sim/simulator.hpp>

#include <doctest/doctest.h>

#include <algorithm>

using namespace continuum;
using namespace continuum::sim;
using namespace std::chrono_literals;

namespace {
/// A 1-core local node (two 500m pods) and two remote Liqo providers: "low" (3 x 2 cores, 1 $/min)
/// and "high" (1 x 4 cores, 5 $/min), peering in 5 s. `replicas` per `step`.
Scenario federation_scenario(std::vector<double> replicas, Duration step) {
    Scenario s;
    NodePool local;
    local.name = "local";
    local.capacity = Resources{{"cpu", "1"}, {"memory", "4Gi"}};
    local.source = NodeSource::local;
    local.initial_size = local.min_size = local.max_size = 1;
    NodePool low;
    low.name = "low";
    low.capacity = Resources{{"cpu", "2"}, {"memory", "4Gi"}};
    low.cost_per_minute = 1;
    low.source = NodeSource::liqo_peering;
    low.max_size = 3;
    NodePool high = low;
    high.name = "high";
    high.capacity = Resources{{"cpu", "4"}, {"memory", "4Gi"}};
    high.cost_per_minute = 5;
    high.max_size = 1;
    s.pools = {local, low, high};
    s.namespaces.push_back({"app", std::nullopt});
    DeploymentSpec d;
    d.name = "stress";
    d.namespace_name = "app";
    d.pod_request = Resources{{"cpu", "500m"}, {"memory", "256Mi"}};
    d.load = LoadProfile::from_samples(std::move(replicas), step);
    d.load_kind = LoadKind::replicas;
    s.deployments.push_back(d);
    s.config.tick = 5s;
    s.config.pending_timeout = 10min;
    return s;
}

/// First time (s) at which column `name` equals `value`, or -1.
double first_time(const SimulationResult& r, std::string_view name, double value) {
    const auto& column = r.series.column(name);
    const auto& time = r.series.column("time_s");
    for (std::size_t i = 0; i < column.size(); ++i) {
        if (column[i] == value) return time[i];
    }
    return -1;
}
}  // namespace

TEST_CASE("one pending pod: cost-aware peers the cheap node, cost-unaware the larger one") {
    // 3 pods: two fit the local node, one is pending at t = 0.
    SUBCASE("cost-aware") {
        Simulator sim(federation_scenario({3}, 5min));
        auto adapter = adapters::make_federated_adapter(adapters::OfferRanking::cost_aware);
        const auto r = sim.run(adapter);
        CHECK(r.pool_summary("low").max_nodes == 1);
        CHECK(r.pool_summary("high").max_nodes == 0);
        CHECK(adapter.peerings() == 1);
        // The Recommender priced the offers at the pools' prices, cheapest first.
        REQUIRE(adapter.last_recommendation().ranked.size() == 2);
        CHECK(adapter.last_offers()[0].cluster_id == "low");
        CHECK(adapter.last_offers()[0].node_price == doctest::Approx(1.0));
        CHECK(adapter.last_offers()[1].node_price == doctest::Approx(5.0));
        CHECK(adapter.last_offers()[0].latency_ms == doctest::Approx(5000.0));
    }
    SUBCASE("cost-unaware") {
        Simulator sim(federation_scenario({3}, 5min));
        auto adapter = adapters::make_federated_adapter(adapters::OfferRanking::cost_unaware);
        const auto r = sim.run(adapter);
        CHECK(r.pool_summary("low").max_nodes == 0);
        CHECK(r.pool_summary("high").max_nodes == 1);
        // Every node is worth 1: the prices never reach the scaler.
        for (const auto& offer : adapter.last_offers()) CHECK(offer.node_price == doctest::Approx(1.0));
    }
}

TEST_CASE("peering latency is the pool's provisioning latency, pods that upcoming nodes host trigger nothing") {
    // 5 pods: 2 on the local node, 3 x 500m pending at t = 0: one 2-core low-cost node holds them.
    Simulator sim(federation_scenario({5}, 5min));
    auto adapter = adapters::make_federated_adapter(adapters::OfferRanking::cost_aware);
    const auto r = sim.run(adapter);
    CHECK(r.pool_summary("low").max_nodes == 1);
    CHECK(adapter.peerings() == 1);
    // Peered at 0 s, Ready after the 5 s Liqo peering, pods bound at the 5 s tick and Ready 3 s later.
    CHECK(r.deployment_delay.max == doctest::Approx(8.0));
    CHECK(r.deployments_succeeded == 5);
}

TEST_CASE("pods pinned to a pool only use its offers, unbounded pools are offered, bad configuration throws") {
    Scenario s = federation_scenario({6}, 5min);
    s.pools[1].max_size = unlimited_nodes;  // "low" unbounded
    s.deployments[0].node_pool = "high";
    s.deployments[0].pod_request = Resources{{"cpu", "1"}, {"memory", "256Mi"}};
    Simulator pinned(s);
    const auto r = pinned.run(adapters::make_federated_adapter(adapters::OfferRanking::cost_aware));
    CHECK(r.pool_summary("high").max_nodes == 1);  // 4 of the 6 pods; the other 2 fit nowhere
    CHECK(r.pool_summary("low").max_nodes == 0);
    s.deployments[0].node_pool.clear();
    Simulator unbounded(s);
    const auto u = unbounded.run(adapters::make_federated_adapter(adapters::OfferRanking::cost_aware));
    CHECK(u.pool_summary("low").max_nodes == 3);  // 6 x 1 core, at 1 $/min per 2 cores
    CHECK(u.pool_summary("high").max_nodes == 0);

    adapters::FederatedAdapterConfig bad;
    bad.scan_interval = 0s;
    CHECK_THROWS_AS(adapters::make_federated_adapter(adapters::OfferRanking::cost_aware, bad), InvalidArgument);
    adapters::FederatedAdapterConfig unknown;
    unknown.pools = {"nope"};
    Simulator sim(federation_scenario({3}, 5min));
    CHECK_THROWS_AS(sim.run(adapters::make_federated_adapter(adapters::OfferRanking::cost_aware, unknown)), InvalidArgument);
}

TEST_CASE("cost-unaware needs fewer nodes for the same pods") {
    // 10 pods: 2 on the local node, 8 x 500m = 4 cores remote.
    Simulator sim(federation_scenario({10}, 5min));
    const auto aware = sim.run(adapters::make_federated_adapter(adapters::OfferRanking::cost_aware));
    const auto unaware = sim.run(adapters::make_federated_adapter(adapters::OfferRanking::cost_unaware));
    CHECK(aware.pool_summary("low").max_nodes == 2);
    CHECK(aware.pool_summary("high").max_nodes == 0);
    CHECK(unaware.pool_summary("low").max_nodes == 0);
    CHECK(unaware.pool_summary("high").max_nodes == 1);
    CHECK(aware.deployments_failed == 0);
    CHECK(unaware.deployments_failed == 0);
    // 5 min of two 1 $/min nodes vs one 5 $/min node.
    CHECK(aware.total_cost == doctest::Approx(2 * 5.0));
    CHECK(unaware.total_cost == doctest::Approx(5 * 5.0));
}

TEST_CASE("scale-in: an empty virtual node is unpeered after 10 min unneeded, 10 min after the last scale-out") {
    // 3 pods for 2 min, then 2 (they fit the local node; the remote node empties).
    Simulator sim(federation_scenario({3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, 1min));
    auto adapter = adapters::make_federated_adapter(adapters::OfferRanking::cost_aware);
    const auto r = sim.run(adapter);
    CHECK(r.pool_summary("low").max_nodes == 1);
    // Unneeded from the first scan after 120 s (120 s itself), released 600 s later.
    CHECK(first_time(r, "nodes_low", 0.0) == doctest::Approx(720.0));
    CHECK(adapter.releases() == 1);
}
