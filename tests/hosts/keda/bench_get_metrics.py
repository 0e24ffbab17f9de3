"""GetMetrics latency of continuum-keda-scaler on a 10,000-point series (docs/hosts.md).

The Alibaba 2018 30-second trace is backfilled into a local Prometheus; every ScaledObject reads a
10,000-point window (historyTimeWindow 83h20m at queryStep 30s) with a daily season (2880 steps) and
a 10-minute horizon. Modes: cold (new ScaledObject: read 10,000 points, fit, forecast), new step (one
or a few new points: read them, update, forecast) and same step (served from the model).
Latency is measured at the client, over loopback, one request at a time.

usage (from the build folder, after building continuum-keda-scaler, keda_scaler_python):
  KEDA_SCALER=examples/hosts/keda-scaler/continuum-keda-scaler \\
  KEDA_PYTHON_STUBS=examples/hosts/keda-scaler/python \\
  /usr/bin/python3 ../tests/hosts/keda/bench_get_metrics.py [--repeat N]
"""
from __future__ import annotations

import argparse
import statistics
import time

import harness

STEP = 30
LAST = 12_000  # the window is rows 2001..12000 of the trace
NOW = harness.ORIGIN + LAST * STEP
META = {"query": "cluster_cpu_util_30s", "queryStep": "30s", "threshold": "50", "predictHorizon": "10m",
        "historyTimeWindow": "83h20m", "seasons": "1d", "refitInterval": "1w"}


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=20, help="requests per mode (cold auto: half)")
    args = parser.parse_args()
    trace = harness.SOURCE / "data/traces/alibaba2018/machine_usage_days_1_to_8_grouped_30_seconds.csv"
    values = harness.trace_column("cpu_util_percent", trace)
    prometheus = harness.Prometheus({"cluster_cpu_util_30s": values}, step=STEP)
    rows = []
    try:
        frozen = harness.Scaler(prometheus.url, NOW)
        for model, count in (("holt-winters", args.repeat), ("auto", max(2, args.repeat // 2))):
            meta = dict(META, model=model)
            cold = [timed(lambda i=i: harness.get_metrics(frozen.stub, f"cold-{model}-{i}", meta)) for i in range(count)]
            rows.append((f"cold, {model}: read 10,000 points, fit, forecast", cold))
            same = [timed(lambda: harness.get_metrics(frozen.stub, f"cold-{model}-0", meta)) for _ in range(args.repeat * 5)]
            rows.append((f"same step, {model}: from the model", same))
        frozen.stop()
        # A replay clock at 300x: 10 steps of 30 s per second, so each request spaced 0.1 s sees new points.
        moving = harness.Scaler(prometheus.url, NOW, extra=["--clock-rate", "300"])
        for model in ("holt-winters", "auto"):
            meta = dict(META, model=model)
            harness.get_metrics(moving.stub, f"moving-{model}", meta)  # the cold fit, not counted
            updates = []
            for _ in range(args.repeat):
                time.sleep(0.1)
                updates.append(timed(lambda: harness.get_metrics(moving.stub, f"moving-{model}", meta)))
            rows.append((f"new step, {model}: read the new points, update, forecast", updates))
        moving.stop()
    finally:
        prometheus.stop()
    print("| GetMetrics on a 10,000-point series | requests | p50 ms | p99 ms |")
    print("|---|---|---|---|")
    for name, samples in rows:
        print(f"| {name} | {len(samples)} | {statistics.median(samples):.2f} | {percentile(samples, 0.99):.2f} |")


if __name__ == "__main__":
    main()
