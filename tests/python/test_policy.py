"""continuum.policy from Python: built-ins, the utility formula, selector precedence."""

import pytest

import continuum
from continuum import policy


def test_builtins_and_utility():
    cost = policy.cost_saving()
    perf = policy.performance()
    assert cost.name == "COST_SAVING" and cost.node_type == "e2-medium"
    assert perf.node_pool == "performance-pool" and perf.min_replicas == 2
    terms = policy.Utility().evaluate(policy.UtilityState(4.0, 4.0, 0.134, 2), cost)
    assert terms.performance == pytest.approx(0.8)
    assert terms.utility == pytest.approx(0.3 * 0.8 - 0.7 * 0.134)
    assert policy.utility(policy.UtilityState(4.0, 10.0, 0.4855, 2), perf) == pytest.approx(0.7029)
    shared = policy.Utility(policy.UtilityWeights(1.0, 1.0, 0.0))
    assert shared(policy.UtilityState(4.0, 4.0, 0.134, 2), cost) == pytest.approx(0.8 - 0.134)


def test_custom_policy_validation():
    p = policy.Policy("GPU", node_pool="gpu-pool", node_type="a2", node_capacity={"cpu": "12", "nvidia.com/gpu": 1},
                      node_cost=3.67, min_replicas=1, max_replicas=8, target_utilization=0.6)
    assert p.node_capacity["nvidia.com/gpu"] == 1
    with pytest.raises(continuum.InvalidArgument, match="target_utilization"):
        policy.Policy("bad", node_pool="x", node_type="y", node_capacity={"cpu": "1"}, target_utilization=1.5)


def test_selector_precedence_and_utility():
    selector = policy.PolicySelector([policy.cost_saving(), policy.performance()], "COST_SAVING")
    selector.add_signal_rule("flash_sale", "on", "PERFORMANCE")
    selector.add_time_window("PERFORMANCE", begin=9 * 3600, end=17 * 3600)
    assert selector.select(now=2 * 3600).policy == "COST_SAVING"
    assert selector.select(now=10 * 3600).source == policy.SelectionSource.time_window
    assert selector.select(now=2 * 3600, signals={"flash_sale": "on"}).policy == "PERFORMANCE"
    assert selector.select(now=10 * 3600, override_policy="COST_SAVING").policy == "COST_SAVING"
    with pytest.raises(continuum.InvalidArgument, match="TURBO"):
        selector.select(override_policy="TURBO")

    selector.maximize_utility(True, policy.UtilityWeights(1.0, 1.0, 0.0))
    states = {"COST_SAVING": policy.UtilityState(4.0, 2.0, 0.0335, 1), "PERFORMANCE": policy.UtilityState(4.0, 10.0, 0.4855, 5)}
    chosen = selector.select(now=2 * 3600, state_of=lambda p: states[p.name])
    assert chosen.policy == "PERFORMANCE"
    assert chosen.utilities == pytest.approx([0.4 - 0.0335, 1.0 - 0.4855])
