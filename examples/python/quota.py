"""docs/quota.md: quota levels, Algorithm 2 (reactive: a failed deployment), Algorithm 1
(proactive: a predicted decrease) and the hybrid scaler over a namespace's usage history."""
from continuum import capacity, forecast, quota

assert quota.QuotaLevels([20, 40, 60, 80, 100]).snap_up(42) == 60

# Algorithm 2: the deployment needs 120 cpu under a quota of 100 and only 4 are free: case 3,
# resume waiting nodes covering the other 16.
pool = [capacity.WaitingNode("wn-1", {"cpu": "8"}, resume_latency=30, cost=1.0),
        capacity.WaitingNode("wn-2", {"cpu": "8"}, resume_latency=30, cost=1.0),
        capacity.WaitingNode("wn-3", {"cpu": "16"}, resume_latency=90, cost=1.5)]
r = quota.ReactiveQuotaScaler().decide({"cpu": "120"}, {"cpu": "100"}, {"cpu": "4"}, pool)
print("reactive:", r.reason)
assert r.case == 3 and r.kind == quota.ReactiveCase.activate_nodes and r.new_quota.to_quantities() == {"cpu": "120"}
assert r.nodes_to_activate == ["wn-3"]  # fewest nodes

# Algorithm 1: 77 cpu predicted under a quota of 100; the decrease waits until usage (90) comes down.
p = quota.ProactiveQuotaScaler(levels={"cpu": ["20", "40", "60", "80", "100"]})
d = p.decide(0, {"cpu": "77"}, {"cpu": "100"}, {"cpu": "90"}, {"cpu": "120"})
print("proactive:", d.reason)
assert d.action == quota.ProactiveAction.wait_for_usage_decrease
assert d.target_quota.to_quantities() == {"cpu": "80"} and d.new_quota.to_quantities() == {"cpu": "100"}
d = p.decide(60, {"cpu": "77"}, {"cpu": "100"}, {"cpu": "78"}, {"cpu": "120"})
assert d.action == quota.ProactiveAction.lower_quota and d.new_quota.to_quantities() == {"cpu": "80"}

# Hybrid: usage history -> forecast -> quota, once min_history observations exist. The forecaster
# is a continuum forecaster or any callable history -> prediction.
h = quota.HybridQuotaScaler(forecast.Drift(), min_history=3, levels={"cpu": [20, 40, 60, 80, 100]})
shop_quota = {"cpu": "50"}
for minute, usage in enumerate(["40", "45", "50"]):
    d = h.tick(60.0 * minute, {"cpu": "100"}, [{"name": "shop", "usage": {"cpu": usage}, "quota": shop_quota}])
    shop_quota = d["shop"].quota
    print(f"minute {minute}:", d["shop"].reason)
assert d["shop"].quota.to_quantities() == {"cpu": "55"}  # drift: 50 + 5 one minute ahead
