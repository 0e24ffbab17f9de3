"""State that survives a restart (issue 17) from Python: to_json() / from_json(), copy.deepcopy and
pickle give objects that continue exactly as the original (same forecasts and decisions)."""

import copy
import json
import math
import pickle

import numpy as np
import pytest

import continuum
from continuum import federation, forecast, policy, quota, scalers


def _series(n=60, seed=3):
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    return 50.0 + 10.0 * np.sin(2 * math.pi * t / 12) + rng.normal(0.0, 1.0, n)


FORECASTERS = [
    lambda: forecast.Naive(),
    lambda: forecast.Drift(),
    lambda: forecast.SimpleExponentialSmoothing(),
    lambda: forecast.SimpleExponentialSmoothing(alpha=0.4),
    lambda: forecast.SeasonalNaive(12),
    lambda: forecast.SeasonalMedian(12, 3),
    lambda: forecast.MovingAverage(5),
    lambda: forecast.MovingMedian(5),
    lambda: forecast.LinearRegression(8),
    lambda: forecast.HoltWinters(season_length=12, trend="add", seasonal="add", simulation_paths=100, seed=7),
    lambda: forecast.Portfolio(season_lengths=[12], origins=3),
]


def _forecast(model):
    mean, lower, upper = model.forecast_interval(6, 0.9)
    return (list(mean), list(lower), list(upper))


@pytest.mark.parametrize("make", FORECASTERS)
def test_forecasters_resume_bit_identically_through_json_pickle_and_deepcopy(make):
    y = _series()
    original = make()
    original.fit(y[:48])
    for v in y[48:52]:
        original.update(v)
    text = original.to_json()
    doc = json.loads(text)
    assert doc["version"] == 1 and doc["schema"].startswith("continuum.")
    copies = [make().from_json(text), pickle.loads(pickle.dumps(original)), copy.deepcopy(original), copy.copy(original)]
    for c in copies:
        assert type(c) is type(original)
        assert c.to_json() == text
    for v in y[52:]:
        original.update(v)
        for c in copies:
            c.update(v)
            assert _forecast(c) == _forecast(original)  # exact float equality


def test_a_state_for_another_configuration_is_rejected_naming_the_field():
    model = forecast.SeasonalNaive(12)
    model.fit(_series())
    with pytest.raises(continuum.InvalidArgument, match=r"state.season_length = 12 but the configuration has 24"):
        forecast.SeasonalNaive(24).from_json(model.to_json())
    doc = json.loads(model.to_json())
    doc["version"] = 2
    with pytest.raises(continuum.ParseError, match=r"\$\.version: unsupported version 2"):
        forecast.SeasonalNaive(12).from_json(json.dumps(doc))
    del doc["next"]
    doc["version"] = 1
    with pytest.raises(continuum.ParseError, match=r"\$\.next: missing field"):
        forecast.SeasonalNaive(12).from_json(json.dumps(doc))


def _hybrid(forecaster):
    return quota.HybridQuotaScaler(forecaster, levels={"cpu": ["2", "4", "8", "16"]}, decrease_hold=60.0, min_history=5, refit_every=4)


def _tick(scaler, t, usage, quotas):
    namespaces = [quota.NamespaceSnapshot(name, {"cpu": f"{u:.3f}"}, {"cpu": quotas[name]}) for name, u in usage.items()]
    d = scaler.tick(60 * t, {"cpu": "64"}, namespaces)
    reasons = []
    for name in usage:
        quotas[name] = d[name].quota.to_quantities().get("cpu", "0")
        reasons.append(d[name].reason)
    return reasons


def _continue_together(original, restored, steps, quotas, ticks):
    """Ticks the original and each restored copy (each with its own copy of the quotas) over `ticks`:
    every reason of every copy equals the original's."""
    copies = [dict(quotas) for _ in restored]
    for t in ticks:
        expected = _tick(original, t, steps[t], quotas)
        for scaler, q in zip(restored, copies):
            assert _tick(scaler, t, steps[t], q) == expected


@pytest.mark.parametrize("make", [lambda: forecast.SimpleExponentialSmoothing(), lambda: forecast.SeasonalNaive(4)])
def test_hybrid_quota_scaler_resumes_through_json_pickle_and_deepcopy(make):
    rng = np.random.default_rng(5)
    steps = [{f"ns-{i}": max(0.1, 2.0 + rng.normal(0, 1.0)) for i in range(3)} for _ in range(30)]
    a = _hybrid(make())
    qa = {name: "4" for name in steps[0]}
    for t in range(12):
        _tick(a, t, steps[t], qa)
    restored = [_hybrid(make()).from_json(a.to_json()), pickle.loads(pickle.dumps(a)), copy.deepcopy(a)]
    _continue_together(a, restored, steps, qa, range(12, 30))


def test_ledger_keeps_reservations_through_pickle_json_and_deepcopy():
    ledger = federation.Ledger([federation.Offer("a", {"cpu": "4", "memory": "8Gi"}, node_price=1.0)])
    r = ledger.reserve("ca-1", "a", {"cpu": "3"})
    ledger.commit(r)
    for restored in (pickle.loads(pickle.dumps(ledger)), copy.deepcopy(ledger), federation.Ledger().from_json(ledger.to_json())):
        assert restored.held("a") == ledger.held("a")
        assert restored.try_reserve("ca-2", "a", {"cpu": "2"}) is None  # 3 of 4 cores are still held
        assert restored.reserve("ca-2", "a", {"cpu": "1"}) == r + 1      # ids are never reused


def test_federated_cluster_scaler_and_the_quota_scalers_round_trip():
    fcs = federation.FederatedClusterScaler(unneeded_time=120.0)
    fcs.observe_scale_out(30.0)
    assert json.loads(fcs.to_json())["scale_in"]["last_scale_out"] == 30000
    for c in (pickle.loads(pickle.dumps(fcs)), copy.deepcopy(fcs)):
        assert c.to_json() == fcs.to_json()
    reactive = quota.ReactiveQuotaScaler(objective="cheapest")
    assert pickle.loads(pickle.dumps(reactive)).to_json() == '{"schema":"continuum.ReactiveQuotaScaler","version":1}'
    proactive = quota.ProactiveQuotaScaler(levels={"cpu": ["2", "4", "8"]}, decrease_hold=30.0)
    proactive.decide(0, {"cpu": "2"}, {"cpu": "8"}, {"cpu": "3"}, {"cpu": "16"})
    assert json.loads(proactive.to_json())["pending"]["target"] == {"cpu": 2000}
    assert pickle.loads(pickle.dumps(proactive)).to_json() == proactive.to_json()


def test_hpa_keeps_its_stabilisation_window_through_json_and_deepcopy():
    cpu = scalers.HpaMetric.resource_utilization("cpu", 60, usage=np.full(10, 300), requests=np.full(10, 500), milli=True)
    hpa = scalers.Hpa(max_replicas=40, metrics=[cpu])
    assert hpa.decide(10, now=0.0).desired_replicas == 10
    low = scalers.HpaMetric.resource_utilization("cpu", 60, usage=np.full(10, 60), requests=np.full(10, 500), milli=True)
    restored = scalers.Hpa(max_replicas=40, metrics=[cpu]).from_json(hpa.to_json())
    assert restored.recommendations == hpa.recommendations
    assert restored.decide(10, now=15.0, metrics=[low]).desired_replicas == 10  # the 300 s window holds
    assert copy.deepcopy(hpa).decide(10, now=15.0, metrics=[low]).desired_replicas == 10
    assert hpa.decide(10, now=15.0, metrics=[low]).desired_replicas == 10  # the uninterrupted one agrees


def test_hierarchical_scaler_json_and_deepcopy():
    selector = policy.PolicySelector([policy.cost_saving(), policy.performance()], "COST_SAVING")
    scaler = scalers.HierarchicalScaler(selector, forecaster=forecast.Naive())
    doc = json.loads(scaler.to_json())
    assert doc["schema"] == "continuum.HierarchicalScaler" and doc["migration"]["phase"] == "none"
    doc["migration"] = {"phase": "migrating", "from": ["mas-h2-staging-pool"], "to": "performance-pool", "policy": "PERFORMANCE"}
    restored = scaler.from_json(json.dumps(doc))
    assert str(restored.migration_phase).endswith("migrating")
    assert copy.deepcopy(restored).to_json() == restored.to_json()
    doc["migration"]["policy"] = "TURBO"
    with pytest.raises(continuum.InvalidArgument, match="TURBO"):
        scaler.from_json(json.dumps(doc))


def test_lstm_pickles_with_its_weights_and_window():
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "lstm" / "h16_l2_f1_f64.safetensors"
    model = forecast.Lstm.load(str(path))
    y = _series(40)
    original = model.forecast(y, 5)
    rebuilt = forecast.Lstm(model.parameters_json())
    assert list(rebuilt.forecast(y, 5)) == list(original)
    copy_ = pickle.loads(pickle.dumps(model))
    assert copy_.to_json() == model.to_json() and copy_.parameters_json() == model.parameters_json()
    assert list(copy_.forecast(y, 5)) == list(original)
    with pytest.raises(continuum.InvalidArgument, match=r"lstm restore: state.window has 3 values"):
        model.from_json('{"schema": "continuum.Lstm<double>", "version": 1, "window": [1, 2, 3], "fitted": true}')


def _hpa_run(hpa, steps):
    out = []
    for t, usage in steps:
        metric = scalers.HpaMetric.resource_utilization("cpu", 60, usage=np.full(8, usage), requests=np.full(8, 500), milli=True)
        d = hpa.decide(8, now=t, metrics=[metric])
        out.append((d.desired_replicas, d.reason))
    return out


def test_hpa_pickles_with_its_spec_and_history():
    cpu = scalers.HpaMetric.resource_utilization("cpu", 60, usage=np.full(8, 300), requests=np.full(8, 500), milli=True)
    behavior = scalers.HpaBehavior(
        scale_up=scalers.ScalingRules(0.0, scalers.SelectPolicy.max, [scalers.ScalingPolicy(scalers.ScalingPolicyType.pods, 2, 30.0)]),
        scale_down=scalers.ScalingRules(120.0, scalers.SelectPolicy.min, [scalers.ScalingPolicy(scalers.ScalingPolicyType.percent, 25, 60.0)],
                                        tolerance=0.05),
    )
    hpa = scalers.Hpa(min_replicas=2, max_replicas=30, metrics=[cpu], behavior=behavior, tolerance=0.2)
    rng = np.random.default_rng(11)
    steps = [(15.0 * t, int(rng.integers(40, 480))) for t in range(40)]
    _hpa_run(hpa, steps[:17])
    copies = [pickle.loads(pickle.dumps(hpa)), copy.deepcopy(hpa)]
    for c in copies:
        assert type(c) is scalers.Hpa and c.to_json() == hpa.to_json()
    expected = _hpa_run(hpa, steps[17:])
    assert len({r for r, _ in expected}) > 1  # the run scales
    for c in copies:
        assert _hpa_run(c, steps[17:]) == expected
    # The configuration values pickle on their own too.
    rules = pickle.loads(pickle.dumps(behavior.scale_down))
    assert (rules.stabilization_window, rules.select_policy, rules.tolerance) == (120.0, scalers.SelectPolicy.min, 0.05)
    assert (rules.policies[0].type, rules.policies[0].value, rules.policies[0].period) == (scalers.ScalingPolicyType.percent, 25, 60.0)
    legacy = scalers.Hpa(max_replicas=9, metrics=[cpu], behavior=None, activation_cooldown=90.0, seed_recommendations=False)
    assert pickle.loads(pickle.dumps(legacy)).to_json() == legacy.to_json()


def _mas_cluster(demand, replicas, pools, signals):
    apps = [scalers.ApplicationState("web", {"cpu": "500m", "memory": "512Mi"}, demand=list(demand), replicas=replicas["web"][0],
                                     node_pool=replicas["web"][1], ready_replicas={replicas["web"][1]: replicas["web"][0]})]
    nodes = [scalers.NodePoolState(name, size=size) for name, size in pools.items()]
    return scalers.ClusterSnapshot(apps, nodes, signals=signals)


def _mas_run(scaler, ticks, host):
    out = []
    for t, (level, signals) in enumerate(ticks, start=host["t"]):
        host["demand"].append(level)
        d = scaler.decide(_mas_cluster(host["demand"], host["replicas"], host["pools"], signals), now=60.0 * t)
        for p in d.patch_deployments:
            host["replicas"][p.name] = (p.replicas, p.node_pool or host["replicas"][p.name][1])
        for r in d.resize_node_pools:
            host["pools"][r.pool] = r.size
        out.append((d.policy, str(d.migration), d.reason, [(p.name, p.replicas, p.node_pool) for p in d.patch_deployments],
                    [(r.pool, r.size) for r in d.resize_node_pools]))
    host["t"] += len(ticks)
    return out


def test_hierarchical_scaler_pickles_with_its_selector_and_a_migration_in_flight():
    selector = policy.PolicySelector([policy.cost_saving(), policy.performance()], "COST_SAVING")
    selector.add_signal_rule("sale", "on", "PERFORMANCE").add_time_window("COST_SAVING", 0.0, 3600.0)
    scaler = scalers.HierarchicalScaler(selector, forecaster=forecast.Naive(), median_window=3, dead_band=0.05)
    rng = np.random.default_rng(2)
    ticks = [(float(rng.uniform(0.5, 3.0)), {"sale": "on" if 6 <= t < 14 else "off"}) for t in range(24)]
    host = {"t": 0, "demand": [1.0, 1.2], "replicas": {"web": (2, "mas-h2-staging-pool")}, "pools": {"mas-h2-staging-pool": 1, "performance-pool": 0}}
    _mas_run(scaler, ticks[:7], host)
    phase = str(scaler.migration_phase)
    copies = [pickle.loads(pickle.dumps(scaler)), copy.deepcopy(scaler)]
    for c in copies:
        assert c.to_json() == scaler.to_json() and str(c.migration_phase) == phase
    hosts = [copy.deepcopy(host) for _ in copies]
    expected = _mas_run(scaler, ticks[7:], host)
    assert any(m != "MigrationPhase.none" for _, m, *_ in expected)  # a migration ran after the save
    for c, h in zip(copies, hosts):
        assert _mas_run(c, ticks[7:], h) == expected
    again = pickle.loads(pickle.dumps(selector))
    assert [p.name for p in again.policies] == ["COST_SAVING", "PERFORMANCE"]
    assert again.select(now=10.0, signals={"sale": "on"}).policy == "PERFORMANCE"
    assert again.select(now=10.0).policy == "COST_SAVING"
    assert pickle.loads(pickle.dumps(policy.performance())).node_capacity == policy.performance().node_capacity


def test_a_hierarchical_scaler_with_a_lambda_forecaster_does_not_pickle_but_copies():
    selector = policy.PolicySelector([policy.cost_saving()], "COST_SAVING")
    scaler = scalers.HierarchicalScaler(selector, forecaster=lambda history, horizon: np.full(horizon, history[-1]))
    assert copy.deepcopy(scaler).to_json() == scaler.to_json()
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        pickle.dumps(scaler)


def _lstm_model():
    import pathlib

    return forecast.Lstm.load(str(pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "lstm" / "h16_l2_f1_f64.safetensors"))


def test_hybrid_quota_scaler_with_an_lstm_keeps_the_weights_in_its_state():
    model = _lstm_model()
    rng = np.random.default_rng(8)
    steps = [{f"ns-{i}": max(0.1, 1.0 + 0.5 * math.sin(t / 3 + i) + rng.normal(0, 0.1)) for i in range(2)} for t in range(40)]
    a = quota.HybridQuotaScaler(model, levels={"cpu": ["500m", "1", "2", "4"]}, decrease_hold=60.0, min_history=12, refit_every=4)
    qa = {name: "2" for name in steps[0]}
    for t in range(20):
        _tick(a, t, steps[t], qa)
    doc = json.loads(a.to_json())
    member = doc["namespaces"][0]["models"][0]
    assert member["schema"] == "continuum.LstmModel<double>" and member["parameters"]["schema"] == "continuum.LstmParameters<double>"
    assert member["source"].endswith("h16_l2_f1_f64.safetensors")
    restored = [pickle.loads(pickle.dumps(a)), copy.deepcopy(a), quota.HybridQuotaScaler(model, levels={"cpu": ["500m", "1", "2", "4"]},
                                                                                          decrease_hold=60.0, min_history=12, refit_every=4).from_json(a.to_json())]
    for r in restored:
        assert r.to_json() == a.to_json()
    _continue_together(a, restored, steps, qa, range(20, 40))


def test_hybrid_quota_scaler_with_a_python_model_names_it_when_saving():
    def last(history):  # a Python model: history -> prediction
        return float(history[-1])

    scaler = quota.HybridQuotaScaler(last, levels={"cpu": ["1", "2"]}, min_history=3)
    for t in range(4):
        _tick(scaler, t, {"a": 1.0}, {"a": "1"})
    with pytest.raises(continuum.InvalidArgument, match=r"forecaster state: .* is not a built-in forecaster"):
        scaler.to_json()
    with pytest.raises(continuum.InvalidArgument, match=r"forecaster state: <function .*last.* is not a built-in forecaster"):
        pickle.dumps(scaler)
