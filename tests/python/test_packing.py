"""Tests of continuum.packing from Python: hand-computed packings, numpy in/out, bad input."""

import numpy as np
import pytest

import continuum
from continuum import packing


def test_ffd_and_bfd_one_dimensional_hand_computed():
    sizes = np.array([4, 8, 1, 4, 2, 1])
    ffd = packing.first_fit_decreasing(sizes, 10)
    assert ffd.bins == [[1, 4], [0, 3, 2, 5]]
    assert ffd.num_bins == 2
    assert ffd.unplaced == []
    assert packing.best_fit_decreasing([4, 8, 1, 4, 2, 1], 10).bins == [[1, 4], [0, 3, 2, 5]]
    assert packing.next_fit(sizes, 10).bins == [[0], [1, 2], [3, 4, 5]]
    assert packing.first_fit(sizes, 10).bins == [[0, 2, 3, 5], [1, 4]]


def test_lower_bound_and_exact():
    sizes = [5, 5, 4, 4, 3, 3, 3, 3]
    assert packing.first_fit_decreasing(sizes, 10).num_bins == 4
    assert packing.lower_bound(sizes, 10) == 3
    assert packing.lower_bound([60, 60, 45, 45, 45], 100) == 4
    result = packing.solve_exact(sizes, 10, node_limit=100000, time_limit_ms=1000)
    assert result.num_bins == 3
    assert result.lower_bound == 3
    assert result.optimal
    assert result.gap == 0.0
    assert sorted(i for b in result.bins for i in b) == list(range(8))
    for b in result.bins:
        assert sum(sizes[i] for i in b) <= 10


def test_vector_numpy_and_orders():
    sizes = np.array([[2000, 1024], [1000, 4096], [2500, 512], [500, 3072]], dtype=np.int64)
    capacity = np.array([4000, 8192])
    assert packing.first_fit_decreasing(sizes, capacity).bins == [[1, 2, 3], [0]]
    assert packing.first_fit_decreasing(sizes, capacity, order=packing.VectorOrder.lexicographic).bins == [[2, 1, 3], [0]]
    exact = packing.solve_exact(sizes, capacity)
    assert exact.num_bins == 2 and exact.optimal
    assert packing.lower_bound(sizes, capacity) == 2


def test_unplaced_and_bad_input():
    result = packing.first_fit_decreasing([11, 5], 10)
    assert result.unplaced == [0]
    assert result.bins == [[1]]
    assert packing.first_fit_decreasing([], 10).num_bins == 0
    with pytest.raises(continuum.InvalidArgument, match="sizes\\[1\\] must be > 0"):
        packing.first_fit_decreasing([3, 0], 10)
    with pytest.raises(continuum.InvalidArgument):
        packing.first_fit_decreasing([3.5, 1.0], 10)  # floats are refused, never truncated
    with pytest.raises(continuum.InvalidArgument):
        packing.first_fit_decreasing(np.ones((3, 2), dtype=np.int64), np.array([4, 4, 4]))
    with pytest.raises(ValueError):
        packing.solve_exact([1, 2], 10, node_limit=0)


def test_cheapest_node_mix():
    types = [
        packing.NodeType("small", {"cpu": "2", "memory": "4Gi"}, cost=1.0),
        packing.NodeType("large", {"cpu": "8", "memory": "16Gi"}, cost=3.5, max_count=1),
    ]
    items = [{"cpu": "1", "memory": "1Gi"}] * 10 + [{"cpu": "16"}]
    mix = packing.cheapest_node_mix(items, types)
    assert mix.cost == pytest.approx(4.5)
    assert list(mix.count_per_type) == [1, 1]
    assert mix.optimal
    assert [(u.item, u.reason) for u in mix.unplaceable] == [(10, "needs 16 cpu but the largest node type offers 8")]


def test_cheapest_node_mix_replicas_proved_with_the_default_deadline():
    # 25 replicas of 1 cpu / 1Gi: 3 large (8 each, 3.5) + 1 small (2, 1.0) = 11.5, proved by the class
    # search (the LP bound 25 x 3.5/8 = 10.94 rounds up to 11 in units of 0.5; the search closes the rest).
    types = [
        packing.NodeType("small", {"cpu": "2", "memory": "4Gi"}, cost=1.0),
        packing.NodeType("large", {"cpu": "8", "memory": "16Gi"}, cost=3.5),
    ]
    mix = packing.cheapest_node_mix([{"cpu": "1", "memory": "1Gi"}] * 25, types, time_limit_ms=None)
    assert mix.cost == pytest.approx(11.5)
    assert list(mix.count_per_type) == [1, 3]
    assert mix.optimal and mix.lower_bound == pytest.approx(11.5)
    assert repr(mix) == "NodeMix(nodes=4, cost=11.5, lower_bound=11.5, optimal=True, unplaceable=0)"


def test_plan_consolidation_seed_001():
    nodes = [
        packing.NodeState("node-a", {"cpu": 10}, cost=1.0, pods=[packing.PlacedPod("web-1", {"cpu": 3})]),
        packing.NodeState("node-b", {"cpu": 10}, cost=1.0, pods=[packing.PlacedPod("web-2", {"cpu": 4})]),
    ]
    plan = packing.plan_consolidation(nodes)
    assert plan.nodes_to_release == ["node-a"]
    assert [(m.pod, m.from_node, m.to_node) for m in plan.moves] == [("web-1", "node-a", "node-b")]
    assert plan.saved_cost == 1.0
    pinned = [
        packing.NodeState("a", {"cpu": 10}, pods=[packing.PlacedPod("db", {"cpu": 3}, movable=False)]),
        packing.NodeState("b", {"cpu": 10}, pods=[packing.PlacedPod("db2", {"cpu": 4}, movable=False)]),
    ]
    assert packing.plan_consolidation(pinned).nodes_to_release == []


def test_onto_existing_nodes_fills_residuals_first():
    # Residuals: a = 4 - 3 = 1 cpu, b = 4 - 1 = 3 cpu; new nodes 4 cpu; items 2, 1, 3, 1 cpu.
    existing = [packing.ExistingNode("a", {"cpu": "4"}, {"cpu": "3"}),
                packing.ExistingNode("b", {"cpu": "4"}, allocated={"cpu": "1"})]
    items = [{"cpu": "2"}, {"cpu": "1"}, {"cpu": "3"}, {"cpu": "1"}]
    for fn in (packing.first_fit_decreasing_onto_existing, packing.best_fit_decreasing_onto_existing):
        r = fn(items, existing, {"cpu": "4"})
        assert r.existing == [[1], [2]]
        assert r.new_nodes == [[0, 3]]
        assert r.num_new_nodes == 1
        assert r.unplaced == []
    big = fn([{"cpu": "9"}], existing, {"cpu": "4"})
    assert big.unplaced == [0]
    with pytest.raises(continuum.InvalidArgument):
        packing.first_fit_decreasing_onto_existing(items, [packing.ExistingNode("x", {"cpu": "1"}, {"cpu": "-1"})], {"cpu": "4"})


def test_cheapest_node_mix_onto_existing():
    # Two of six 1-cpu pods fit the existing node; the other four take one large node (1.5).
    types = [packing.NodeType("small", {"cpu": "2"}, cost=1.0), packing.NodeType("large", {"cpu": "4"}, cost=1.5)]
    mix = packing.cheapest_node_mix_onto_existing([{"cpu": "1"}] * 6, [packing.ExistingNode("old", {"cpu": "4"}, {"cpu": "2"})], types,
                                                  time_limit_ms=1000)
    assert len(mix.existing_items[0]) == 2
    assert [n.type for n in mix.nodes] == [1]
    assert mix.cost == pytest.approx(1.5)
    assert mix.optimal
    only = packing.cheapest_node_mix_onto_existing([{"cpu": "3"}, {"cpu": "9"}], [packing.ExistingNode("old", {"cpu": "4"})], [])
    assert only.existing_items == [[0]]
    assert [u.item for u in only.unplaceable] == [1]
    assert only.cost == 0


def test_disruption_budget_and_plan_drains():
    strict = packing.DisruptionBudget()
    assert repr(strict) == "DisruptionBudget(ready >= desired)"
    assert strict.disruptions_allowed(5, 7) == 2
    half = packing.DisruptionBudget(min_available="50%")
    assert repr(half) == "DisruptionBudget(minAvailable 50%)"
    assert half.desired_healthy(5) == 3  # 2.5 rounds up
    one = packing.DisruptionBudget(max_unavailable=1)
    assert one.disruptions_allowed(3, 3) == 1
    with pytest.raises(continuum.InvalidArgument, match="not both"):
        packing.DisruptionBudget(min_available=1, max_unavailable=1)
    with pytest.raises(continuum.InvalidArgument, match="max_unavailable"):
        packing.DisruptionBudget(max_unavailable="x%")
    # tests/packing/test_drain.cpp's case: b's pod moves to a, a then receives and is kept.
    nodes = [{"name": "a", "allocatable": {"cpu": "1", "memory": "1Gi"}, "requested": {"cpu": "600m"}},
             {"name": "b", "allocatable": {"cpu": "1", "memory": "1Gi"}, "requested": {"cpu": "300m"}},
             {"name": "c", "allocatable": {"cpu": "1", "memory": "1Gi"}, "ready": False}]
    pod = {"cpu": "300m", "memory": "100Mi"}
    pods = [{"node": 0, "workload": "w", "request": pod}, {"node": 0, "workload": "w", "request": pod}, {"node": 1, "workload": "w", "request": pod}]
    plan = packing.plan_drains(nodes, pods, [{"name": "w", "desired": 3, "healthy": 3, "budget": one}], [1, 0], 2)
    assert plan["removed"] == [1]
    assert plan["blocked"] == ["a kept: it receives pods from a node removed before it"]
    plan = packing.plan_drains(nodes, pods, [{"name": "w", "desired": 3, "healthy": 3}], [1, 0], 2)
    assert plan["removed"] == []
    with pytest.raises(continuum.InvalidArgument, match="pods\\[0\\].node = 5"):
        packing.plan_drains(nodes, [{"node": 5, "request": pod}], [], [0], 1)
