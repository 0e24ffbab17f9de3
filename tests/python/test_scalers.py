"""continuum.scalers from Python: the HPA (docs' worked examples, KEDA activation) and the
hierarchical scaler (one cycle, a Python forecaster, the migration phases)."""

import numpy as np
import pytest

import continuum
from continuum import policy, scalers


def test_hpa_docs_example_and_behaviour():
    cpu = scalers.HpaMetric.resource_utilization("cpu", 75, usage=np.full(50, 900), requests=np.full(50, 1000))
    assert scalers.metric_replicas(cpu, 50).replicas == 60
    hpa = scalers.Hpa(min_replicas=1, max_replicas=100, metrics=[cpu])
    d = hpa.decide(50, now=0.0)
    assert d.desired_replicas == 60 and d.scale

    # Docs behaviour example: Pods 4 / Percent 10 per 60 s: 80 -> 72 -> 64.
    down = scalers.ScalingRules(0.0, policies=[scalers.ScalingPolicy(scalers.ScalingPolicyType.pods, 4, 60.0),
                                               scalers.ScalingPolicy(scalers.ScalingPolicyType.percent, 10, 60.0)])
    queue = scalers.HpaMetric("queue", scalers.MetricSource.external, scalers.TargetType.average_value, target=1000, value=10_000)
    hpa = scalers.Hpa(max_replicas=100, metrics=[queue], behavior=scalers.HpaBehavior(scale_down=down))
    assert hpa.decide(80, now=0.0).desired_replicas == 72
    assert hpa.decide(72, now=15.0).desired_replicas == 72
    assert hpa.decide(72, now=60.0).desired_replicas == 64


def test_hpa_missing_metric_and_keda_activation():
    # 3 pods at 40 % of 100m, one missing, target 50 %: adjusted ratio 1.1 within tolerance: keep 4.
    cpu = scalers.HpaMetric.resource_utilization("cpu", 50, usage=[40, 40, 40, -1], requests=[100, 100, 100, 100])
    assert scalers.metric_replicas(cpu, 4).replicas == 4

    queue = scalers.HpaMetric("queue", scalers.MetricSource.external, scalers.TargetType.average_value,
                              target=10_000, value=40_000, activation_threshold=50_000)
    keda = scalers.Hpa(min_replicas=1, max_replicas=100, metrics=[queue], activation_cooldown=300.0)
    d = keda.decide(0, now=0.0)
    assert d.desired_replicas == 0 and not d.active
    queue.value = 60_000
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
    rps = scalers.HpaMetric("rps", scalers.MetricSource.pods, scalers.TargetType.average_value, target=100,
                            pods=[scalers.PodSample(f"p{i}", value=50) for i in range(4)])
    hpa = scalers.Hpa(max_replicas=20, metrics=[rps])
    d = hpa.decide(4, now=0.0)
    assert (d.desired_replicas, d.stabilization_reason, d.able_to_scale_reason) == (4, "ScaleDownStabilized", "ScaleDownStabilized")
    assert hpa.recommendations[0] == (4, 0.0)
    d = hpa.decide(4, now=300.0)
    assert (d.desired_replicas, d.able_to_scale_reason, d.scaling_active_reason) == (2, "SucceededRescale", "ValidMetricFound")
    assert scalers.Hpa(max_replicas=20, metrics=[rps], seed_recommendations=False).decide(4, now=0.0).desired_replicas == 2

    # min_replicas = 0 with an external metric (HPAScaleToZero); an empty queue scales 2 -> 0.
    queue = scalers.HpaMetric("queue", scalers.MetricSource.external, scalers.TargetType.value, target=10_000, value=0)
    zero = scalers.Hpa(min_replicas=0, max_replicas=10, metrics=[queue],
                       behavior=scalers.HpaBehavior(scale_down=scalers.ScalingRules(0.0, policies=[scalers.ScalingPolicy(scalers.ScalingPolicyType.percent, 100, 15.0)])))
    assert zero.decide(2, now=0.0).desired_replicas == 0
    queue.value = 25_000
    assert zero.decide(0, now=15.0, metrics=[queue]).desired_replicas == 3  # ceil(2.5) at zero replicas
    with pytest.raises(continuum.InvalidArgument, match="object or external"):
        scalers.Hpa(min_replicas=0, metrics=[rps])


def test_hpa_set_spec_keeps_history_and_reports_conditions():
    rps = scalers.HpaMetric("rps", scalers.MetricSource.pods, scalers.TargetType.average_value, target=100,
                            pods=[scalers.PodSample(f"p{i}", value=50) for i in range(4)])
    hpa = scalers.Hpa(max_replicas=20, metrics=[rps])
    hpa.decide(4, now=0.0)
    hpa.set_spec(max_replicas=30, metrics=[rps])  # an edit keeps the seed: still held at 4
    assert hpa.decide(4, now=100.0).desired_replicas == 4
    assert len(hpa.recommendations) == 3
    with pytest.raises(continuum.InvalidArgument):
        hpa.set_spec(min_replicas=5, max_replicas=2, metrics=[rps])

    # A failed metric that blocks a scale-down: the condition reason and the failing metric.
    cpu = scalers.HpaMetric.resource_utilization("cpu", 50, usage=[10] * 4, requests=[100] * 4)
    broken = scalers.HpaMetric("queue", scalers.MetricSource.external, scalers.TargetType.value, target=1000, available=False)
    d = scalers.Hpa(metrics=[cpu, broken]).decide(4, now=0.0)
    assert (d.desired_replicas, d.scaling_active_reason, d.failed_metric) == (4, "FailedGetExternalMetric", "queue")
    assert d.proposals[1].condition_reason == "FailedGetExternalMetric" and not d.proposals[1].valid
    assert "ScalingActive=FailedGetExternalMetric" in repr(d)


def test_metric_replicas_tolerances_status_and_container_resource():
    # replica_calculator_test.go TestReplicaCalcConfigurableTolerance "Outside 8% scale-up tolerance":
    # requests 2 x (0.9, 1.0, 1.1), usage 2 x (1100, 1080, 1090): 109 % -> 4 replicas, raw value 2180m.
    cpu = scalers.HpaMetric.resource_utilization("cpu", 100, usage=[2200, 2160, 2180], requests=[1800, 2000, 2200])
    cpu.timestamp = 1_700_000_000.0
    p = scalers.metric_replicas(cpu, 3, scale_down_tolerance=2.0, scale_up_tolerance=0.08)
    assert (p.replicas, p.average_utilization, p.average_value, p.value) == (4, 109, 2180, None)
    assert p.timestamp == 1_700_000_000.0
    assert scalers.metric_replicas(cpu, 3).replicas == 3  # within the default 10 %
    assert scalers.metric_replicas(cpu, 3, tolerance=0.0, scale_up_tolerance=2.0).replicas == 3  # >= 1 is valid
    with pytest.raises(continuum.InvalidArgument, match="scale_up"):
        scalers.metric_replicas(cpu, 3, scale_up_tolerance=-0.5)

    app = scalers.HpaMetric("cpu", scalers.MetricSource.container_resource, scalers.TargetType.utilization, target=50,
                            pods=[scalers.PodSample(f"p{i}", value=400, request=500) for i in range(4)], container="app")
    p = scalers.metric_replicas(app, 4)
    assert (p.replicas, p.average_utilization, p.source) == (7, 80, scalers.MetricSource.container_resource)
    app.available = False
    assert scalers.metric_replicas(app, 4).condition_reason == "FailedGetContainerResourceMetric"

    # groupPods' cpu readiness rule with the controller's flags reachable.
    assert scalers.cpu_sample_unready(0.0, True, 80.0, 100.0, 30.0, 100.0)          # inside 5 min: window began before readiness
    assert not scalers.cpu_sample_unready(0.0, True, 80.0, 100.0, 30.0, 100.0, cpu_initialization_period=60.0)
    assert scalers.cpu_sample_unready(0.0, False, 20.0, 400.0, 30.0, 400.0)         # never ready within 30 s of start
    assert not scalers.cpu_sample_unready(0.0, False, 20.0, 400.0, 30.0, 400.0, initial_readiness_delay=10.0)
