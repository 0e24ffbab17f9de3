// Property of every scaler that shrinks a pool (HPA + Cluster Autoscaler, the federated cluster
// scaler, the hierarchical scaler): a node removal never takes a deployment's ready pods below its
// desired count (nor below what was ready), over random scenarios in the simulator (seed 004's
// Heartbeat, where the hierarchical scaler used to drop from 10 ready pods to 5, is in test_replays.cpp).
#include <continuum/forecast/any_forecaster.hpp>
#include <continuum/policy/policy.hpp>
#include <continuum/policy/selector.hpp>
#include <continuum/scalers/hierarchical.hpp>
#include <continuum/sim.hpp>
#include <continuum/sim/adapters/federated.hpp>
#include <continuum/sim/adapters/hierarchical.hpp>
#include <continuum/sim/adapters/hpa.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace continuum;
using namespace continuum::sim;
using namespace std::chrono_literals;

namespace {

/// Wraps a scaler; between consecutive snapshots in which a pool lost a ready node, checks that
/// each deployment has ready >= min(ready before, desired now). Counts the shrinks it saw.
struct ShrinkWatch {
    std::vector<int> ready_nodes;
    std::vector<int> ready;
    int shrinks = 0;
    int violations = 0;
    bool report = true;  ///< print each violation

    void check(const Snapshot& snap) {
        std::vector<int> nodes_now(snap.pools.size());
        for (std::size_t p = 0; p < snap.pools.size(); ++p) nodes_now[p] = snap.pools[p].ready;
        if (!ready_nodes.empty()) {
            bool shrank = false;
            for (std::size_t p = 0; p < nodes_now.size(); ++p) shrank = shrank || nodes_now[p] < ready_nodes[p];
            if (shrank) {
                ++shrinks;
                for (std::size_t d = 0; d < snap.deployments.size(); ++d) {
                    const auto& dep = snap.deployments[d];
                    if (dep.ready < std::min(ready[d], dep.desired)) {
                        ++violations;
                        if (report) MESSAGE("t = ", to_seconds(snap.now), " s: ", dep.name, " ready ", dep.ready, " < min(", ready[d], ", desired ", dep.desired, ")");
                    }
                }
            }
        }
        ready_nodes = nodes_now;
        ready.clear();
        for (const auto& dep : snap.deployments) ready.push_back(dep.ready);
    }
};

template <typename S>
AnyScaler watched(S scaler, ShrinkWatch& watch) {
    return AnyScaler([s = std::move(scaler), &watch](const Snapshot& snap) mutable {
        watch.check(snap);
        return Decision(s.decide(snap));
    });
}

/// A rise-and-fall CPU demand with random plateaus, in cores.
LoadProfile random_load(sim::detail::Random& random, double peak) {
    std::vector<double> cores;
    for (int k = 0; k < 6; ++k) cores.push_back(random.uniform(0.2, 1.0) * peak * (k < 3 ? (k + 1) / 3.0 : (6 - k) / 3.0));
    for (int k = 0; k < 6; ++k) cores.push_back(random.uniform(0.0, 0.1) * peak);
    return LoadProfile::from_samples(cores, 90s);
}

NodePool cold_pool(std::string name, Resources capacity, int initial) {
    NodePool p;
    p.name = std::move(name);
    p.capacity = std::move(capacity);
    p.cost_per_minute = 0.1;
    p.source = NodeSource::cold_vm;
    p.provisioning_latency = 20s;
    p.initial_size = initial;
    p.max_size = 8;
    return p;
}

Scenario random_scenario(std::uint64_t seed, const std::string& pool_name, Resources capacity, int deployments) {
    sim::detail::Random random(seed);
    Scenario s;
    s.pools.push_back(cold_pool(pool_name, std::move(capacity), 1 + static_cast<int>(random.below(2))));
    s.namespaces.push_back({"app", std::nullopt});
    for (int i = 0; i < deployments; ++i) {
        DeploymentSpec d;
        d.name = fmt::format("web{}", i);
        d.namespace_name = "app";
        d.pod_request = Resources::from_units({{"cpu", 100 * static_cast<std::int64_t>(1 + random.below(5))}, {"memory", 128 << 20}});
        d.load = random_load(random, random.uniform(1.0, 4.0));
        d.replicas_from = ReplicaControl::scaler;
        d.cpu_limit_factor = 2.0;
        s.deployments.push_back(d);
    }
    s.config.tick = 1s;
    s.config.scheduling = random.uniform() < 0.5 ? SchedulingPolicy::least_allocated : SchedulingPolicy::first_fit;
    return s;
}

ClusterAutoscalerConfig quick_ca(const std::string& pool) {
    ClusterAutoscalerConfig ca;
    ca.pools = {pool};
    ca.scale_down_unneeded_time = 30s;
    ca.scale_down_delay_after_add = 30s;
    return ca;
}

}  // namespace

TEST_CASE("property: HPA + Cluster Autoscaler scale-in keeps ready pods at the desired count") {
    int shrinks = 0;
    int violations_evicting_freely = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        const auto s = random_scenario(seed, "pool", Resources{{"cpu", "2"}, {"memory", "4Gi"}}, 2);
        for (const bool budget : {true, false}) {
            auto ca = quick_ca("pool");
            // Without a budget (maxUnavailable 100 %) the CA evicts as the old aggregate check did.
            if (!budget) ca.disruption_budget.max_unavailable = packing::CountOrPercent::percentage(100);
            ShrinkWatch watch;
            watch.report = budget;
            Combined both(Combined(adapters::HpaAdapter("web0", adapters::HpaAdapter::cpu_spec(1, 20, 60)),
                                   adapters::HpaAdapter("web1", adapters::HpaAdapter::cpu_spec(1, 20, 60))),
                          ClusterAutoscaler(ca));
            Simulator(s).run(watched(std::move(both), watch));
            if (budget) {
                CHECK(watch.violations == 0);
                shrinks += watch.shrinks;
            } else {
                violations_evicting_freely += watch.violations;
            }
        }
    }
    CHECK(shrinks > 0);                      // the property was exercised
    CHECK(violations_evicting_freely > 0);   // and it fails without the budget
}

TEST_CASE("property: the hierarchical scaler's scale-in keeps ready pods at the desired count") {
    int shrinks = 0;
    const auto cheap = policy::cost_saving();
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        const auto s = random_scenario(100 + seed, cheap.node_pool, cheap.node_type.capacity, 2);
        scalers::HierarchicalConfig config;
        config.step = 15s;
        config.horizon = 2;
        config.noise.scale_down_window = 30s;
        policy::PolicySelector selector({cheap}, cheap.name);
        auto planner = scalers::HierarchicalScaler<forecast::AnyForecaster>(selector, forecast::AnyForecaster(forecast::LinearRegression(4)), config);
        ShrinkWatch watch;
        Simulator(s).run(watched(adapters::HierarchicalAdapter<forecast::AnyForecaster>(std::move(planner), {"web0", "web1"}), watch));
        CHECK(watch.violations == 0);
        shrinks += watch.shrinks;
    }
    CHECK(shrinks > 0);
}

TEST_CASE("property: the federated cluster scaler's scale-in keeps ready pods at the desired count") {
    int shrinks = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        auto s = random_scenario(200 + seed, "remote", Resources{{"cpu", "1"}, {"memory", "4Gi"}}, 1);
        s.pools.front().source = NodeSource::liqo_peering;
        s.pools.front().initial_size = 0;
        s.pools.insert(s.pools.begin(), cold_pool("local", Resources{{"cpu", "1"}, {"memory", "4Gi"}}, 1));
        s.pools.front().source = NodeSource::local;
        s.pools.front().min_size = 1;
        adapters::FederatedAdapterConfig config;
        config.scale_in.unneeded_time = 30s;
        config.scale_in.delay_after_add = 30s;
        ShrinkWatch watch;
        Simulator(s).run(watched(Combined(adapters::HpaAdapter("web0", adapters::HpaAdapter::cpu_spec(1, 20, 60)), adapters::make_federated_adapter(adapters::OfferRanking::cost_aware, config)),
                                 watch));
        CHECK(watch.violations == 0);
        shrinks += watch.shrinks;
    }
    CHECK(shrinks > 0);
}
