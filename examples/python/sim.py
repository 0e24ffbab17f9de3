"""docs/sim.md: seed 004's heartbeat load (three bursts to 4 cores) on a pool of 2-cpu VMs grown by
continuum's Cluster-Autoscaler-like node scaler; seed 000's testbed scaled by the federated cluster
scaler (cost-aware vs cost-unaware); then seed 001's experiment replayed (reactive vs hybrid quota)."""
from continuum import sim

load = sim.LoadProfile.from_stages(sim.heartbeat_stages()).scaled(0.01)  # 400 VUs -> 4 cores
simulator = sim.Simulator(
    pools=[{"name": "vm", "capacity": {"cpu": "2", "memory": "4Gi"}, "cost_per_minute": 0.5}],  # cold VMs, 90 s
    namespaces=[{"name": "app"}],  # no quota
    deployments=[{"name": "web", "namespace": "app", "pod_request": {"cpu": "1"}, "load": load}])

# A built-in scaler (or a list of them, or any callable snapshot dict -> decision dict).
result = simulator.run(sim.ClusterAutoscaler(scale_down_unneeded_time_s=120.0))
vm = result["pools"]["vm"]
print(f"{result['simulated_s']:.0f} s: cost {result['total_cost']:.2f}, at most {vm['max_nodes']} nodes, "
      f"median efficiency {result['efficiency_median_pct']:.1f} %, {result['deployments_failed']} failed deployments")
assert result["simulated_s"] == 13 * 60  # the stages' length
assert vm["max_nodes"] == 2  # 4 one-core pods on 2-cpu nodes
assert 0 < result["total_cost"] <= 2 * 13 * 0.5
assert result["deployments_failed"] > 0  # pods pend > 60 s while a cold VM boots for 90 s

# Seed 000 (Table 1: a free local node, three 2-core nodes at 1 $/min, one 4-core node at 5 $/min) under
# Fig. 2's rising and falling stress-ng replicas, through the federated cluster scaler.
pools = [{"name": "local", "capacity": {"cpu": "2", "memory": "4Gi"}, "source": "local", "initial_size": 1, "min_size": 1, "max_size": 1},
         {"name": "low-cost", "capacity": {"cpu": "2", "memory": "4Gi"}, "cost_per_minute": 1.0, "source": "liqo_peering", "max_size": 3},
         {"name": "high-cost", "capacity": {"cpu": "4", "memory": "4Gi"}, "cost_per_minute": 5.0, "source": "liqo_peering", "max_size": 1}]
stress = [{"name": "stress-ng", "namespace": "stress", "pod_request": {"cpu": "500m", "memory": "256Mi"},
           "load": sim.rising_falling_replicas(), "load_kind": "replicas", "usage_per_pod": 0.9}]
seed000 = sim.Simulator(pools, [{"name": "stress"}], stress, tick_s=5.0, pending_timeout_s=600.0, scheduling="least_allocated")
cost = {}
for ranking in ("cost_aware", "cost_unaware"):
    run = seed000.run(sim.FederatedClusterAdapter(ranking))
    cost[ranking] = run["total_cost"]
    print(f"seed 000 {ranking:12}: cost {run['total_cost']:6.1f} $, high-cost node used: {run['pools']['high-cost']['max_nodes']}")
assert cost["cost_aware"] < cost["cost_unaware"]  # three 1 $/min nodes rather than the 5 $/min one

# Seed 001, Table 2 replayed over 2 hours: quota scaling stops the failed deployments.
table = {row["configuration"]: row for row in sim.replay_seed001(duration_h=2)["rows"]}
for name, row in table.items():
    print(f"{name:18} QSR {row['qsr_pct']:6.1f} %  DFR {row['dfr_pct']:5.1f} %")
assert table["no quota scaling"]["dfr_pct"] > 10
assert table["reactive"]["dfr_pct"] == 0 and table["hybrid"]["dfr_pct"] == 0
