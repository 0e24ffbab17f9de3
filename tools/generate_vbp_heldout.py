#!/usr/bin/env python3
"""Generate the held-out vector bin packing set in data/vbp_heldout/ (issue 20).

The instances follow the rules of the generators of Mommessin, Erlebach and Shakhlevich,
"Classification and evaluation of the algorithms for vector bin packing" (Computers & OR, 2025),
github.com/Vectorpack/experiments_vector_paper (MIT licence), data/scripts/generate_New_multidim.py
(the six `new/` classes, capacity 100) and data/scripts/generate_Triplet_multidim.py (Falkenauer,
Caprara-Toth and Mommessin triplets: n/3 bins, each exactly full, so OPT = n/3). This is a
re-implementation of those rules with Python's random module and fixed seeds (no numpy/scipy),
so the files are NOT the upstream instances and the upstream per-instance results do not apply.
The set is never used for tuning: it is the generalisation test of the exact vector solver.

The summary (heldout_summary_known.tsv, the columns of the shared *_summary_known.tsv) gives the
triplets OPT = n/3; for the new* classes, which have no known optimum, it takes LB (the bound
solve_exact proved) and best_overall (its packing) from heldout_solve_exact_10s.tsv in the output
directory, when present: one run of bench_vector_exact at 10 s per instance (see its README).

Usage: tools/generate_vbp_heldout.py [out_dir]   (default data/vbp_heldout; deterministic)
"""
import math
import random
import sys
from pathlib import Path

CAPACITY = 100
SIZES_N = (60, 120)          # n <= 120 (triplets need n divisible by 3)
DIMS = (3, 5, 10)
PER_CELL = 2                 # instances per (class, n, d)


def new_class1(rng, n, d):
    """Each item is large, [50, 100], in one dimension and small, [0, 25], in the others;
    n // d items per dimension, the remainder on the last one."""
    items = []
    per_dim = n // d
    for big in range(d):
        count = per_dim + (n % d if big == d - 1 else 0)
        for _ in range(count):
            items.append([rng.randint(50, 100) if k == big else rng.randint(0, 25) for k in range(d)])
    return items


def gaussian_sizes(rng, count, mu, sigma):
    """Rounded normal sizes, redrawn while outside [0, 100] (round half to even, as numpy.rint)."""
    out = []
    for _ in range(count):
        size = round(rng.gauss(mu, sigma))
        while size < 0 or size > CAPACITY:
            size = round(rng.gauss(mu, sigma))
        out.append(int(size))
    return out


def gaussian_class(mu, sigma):
    def make(rng, n, d):
        columns = [gaussian_sizes(rng, n, mu, sigma) for _ in range(d)]
        return [list(row) for row in zip(*columns)]
    return make


def bimodal_class(ratio_large, mean_large, mean_small, sigma):
    """Per dimension: a normal count (mean n * ratio, sd sqrt(n / 4)) of large sizes, the rest small,
    shuffled within the dimension."""
    def make(rng, n, d):
        columns = []
        for _ in range(d):
            large = min(max(int(round(rng.gauss(int(n * ratio_large), math.sqrt(n / 4)))), 0), n)
            sizes = gaussian_sizes(rng, large, mean_large, sigma) + gaussian_sizes(rng, n - large, mean_small, sigma)
            rng.shuffle(sizes)
            columns.append(sizes)
        return [list(row) for row in zip(*columns)]
    return make


def triplet_class(draw):
    """n / 3 triplets; in every dimension the three sizes of a triplet sum to exactly 100."""
    def make(rng, n, d):
        items = []
        for _ in range(n // 3):
            per_dim = [draw(rng) for _ in range(d)]
            items.extend([list(t) for t in zip(*per_dim)])
        return items
    return make


def falkenauer(rng):
    a = rng.randint(38, 49)
    b = rng.randint(25, math.floor((100 - a) / 2.0))
    return (a, b, 100 - a - b)


def caprara(rng):
    a, b = rng.randint(25, 50), rng.randint(25, 50)
    return (a, b, 100 - a - b)


def mommessin(rng):
    a, b = rng.randint(1, 50), rng.randint(1, 50)
    return (a, b, 100 - a - b)


CLASSES = {
    "new1": new_class1,
    "new2": gaussian_class(20, 10),
    "new3": gaussian_class(30, 15),
    "new4": bimodal_class(0.1, 70, 30, 15),
    "new5": bimodal_class(0.1, 80, 20, 10),
    "new6": bimodal_class(0.1, 70, 15, 10),
    "tripF": triplet_class(falkenauer),
    "tripC": triplet_class(caprara),
    "tripM": triplet_class(mommessin),
}


def write_vbp(path, d, items):
    lines = [str(d), " ".join([str(CAPACITY)] * d), str(len(items))]
    lines += [" ".join(str(w) for w in item) + " 1" for item in items]
    path.write_text("\n".join(lines) + "\n")


def main(argv):
    out = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent / "data" / "vbp_heldout"
    summary = ["instance_name\tLB\tOPT\tbest_overall"]
    reference = {}  # name -> (proved lower bound, bins) of solve_exact at 10 s
    reference_file = out / "heldout_solve_exact_10s.tsv"
    if reference_file.exists():
        for line in reference_file.read_text().splitlines()[1:]:
            name, lower, bins = line.split("\t")
            reference[name] = (int(lower), int(bins))
    for cls, make in CLASSES.items():
        (out / "heldout" / cls).mkdir(parents=True, exist_ok=True)
        for n in SIZES_N:
            for d in DIMS:
                for i in range(PER_CELL):
                    rng = random.Random(f"continuum-vbp-heldout/{cls}/{n}/{d}/{i}")
                    items = make(rng, n, d)
                    assert len(items) == n and all(len(it) == d and 0 <= min(it) and max(it) <= CAPACITY for it in items)
                    name = f"{cls}_{n}_{d}_{i}"
                    write_vbp(out / "heldout" / cls / f"{name}.vbp", d, items)
                    if cls.startswith("trip"):
                        summary.append(f"{name}\t{n // 3}\t{n // 3}\t-1")
                    else:
                        lower, bins = reference.get(name, (-1, -1))
                        summary.append(f"{name}\t{lower}\t{-1 if lower != bins else bins}\t{bins}")
    (out / "heldout_summary_known.tsv").write_text("\n".join(summary) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
