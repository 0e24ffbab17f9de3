"""continuum.capacity from Python: shortfall, required_nodes, choose_nodes_to_activate."""

import pytest

import continuum
from continuum import capacity


def test_shortfall_is_the_positive_part():
    s = capacity.shortfall({"cpu": "7", "memory": "2Gi"}, {"cpu": "5", "memory": "4Gi"})
    assert s.to_dict() == {"cpu": 2}
    with pytest.raises(continuum.InvalidArgument, match="required"):
        capacity.shortfall(continuum.Resources.from_units({"cpu": -1}), {})


def test_required_nodes():
    node = {"cpu": "4", "memory": "16Gi"}
    assert capacity.required_nodes({"cpu": "7", "memory": "20Gi"}, node) == 2
    assert capacity.required_nodes({}, node) == 0
    with pytest.raises(continuum.Infeasible, match="nvidia.com/gpu"):
        capacity.required_nodes({"nvidia.com/gpu": "1"}, node)


def _pool():
    return [
        capacity.WaitingNode("small-a", {"cpu": "4", "memory": "16Gi"}, resume_latency=10, cost=1.0),
        capacity.WaitingNode("small-b", {"cpu": "4", "memory": "16Gi"}, resume_latency=10, cost=1.0),
        capacity.WaitingNode("big", {"cpu": "8", "memory": "32Gi"}, resume_latency=40, cost=2.5),
    ]


@pytest.mark.parametrize(
    "objective, names",
    [("fewest_nodes", ["big"]), ("cheapest", ["small-a", "small-b"]), (capacity.ActivationObjective.fastest, ["small-a", "small-b"])],
)
def test_choose_nodes_to_activate_objectives(objective, names):
    plan = capacity.choose_nodes_to_activate({"cpu": "8"}, _pool(), objective)
    assert plan.names == names
    assert plan.covers and plan.optimal
    assert len(plan) == len(names)


def test_uncoverable_shortfall_reports_what_is_missing():
    plan = capacity.choose_nodes_to_activate({"cpu": "20"}, _pool())
    assert not plan.covers
    assert plan.still_missing.to_dict() == {"cpu": 4}
    assert plan.nodes == [0, 1, 2]
    assert "still leaves" in plan.reason


def test_bad_pool_and_objective():
    pool = _pool()
    pool[1].name = "small-a"
    with pytest.raises(continuum.InvalidArgument, match="appears twice"):
        capacity.choose_nodes_to_activate({"cpu": "1"}, pool)
    with pytest.raises(continuum.InvalidArgument, match="objective"):
        capacity.choose_nodes_to_activate({"cpu": "1"}, _pool(), "quickest")
    with pytest.raises(continuum.InvalidArgument, match="resume_latency"):
        capacity.WaitingNode("x", {"cpu": "1"}, resume_latency=-1.0)
