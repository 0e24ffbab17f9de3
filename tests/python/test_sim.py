"""Tests of continuum.sim: load profiles, workload shapes, the Simulator with a Python scaler, and
the seed replays' qualitative claims."""
import numpy as np
import pytest

import continuum
from continuum import sim


def test_stages_match_the_paper_tables():
    heartbeat = sim.heartbeat_stages()
    assert sum(d for d, _ in heartbeat) == 13 * 60
    assert max(t for _, t in heartbeat) == 400
    flash = sim.flash_sale_stages()
    assert sum(d for d, _ in flash) == 15 * 60
    assert max(t for _, t in flash) == 700
    profile = sim.LoadProfile.from_stages(heartbeat)
    assert profile.at(15.0) == pytest.approx(200.0)  # half-way up the first 30 s ramp
    assert profile.at(60.0) == pytest.approx(400.0)
    cores = sim.vu_to_cpu(profile)
    assert cores.at(60.0) == pytest.approx(0.805)


def test_static_run_hand_computed():
    pools = [{"name": "local", "capacity": {"cpu": "2", "memory": "4Gi"}, "cost_per_minute": 1.0, "source": "local", "initial_size": 2}]
    namespaces = [{"name": "app"}]
    deployments = [{"name": "stress", "namespace": "app", "pod_request": {"cpu": "1", "memory": "256Mi"},
                    "load": sim.LoadProfile.from_samples([3.0], 60.0), "load_kind": "replicas", "usage_per_pod": 0.5}]
    result = sim.Simulator(pools, namespaces, deployments, duration_s=600.0).run()
    assert result["total_cost"] == pytest.approx(20.0)
    assert result["efficiency_median_pct"] == pytest.approx(25.0)
    assert result["deployment_delay_mean_s"] == pytest.approx(3.0)
    assert isinstance(result["series"]["cpu_used_cores"], np.ndarray)
    assert result["series"]["cpu_used_cores"][5] == pytest.approx(1.5)


def test_python_scaler_resizes_a_pool():
    pools = [{"name": "vm", "capacity": {"cpu": "2", "memory": "4Gi"}, "cost_per_minute": 0.5, "source": "cold_vm", "max_size": 3}]
    namespaces = [{"name": "app"}]
    deployments = [{"name": "web", "namespace": "app", "pod_request": {"cpu": "1"}, "load": [1.0], "load_kind": "replicas"}]
    calls = []

    def scaler(snapshot):
        calls.append(snapshot["now_s"])
        if snapshot["deployments"]["web"]["pending"] and snapshot["pools"]["vm"]["provisioning"] == 0 and snapshot["pools"]["vm"]["ready"] == 0:
            return {"pools": {"vm": 1}, "reason": "pending pod"}
        return None

    result = sim.Simulator(pools, namespaces, deployments, duration_s=300.0, pending_timeout_s=120.0).run(scaler)
    assert len(calls) == 300
    assert result["deployment_delay_max_s"] == pytest.approx(93.0)  # 90 s cold boot + 3 s start
    with pytest.raises(continuum.InvalidArgument):
        sim.Simulator(pools, namespaces, deployments, duration_s=10.0).run(lambda s: {"pools": {"nope": 1}})


def test_bad_input_raises():
    with pytest.raises(continuum.InvalidArgument):
        sim.Simulator([], [], [])
    with pytest.raises(continuum.InvalidArgument):
        sim.LoadProfile.from_samples([1.0, float("nan")], 60.0)


def test_replay_seed000_claims():
    table = sim.replay_seed000()
    rows = {r["configuration"]: r for r in table["rows"]}
    assert rows["cost-aware"]["cost_reduction_pct"] >= 60.0
    # Scale-in keeps ready pods at the desired count: 57.3 % (the paper's CA, evicting freely: 60.3 %).
    assert 55.0 < rows["cost-unaware"]["cost_reduction_pct"] < 60.0
    assert rows["cost-unaware"]["max_remote_nodes"] <= 2
    assert rows["baseline"]["median_efficiency_pct"] < rows["cost-aware"]["median_efficiency_pct"]


def test_replay_seed001_claims():
    table = sim.replay_seed001(duration_h=2.0)
    rows = {r["configuration"]: r for r in table["rows"]}
    assert table["paper"]["qsr_pct"]["no quota scaling"] == pytest.approx(178.08)
    assert rows["reactive"]["dfr_pct"] == 0.0
    assert rows["hybrid"]["dfr_pct"] == 0.0
    assert rows["no quota scaling"]["dfr_pct"] > 0.0
    assert rows["no quota scaling"]["qsr_pct"] > rows["hybrid"]["qsr_pct"] >= 100.0 - 1e-9


def test_replay_seed004_claims():
    rows = sim.replay_seed004()["rows"]
    assert len(rows) == 4
    for hpa, mas in ((rows[0], rows[1]), (rows[2], rows[3])):
        assert mas["max_replicas"] > hpa["max_replicas"]
        assert mas["downtime_s"] == 0.0
        assert mas["min_ready_during_migration"] >= 1
        assert mas["peak_utilisation_pct"] < 40.0 < hpa["peak_utilisation_pct"]


def test_replay_seed004_heartbeat_cycle():
    linear = sim.replay_seed004(heartbeat_cycle_s=0)["rows"]
    seasonal = sim.replay_seed004()["rows"]
    assert seasonal[1]["peak_utilisation_pct"] < linear[1]["peak_utilisation_pct"]
    with pytest.raises(continuum.InvalidArgument, match="heartbeat_cycle"):
        sim.replay_seed004(heartbeat_cycle_s=50)
    with pytest.raises(continuum.InvalidArgument, match="heartbeat_cycle_s"):
        sim.replay_seed004(heartbeat_cycle_s=float("nan"))


def test_replay_knobs_of_the_sensitivity_sweeps():
    # Seed 004: with GKE's e2-medium allocatable (940m) and a one-node CA pool the HPA sits at 3
    # ready pods above 80 %, the paper's baseline (docs/papers.md).
    hpa = sim.replay_seed004(hpa_node_cpu="940m", hpa_pool_max_nodes=1)["rows"][0]
    assert hpa["configuration"] == "HPA + CA"
    assert hpa["max_replicas"] == 3
    assert hpa["peak_utilisation_pct"] > 80.0
    assert sim.replay_seed004(hpa_metrics_window_s=60.0)["rows"][0]["max_replicas"] > 5
    with pytest.raises(continuum.InvalidArgument, match="hpa_pool_max_nodes"):
        sim.replay_seed004(hpa_pool_max_nodes=0)
    with pytest.raises(continuum.InvalidArgument, match="cold_vm_latency_s"):
        sim.replay_seed004(cold_vm_latency_s=-1.0)
    # Seed 001: finer quota levels lower the hybrid QSR.
    coarse = {r["configuration"]: r for r in sim.replay_seed001(duration_h=2.0)["rows"]}
    fine = {r["configuration"]: r for r in sim.replay_seed001(duration_h=2.0, level_step_cores=1)["rows"]}
    assert 100.0 <= fine["hybrid"]["qsr_pct"] < coarse["hybrid"]["qsr_pct"]
    with pytest.raises(continuum.InvalidArgument, match="level_step_cores"):
        sim.replay_seed001(level_step_cores=0)
    # Seed 000: letting scale-in evict any pod (no budget, the paper's CA) unpeers sooner: cheaper.
    strict = {r["configuration"]: r for r in sim.replay_seed000()["rows"]}["cost-unaware"]
    free = seed000_simulator().run(sim.FederatedClusterAdapter("cost_unaware", max_unavailable="100%"))
    assert free["total_cost"] < strict["cost"]
    assert seed000_simulator().run(sim.FederatedClusterAdapter("cost_unaware", max_unavailable=None))["total_cost"] == pytest.approx(strict["cost"])


# ---------------- built-in scalers (sim adapters) ----------------

SEED000_POOLS = [
    {"name": "local", "capacity": {"cpu": "2", "memory": "4Gi"}, "source": "local", "initial_size": 1, "min_size": 1, "max_size": 1},
    {"name": "low-cost", "capacity": {"cpu": "2", "memory": "4Gi"}, "cost_per_minute": 1.0, "source": "liqo_peering", "max_size": 3},
    {"name": "high-cost", "capacity": {"cpu": "4", "memory": "4Gi"}, "cost_per_minute": 5.0, "source": "liqo_peering", "max_size": 1},
]


def seed000_simulator():
    """Seed 000's scenario (examples/demo/replay/seed000.hpp) built from Python: Table 1's nodes, Fig. 2's replicas."""
    deployments = [{"name": "stress-ng", "namespace": "stress", "pod_request": {"cpu": "500m", "memory": "256Mi"},
                    "load": sim.rising_falling_replicas(), "load_kind": "replicas", "usage_per_pod": 0.9}]
    return sim.Simulator(SEED000_POOLS, [{"name": "stress"}], deployments, tick_s=5.0, pending_timeout_s=600.0, scheduling="least_allocated")


def test_federated_adapter_from_python_matches_replay_seed000():
    rows = {r["configuration"]: r for r in sim.replay_seed000()["rows"]}
    simulator = seed000_simulator()
    for ranking, name in (("cost_aware", "cost-aware"), ("cost_unaware", "cost-unaware")):
        adapter = sim.FederatedClusterAdapter(ranking)
        result = simulator.run(adapter)
        assert result["total_cost"] == pytest.approx(rows[name]["cost"])
        assert result["efficiency_median_pct"] == pytest.approx(rows[name]["median_efficiency_pct"])
        assert result["efficiency_mean_pct"] == pytest.approx(rows[name]["result"]["efficiency_mean_pct"])
        xs, ps = result["efficiency_cdf"]
        assert result["efficiency_below_full_pct"] == pytest.approx(100.0 * ps[xs < 100.0][-1])
        remote = result["series"]["nodes_low-cost"] + result["series"]["nodes_high-cost"]
        assert remote.max() == rows[name]["max_remote_nodes"]
        # Each run starts from the adapter as constructed: a second run gives the same result.
        assert simulator.run(adapter)["total_cost"] == pytest.approx(result["total_cost"])
    # A list runs each scaler every tick and merges the decisions: an observing callable changes nothing.
    seen = []
    observed = simulator.run([sim.FederatedClusterAdapter("cost_aware"), lambda snapshot: seen.append(snapshot["now_s"])])
    assert observed["total_cost"] == pytest.approx(rows["cost-aware"]["cost"])
    assert len(seen) == 80 * 12  # every 5-s tick of the 80 minutes
    assert simulator.run(sim.StaticScaler())["total_cost"] == 0.0  # no remote node ever peered: only the free local node
    # A 1-minute scale-down-unneeded time releases nodes sooner: cheaper than CA's default 10 minutes.
    quick = simulator.run(sim.FederatedClusterAdapter("cost_aware", scale_down_unneeded_time_s=60.0, scale_down_delay_after_add_s=60.0))
    assert quick["total_cost"] < rows["cost-aware"]["cost"]


def seed001_simulator(burst, quota_cores):
    pools = [
        {"name": "active", "capacity": {"cpu": "16", "memory": "64Gi"}, "cost_per_minute": 1.0, "source": "local",
         "initial_size": 4, "min_size": 4, "max_size": 4},
        {"name": "waiting", "capacity": {"cpu": "16", "memory": "64Gi"}, "cost_per_minute": 1.0, "source": "paused_vm", "max_size": 8},
    ]
    deployments = [{"name": "workload", "namespace": "service", "pod_request": {"cpu": "1"}, "load": burst["load"]}]
    return sim.Simulator(pools, [{"name": "service", "quota": {"cpu": quota_cores}}], deployments, duration_s=2 * 3600.0, sample_every_s=5.0)


def test_quota_adapters_from_python_report_qsr_and_dfr():
    burst = sim.bursty_cpu(duration_h=2.0)
    rows = {r["configuration"]: r for r in sim.replay_seed001(duration_h=2.0)["rows"]}
    reactive = seed001_simulator(burst, 60).run(sim.ReactiveQuotaAdapter("service", "waiting"))
    service = reactive["namespaces"]["service"]
    assert service["qsr_pct"] == pytest.approx(rows["reactive"]["qsr_pct"])
    assert service["dfr_pct"] == pytest.approx(rows["reactive"]["dfr_pct"]) == 0.0
    # The hybrid scaler with continuum.forecast's Holt-Winters reproduces the C++ replay's hybrid row.
    levels = [10.0 * k for k in range(1, 21)]
    model = continuum.forecast.HoltWinters(season_length=60, seasonal="additive")
    hybrid = seed001_simulator(burst, 60).run(sim.HybridQuotaAdapter("service", "waiting", model, burst["history"], levels=levels))
    service = hybrid["namespaces"]["service"]
    assert service["qsr_pct"] == pytest.approx(rows["hybrid"]["qsr_pct"])
    assert service["dfr_pct"] == 0.0
    # A Python callable forecaster (last value + 20 %) and the proactive side alone both run and report QSR.
    last = seed001_simulator(burst, 60).run(sim.HybridQuotaAdapter("service", "waiting", lambda h: 1.2 * h[-1], burst["history"], levels=levels))
    assert last["namespaces"]["service"]["qsr_pct"] >= 100.0
    assert last["namespaces"]["service"]["dfr_pct"] == 0.0
    proactive = seed001_simulator(burst, 60).run(sim.ProactiveQuotaAdapter("service", "waiting", lambda h: h[-1], burst["history"], levels=levels))
    assert proactive["namespaces"]["service"]["qsr_pct"] > 0.0
    assert proactive["namespaces"]["service"]["dfr_pct"] >= 0.0


def test_hpa_with_cluster_autoscaler():
    load = sim.vu_to_cpu(sim.LoadProfile.from_stages(sim.heartbeat_stages()))  # up to ~0.8 cores
    pools = [{"name": "vm", "capacity": {"cpu": "1", "memory": "4Gi"}, "cost_per_minute": 0.5, "initial_size": 1, "min_size": 1, "max_size": 4}]
    deployments = [{"name": "web", "namespace": "app", "pod_request": {"cpu": "200m"}, "load": load, "replicas_from": "scaler",
                    "initial_replicas": 1, "cpu_limit_factor": 4.0}]
    simulator = sim.Simulator(pools, [{"name": "app"}], deployments, tick_s=5.0)
    static = simulator.run(sim.StaticScaler())
    assert static["deployments"]["web"]["max_ready"] == 1
    hpa_ca = simulator.run([sim.HpaAdapter("web", min_replicas=1, max_replicas=10, target_percent=50), sim.ClusterAutoscaler()])
    assert hpa_ca["deployments"]["web"]["max_ready"] > 1
    assert hpa_ca["pools"]["vm"]["max_nodes"] > 1  # ~8 pods of 200m need more than one 1-cpu node
    assert hpa_ca["deployments"]["web"]["utilisation_p95_pct"] < static["deployments"]["web"]["utilisation_p95_pct"]
    hpa = continuum.scalers.Hpa(min_replicas=1, max_replicas=3, metrics=[continuum.scalers.HpaMetric(name="cpu", target=50)])
    capped = simulator.run([sim.HpaAdapter("web", hpa=hpa), sim.ClusterAutoscaler(expander="cheapest")])
    assert capped["deployments"]["web"]["max_ready"] == 3


def test_hierarchical_adapter_switches_policy_without_downtime():
    cheap, fast = continuum.policy.cost_saving(), continuum.policy.performance()
    pools = [{"name": p.node_pool, "capacity": {"cpu": "2", "memory": "4Gi"}, "cost_per_minute": 0.01, "initial_size": int(p is cheap), "max_size": 10}
             for p in (cheap, fast)]
    load = sim.vu_to_cpu(sim.LoadProfile.from_stages(sim.flash_sale_stages()))
    deployments = [{"name": "nginx", "namespace": "web", "pod_request": {"cpu": "100m"}, "load": load, "replicas_from": "scaler",
                    "node_pool": cheap.node_pool, "cpu_limit_factor": 4.0}]
    simulator = sim.Simulator(pools, [{"name": "web"}], deployments, tick_s=5.0, pending_timeout_s=600.0, scheduling="least_allocated")
    selector = continuum.policy.PolicySelector([cheap, fast], "COST_SAVING")
    scaler = continuum.scalers.HierarchicalScaler(selector, step=15.0, horizon=4)
    result = simulator.run(sim.HierarchicalAdapter(scaler, ["nginx"], switches=[(300.0, "PERFORMANCE")]))
    assert result["deployments"]["nginx"]["max_ready"] > 1
    assert result["deployments"]["nginx"]["downtime_s"] == 0.0
    assert result["pools"][fast.node_pool]["max_nodes"] >= 1  # the switch moved the pods to the PERFORMANCE pool


def test_adapters_reject_bad_arguments():
    with pytest.raises(continuum.InvalidArgument, match="ranking"):
        sim.FederatedClusterAdapter("cheapest-first")
    with pytest.raises(continuum.InvalidArgument, match="scale_down_unneeded_time_s"):
        sim.FederatedClusterAdapter("cost_aware", scale_down_unneeded_time_s=float("nan"))
    with pytest.raises(continuum.InvalidArgument, match="expander"):
        sim.ClusterAutoscaler(expander="random")
    with pytest.raises(continuum.InvalidArgument, match="sync_period"):
        sim.HpaAdapter("web", sync_period_s=0.0)
    with pytest.raises(continuum.InvalidArgument, match="metrics_window_s"):
        sim.HpaAdapter("web", metrics_window_s=-1.0)
    with pytest.raises(continuum.InvalidArgument, match="max_unavailable"):
        sim.FederatedClusterAdapter("cost_aware", max_unavailable="x%")
    with pytest.raises(continuum.InvalidArgument, match="max_unavailable"):
        sim.ClusterAutoscaler(max_unavailable="120%")
    with pytest.raises(continuum.InvalidArgument, match="forecaster"):
        sim.HybridQuotaAdapter("service", "waiting", 42, [1.0])
    with pytest.raises(continuum.InvalidArgument, match="levels"):
        sim.HybridQuotaAdapter("service", "waiting", lambda h: h[-1], [1.0], levels=[10.0, -5.0])
    with pytest.raises(continuum.InvalidArgument, match="history"):
        sim.ProactiveQuotaAdapter("service", "waiting", lambda h: h[-1], [1.0, float("nan")])
    with pytest.raises(continuum.InvalidArgument, match="namespace_name"):
        sim.ReactiveQuotaAdapter("", "waiting")
    with pytest.raises(continuum.InvalidArgument, match="HierarchicalScaler"):
        sim.HierarchicalAdapter(object(), ["web"])
    simulator = seed000_simulator()
    with pytest.raises(continuum.InvalidArgument, match="scaler"):
        simulator.run(42)
    with pytest.raises(continuum.InvalidArgument, match="empty list"):
        simulator.run([])
    # A quota adapter naming a namespace the scenario lacks fails when run, naming it.
    with pytest.raises(continuum.InvalidArgument, match="service"):
        simulator.run(sim.ReactiveQuotaAdapter("service", "waiting"))
    with pytest.raises(continuum.InvalidArgument, match="cannot open"):
        sim.replay_alibaba("/nonexistent/trace.csv")


def test_replay_alibaba_returns_rows():
    import pathlib
    trace = pathlib.Path(__file__).resolve().parents[2] / "data/traces/alibaba2018/machine_usage_days_1_to_8_grouped_30_seconds.csv"
    table = sim.replay_alibaba(str(trace), minutes=120, forecasters={"hybrid (last value)": lambda h: h[-1]})
    rows = {r["configuration"].split(" (")[0] if r["configuration"].startswith("static") else r["configuration"]: r for r in table["rows"]}
    assert set(rows) == {"static quota", "reactive", "hybrid (Holt-Winters)", "hybrid (last value)"}
    assert rows["reactive"]["dfr_pct"] == 0.0
    assert rows["hybrid (Holt-Winters)"]["dfr_pct"] == 0.0
    assert rows["hybrid (Holt-Winters)"]["qsr_pct"] >= 100.0 - 1e-9
