#!/usr/bin/env python3
"""Peer for continuum's exact bin packing: solve seed 004's assignment ILP with CBC.

The model (Kantorovich assignment, with the usual symmetry cuts):
    min  sum_j y_j
    s.t. sum_j x_ij = 1                      for every item i
         sum_i w_i x_ij <= c * y_j           for every bin j (j < UB, UB = FFD bins)
         x_ij <= y_j,  y_j >= y_{j+1},  x_ij = 0 for j > i (items sorted decreasing)
         x, y binary
Writes each instance as an LP file, runs the Debian `cbc` binary with a time limit and reports
proved optima, times, and the ratio of CBC's time to continuum's (read from the
bench_packing_exact per-instance CSV when given).

Usage: /usr/bin/python3 benchmarks/packing_cbc_peer.py [--data ../shared/data/bpp] [--sec 1]
       [--stride 10] [--filter scholl_1] [--continuum-csv times.csv]
"""

import argparse
import csv
import os
import re
import statistics
import subprocess
import tempfile
import time


def read_instance(path):
    with open(path) as f:
        values = [int(v) for v in f.read().split()]
    n, c = values[0], values[1]
    return c, values[2 : 2 + n]


def ffd(sizes, c):
    residual = []
    for s in sorted(sizes, reverse=True):
        for j, r in enumerate(residual):
            if r >= s:
                residual[j] -= s
                break
        else:
            residual.append(c - s)
    return len(residual)


def write_lp(path, sizes, c):
    w = sorted(sizes, reverse=True)
    n = len(w)
    ub = ffd(w, c)
    lines = ["Minimize", " obj: " + " + ".join(f"y{j}" for j in range(ub)), "Subject To"]
    for i in range(n):
        lines.append(f" a{i}: " + " + ".join(f"x{i}_{j}" for j in range(min(i + 1, ub))) + " = 1")
    for j in range(ub):
        terms = " + ".join(f"{w[i]} x{i}_{j}" for i in range(j, n))
        lines.append(f" c{j}: {terms} - {c} y{j} <= 0" if terms else f" c{j}: - {c} y{j} <= 0")
        if j + 1 < ub:
            lines.append(f" s{j}: y{j} - y{j + 1} >= 0")
    lines.append("Binary")
    lines.extend(f" y{j}" for j in range(ub))
    lines.extend(f" x{i}_{j}" for i in range(n) for j in range(min(i + 1, ub)))
    lines.append("End")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def solve_cbc(lp_path, seconds):
    start = time.monotonic()
    out = subprocess.run(["cbc", lp_path, "sec", str(seconds), "threads", "1", "solve", "quit"],
                         capture_output=True, text=True).stdout
    elapsed = time.monotonic() - start
    optimal = "Optimal solution found" in out or "Result - Optimal solution found" in out
    m = re.search(r"Objective value:\s+([-0-9.e+]+)", out)
    value = round(float(m.group(1))) if m else None
    return optimal, value, elapsed


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data", "bpp"))
    parser.add_argument("--sec", type=float, default=1.0)
    parser.add_argument("--stride", type=int, default=1)
    parser.add_argument("--filter", default="")
    parser.add_argument("--continuum-csv", default="", help="instance,seconds,optimal rows from bench_packing_exact")
    args = parser.parse_args()
    ours = {}
    if args.continuum_csv:
        with open(args.continuum_csv) as f:
            for row in csv.reader(f):
                ours[row[0]] = (float(row[1]), row[2] == "1")
    with open(os.path.join(args.data, "optima.csv")) as f:
        rows = list(csv.DictReader(f))[:: args.stride]
    per_set = {}
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for row in rows:
            if args.filter and args.filter not in row["set"]:
                continue
            c, sizes = read_instance(os.path.join(args.data, row["file"]))
            lp = os.path.join(tmp, "model.lp")
            write_lp(lp, sizes, c)
            optimal, value, elapsed = solve_cbc(lp, args.sec)
            s = per_set.setdefault(row["set"], {"n": 0, "proved": 0, "times": []})
            s["n"] += 1
            s["times"].append(elapsed)
            if optimal and value == int(row["opt"]):
                s["proved"] += 1
                if row["instance"] in ours and ours[row["instance"]][1]:
                    ratios.append(elapsed / max(ours[row["instance"]][0], 1e-4))
    print(f"{'set':14s} {'inst':>5s} {'CBC proved':>11s} {'median_s':>9s}")
    for name, s in sorted(per_set.items()):
        print(f"{name:14s} {s['n']:5d} {s['proved']:11d} {statistics.median(s['times']):9.3f}")
    if ratios:
        print(f"CBC time / continuum time on instances both prove: median {statistics.median(ratios):.1f}x over {len(ratios)} instances")


if __name__ == "__main__":
    main()
