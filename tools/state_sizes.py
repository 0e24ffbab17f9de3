"""Prints the size of each stateful object's JSON state document (docs/state.md, "Sizes and speed"):
typical configurations, fitted on an hourly series with a daily season (24), after a warm-up.
Run with the built package on PYTHONPATH: PYTHONPATH=build/python python3 tools/state_sizes.py"""

import math

import numpy as np

from continuum import federation, forecast, policy, quota, scalers


def main():
    rng = np.random.default_rng(1)
    y = np.array([50 + 10 * math.sin(2 * math.pi * t / 24) + rng.normal() for t in range(24 * 14)])
    rows = []
    for name, model in [
        ("Naive", forecast.Naive()),
        ("SimpleExponentialSmoothing", forecast.SimpleExponentialSmoothing()),
        ("SeasonalNaive(24)", forecast.SeasonalNaive(24)),
        ("SeasonalMedian(24, 5)", forecast.SeasonalMedian(24, 5)),
        ("MovingAverage(12)", forecast.MovingAverage(12)),
        ("LinearRegression(24)", forecast.LinearRegression(24)),
        ("HoltWinters(A,A,A, m=24)", forecast.HoltWinters(season_length=24, trend="add", seasonal="add")),
        ("Portfolio(season_lengths=[24])", forecast.Portfolio(season_lengths=[24])),
    ]:
        model.fit(y)
        rows.append((name, len(model.to_json())))
    hpa = scalers.Hpa(max_replicas=50, metrics=[scalers.HpaMetric.resource_utilization("cpu", 60, usage=np.full(10, 300), requests=np.full(10, 500), milli=True)])
    for t in range(20):  # five minutes of 15 s syncs: a full stabilisation window
        hpa.decide(10, now=15.0 * t)
    rows.append(("Hpa (5 min of 15 s syncs)", len(hpa.to_json())))
    selector = policy.PolicySelector([policy.cost_saving(), policy.performance()], "COST_SAVING")
    rows.append(("HierarchicalScaler (idle)", len(scalers.HierarchicalScaler(selector).to_json())))
    ledger = federation.Ledger([federation.Offer(f"p{i}", {"cpu": "16", "memory": "64Gi"}, node_price=1.0) for i in range(10)])
    for i in range(100):
        ledger.reserve(f"consumer-{i % 7}", f"p{i % 10}", {"cpu": "100m", "memory": "256Mi"})
    rows.append(("Ledger (10 providers, 100 reservations)", len(ledger.to_json())))
    hybrid = quota.HybridQuotaScaler(forecast.SimpleExponentialSmoothing(), min_history=10)
    namespaces = [quota.NamespaceSnapshot(f"namespace-{i}", {"cpu": "1"}, {"cpu": "4"}) for i in range(100)]
    for t in range(12):
        hybrid.tick(60 * t, {"cpu": "800"}, namespaces)
    rows.append(("HybridQuotaScaler, SES, 100 namespaces", len(hybrid.to_json())))
    print("| state | bytes of JSON |")
    print("|---|---|")
    for name, size in rows:
        print(f"| {name} | {size:,} |")


if __name__ == "__main__":
    main()
