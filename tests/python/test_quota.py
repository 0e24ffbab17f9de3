"""continuum.quota from Python: QuotaLevels, the reactive / proactive / hybrid quota scalers of
seed 001, the fairness rule and the split across member clusters."""

import math

import numpy as np
import pytest

import continuum
from continuum import capacity, quota

LEVELS = {"cpu": ["20", "40", "60", "80", "100"]}


def test_quota_levels_paper_examples():
    levels = quota.QuotaLevels([20, 40, 60, 80, 100])
    assert levels.snap_up(42) == 60
    assert levels.snap_up(77) == 80
    assert levels.snap_up(19) == 20
    assert levels.snap_down(77) == 60
    assert levels.snap_nearest(50) == 60
    with pytest.raises(continuum.Infeasible, match="above the top quota level"):
        levels.snap_up(101)
    snap = levels.try_snap_up(101)
    assert snap.value == 101 and snap.outcome == quota.SnapOutcome.above_top and not snap.on_level
    assert quota.QuotaLevels.parse("cpu", ["500m", "1"]).levels == ["500m", 1]
    assert quota.QuotaLevels.parse("cpu", ["500m", "1"]).canonical_levels == [500, 1000]


@pytest.mark.parametrize("levels", [[], [20, 10], [20, 20], [0, 5]])
def test_bad_levels(levels):
    with pytest.raises(continuum.InvalidArgument):
        quota.QuotaLevels(levels)


def test_reactive_three_cases_and_infeasible():
    pool = [capacity.WaitingNode("wwn-1", {"cpu": "8"}, 20, 1.0), capacity.WaitingNode("wwn-2", {"cpu": "8"}, 20, 1.0)]
    scaler = quota.ReactiveQuotaScaler()
    d = scaler.decide({"cpu": "60"}, {"cpu": "100"}, {"cpu": "10"}, pool)
    assert d.case == 1 and d.kind == quota.ReactiveCase.sufficient_quota and d.deploy
    d = scaler.decide({"cpu": "110"}, {"cpu": "100"}, {"cpu": "12"}, pool)
    assert d.case == 2 and d.new_quota.to_quantities() == {"cpu": "110"}
    d = scaler.decide({"cpu": "120"}, {"cpu": "100"}, {"cpu": "4"}, pool)
    assert d.case == 3 and d.nodes_to_activate == ["wwn-1", "wwn-2"]
    assert d.new_quota["cpu"] == 120
    assert "case 3" in d.reason
    d = scaler.decide({"cpu": "130"}, {"cpu": "100"}, {"cpu": "4"}, pool)
    assert d.kind == quota.ReactiveCase.infeasible and not d.deploy
    assert d.still_missing.to_quantities() == {"cpu": "10"}
    with pytest.raises(continuum.InvalidArgument, match="request"):
        scaler.decide(continuum.Resources.from_units({"cpu": -1}), {}, {})


def test_proactive_wait_then_lower_then_consolidate():
    scaler = quota.ProactiveQuotaScaler(levels=LEVELS)
    d = scaler.decide(0, {"cpu": "77"}, {"cpu": "100"}, {"cpu": "90"}, {"cpu": "100"})
    assert d.action == quota.ProactiveAction.wait_for_usage_decrease
    assert scaler.pending_target.to_quantities() == {"cpu": "80"}
    d = scaler.decide(60, {"cpu": "77"}, {"cpu": "100"}, {"cpu": "78"}, {"cpu": "100"})
    assert d.action == quota.ProactiveAction.lower_quota
    assert d.new_quota.to_quantities() == {"cpu": "80"}
    assert scaler.pending_target is None

    consolidating = quota.ProactiveQuotaScaler(levels={"cpu": [10, 20, 30]})
    nodes = [
        {"name": "node-1", "capacity": {"cpu": "10"}, "cost": 1.0, "pods": [{"name": "pod-3", "request": {"cpu": "3"}}]},
        {"name": "node-2", "capacity": {"cpu": "10"}, "cost": 1.0, "pods": [{"name": "pod-4", "request": {"cpu": "4"}}]},
    ]
    d = consolidating.decide(0, {"cpu": "7"}, {"cpu": "20"}, {"cpu": "7"}, {"cpu": "20"}, nodes=nodes)
    assert d.new_quota.to_quantities() == {"cpu": "10"}
    assert len(d.consolidation["nodes_to_release"]) == 1
    assert len(d.consolidation["moves"]) == 1


def test_proactive_increase_with_waiting_nodes():
    pool = [capacity.WaitingNode(f"wwn-{i}", {"cpu": "8"}, 30, 1.0) for i in range(3)]
    scaler = quota.ProactiveQuotaScaler(levels=LEVELS)
    d = scaler.decide(0, continuum.Resources.from_cores(115.0), {"cpu": "100"}, {"cpu": "95"}, {"cpu": "100"}, pool)
    assert d.action == quota.ProactiveAction.activate_and_raise_quota
    assert d.nodes_to_activate == ["wwn-0", "wwn-1"]
    assert d.new_quota["cpu"] == 115
    with pytest.raises(continuum.InvalidArgument):
        continuum.Resources.from_cores(math.nan)
    scaler.decide(10, {"cpu": "115"}, {"cpu": "115"}, {"cpu": "95"}, {"cpu": "124"})
    with pytest.raises(continuum.InvalidArgument, match="before the previous call"):
        scaler.decide(5, {"cpu": "115"}, {"cpu": "115"}, {"cpu": "95"}, {"cpu": "124"})
    with pytest.raises(continuum.InvalidArgument, match="now"):
        scaler.decide(-1, {"cpu": "115"}, {"cpu": "115"}, {"cpu": "95"}, {"cpu": "124"})


def test_hybrid_with_a_callable_forecaster():
    # history (numpy array of cores) -> prediction: the last value plus 10 cores.
    scaler = quota.HybridQuotaScaler(lambda history: float(history[-1]) + 10.0, levels=LEVELS, min_history=2)
    ns = [quota.NamespaceSnapshot("shop", {"cpu": "50"}, {"cpu": "60"})]
    d = scaler.tick(0, {"cpu": "200"}, ns)
    assert d["shop"].warming_up
    d = scaler.tick(60, {"cpu": "200"}, ns)
    assert d["shop"].prediction.to_quantities() == {"cpu": "60"}
    ns[0].usage = continuum.Resources({"cpu": "55"})
    d = scaler.tick(120, {"cpu": "200"}, ns)
    assert d["shop"].quota.to_quantities() == {"cpu": "65"}
    assert d["shop"].proactive == quota.ProactiveAction.raise_quota
    assert "raise_quota" in d["shop"].reason


class LastValue:
    """A duck-typed forecaster, the shape of every continuum.forecast model."""

    def __init__(self):
        self.last = None

    def fit(self, history):
        assert isinstance(history, np.ndarray)
        self.last = float(history[-1])

    def update(self, value):
        self.last = value

    def forecast(self, horizon, level=0.0):
        return [self.last * 0.25] * horizon

    def name(self):
        return "last-value/4"


def test_hybrid_with_a_forecaster_object_is_copied_per_namespace():
    proto = LastValue()
    scaler = quota.HybridQuotaScaler(proto, levels=LEVELS, min_history=1)
    ns = [{"name": "a", "usage": {"cpu": "80"}, "quota": {"cpu": "100"}}, {"name": "b", "usage": {"cpu": "10"}, "quota": {"cpu": "100"}}]
    d = scaler.tick(0, {"cpu": "300"}, ns)
    assert proto.last is None  # the prototype itself is never fitted
    # a: prediction 20 -> target 20 but usage 80: waits. b: prediction 2.5 -> 20, usage 10 <= 20: lowered.
    assert d["a"].proactive == quota.ProactiveAction.wait_for_usage_decrease
    assert scaler.pending_target("a").to_quantities() == {"cpu": "20"}
    assert d["b"].quota.to_quantities() == {"cpu": "20"}


class LastValueWithInterval(LastValue):
    """A duck-typed forecaster with continuum's interval method: forecast_interval(h, level)."""

    def forecast(self, horizon, level=0.0):
        return [self.last] * horizon

    def forecast_interval(self, h, level):
        mean = np.full(h, self.last)
        return mean, mean - 1.0, mean + 25.0 * level


def test_hybrid_interval_level_uses_a_python_models_forecast_interval():
    # interval_level 0.8: the upper bound 30 + 25 * 0.8 = 50 cores is planned for (the proactive
    # step raises the quota to the prediction).
    scaler = quota.HybridQuotaScaler(LastValueWithInterval(), levels=LEVELS, min_history=1, interval_level=0.8)
    d = scaler.tick(0, {"cpu": "300"}, [{"name": "a", "usage": {"cpu": "30"}, "quota": {"cpu": "40"}}])
    assert d["a"].quota.to_quantities() == {"cpu": "50"}
    assert "prediction {cpu: 50}" in d["a"].reason
    # The mean alone (interval_level 0) plans for 30 cores: snapped up to 40, the quota holds.
    scaler = quota.HybridQuotaScaler(LastValueWithInterval(), levels=LEVELS, min_history=1)
    d = scaler.tick(0, {"cpu": "300"}, [{"name": "a", "usage": {"cpu": "30"}, "quota": {"cpu": "40"}}])
    assert d["a"].quota.to_quantities() == {"cpu": "40"}


def test_hybrid_accepts_continuum_forecast_models_when_bound():
    forecast = pytest.importorskip("continuum.forecast")
    model_type = next((getattr(forecast, n) for n in ("Naive", "NaiveForecaster") if hasattr(forecast, n)), None)
    if model_type is None:
        pytest.skip("continuum.forecast has no naive model bound yet")
    scaler = quota.HybridQuotaScaler(model_type(), levels=LEVELS, min_history=3)
    ns = [{"name": "a", "usage": {"cpu": "50"}, "quota": {"cpu": "40"}}]
    for t in range(3):
        d = scaler.tick(60 * t, {"cpu": "200"}, ns)
    assert d["a"].quota.to_quantities() == {"cpu": "50"}


def test_hybrid_with_a_moving_median_plans_for_the_median_and_keeps_its_state():
    # MovingMedian is one of the built-in forecasters the scaler wraps as itself (not through
    # Python): its decisions follow the median of the last 3 usages and its state is saved.
    import copy
    import json
    import pickle

    from continuum import forecast

    def make():
        return quota.HybridQuotaScaler(forecast.MovingMedian(3), levels=LEVELS, min_history=3)

    scaler = make()
    for t, usage in enumerate(["50", "50", "90"]):
        d = scaler.tick(60 * t, {"cpu": "300"}, [{"name": "a", "usage": {"cpu": usage}, "quota": {"cpu": "100"}}])
    # median(50, 50, 90) = 50 -> target 60 (the last value, 90, would plan for 100); usage 90 > 60: waits.
    assert "prediction {cpu: 50}" in d["a"].reason
    assert d["a"].proactive == quota.ProactiveAction.wait_for_usage_decrease
    assert scaler.pending_target("a").to_quantities() == {"cpu": "60"}
    doc = json.loads(scaler.to_json())
    member = doc["namespaces"][0]["models"][0]
    assert member["schema"] == "continuum.MovingMedian" and member["window"] == 3
    restored = [make().from_json(scaler.to_json()), pickle.loads(pickle.dumps(scaler)), copy.deepcopy(scaler)]
    for r in restored:
        assert r.to_json() == scaler.to_json()
    for t, usage in enumerate(["40", "30", "30"], start=3):
        ns = [{"name": "a", "usage": {"cpu": usage}, "quota": {"cpu": "100"}}]
        expected = scaler.tick(60 * t, {"cpu": "300"}, ns)["a"].reason
        assert [r.tick(60 * t, {"cpu": "300"}, ns)["a"].reason for r in restored] == [expected] * 3
    assert "prediction {cpu: 30}" in expected  # median(40, 30, 30)


def test_hybrid_fairness_over_many_namespaces():
    scaler = quota.HybridQuotaScaler(lambda h: float(h[-1]), levels=LEVELS)
    ns = [{"name": "a", "usage": {"cpu": "30"}, "quota": {"cpu": "60"}}, {"name": "b", "usage": {"cpu": "40"}, "quota": {"cpu": "40"}}]
    d = scaler.tick_with_predictions(0, {"cpu": "100"}, ns, [{"cpu": "60"}, {"cpu": "70"}])
    assert d["a"].quota.to_quantities() == {"cpu": "45"}
    assert d["b"].quota.to_quantities() == {"cpu": "55"}
    assert d.cut == [0, 1]
    assert d["a"].cut.to_quantities() == {"cpu": "15"}
    scaler.add_namespace("b", priority=10)
    d = scaler.tick_with_predictions(1, {"cpu": "100"}, ns, [{"cpu": "60"}, {"cpu": "70"}])
    assert d["b"].quota.to_quantities() == {"cpu": "70"}
    assert d["a"].quota.to_quantities() == {"cpu": "30"}
    assert "fairness rule" in d.reason


def test_hybrid_reactive_events_and_bad_input():
    pool = [capacity.WaitingNode("wwn-1", {"cpu": "8"}, 20, 1.0), capacity.WaitingNode("wwn-2", {"cpu": "8"}, 20, 1.0)]
    scaler = quota.HybridQuotaScaler(lambda h: float(h[-1]))
    ns = [quota.NamespaceSnapshot("shop", {"cpu": "95"}, {"cpu": "100"}, [{"cpu": "120"}])]
    d = scaler.tick(0, {"cpu": "110"}, ns, pool)
    assert d["shop"].reactive == quota.ReactiveCase.activate_nodes
    assert d.nodes_to_activate == ["wwn-1", "wwn-2"]
    assert d["shop"].quota["cpu"] == 120
    r = scaler.react(0, {"cpu": "130"}, ns, "shop", {"cpu": "125"}, pool)
    assert r.case == 2
    scaler.tick(60, {"cpu": "130"}, ns, pool)
    with pytest.raises(continuum.InvalidArgument, match="before the previous tick"):
        scaler.tick(30, {"cpu": "130"}, ns, pool)
    nan_scaler = quota.HybridQuotaScaler(lambda h: math.nan, min_history=1)
    with pytest.raises(continuum.InvalidArgument, match="namespace \"shop\""):
        nan_scaler.tick(0, {"cpu": "110"}, ns)
    with pytest.raises(continuum.InvalidArgument, match="forecaster"):
        quota.HybridQuotaScaler(42)


def test_share_by_priority_and_split_across_clusters():
    assert quota.share_by_priority(20, [10, 30], [0, 0]) == [5, 15]
    assert quota.share_by_priority(60, [40, 50, 30], [0, 10, 5]) == [0, 50, 10]
    split = quota.split_across_clusters({"cpu": "100"}, {"member1": {"cpu": "2"}, "member2": {"cpu": "5"}, "member3": {"cpu": "3"}})
    assert {k: v.to_quantities()["cpu"] for k, v in split.items()} == {"member1": "20", "member2": "50", "member3": "30"}


class PlanRecorder(LastValue):
    """Forecasts the horizon the scaler told it through plan_for_horizon (0 if never told)."""

    def __init__(self):
        super().__init__()
        self.planned = 0

    def plan_for_horizon(self, horizon):
        self.planned = horizon

    def forecast(self, horizon, level=0.0):
        return [float(self.planned)] * horizon


def test_hybrid_tells_a_selecting_forecaster_its_horizon():
    from continuum import forecast as fc

    mine = PlanRecorder()
    scaler = quota.HybridQuotaScaler(mine, levels=LEVELS, min_history=1, horizon=7)
    d = scaler.tick(0, {"cpu": "200"}, [quota.NamespaceSnapshot("shop", {"cpu": "1"}, {"cpu": "1"})])
    assert d["shop"].prediction.to_quantities() == {"cpu": "7"}
    assert mine.planned == 0  # the scaler told its own copy, not the caller's object
    portfolio = fc.Portfolio(season_lengths=[24])
    quota.HybridQuotaScaler(portfolio, levels=LEVELS, horizon=3)
    y = 50 + 10 * np.sin(2 * np.pi * np.arange(24 * 8) / 24)
    assert portfolio.fit(y).validation_horizon == 24  # the caller's portfolio still validates one season ahead
