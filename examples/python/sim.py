"""docs/sim.md: seed 004's heartbeat load (three bursts to 4 cores) on a pool of 2-cpu VMs, scaled
by a Python callable; then seed 001's experiment replayed (reactive vs hybrid quota scaling)."""
import math

from continuum import sim

load = sim.LoadProfile.from_stages(sim.heartbeat_stages()).scaled(0.01)  # 400 VUs -> 4 cores
simulator = sim.Simulator(
    pools=[{"name": "vm", "capacity": {"cpu": "2", "memory": "4Gi"}, "cost_per_minute": 0.5}],  # cold VMs, 90 s
    namespaces=[{"name": "app"}],  # no quota
    deployments=[{"name": "web", "namespace": "app", "pod_request": {"cpu": "1"}, "load": load}])


def one_node_per_two_pods(snapshot):
    """A scaler is any callable snapshot dict -> decision dict, called every tick."""
    return {"pools": {"vm": math.ceil(snapshot["deployments"]["web"]["desired"] / 2)}}


result = simulator.run(one_node_per_two_pods)
vm = result["pools"]["vm"]
print(f"{result['simulated_s']:.0f} s: cost {result['total_cost']:.2f}, at most {vm['max_nodes']} nodes, "
      f"median efficiency {result['efficiency_median_pct']:.1f} %, {result['deployments_failed']} failed deployments")
assert result["simulated_s"] == 13 * 60  # the stages' length
assert vm["max_nodes"] == 2  # 4 one-core pods on 2-cpu nodes
assert 0 < result["total_cost"] <= 2 * 13 * 0.5
assert result["deployments_failed"] > 0  # pods pend > 60 s while a cold VM boots for 90 s

# Seed 001, Table 3 replayed over 2 hours: quota scaling stops the failed deployments.
table = {row["configuration"]: row for row in sim.replay_seed001(duration_h=2)["rows"]}
for name, row in table.items():
    print(f"{name:18} QSR {row['qsr_pct']:6.1f} %  DFR {row['dfr_pct']:5.1f} %")
assert table["no quota scaling"]["dfr_pct"] > 10
assert table["reactive"]["dfr_pct"] == 0 and table["hybrid"]["dfr_pct"] == 0
