// Seed 000's experiment replayed (Liqo-aware multi-provider Cluster Autoscaler, Section 4, Table 1,
// Figs. 2-3): one always-on local node and four remote Liqo providers (three low-cost 2-core nodes
// at 1 $/min, one high-cost 4-core node at 5 $/min); a stress-ng deployment whose replica count rises
// and falls linearly; baseline (all nodes always on) vs cost-unaware vs cost-aware autoscaling.
#pragma once

#include <continuum/core/resources.hpp>
#include <continuum/sim/adapters/federated.hpp>
#include <continuum/sim/metrics.hpp>
#include <continuum/sim/scenario.hpp>
#include <continuum/sim/simulator.hpp>
#include <continuum/sim/static_scaler.hpp>
#include <continuum/sim/workload_shapes.hpp>

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::sim::replay {

using namespace std::chrono_literals;

struct Seed000Parameters {
    /// Fig. 2's shape (our reading): 5 min idle, 20 min linear rise to 16 pods, 10 min hold, 20 min
    /// linear fall, 25 min idle; the local node alone serves up to 4 pods.
    RisingFallingReplicas replicas{0, 16, 5min, 20min, 10min, 20min, 25min};
    /// One stress-ng pod: 500m CPU, 256 MiB, using 90 % of its CPU request.
    Resources pod_request{{"cpu", "500m"}, {"memory", "256Mi"}};
    double usage_per_pod = 0.9;
    /// The local consumer node (Table 1 gives no size; we use a low-cost-sized 2-core node, free).
    Resources local_capacity{{"cpu", "2"}, {"memory", "4Gi"}};
    Duration peering_latency = default_latency::liqo_peering;
    Duration tick = 5s;
    /// The stress-ng deployment's PodDisruptionBudget for scale-in (default: a virtual node is
    /// released only when that takes no ready pod below the desired count, i.e. once it is empty).
    packing::DisruptionBudget disruption_budget{};
};

/// One configuration's outcome, as seed 000 reports it.
struct Seed000Row {
    std::string configuration;
    double cost = 0;                 ///< $ over the run
    double cost_reduction_pct = 0;   ///< vs the baseline
    double median_efficiency_pct = 0;
    int max_remote_nodes = 0;        ///< remote (virtual) nodes at once
    SimulationResult result;
};

struct Seed000Report {
    Seed000Parameters parameters;
    std::vector<Seed000Row> rows;  ///< baseline, cost-unaware, cost-aware
};

/// The scenario: pools "local", "low-cost" (3 x 2 cores, 1 $/min, Pr1), "high-cost" (1 x 4 cores,
/// 5 $/min, Pr2). `always_on` starts every remote node Ready (the baseline).
inline Scenario seed000_scenario(const Seed000Parameters& p, bool always_on) {
    Scenario s;
    NodePool local;
    local.name = "local";
    local.capacity = p.local_capacity;
    local.source = NodeSource::local;
    local.initial_size = 1;
    local.min_size = 1;
    local.max_size = 1;
    local.description = "local resource consumer, always operational";
    NodePool low;
    low.name = "low-cost";
    low.capacity = Resources{{"cpu", "2"}, {"memory", "4Gi"}};
    low.cost_per_minute = 1.0;
    low.source = NodeSource::liqo_peering;
    low.provisioning_latency = p.peering_latency;
    low.max_size = 3;
    low.initial_size = always_on ? 3 : 0;
    low.description = "Table 1 low cost: 3 nodes, 2 cores, 4 GB, 1 $/min, provider Pr1";
    NodePool high;
    high.name = "high-cost";
    high.capacity = Resources{{"cpu", "4"}, {"memory", "4Gi"}};
    high.cost_per_minute = 5.0;
    high.source = NodeSource::liqo_peering;
    high.provisioning_latency = p.peering_latency;
    high.max_size = 1;
    high.initial_size = always_on ? 1 : 0;
    high.description = "Table 1 high cost: 1 node, 4 cores, 4 GB, 5 $/min, provider Pr2";
    s.pools = {local, low, high};
    s.namespaces.push_back({"stress", std::nullopt});
    DeploymentSpec d;
    d.name = "stress-ng";
    d.namespace_name = "stress";
    d.pod_request = p.pod_request;
    d.load = p.replicas.profile();
    d.load_kind = LoadKind::replicas;
    d.usage_per_pod = p.usage_per_pod;
    s.deployments.push_back(d);
    s.config.tick = p.tick;
    s.config.scheduling = SchedulingPolicy::least_allocated;  // kube-scheduler's default spreading
    s.config.pending_timeout = 10min;  // seed 000 measures cost and efficiency, not failures
    return s;
}

/// Runs the three configurations. Both autoscaled runs are federation::FederatedClusterScaler
/// through adapters::FederatedClusterAdapter (the remote pools as offers, peering latency as their
/// provisioning latency, CA's scale-in rules): cost-aware = the Federation Recommender prices the
/// offers at Table 1's prices, so scale-out peers with the cheapest mix of nodes; cost-unaware = no
/// prices reach the scaler (every node worth 1), so it opens the fewest nodes, the larger on a tie.
/// \throws as Simulator.
inline Seed000Report replay_seed000(const Seed000Parameters& p = {}) {
    Seed000Report report;
    report.parameters = p;
    const auto remote_max = [](const SimulationResult& r) {
        int peak = 0;
        const auto& low = r.series.column("nodes_low-cost");
        const auto& high = r.series.column("nodes_high-cost");
        for (std::size_t i = 0; i < low.size(); ++i) peak = std::max(peak, static_cast<int>(low[i] + high[i]));
        return peak;
    };
    const auto row = [&](std::string name, SimulationResult result) {
        Seed000Row out;
        out.configuration = std::move(name);
        out.cost = result.total_cost;
        out.median_efficiency_pct = result.efficiency.median();
        out.max_remote_nodes = remote_max(result);
        out.result = std::move(result);
        return out;
    };
    {
        Simulator sim(seed000_scenario(p, true));
        report.rows.push_back(row("baseline", sim.run(StaticScaler{})));
    }
    Simulator sim(seed000_scenario(p, false));
    adapters::FederatedAdapterConfig config;
    config.disruption_budget = p.disruption_budget;
    report.rows.push_back(row("cost-unaware", sim.run(adapters::make_federated_adapter(adapters::OfferRanking::cost_unaware, config))));
    report.rows.push_back(row("cost-aware", sim.run(adapters::make_federated_adapter(adapters::OfferRanking::cost_aware, config))));
    const double baseline = report.rows[0].cost;
    for (auto& r : report.rows) r.cost_reduction_pct = baseline > 0 ? 100.0 * (1.0 - r.cost / baseline) : 0.0;
    return report;
}

}  // namespace continuum::sim::replay
