"""continuum.scalers from Python: the HPA (docs' worked examples, KEDA activation) and the
hierarchical scaler (one cycle, a Python forecaster, the migration phases)."""

import numpy as np
import pytest

import continuum
from continuum import policy, scalers


def test_hpa_docs_example_and_behaviour():
    cpu = scalers.HpaMetric.resource_utilization("cpu", 75, usage=np.full(50, 0.9), requests=np.full(50, 1))
    assert scalers.metric_replicas(cpu, 50).replicas == 60
    hpa = scalers.Hpa(min_replicas=1, max_replicas=100, metrics=[cpu])
    d = hpa.decide(50, now=0.0)
    assert d.desired_replicas == 60 and d.scale

    # Docs behaviour example: Pods 4 / Percent 10 per 60 s: 80 -> 72 -> 64.
    down = scalers.ScalingRules(0.0, policies=[scalers.ScalingPolicy(scalers.ScalingPolicyType.pods, 4, 60.0),
                                               scalers.ScalingPolicy(scalers.ScalingPolicyType.percent, 10, 60.0)])
    queue = scalers.HpaMetric("queue", scalers.MetricSource.external, scalers.TargetType.average_value, target=1, value=10)
    hpa = scalers.Hpa(max_replicas=100, metrics=[queue], behavior=scalers.HpaBehavior(scale_down=down))
    assert hpa.decide(80, now=0.0).desired_replicas == 72
    assert hpa.decide(72, now=15.0).desired_replicas == 72
    assert hpa.decide(72, now=60.0).desired_replicas == 64


def test_hpa_missing_metric_and_keda_activation():
    # 3 pods at 40 % of 100m, one missing, target 50 %: adjusted ratio 1.1 within tolerance: keep 4.
    cpu = scalers.HpaMetric.resource_utilization("cpu", 50, usage=["40m", "40m", "40m", None], requests=["100m"] * 4)
    assert scalers.metric_replicas(cpu, 4).replicas == 4

    queue = scalers.HpaMetric("queue", scalers.MetricSource.external, scalers.TargetType.average_value,
                              target=10, value=40, activation_threshold=50)
    keda = scalers.Hpa(min_replicas=1, max_replicas=100, metrics=[queue], activation_cooldown=300.0)
    d = keda.decide(0, now=0.0)
    assert d.desired_replicas == 0 and not d.active
    queue.value = 60
    assert keda.decide(0, now=30.0, metrics=[queue]).desired_replicas == 1
    with pytest.raises(continuum.InvalidArgument):
        scalers.Hpa(min_replicas=3, max_replicas=2, metrics=[queue])


def _cluster(override=None, web_pool="mas-h2-staging-pool", ready=None):
    apps = [scalers.ApplicationState("web", {"cpu": "500m", "memory": "512Mi"}, demand=[1.6, 1.6, 1.6], replicas=4,
                                     node_pool=web_pool, ready_replicas=ready or {"mas-h2-staging-pool": 4})]
    pools = [scalers.NodePoolState("mas-h2-staging-pool", size=1), scalers.NodePoolState("performance-pool", size=0)]
    return scalers.ClusterSnapshot(apps, pools, override_policy=override)


def test_hierarchical_cycle_with_python_forecaster():
    selector = policy.PolicySelector([policy.cost_saving(), policy.performance()], "COST_SAVING")
    seen = []

    def doubling(history, horizon):
        seen.append(len(history))
        return np.full(horizon, 2.0 * history[-1])

    scaler = scalers.HierarchicalScaler(selector, forecaster=doubling, median_window=1, dead_band=0.0)
    d = scaler.decide(_cluster(), now=0.0)
    assert seen == [3]
    # 3.2 cores at 500m x 0.8 -> 8 replicas -> 2 e2-medium nodes.
    assert d.applications[0].planned_replicas == 8
    assert [(p.name, p.replicas) for p in d.patch_deployments] == [("web", 8)]
    assert [(r.pool, r.size) for r in d.resize_node_pools] == [("mas-h2-staging-pool", 2)]
    assert d.pools[0].required_nodes == 2
    assert "web" in d.patch_deployments[0].name and d.patch_deployments[0].reason


def test_hierarchical_accepts_forecaster_models():
    selector = policy.PolicySelector([policy.cost_saving(), policy.performance()], "COST_SAVING")

    class Doubling:  # the model protocol: fit(history), forecast(horizon)
        def fit(self, history):
            self.last = float(history[-1])
            return self

        def forecast(self, horizon):
            return np.full(horizon, 2.0 * self.last)

    d = scalers.HierarchicalScaler(selector, forecaster=Doubling(), median_window=1, dead_band=0.0).decide(_cluster(), now=0.0)
    assert d.applications[0].planned_replicas == 8  # 3.2 cores, as the callable above
    # A continuum.forecast model: naive forecasts 1.6 cores -> 1.6 / (0.5 x 0.8) = 4 replicas.
    d = scalers.HierarchicalScaler(selector, forecaster=continuum.forecast.Naive(), median_window=1, dead_band=0.0).decide(_cluster(), now=0.0)
    assert d.applications[0].planned_replicas == 4
    with pytest.raises(continuum.InvalidArgument, match="forecaster"):
        scalers.HierarchicalScaler(selector, forecaster=3)


def test_hierarchical_migration_phases():
    selector = policy.PolicySelector([policy.cost_saving(), policy.performance()], "COST_SAVING")
    scaler = scalers.HierarchicalScaler(selector, median_window=1, dead_band=0.0)
    d = scaler.decide(_cluster("PERFORMANCE"), now=0.0)
    assert d.migration == scalers.MigrationPhase.provisioning
    assert [(r.pool, r.size) for r in d.resize_node_pools] == [("performance-pool", 2)]
    assert not d.patch_deployments
    snap = _cluster("PERFORMANCE")
    snap.node_pools = [scalers.NodePoolState("mas-h2-staging-pool", size=1), scalers.NodePoolState("performance-pool", size=2)]
    d = scaler.decide(snap, now=15.0)
    assert d.migration == scalers.MigrationPhase.migrating
    assert [(p.name, p.replicas, p.node_pool) for p in d.patch_deployments] == [("web", 8, "performance-pool")]
    assert scaler.migration_phase == scalers.MigrationPhase.migrating


def test_hpa_seeds_history_and_scales_to_zero():
    # The first decision seeds the history with the current replicas (recordInitialRecommendation):
    # 50m against 100m proposes 2 but the 300 s window holds 4 until it has passed.
    rps = scalers.HpaMetric("rps", scalers.MetricSource.pods, scalers.TargetType.average_value, target="100m",
                            pods=[scalers.PodSample(f"p{i}", value="50m") for i in range(4)])
    hpa = scalers.Hpa(max_replicas=20, metrics=[rps])
    d = hpa.decide(4, now=0.0)
    assert (d.desired_replicas, d.stabilization_reason, d.able_to_scale_reason) == (4, "ScaleDownStabilized", "ScaleDownStabilized")
    assert hpa.recommendations[0] == (4, 0.0)
    d = hpa.decide(4, now=300.0)
    assert (d.desired_replicas, d.able_to_scale_reason, d.scaling_active_reason) == (2, "SucceededRescale", "ValidMetricFound")
    assert scalers.Hpa(max_replicas=20, metrics=[rps], seed_recommendations=False).decide(4, now=0.0).desired_replicas == 2

    # min_replicas = 0 with an external metric (HPAScaleToZero); an empty queue scales 2 -> 0.
    queue = scalers.HpaMetric("queue", scalers.MetricSource.external, scalers.TargetType.value, target=10, value=0)
    zero = scalers.Hpa(min_replicas=0, max_replicas=10, metrics=[queue],
                       behavior=scalers.HpaBehavior(scale_down=scalers.ScalingRules(0.0, policies=[scalers.ScalingPolicy(scalers.ScalingPolicyType.percent, 100, 15.0)])))
    assert zero.decide(2, now=0.0).desired_replicas == 0
    queue.value = 25
    assert zero.decide(0, now=15.0, metrics=[queue]).desired_replicas == 3  # ceil(2.5) at zero replicas
    with pytest.raises(continuum.InvalidArgument, match="object or external"):
        scalers.Hpa(min_replicas=0, metrics=[rps])


def test_hpa_set_spec_keeps_history_and_reports_conditions():
    rps = scalers.HpaMetric("rps", scalers.MetricSource.pods, scalers.TargetType.average_value, target="100m",
                            pods=[scalers.PodSample(f"p{i}", value="50m") for i in range(4)])
    hpa = scalers.Hpa(max_replicas=20, metrics=[rps])
    hpa.decide(4, now=0.0)
    hpa.set_spec(max_replicas=30, metrics=[rps])  # an edit keeps the seed: still held at 4
    assert hpa.decide(4, now=100.0).desired_replicas == 4
    assert len(hpa.recommendations) == 3
    with pytest.raises(continuum.InvalidArgument):
        hpa.set_spec(min_replicas=5, max_replicas=2, metrics=[rps])

    # A failed metric that blocks a scale-down: the condition reason and the failing metric.
    cpu = scalers.HpaMetric.resource_utilization("cpu", 50, usage=[10] * 4, requests=[100] * 4, milli=True)
    broken = scalers.HpaMetric("queue", scalers.MetricSource.external, scalers.TargetType.value, target=1, available=False)
    d = scalers.Hpa(metrics=[cpu, broken]).decide(4, now=0.0)
    assert (d.desired_replicas, d.scaling_active_reason, d.failed_metric) == (4, "FailedGetExternalMetric", "queue")
    assert d.proposals[1].condition_reason == "FailedGetExternalMetric" and not d.proposals[1].valid
    assert "ScalingActive=FailedGetExternalMetric" in repr(d)


def test_metric_replicas_tolerances_status_and_container_resource():
    # replica_calculator_test.go TestReplicaCalcConfigurableTolerance "Outside 8% scale-up tolerance":
    # requests 2 x (0.9, 1.0, 1.1), usage 2 x (1100, 1080, 1090): 109 % -> 4 replicas, raw value 2180m.
    cpu = scalers.HpaMetric.resource_utilization("cpu", 100, usage=[2.2, 2.16, 2.18], requests=["1800m", 2, "2200m"])
    cpu.timestamp = 1_700_000_000.0
    p = scalers.metric_replicas(cpu, 3, scale_down_tolerance=2.0, scale_up_tolerance=0.08)
    assert (p.replicas, p.average_utilization, p.average_value, p.value) == (4, 109, "2180m", None)
    assert (p.current, p.average_value_milli, p.value_milli) == (109, 2180, None)
    assert p.timestamp == 1_700_000_000.0
    assert scalers.metric_replicas(cpu, 3).replicas == 3  # within the default 10 %
    assert scalers.metric_replicas(cpu, 3, tolerance=0.0, scale_up_tolerance=2.0).replicas == 3  # >= 1 is valid
    with pytest.raises(continuum.InvalidArgument, match="scale_up"):
        scalers.metric_replicas(cpu, 3, scale_up_tolerance=-0.5)

    app = scalers.HpaMetric("cpu", scalers.MetricSource.container_resource, scalers.TargetType.utilization, target=50,
                            pods=[scalers.PodSample(f"p{i}", value="400m", request=0.5) for i in range(4)], container="app")
    p = scalers.metric_replicas(app, 4)
    assert (p.replicas, p.average_utilization, p.source) == (7, 80, scalers.MetricSource.container_resource)
    app.available = False
    assert scalers.metric_replicas(app, 4).condition_reason == "FailedGetContainerResourceMetric"

    # groupPods' cpu readiness rule with the controller's flags reachable.
    assert scalers.cpu_sample_unready(0.0, True, 80.0, 100.0, 30.0, 100.0)          # inside 5 min: window began before readiness
    assert not scalers.cpu_sample_unready(0.0, True, 80.0, 100.0, 30.0, 100.0, cpu_initialization_period=60.0)
    assert scalers.cpu_sample_unready(0.0, False, 20.0, 400.0, 30.0, 400.0)         # never ready within 30 s of start
    assert not scalers.cpu_sample_unready(0.0, False, 20.0, 400.0, 30.0, 400.0, initial_readiness_delay=10.0)


def test_hpa_amounts_follow_the_units_rule():
    """HpaMetric and PodSample take amounts as Resources does (issue 18): a bare number is whole units,
    a string a quantity; the milli-units the replica calculator uses only through *_milli and milli=True."""
    pod = scalers.PodSample("p", value=0.25, request=2)
    assert (pod.value, pod.request, pod.value_milli, pod.request_milli) == ("250m", 2, 250, 2000)
    assert scalers.PodSample("p", value=np.float32(0.5), request=np.int32(1)).value_milli == 500
    # A value finer than 1m rounds up, as Quantity.MilliValue does.
    assert scalers.PodSample("p", value=0.0001).value_milli == 1
    assert scalers.PodSample("p", value="1.5").value == "1500m"

    queue = scalers.HpaMetric("queue", scalers.MetricSource.external, scalers.TargetType.average_value, target="500m", value=3,
                              activation_threshold="2")
    assert (queue.target, queue.target_milli, queue.value, queue.value_milli) == ("500m", 500, 3, 3000)
    assert (queue.activation_threshold, queue.activation_threshold_milli) == (2, 2000)
    queue.target = 2
    assert queue.target_milli == 2000
    # Utilization targets stay a percent.
    cpu = scalers.HpaMetric(target=75)
    assert (cpu.target, cpu.target_milli) == (75, 75)

    # The same metric given in whole units, quantities or milli-units proposes the same.
    given = [scalers.HpaMetric.resource_utilization("cpu", 60, usage=[0.9, 0.3], requests=[1, 1]),
             scalers.HpaMetric.resource_utilization("cpu", 60, usage=["900m", "300m"], requests=["1", "1000m"]),
             scalers.HpaMetric.resource_utilization("cpu", 60, usage=np.array([900, 300]), requests=np.array([1000, 1000]), milli=True)]
    assert [[(p.value_milli, p.request_milli) for p in m.pods] for m in given] == [[(900, 1000), (300, 1000)]] * 3
    assert {scalers.metric_replicas(m, 2).replicas for m in given} == {2}

    with pytest.raises(continuum.InvalidArgument, match=r"HpaMetric\.target"):
        scalers.HpaMetric(target="80%")
    with pytest.raises(continuum.InvalidArgument, match=r"HpaMetric\.value"):
        queue.value = [1]
    with pytest.raises(continuum.InvalidArgument, match=r"requests\[1\]"):
        scalers.HpaMetric.resource_utilization("cpu", 60, usage=[1, 1], requests=[1, None])
