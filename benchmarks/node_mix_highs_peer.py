#!/usr/bin/env python3
"""Peer for continuum's cheapest_node_mix: the optimum of each dumped call by the pattern ILP (HiGHS).

Reads the lines bench_node_mix writes with CONTINUUM_NODE_MIX_DUMP=path (one call per line: node
types [cpu, memory, pods, cost, max_count], pods [cpu, memory, pods], continuum's cost, lower bound
and proof flag), groups equal pods into classes, lists every maximal pattern (copies per class that
fit one node of a type, at most the demand) and solves
    min sum_p cost_p y_p  s.t.  sum_p a_cp y_p >= demand_c,  sum_{p of type t} y_p <= max_count_t,  y integer >= 0
with scipy's HiGHS (scipy.optimize.milp). Reports, per call, continuum's cost and bound against the
optimum, and fails (exit 1) on a bound above the optimum or a cost below it (an invalid answer).

Usage: CONTINUUM_NODE_MIX_DUMP=/tmp/calls.jsonl ./build/benchmarks/bench_node_mix
       /usr/bin/python3 benchmarks/node_mix_highs_peer.py /tmp/calls.jsonl [--verbose]
       /usr/bin/python3 benchmarks/node_mix_highs_peer.py /tmp/calls.jsonl --fixtures 789,903,904
The last form prints the chosen calls and their optima as C++ initializers (the fixtures of
tests/packing/test_node_mix_classes.cpp, "optima of sweep calls by the pattern ILP").
"""

import argparse
import json
import sys

import numpy as np
from scipy.optimize import LinearConstraint, milp


def patterns(capacity, rows, demand):
    """Maximal count vectors of `rows` within `capacity` (each count at most its demand)."""
    m = len(rows)
    out = []
    count = [0] * m

    def go(c, residual):
        if c == m:
            if any(count) and all(count[x] == demand[x] or any(rows[x][k] > residual[k] for k in range(len(residual))) for x in range(m)):
                out.append(list(count))
            return
        most = demand[c]
        for k, r in enumerate(rows[c]):
            if r > 0:
                most = min(most, residual[k] // r)
        for q in range(most, -1, -1):
            count[c] = q
            go(c + 1, [residual[k] - q * rows[c][k] for k in range(len(residual))])
        count[c] = 0

    go(0, list(capacity))
    return out


def optimum(call, time_limit):
    classes = {}
    for item in call["items"]:
        classes[tuple(item)] = classes.get(tuple(item), 0) + 1
    rows = list(classes.keys())
    demand = [classes[r] for r in rows]
    columns, costs, types_of = [], [], []
    for t, (cpu, memory, pods, cost, max_count) in enumerate(call["types"]):
        if max_count == 0:
            continue
        for pattern in patterns([cpu, memory, pods], rows, demand):
            columns.append(pattern)
            costs.append(cost)
            types_of.append(t)
    a = np.array(columns, dtype=float).T  # classes x columns
    constraints = [LinearConstraint(a, np.array(demand, dtype=float), np.inf)]
    limited = [t for t, ty in enumerate(call["types"]) if ty[4] > 0]
    if limited:
        g = np.array([[1.0 if types_of[j] == t else 0.0 for j in range(len(columns))] for t in limited])
        constraints.append(LinearConstraint(g, -np.inf, np.array([call["types"][t][4] for t in limited], dtype=float)))
    result = milp(np.array(costs), integrality=np.ones(len(columns)), constraints=constraints, options={"time_limit": time_limit})
    proved = result.status == 0
    return (result.fun if result.x is not None else float("inf")), proved, len(columns), len(rows)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dump")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--fixtures", help="comma-separated call numbers to print as C++ initializers")
    args = parser.parse_args()
    if args.fixtures:
        with open(args.dump) as f:
            calls = [json.loads(line) for line in f if line.strip()]
        for index in (int(v) for v in args.fixtures.split(",")):
            call = calls[index]
            best, proved, _, _ = optimum(call, args.time_limit)
            assert proved, f"call {index}: HiGHS did not prove its optimum"
            classes = {}
            for item in call["items"]:
                classes[tuple(item)] = classes.get(tuple(item), 0) + 1
            types = ", ".join(f"{{{t[0]}, {t[1]}, {t[2]}, {t[3]!r}, {t[4]}}}" for t in call["types"])
            shapes = ", ".join(f"{{{k[0]}, {k[1]}, {k[2]}, {v}}}" for k, v in classes.items())
            print(f"    {{{{{types}}}, {{{shapes}}}, {best!r}}},  // call {index}")
        return 0
    bad = 0
    rows_out = []
    with open(args.dump) as f:
        calls = [json.loads(line) for line in f if line.strip()]
    for index, call in enumerate(calls):
        best, proved, columns, classes = optimum(call, args.time_limit)
        tolerance = 1e-7 * max(1.0, best)
        cost, bound = call["cost"], call["lower_bound"]
        wrong = (proved and bound > best + tolerance) or cost < best - tolerance or (call["optimal"] and proved and cost > best + tolerance)
        bad += wrong
        at_optimum = abs(cost - best) <= tolerance
        rows_out.append((index, classes, len(call["items"]), len(call["types"]), columns, cost, bound, best, proved, call["optimal"], call["cpu_ms"], at_optimum, wrong))
    found = sum(r[11] for r in rows_out)
    claimed = sum(r[9] for r in rows_out)
    bound_tight = sum(1 for r in rows_out if r[8] and abs(r[6] - r[7]) <= 1e-7 * max(1.0, r[7]))
    for r in rows_out:
        if args.verbose or r[12] or not r[11] or not r[9]:
            print(f"call {r[0]}: classes {r[1]} pods {r[2]} types {r[3]} patterns {r[4]}: cost {r[5]:.6g} bound {r[6]:.6g} optimum {r[7]:.6g}"
                  f"{'' if r[8] else ' (not proved by HiGHS)'} claimed {'optimal' if r[9] else 'open'} cpu {r[10]:.2f} ms{' WRONG' if r[12] else ''}")
    print(f"{len(rows_out)} calls: {found} at the optimum, {claimed} proved by continuum, {bound_tight} with the bound equal to the optimum, {bad} wrong")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
