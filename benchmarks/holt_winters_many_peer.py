#!/usr/bin/python3
"""Many series at once (issue 19): HoltWinters.fit_many on 10,000 hourly series of 720 points
(m = 24, additive damped trend, additive season, estimated initial states), fit + forecast(48),
against statsmodels' ExponentialSmoothing fitted series by series on a sample, in the same run.

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/holt_winters_many_peer.py [--series 10000] [--sample 20]
        [--instructions automatic|portable|avx2|avx512]

Series: windows of 720 hourly means of NAB cpu_utilization_asg_misconfiguration (data/traces/nab,
18,050 five-minute points), at 12 phase offsets of the hourly averaging and 780 start hours, so no
two rows are equal. Prints wall and CPU time of each, the speed-up per series, and the SSE of the
sampled series (fit_many vs fit alone vs statsmodels).
"""
import argparse
import os
import time
import warnings

import numpy as np

from continuum import forecast as fc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def panel(series, length=720):
    raw = np.loadtxt(os.path.join(ROOT, "data/traces/nab/cpu_utilization_asg_misconfiguration.csv"), delimiter=",",
                     skiprows=1, usecols=1)
    hourly = [raw[o: o + (len(raw) - o) // 12 * 12].reshape(-1, 12).mean(axis=1) for o in range(12)]
    starts = min(len(h) for h in hourly) - length
    rows = np.empty((series, length))
    for i in range(series):
        k, o = divmod(i, 12)
        start = k % starts
        rows[i] = hourly[o][start: start + length] * (1.0 + 0.001 * (k // starts))
    return rows


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--series", type=int, default=10000)
    parser.add_argument("--sample", type=int, default=20, help="series fitted by statsmodels (and by fit() alone)")
    parser.add_argument("--instructions", default="automatic", help="fit_many's lane instructions (automatic, portable, avx2, avx512)")
    args = parser.parse_args()
    y = panel(args.series)
    load_before = os.getloadavg()
    model = fc.HoltWinters(24, trend="add", damped=True, seasonal="add")

    def many():
        batch = model.fit_many(y, instructions=args.instructions)
        return batch, batch.forecast(48)

    (batch, forecasts), many_wall, many_cpu = timed(many)
    assert forecasts.shape == (args.series, 48)
    sample = np.linspace(0, args.series - 1, args.sample).astype(int)

    def alone():
        return [fc.HoltWinters(24, trend="add", damped=True, seasonal="add").fit(y[i]) for i in sample]

    singles, alone_wall, alone_cpu = timed(alone)

    from statsmodels.tsa.holtwinters import ExponentialSmoothing

    def statsmodels_fits():
        out = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for i in sample:
                res = ExponentialSmoothing(y[i], trend="add", damped_trend=True, seasonal="add", seasonal_periods=24).fit()
                res.forecast(48)
                out.append(res.sse)
        return out

    sm_sse, sm_wall, sm_cpu = timed(statsmodels_fits)
    n, k = args.series, len(sample)
    print(f"{n} series x {y.shape[1]} points, m = 24, trend add damped, season add, estimated states; fit + forecast(48)")
    print(f"continuum fit_many:            wall {many_wall:9.3f} s  CPU {many_cpu:9.3f} s  "
          f"per series {1e3 * many_cpu / n:8.3f} ms CPU  (lanes of 8, instructions {batch.instructions})")
    print(f"continuum fit() one by one:    wall {alone_wall / k * 1e3:9.3f} ms CPU {alone_cpu / k * 1e3:9.3f} ms per series ({k} series)")
    print(f"statsmodels one by one:        wall {sm_wall / k * 1e3:9.3f} ms CPU {sm_cpu / k * 1e3:9.3f} ms per series ({k} series)")
    print(f"speed-up of fit_many per series: vs statsmodels wall {sm_wall / k / (many_wall / n):7.1f}x  CPU {sm_cpu / k / (many_cpu / n):7.1f}x;"
          f"  vs fit() one by one CPU {alone_cpu / k / (many_cpu / n):5.2f}x")
    rel = max(abs(batch[int(i)].sse - s.sse) / s.sse for i, s in zip(sample, singles))
    ratio = [batch[int(i)].sse / s for i, s in zip(sample, sm_sse)]
    print(f"load average before / after: {load_before[0]:.1f} / {os.getloadavg()[0]:.1f} (1 min)")
    print(f"SSE: max |fit_many - fit alone| / fit alone = {rel:.2e};  fit_many / statsmodels: min {min(ratio):.6f} max {max(ratio):.6f}")


if __name__ == "__main__":
    main()
