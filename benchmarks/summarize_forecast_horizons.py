#!/usr/bin/env python3
"""Summarises bench_forecast_horizons output per data frequency, horizon and trace set (tuning vs
held out): geometric mean / worst / misses (more than 2 % above the best of four) of auto/best, and
auto/last value on the daily-pattern traces (geometric mean / worst / traces not >= 10 % better).
  ./build/benchmarks/bench_forecast_horizons --only hourly --origin-every 60 | python3 benchmarks/summarize_forecast_horizons.py
"""
import math
import re
import sys
from collections import defaultdict

ROW = re.compile(r"^(?P<trace>\S+(?: [a-z]+)?)(?P<daily> \*)?(?P<held> \(h\))?\s+(?P<horizon>\d+ \w+)\s+\|.*\|\s+(?P<best>[\d.]+)\s+(?P<last>[\d.]+)\s+\|")


def summarize(lines):
    section = None
    table = defaultdict(lambda: defaultdict(list))  # (section, horizon) -> set -> [(best, last, daily)]
    order = []
    for line in lines:
        if line and not line[0].isspace() and ("data" in line.split("(")[0]) and "|" not in line:
            section = line.split(",")[0].strip()
            continue
        m = ROW.match(line)
        if not m or section is None:
            continue
        key = (section, m["horizon"])
        if key not in table:
            order.append(key)
        table[key]["held out" if m["held"] else "tuning"].append((m["trace"], float(m["best"]), float(m["last"]), bool(m["daily"])))
    out = []
    current = None
    for key in order:
        if key[0] != current:
            current = key[0]
            out.append(f"\n{current}")
            out.append("horizon  set        n | auto/best: geo mean / worst / misses (> 1.02) | auto/last, daily: geo mean / worst / not >= 10 % better")
        for group in ("tuning", "held out"):
            rows = table[key][group]
            if not rows:
                continue
            ratios = [r[1] for r in rows]
            geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
            worst = max(rows, key=lambda r: r[1])
            misses = [r[0] for r in rows if r[1] > 1.02]
            daily = [r[2] for r in rows if r[3]]
            line = f"{key[1]:<8} {group:<9} {len(rows):>2} | {geo:.3f} / {worst[1]:.3f} ({worst[0]}) / {len(misses)}"
            if misses:
                line += " [" + ", ".join(misses) + "]"
            if daily:
                dgeo = math.exp(sum(math.log(x) for x in daily) / len(daily))
                line += f" | {dgeo:.3f} / {max(daily):.3f} / {sum(1 for x in daily if x > 0.9)} of {len(daily)}"
            out.append(line)
    return "\n".join(out)


if __name__ == "__main__":
    print(summarize(sys.stdin.read().splitlines()))
