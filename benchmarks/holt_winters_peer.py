#!/usr/bin/python3
"""Time statsmodels' ExponentialSmoothing on the input of bench_forecast (NAB
cpu_utilization_asg_misconfiguration averaged to hourly values, first 700 hours; m = 24, additive
damped trend, additive season; fit() + forecast(48)) and print the ratio to continuum.

    /usr/bin/python3 benchmarks/holt_winters_peer.py [path/to/bench_forecast]

continuum's time comes from one run of the C++ benchmark binary (default build/benchmarks/
bench_forecast, JSON output); with no binary it falls back to the Python binding
(PYTHONPATH=build/python), which adds a little call overhead. Both fits' SSE are printed so the
speed is compared at equal or better quality.
"""
import json
import os
import subprocess
import sys
import time
import warnings

import numpy as np
import statsmodels
from statsmodels.tsa.holtwinters import ExponentialSmoothing

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def hourly_input():
    raw = np.loadtxt(os.path.join(ROOT, "data/traces/nab/cpu_utilization_asg_misconfiguration.csv"), delimiter=",",
                     skiprows=1, usecols=1)
    return raw[: len(raw) // 12 * 12].reshape(-1, 12).mean(axis=1)[:700]


def time_statsmodels(y, repeats=5):
    """Best of `repeats` runs: (wall seconds, CPU seconds, SSE)."""
    best_wall, best_cpu, sse = float("inf"), float("inf"), None
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = ExponentialSmoothing(y, trend="add", damped_trend=True, seasonal="add", seasonal_periods=24).fit()
            res.forecast(48)
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        sse = res.sse
    return best_wall, best_cpu, sse


def time_continuum(y, binary):
    if binary and os.path.exists(binary):
        out = subprocess.run([binary, "--benchmark_filter=BM_HoltWintersFitForecast/estimated:1$", "--benchmark_format=json"],
                             check=True, capture_output=True, text=True).stdout
        run = json.loads(out)["benchmarks"][0]
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[run["time_unit"]]
        return run["real_time"] * scale, run["cpu_time"] * scale, run["sse"], "C++ benchmark " + binary
    from continuum import forecast as fc
    best_wall, best_cpu, sse = float("inf"), float("inf"), None
    for _ in range(20):
        wall, cpu = time.perf_counter(), time.process_time()
        model = fc.HoltWinters(24, trend="add", damped=True, seasonal="add").fit(y)
        model.forecast(48)
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        sse = model.sse
    return best_wall, best_cpu, sse, "Python binding"


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/benchmarks/bench_forecast")
    y = hourly_input()
    sm_wall, sm_cpu, sm_sse = time_statsmodels(y)
    c_wall, c_cpu, c_sse, source = time_continuum(y, binary)
    print(f"input: {len(y)} hourly points, m = 24, trend add damped, season add, fit + forecast(48)")
    print(f"statsmodels {statsmodels.__version__}: wall {sm_wall * 1e3:9.3f} ms  CPU {sm_cpu * 1e3:9.3f} ms  SSE {sm_sse:.6f}")
    print(f"continuum ({source}): wall {c_wall * 1e3:9.3f} ms  CPU {c_cpu * 1e3:9.3f} ms  SSE {c_sse:.6f}")
    print(f"speed-up: wall {sm_wall / c_wall:.1f}x  CPU {sm_cpu / c_cpu:.1f}x   SSE ratio continuum/statsmodels: {c_sse / sm_sse:.6f}")


if __name__ == "__main__":
    main()
