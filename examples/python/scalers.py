"""docs/scalers.md: one MAS-H2 cycle (policy -> forecast -> replicas -> nodes -> actions), then a
flash-sale signal that switches policy and starts a make-before-break migration."""
import numpy as np

from continuum import policy, scalers

sel = policy.PolicySelector([policy.cost_saving(), policy.performance()], "COST_SAVING")
sel.add_signal_rule("flash_sale", "on", "PERFORMANCE")


def drift(history, n):
    """Any callable (history in cores, horizon) -> n values is a forecaster; this one is Drift."""
    slope = (history[-1] - history[0]) / (len(history) - 1)
    return history[-1] + slope * np.arange(1, n + 1)


scaler = scalers.HierarchicalScaler(sel, forecaster=drift)
web = scalers.ApplicationState("web", {"cpu": "500m", "memory": "512Mi"}, demand=[1.6, 2.0, 2.4, 2.8], replicas=4)
snap = scalers.ClusterSnapshot([web], [scalers.NodePoolState("mas-h2-staging-pool", size=2),
                                       scalers.NodePoolState("performance-pool")])
d = scaler.decide(snap, now=600.0)
print(f"policy {d.policy}: {d.applications[0].reason}")
print("  ", d.patch_deployments, d.resize_node_pools)
assert d.policy == "COST_SAVING"
assert [(p.name, p.replicas) for p in d.patch_deployments] == [("web", 10)]  # 5 cpu of pods
assert [(r.pool, r.size) for r in d.resize_node_pools] == [("mas-h2-staging-pool", 3)]  # 2 cpu nodes

# The host applied the actions; then a flash sale starts: PERFORMANCE runs on another pool, so the
# scaler first grows that pool and keeps the application where it is, scaled up only as far as the
# old pool's three nodes hold (12 pods of 500m) until the new nodes are ready.
web.replicas, web.node_pool = 10, "mas-h2-staging-pool"
snap = scalers.ClusterSnapshot([web], [scalers.NodePoolState("mas-h2-staging-pool", size=3),
                                       scalers.NodePoolState("performance-pool")],
                               signals={"flash_sale": "on"})
d = scaler.decide(snap, now=660.0)
print(f"policy {d.policy}: migration {d.migration.name}", d.resize_node_pools)
assert d.policy == "PERFORMANCE" and d.migration == scalers.MigrationPhase.provisioning
assert [(p.name, p.replicas, p.node_pool) for p in d.patch_deployments] == [("web", 12, "mas-h2-staging-pool")]
assert [(r.pool, r.size) for r in d.resize_node_pools] == [("performance-pool", 5)]  # 19 pods at 0.4
