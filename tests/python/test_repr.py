"""Every public class has a repr of its own that shows its fields the way a user writes them: inputs
evaluate back to an equal object (eval(repr(x)) == x, or the same repr where a class has no __eq__),
results name every field with its value."""

import importlib

import pytest

import continuum
from continuum import capacity, federation as fed, forecast, packing, policy, quota, scalers, sim

MODULES = ["continuum"] + [f"continuum.{name}" for name in
                           ("capacity", "federation", "forecast", "packing", "policy", "quota", "scalers", "sim")]
def _public_classes():
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in sorted(dir(module)):
            value = getattr(module, name)
            if not name.startswith("_") and isinstance(value, type) and not issubclass(value, BaseException):
                yield module_name, name, value


def _namespace():
    """What a repr may name: every public class of every module, and Resources."""
    names = {}
    for _, name, cls in _public_classes():
        names[name] = cls
    return names


@pytest.mark.parametrize("module_name,name,cls", list(_public_classes()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_public_class_has_its_own_repr(module_name, name, cls):
    # No allow-list: every public class of every module, the continuum.sim adapters included.
    if hasattr(cls, "__members__"):  # a pybind11 enum: <Type.member: n>, as Python's enum.Enum
        member = next(iter(cls.__members__.values()))
        assert repr(member).startswith(f"<{name}.")
        return
    assert any("__repr__" in klass.__dict__ for klass in cls.__mro__ if klass is not object and klass.__module__.startswith("continuum")), \
        f"{module_name}.{name} has object's repr"


def test_the_walk_sees_every_module_and_the_sim_adapters():
    names = {name for _, name, _ in _public_classes()}
    assert {"HpaAdapter", "ClusterAutoscaler", "ReactiveQuotaAdapter", "ProactiveQuotaAdapter", "HybridQuotaAdapter",
            "FederatedClusterAdapter", "HierarchicalAdapter", "Resources", "NodeType", "Hpa"} <= names
    assert len(names) > 100


def _inputs():
    return [
        continuum.Resources({"cpu": "250m", "memory": "8Gi", "pods": 3}),
        packing.NodeType("m5.large", {"cpu": 2, "memory": "8Gi"}, 0.096),
        packing.PlacedPod("web-1", {"cpu": "500m"}, movable=False),
        packing.NodeState("n1", {"cpu": 4, "memory": "16Gi"}, 1.5, [packing.PlacedPod("web-1", {"cpu": "500m"})]),
        packing.ExistingNode("n1", {"cpu": 4}, {"cpu": "1500m"}),
        packing.ExistingNode("n2", {"cpu": 4}),
        fed.Offer("eu-1", {"cpu": 4, "memory": "16Gi", "nvidia.com/gpu": 1}, unit_prices={"cpu": 0.5, "memory": 0.1},
                  labels={"zone": "eu"}, provider="pr1", max_nodes=3, reachability=fed.Reachability.nat, latency_ms=12.5),
        fed.Offer("us-1", {"cpu": 2, "memory": "4Gi"}, node_price=1.0),
        fed.SelectorRequirement("zone", fed.SelectorOperator.In, ["eu", "us"]),
        fed.LabelSelector.parse("zone=eu,!spot"),
        fed.PendingPod("p", {"cpu": 1, "memory": "512Mi"}),
        fed.VirtualNode("liqo-eu-1", "eu-1", {"cpu": 4, "memory": "16Gi"}, pods=[packing.PlacedPod("p", {"cpu": 1})]),
        fed.MonetaryCost(fed.PriceBasis.whole_offer),
        fed.EnergyCost(carbon=True),
        fed.LatencyCost(),
        capacity.WaitingNode("w1", {"cpu": 4, "memory": "16Gi"}, resume_latency=30.0, cost=1.25),
        policy.UtilityWeights(0.6, 0.3, 0.1),
        policy.Utility(policy.UtilityWeights(0.6, 0.3, 0.1)),
        policy.cost_saving(),
        quota.NamespaceSnapshot("shop", {"cpu": 3}, {"cpu": 4}, failed_requests=[{"cpu": 2}]),
        quota.ReactiveQuotaScaler(objective="cheapest", node_limit=1000),
        quota.ProactiveQuotaScaler(resources=["cpu"], decrease_hold=30.0),
        scalers.PodSample("p1", value="250m", request=0.5),
        scalers.ScalingPolicy(scalers.ScalingPolicyType.pods, 4, 60.0),
        scalers.HpaBehavior(),
        scalers.HpaMetric(),
        scalers.Hpa(min_replicas=2, max_replicas=20, metrics=[scalers.HpaMetric(target=60)], tolerance=0.05),
        scalers.ApplicationState("web", {"cpu": "500m"}, demand=[1.5, 2.0], replicas=2, node_pool="pool"),
        scalers.OtherWorkload("batch", {"cpu": 1}, count=3, node_pool="pool"),
        scalers.NodePoolState("pool", size=3, ready_nodes=2, min_size=1, max_size=10),
        fed.FederatedClusterScaler(allow_nat=False, unneeded_time=300.0),
        # The simulator's adapters whose configuration is plain values evaluate back.
        sim.HpaAdapter("web", min_replicas=2, max_replicas=8, target_percent=60, sync_period_s=30.0),
        sim.HpaAdapter("web", hpa=scalers.Hpa(min_replicas=2, max_replicas=20, metrics=[scalers.HpaMetric(target=60)], tolerance=0.05),
                       metrics_window_s=60.0),
        sim.ClusterAutoscaler(pools=["a", "b"], expander="cheapest", scan_interval_s=20.0, max_unavailable="25%"),
        sim.ReactiveQuotaAdapter("shop", "paused", follow_demand_down=False),
        sim.FederatedClusterAdapter("cost_unaware", pools=["remote"], max_unavailable=1),
    ]


@pytest.mark.parametrize("value", _inputs(), ids=lambda v: type(v).__name__)
def test_inputs_evaluate_back_from_their_repr(value):
    text = repr(value)
    assert " object at 0x" not in text
    again = eval(text, _namespace())  # noqa: S307 - our own reprs
    if "__eq__" in type(value).__dict__:
        assert again == value
    assert repr(again) == text


def test_reprs_read_as_written():
    assert repr(continuum.Resources({"cpu": "250m", "memory": "8Gi", "pods": 3})) == "Resources({'cpu': '250m', 'memory': '8Gi', 'pods': 3})"
    assert repr(continuum.Resources({"cpu": 2})) == "Resources({'cpu': 2})"
    assert repr(packing.NodeType("m5.large", {"cpu": 2, "memory": "8Gi"}, 0.096)) == \
        "NodeType(name='m5.large', capacity=Resources({'cpu': 2, 'memory': '8Gi'}), cost=0.096, max_count=-1)"
    # Offer shows its unit prices (and leaves out what was not given).
    assert repr(fed.Offer("eu-1", {"cpu": 4, "memory": "16Gi"}, unit_prices={"cpu": 0.5})) == \
        "Offer(cluster_id='eu-1', capacity=Resources({'cpu': 4, 'memory': '16Gi'}), node_price=0.0, unit_prices={'cpu': 0.5}, " \
        "max_nodes=1, reachability=Reachability.direct)"
    # Durations are the seconds the constructors take, enums Type.member.
    assert repr(scalers.ScalingPolicy(scalers.ScalingPolicyType.percent, 100, 15.0)) == \
        "ScalingPolicy(type=ScalingPolicyType.percent, value=100, period=15.0)"
    assert repr(capacity.WaitingNode("w1", {"cpu": 4}, resume_latency=30.0, cost=1.25)) == \
        "WaitingNode(name='w1', capacity=Resources({'cpu': 4}), resume_latency=30.0, cost=1.25)"


def test_results_show_every_field():
    offers = [fed.Offer(f"low-{i}", {"cpu": 2, "memory": "4Gi"}, node_price=1.0) for i in (1, 2)]
    out = fed.FederatedClusterScaler().scale_out([fed.PendingPod("p", {"cpu": 1, "memory": "512Mi"})], [], offers, now=0.0)
    text = repr(out)
    assert text.startswith("ScaleOutDecision(peerings=[Peering(cluster_id='low-1', offer_index=0, nodes=[NewVirtualNode(pods=['p'], ")
    assert "cost=1.0" in text and "unschedulable=[]" in text and f"reason={out.reason!r}" in text

    mix = packing.cheapest_node_mix([{"cpu": 3}], [packing.NodeType("small", {"cpu": 2}, 1.0)])
    assert repr(mix.unplaceable[0]).startswith("UnplaceableItem(item=0, reason=")

    plan = capacity.choose_nodes_to_activate({"cpu": 4}, [capacity.WaitingNode("w1", {"cpu": 4}, cost=2.0)])
    assert repr(plan) == ("ActivationPlan(nodes=[0], names=['w1'], activated_capacity=Resources({'cpu': 4}), still_missing=Resources({}), "
                          f"cost=2.0, resume_latency=0.0, optimal=True, reason={plan.reason!r})")


def test_engines_show_their_configuration():
    assert repr(quota.ReactiveQuotaScaler(objective="cheapest", node_limit=1000)) == \
        "ReactiveQuotaScaler(objective='cheapest', node_limit=1000)"
    assert repr(fed.FederatedClusterScaler(allow_nat=False, unneeded_time=300.0)) == \
        ("FederatedClusterScaler(allow_nat=False, use_existing_nodes=True, utilization_threshold=0.5, gpu_utilization_threshold=0.5, "
         "unneeded_time=300.0, delay_after_add=600.0, max_nodes_per_decision=10)")
    profile = sim.LoadProfile.from_stages([(60.0, 10.0)], start_value=2.0)
    assert repr(profile) == "LoadProfile(interpolation='linear', points=[(0.0, 2.0), (60.0, 10.0)])"


def test_scalers_show_their_configuration():
    hybrid = quota.HybridQuotaScaler(lambda history: history[-1], levels={"cpu": ["2", "4", "8", "16"]}, horizon=3)
    text = repr(hybrid)
    assert text.startswith("HybridQuotaScaler(forecaster=")
    assert "resources=['cpu'], levels={'cpu': ['2', '4', '8', '16']}, condition='usage_within_target', decrease_hold=0.0" in text
    assert text.endswith("horizon=3, interval_level=0.0, min_history=10, max_history=1440, refit_every=0, step=60.0)")
    selector = policy.PolicySelector([policy.cost_saving()], "COST_SAVING")
    text = repr(scalers.HierarchicalScaler(selector, horizon=4))
    assert text.startswith("HierarchicalScaler(selector=PolicySelector(policies=[Policy(name='COST_SAVING', ")
    assert text.endswith("horizon=4, step=60.0, min_history=3, median_window=3, scale_down_window=60.0, dead_band=0.1, "
                         "node_planner='ffd', exact_node_limit=10000000)")


def test_the_getting_started_page_shows_real_reprs():
    import doctest
    import pathlib
    import re

    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "getting-started.md").read_text()
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S) if b.startswith(">>>")]
    test = doctest.DocTestParser().get_doctest(block, {"packing": packing, "federation": fed}, "getting-started", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_sim_adapters_show_their_configuration():
    assert repr(sim.HpaAdapter("web")) == \
        "HpaAdapter(deployment='web', min_replicas=1, max_replicas=10, target_percent=80, sync_period_s=15.0, metrics_window_s=0.0)"
    assert repr(sim.ClusterAutoscaler()) == \
        ("ClusterAutoscaler(pools=[], expander='priority', scan_interval_s=10.0, scale_down_utilisation_threshold=0.5, "
         "scale_down_unneeded_time_s=600.0, scale_down_delay_after_add_s=600.0, max_empty_bulk_delete=10, scale_down_enabled=True, "
         "max_unavailable=None)")
    assert repr(sim.FederatedClusterAdapter()) == \
        ("FederatedClusterAdapter(ranking='cost_aware', pools=[], scan_interval_s=10.0, scale_down_utilisation_threshold=0.5, "
         "scale_down_unneeded_time_s=600.0, scale_down_delay_after_add_s=600.0, max_unavailable=None)")
    # A fitted forecaster (or a Python callable) does not evaluate back: these read as <Type field=value, ...>.
    proactive = sim.ProactiveQuotaAdapter("shop", "paused", forecaster=forecast.Naive(), history=[1.0, 2.0], levels=[2, 4, "8500m"])
    assert repr(proactive) == ("<ProactiveQuotaAdapter namespace_name='shop', waiting_pool='paused', forecaster='naive', "
                               "levels=[2, 4, '8500m'], forecast_period_s=60.0, stop_redundant_nodes=True>")
    hybrid = sim.HybridQuotaAdapter("shop", "paused", forecaster=forecast.Naive(), history=[1.0], period_s=30.0)
    assert repr(hybrid) == ("<HybridQuotaAdapter namespace_name='shop', waiting_pool='paused', forecaster='naive', levels=None, "
                            "period_s=30.0, stop_redundant_nodes=True>")
    selector = policy.PolicySelector([policy.cost_saving()], "COST_SAVING")
    text = repr(sim.HierarchicalAdapter(scalers.HierarchicalScaler(selector, horizon=4), ["web"], switches=[(1800.0, "COST_SAVING")]))
    assert text.startswith("<HierarchicalAdapter scaler=HierarchicalScaler(selector=PolicySelector(")
    assert text.endswith("deployments=['web'], switches=[(1800.0, 'COST_SAVING')]>")


# Results built by python::def_result (bindings/python/repr.hpp): a keyword constructor over the
# fields the repr shows, so their reprs evaluate back too.
KEYWORD_RESULTS = [fed.NewVirtualNode, fed.Peering, fed.PodPlacement, fed.Reservation, fed.ScaleInDecision, fed.ScoredOffer,
                   fed.UnschedulablePod, packing.ConsolidationPlan, packing.OpenedNode, packing.PodMove, packing.UnplaceableItem,
                   policy.Selection, scalers.ApplicationPlan, scalers.PoolPlan, scalers.UnschedulablePods, fed.ScaleOutDecision,
                   fed.NodeScaleInStatus, fed.Recommendation, capacity.ActivationPlan]


@pytest.mark.parametrize("cls", KEYWORD_RESULTS, ids=lambda c: c.__name__)
def test_results_with_a_keyword_constructor_evaluate_back(cls):
    value = cls()
    assert eval(repr(value), _namespace()) == value  # noqa: S307 - our own reprs


def test_computed_results_evaluate_back_and_compare_by_value():
    offers = [fed.Offer(f"low-{i}", {"cpu": 2, "memory": "4Gi"}, node_price=1.0) for i in (1, 2)]
    out = fed.FederatedClusterScaler().scale_out([fed.PendingPod("p", {"cpu": 1, "memory": "512Mi"})], [], offers, now=0.0)
    mix = packing.cheapest_node_mix([{"cpu": 3}, {"cpu": 1}], [packing.NodeType("small", {"cpu": 2}, 1.0)])
    plan = capacity.choose_nodes_to_activate({"cpu": 4}, [capacity.WaitingNode("w1", {"cpu": 4}, resume_latency=30.0, cost=2.0)])
    ranked = fed.Recommender().recommend(offers, request={"cpu": 1, "memory": "1Gi"})
    for value in (out, out.peerings[0], out.peerings[0].nodes[0], mix.unplaceable[0], mix.nodes[0], plan, ranked):
        again = eval(repr(value), _namespace())  # noqa: S307 - our own reprs
        assert again == value and repr(again) == repr(value)
    node = out.peerings[0].nodes[0]
    assert fed.NewVirtualNode(pods=["p"], requested=node.requested, reserved=node.reserved, cost=node.cost) == node
    assert fed.NewVirtualNode(pods=["q"], requested=node.requested, reserved=node.reserved, cost=node.cost) != node
    assert packing.OpenedNode(type=0, items=[1]) == packing.OpenedNode(0, [1])
    # Derived properties follow the fields; durations are seconds both ways.
    assert out.new_node_count == 1 and plan.resume_latency == 30.0 and plan.covers and ranked.best == "low-1"
    assert fed.NodeScaleInStatus(node="n", unneeded_for=90.0).unneeded_for == 90.0
    # The constructor takes what the field holds; a wrong type names Class.field.
    with pytest.raises(continuum.InvalidArgument, match=r"^OpenedNode\.items: expected a list of int, got str 'x'"):
        packing.OpenedNode(items="x")
