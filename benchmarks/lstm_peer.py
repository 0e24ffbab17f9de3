#!/usr/bin/python3
"""PyTorch peer of benchmarks/bench_lstm.cpp: the same weights (hidden 64, 2 layers, window 10,
one feature, Linear head, float32) timed single-threaded in PyTorch and in continuum, printed as
ratios from one run, plus continuum's batch GFLOP/s against the CPU's float FMA peak:
cores used (1) x FMA units per core x float lanes per unit x 2 flops x GHz, with the clock measured
by bench_lstm's BM_cpu_clock (a dependent add chain) and the FMA units and their width given by
--fma-units / --fma-bits (default 2 x 256 bits: AMD Zen 3/4, which runs an AVX-512 FMA as two
256-bit halves; Intel server cores with two AVX-512 units: --fma-bits 512), checked against the
AVX-512 flag in /proc/cpuinfo. Also against this build's measured peak (BM_peak_fma_float).

Usage (build bench_lstm first, e.g. in a Release build directory):
    /usr/bin/python3 benchmarks/lstm_peer.py --bench build-rel/benchmarks/bench_lstm
"""

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch
from torch import nn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_exporter():
    spec = importlib.util.spec_from_file_location(
        "_lstm_export", os.path.join(ROOT, "bindings", "python", "continuum", "_lstm_export.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.export_torch


class Net(nn.Module):
    def __init__(self, hidden, layers):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, num_layers=layers, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.head(self.lstm(x)[0][:, -1, :])


def time_call(call, repeats, inner):
    """Median seconds per call over `repeats` timings of `inner` calls (CPU time of this process)."""
    samples = []
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(inner):
            call()
        samples.append((time.process_time() - start) / inner)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", default=os.path.join(ROOT, "build", "benchmarks", "bench_lstm"))
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--window", type=int, default=10)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--fma-units", type=int, default=2, help="FMA pipes per core")
    parser.add_argument("--fma-bits", type=int, default=256, help="width of one FMA pipe in bits")
    args = parser.parse_args()

    torch.set_num_threads(1)
    torch.manual_seed(64)
    net = Net(args.hidden, args.layers).eval()
    low, high = 0.0, 100.0
    rng = np.random.default_rng(7)
    raw_single = rng.uniform(5, 95, size=(1, args.window, 1))
    raw_batch = rng.uniform(5, 95, size=(args.batch, args.window, 1))

    def torch_predict(raw):
        # What a Python controller does per call: scale, run, unscale.
        x = torch.from_numpy(((raw - low) / (high - low)).astype(np.float32))
        with torch.inference_mode():
            return net(x).numpy() * (high - low) + low

    single = time_call(lambda: torch_predict(raw_single), 15, 200)
    batch = time_call(lambda: torch_predict(raw_batch), 7, 3)

    with tempfile.TemporaryDirectory() as tmp:
        weights = os.path.join(tmp, "peer.safetensors")
        load_exporter()(net, weights, window=args.window, scaling={"kind": "min_max", "min": [low], "max": [high]})
        env = dict(os.environ, CONTINUUM_LSTM_WEIGHTS=weights)
        out = subprocess.run([args.bench, "--benchmark_format=json", "--benchmark_min_time=0.5",
                              "--benchmark_filter=BM_lstm_single<float>|BM_lstm_batch<float>/1000|BM_peak_fma_float|BM_cpu_clock"],
                             env=env, check=True, capture_output=True, text=True).stdout
    results = {b["name"]: b for b in json.loads(out)["benchmarks"]}
    ours_single = results["BM_lstm_single<float>"]["cpu_time"] * 1e-9
    ours_batch = results["BM_lstm_batch<float>/1000"]["cpu_time"] * 1e-9
    flops_batch = results["BM_lstm_batch<float>/1000"]["FLOPS"]
    peak = results["BM_peak_fma_float"]["FLOPS"]
    print(f"model: hidden {args.hidden}, {args.layers} layers, window {args.window}, float32, 1 thread; torch {torch.__version__}")
    print(f"single window : torch {single * 1e6:9.1f} us   continuum {ours_single * 1e6:9.1f} us   "
          f"latency ratio {single / ours_single:5.1f}x (target >= 5x)")
    print(f"batch of {args.batch}: torch {args.batch / batch:9.0f} windows/s   continuum {args.batch / ours_batch:9.0f} windows/s   "
          f"throughput ratio {batch / ours_batch:5.1f}x (target >= 3x)")
    print(f"continuum batch: {flops_batch / 1e9:.1f} GFLOP/s = {100 * flops_batch / peak:.0f}% of this build's measured "
          f"single-core FMA peak ({peak / 1e9:.1f} GFLOP/s, {results['BM_peak_fma_float'].get('label', '')})")
    ghz = results["BM_cpu_clock"]["GHz"] if "BM_cpu_clock" in results else float("nan")
    with open("/proc/cpuinfo") as f:
        flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
    lanes = args.fma_bits // 32
    cpu_peak = 1 * args.fma_units * lanes * 2 * ghz * 1e9
    isa = "AVX-512" if "avx512f" in flags else "AVX2+FMA" if "fma" in flags else "no FMA"
    print(f"CPU float FMA peak: 1 core x {args.fma_units} FMA units x {lanes} lanes x 2 flops x {ghz:.2f} GHz (measured) = "
          f"{cpu_peak / 1e9:.1f} GFLOP/s ({isa}); continuum batch = {100 * flops_batch / cpu_peak:.0f}% of it, "
          f"single window = {100 * results['BM_lstm_single<float>']['FLOPS'] / cpu_peak:.0f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
