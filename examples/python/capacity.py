"""docs/capacity.md: how much is missing, how many new nodes cover it, and which waiting
(hibernated) nodes to wake for each objective."""
from continuum import capacity

missing = capacity.shortfall({"cpu": "15", "memory": "40Gi"}, {"cpu": "8", "memory": "48Gi"})
nodes = capacity.required_nodes(missing, {"cpu": "4", "memory": "16Gi"})
print(f"shortfall {missing.to_quantities()} -> {nodes} new nodes")
assert missing.to_quantities() == {"cpu": "7"} and nodes == 2

pool = [capacity.WaitingNode("small-a", {"cpu": "4", "memory": "16Gi"}, resume_latency=10, cost=1.0),
        capacity.WaitingNode("small-b", {"cpu": "4", "memory": "16Gi"}, resume_latency=10, cost=1.0),
        capacity.WaitingNode("big", {"cpu": "8", "memory": "32Gi"}, resume_latency=40, cost=2.5)]
fewest = capacity.choose_nodes_to_activate({"cpu": "8"}, pool)  # "fewest_nodes" by default
cheap = capacity.choose_nodes_to_activate({"cpu": "8"}, pool, "cheapest")
fast = capacity.choose_nodes_to_activate({"cpu": "8"}, pool, capacity.ActivationObjective.fastest)
print(f"fewest {fewest.names} | cheapest {cheap.names} (cost {cheap.cost}) | fastest {fast.names} ({fast.resume_latency} s)")
assert fewest.names == ["big"] and fewest.optimal
assert cheap.names == ["small-a", "small-b"] and cheap.cost == 2.0
assert fast.names == cheap.names and fast.resume_latency == 10

# More than the whole pool: the plan wakes everything and says what is still missing.
plan = capacity.choose_nodes_to_activate({"cpu": "20"}, pool)
print(plan.covers, plan.still_missing.to_quantities(), plan.reason)
assert not plan.covers and len(plan) == 3 and plan.still_missing.to_quantities() == {"cpu": "4"}
