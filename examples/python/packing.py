"""docs/packing.md: first-fit decreasing vs the exact solver, the cheapest mix of node types,
packing onto running nodes first, and a consolidation plan."""
import numpy as np

from continuum import packing

# One dimension (unnamed integer sizes): FFD needs 4 bins, the exact solver proves 3.
sizes = [5, 5, 4, 4, 3, 3, 3, 3]
ffd = packing.first_fit_decreasing(np.array(sizes), 10)
exact = packing.solve_exact(sizes, 10, node_limit=100_000, time_limit_ms=1000)
print(f"FFD {ffd.num_bins} bins {ffd.bins}, exact {exact.num_bins} bins {exact.bins}")
assert ffd.num_bins == 4 and (exact.num_bins, exact.lower_bound, exact.optimal) == (3, 3, True)
assert packing.lower_bound([60, 60, 45, 45, 45], 100) == 4  # Martello-Toth L2 (L1 says 3)

# Vectors: rows are items (cpu millicores, memory MiB), the capacity one row.
vec = packing.first_fit_decreasing(np.array([[2000, 1024], [1000, 4096], [3000, 2048]]), np.array([4000, 8192]),
                                   order=packing.VectorOrder.lexicographic)
assert vec.bins == [[2, 1], [0]]
# The same items with resource names: numbers are whole units (cores, bytes), strings quantities.
named = packing.first_fit_decreasing([{"cpu": 2, "memory": "1Gi"}, {"cpu": 1, "memory": "4Gi"}, {"cpu": 3, "memory": "2Gi"}],
                                     {"cpu": 4, "memory": "8Gi"}, order=packing.VectorOrder.lexicographic)
assert named.bins == vec.bins

# Node types with cost: 7 pods of 1 cpu / 1Gi fit one "large" (3.5) more cheaply than 4 "small".
mix = packing.cheapest_node_mix([{"cpu": "1", "memory": "1Gi"}] * 7,
                                [packing.NodeType("small", {"cpu": "2", "memory": "4Gi"}, cost=1.0),
                                 packing.NodeType("large", {"cpu": "8", "memory": "16Gi"}, cost=3.5, max_count=1)])
print(f"node mix: {mix.count_per_type} per type (small, large), cost {mix.cost}, optimal {mix.optimal}")
assert mix.count_per_type == [0, 1] and mix.cost == 3.5 and mix.optimal

# Running nodes first: a has 1 cpu free, b has 3; new nodes have 4 cpu.
running = [packing.ExistingNode("a", {"cpu": "4"}, {"cpu": "3"}), packing.ExistingNode("b", {"cpu": "4"}, {"cpu": "1"})]
onto = packing.first_fit_decreasing_onto_existing([{"cpu": "2"}, {"cpu": "1"}, {"cpu": "3"}, {"cpu": "1"}], running,
                                                  {"cpu": "4"})
print(f"onto existing {onto.existing}, new nodes {onto.new_nodes}")
assert onto.existing == [[1], [2]] and onto.new_nodes == [[0, 3]]  # one new node instead of two
cheap = packing.cheapest_node_mix_onto_existing([{"cpu": "1"}] * 6, [packing.ExistingNode("old", {"cpu": "4"}, {"cpu": "2"})],
                                                [packing.NodeType("small", {"cpu": "2"}, cost=1.0),
                                                 packing.NodeType("large", {"cpu": "4"}, cost=1.5)])
assert cheap.cost == 1.5 and cheap.existing_items == [[0, 1]]  # 2 pods on "old", 4 on one "large"

# Consolidation: web-1 (3 cpu) moves from a to b, a is released.
plan = packing.plan_consolidation([
    packing.NodeState("a", {"cpu": 10}, cost=1.0, pods=[packing.PlacedPod("web-1", {"cpu": 3})]),
    packing.NodeState("b", {"cpu": 10}, cost=1.0, pods=[packing.PlacedPod("web-2", {"cpu": 4})])])
print("consolidation:", plan.reason)
assert plan.nodes_to_release == ["a"] and plan.saved_cost == 1.0
assert [(m.pod, m.from_node, m.to_node) for m in plan.moves] == [("web-1", "a", "b")]
