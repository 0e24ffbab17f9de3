"""docs/policy.md: score a cluster state under a policy, then let the selector pick the active
policy from the context (override > signal > time window > utility > default)."""
from continuum import policy

# COST_SAVING (weights 0.3 perf, 0.7 cost): 4 cores demanded, 4 requested, 0.134 $/h, 2 replicas.
u = policy.utility(policy.UtilityState(demand_cores=4.0, capacity_cores=4.0, cost=0.134, replicas=2),
                   policy.cost_saving())
print(f"U = 0.3 * 0.8 - 0.7 * 0.134 = {u:.4f}")
assert abs(u - 0.1462) < 1e-12

sel = policy.PolicySelector([policy.cost_saving(), policy.performance()], "COST_SAVING")
sel.add_signal_rule("flash_sale", "on", "PERFORMANCE").add_time_window("PERFORMANCE", 9 * 3600, 17 * 3600)
at_ten = sel.select(now=10 * 3600)  # times in seconds
at_eight_pm = sel.select(now=20 * 3600)
flash_sale = sel.select(now=20 * 3600, signals={"flash_sale": "on"})
override = sel.select(now=10 * 3600, override_policy="COST_SAVING")
for s in (at_ten, at_eight_pm, flash_sale, override):
    print(f"{s.policy:12} {s.source.name:15} {s.reason}")
assert (at_ten.policy, at_ten.source) == ("PERFORMANCE", policy.SelectionSource.time_window)
assert (at_eight_pm.policy, at_eight_pm.source.name) == ("COST_SAVING", "default_policy")
assert (flash_sale.policy, flash_sale.source.name) == ("PERFORMANCE", "signal")
assert (override.policy, override.source.name) == ("COST_SAVING", "override_policy")

# Without a rule, maximise U(state_of(P) | P) under common weights: 8 cores of demand on 4 requested
# cores; COST_SAVING serves more of it at its 0.8 target (perf 0.4 vs 0.2) and costs less.
sel = policy.PolicySelector([policy.cost_saving(), policy.performance()], "COST_SAVING")
sel.maximize_utility(True, policy.UtilityWeights(performance=0.8, cost=0.2))
best = sel.select(now=0, state_of=lambda p: policy.UtilityState(8.0, 4.0, 2 * p.node_cost, 2))
print(best.policy, [round(x, 4) for x in best.utilities])
assert best.policy == "COST_SAVING" and best.source.name == "utility"
assert [round(x, 4) for x in best.utilities] == [0.3066, 0.1212]  # 0.8 * 0.4 - 0.2 * 0.067, ...
