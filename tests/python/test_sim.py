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
    assert rows["cost-unaware"]["cost_reduction_pct"] >= 60.0
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
