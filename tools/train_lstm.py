#!/usr/bin/python3
"""Train the LSTM CPU forecaster of seed 001 (a window of the last 10 minutes -> the next minute)
on a CSV trace and export it for continuum (safetensors + metadata, via continuum's export_torch).

Deterministic for a given --seed (single-threaded PyTorch, deterministic algorithms). Evaluates
one-step-ahead forecasts on a held-out tail of the trace and compares them with naive, seasonal
naive and Holt-Winters (statsmodels) on the same tail; writes the figures as JSON next to the model.

Default: the shipped model, models/alibaba2018_cpu_lstm.safetensors, from the Alibaba 2018
whole-cluster CPU trace (30 s buckets averaged to 1-minute means). Takes about a minute on one core:
    /usr/bin/python3 tools/train_lstm.py
"""

import argparse
import importlib.util
import json
import os
import sys
import time
import warnings

import numpy as np
import torch
from torch import nn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_TRACE = os.path.join(ROOT, "data", "traces", "alibaba2018", "machine_usage_days_1_to_8_grouped_30_seconds.csv")


def load_exporter():
    """continuum.forecast.export_torch without importing the C++ extension."""
    spec = importlib.util.spec_from_file_location(
        "_lstm_export", os.path.join(ROOT, "bindings", "python", "continuum", "_lstm_export.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.export_torch


class Forecaster(nn.Module):
    """nn.LSTM(batch_first) -> head on the last hidden state; the layout export_torch expects."""

    def __init__(self, hidden, layers, horizon, head_hidden):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, num_layers=layers, batch_first=True)
        if head_hidden > 0:
            self.head = nn.Sequential(nn.Linear(hidden, head_hidden), nn.ReLU(), nn.Linear(head_hidden, horizon))
        else:
            self.head = nn.Linear(hidden, horizon)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1, :])


def read_series(path, column, aggregate):
    with open(path) as f:
        header = f.readline().strip().split(",")
    if column not in header:
        raise SystemExit(f"{path}: no column {column!r} (columns: {header})")
    values = np.loadtxt(path, delimiter=",", skiprows=1, usecols=header.index(column))
    if not np.all(np.isfinite(values)):
        raise SystemExit(f"{path}: column {column} holds non-finite values")
    usable = len(values) // aggregate * aggregate
    return values[:usable].reshape(-1, aggregate).mean(axis=1)


def windows_for(series, targets, window, horizon):
    """Input windows ending just before each target index t (so the model sees y[t-window:t])."""
    x = np.stack([series[t - window:t] for t in targets])
    y = np.stack([series[t:t + horizon] for t in targets])
    return x, y


def metrics(prediction, actual):
    error = np.asarray(prediction) - np.asarray(actual)
    return {"rmse": float(np.sqrt(np.mean(error ** 2))), "mae": float(np.mean(np.abs(error)))}


def holt_winters_one_step(series, split, season):
    """statsmodels ExponentialSmoothing (additive trend and season) fitted on series[:split]; its
    one-step-ahead forecasts over series[split:] with the fitted parameters held fixed."""
    from statsmodels.tsa.holtwinters import ExponentialSmoothing  # noqa: PLC0415

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = ExponentialSmoothing(series[:split], trend="add", seasonal="add", seasonal_periods=season,
                                   initialization_method="heuristic").fit()
        params = fit.params
        full = ExponentialSmoothing(series, trend="add", seasonal="add", seasonal_periods=season,
                                    initialization_method="known", initial_level=params["initial_level"],
                                    initial_trend=params["initial_trend"],
                                    initial_seasonal=params["initial_seasons"]).fit(
            smoothing_level=params["smoothing_level"], smoothing_trend=params["smoothing_trend"],
            smoothing_seasonal=params["smoothing_seasonal"], optimized=False)
    chosen = {k: float(params[k]) for k in ("smoothing_level", "smoothing_trend", "smoothing_seasonal")}
    return np.asarray(full.fittedvalues)[split:], chosen


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--csv", default=DEFAULT_TRACE)
    parser.add_argument("--column", default="cpu_util_percent")
    parser.add_argument("--aggregate", type=int, default=2, help="rows averaged into one step (2 x 30 s = 1 min)")
    parser.add_argument("--step-seconds", type=int, default=60)
    parser.add_argument("--window", type=int, default=10)
    parser.add_argument("--horizon", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--head-hidden", type=int, default=0, help="0: head is one nn.Linear")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--seed", type=int, default=2018)
    parser.add_argument("--holdout", type=float, default=0.2, help="fraction of the trace held out at its end")
    parser.add_argument("--validation", type=float, default=0.1, help="fraction of the training part used to pick the epoch")
    parser.add_argument("--season", type=int, default=1440, help="seasonal period for the baselines (steps)")
    parser.add_argument("--no-holt-winters", action="store_true")
    parser.add_argument("--out", default=os.path.join(ROOT, "models", "alibaba2018_cpu_lstm.safetensors"))
    args = parser.parse_args(argv)

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.use_deterministic_algorithms(True)
    started = time.time()
    started_cpu = time.process_time()

    series = read_series(args.csv, args.column, args.aggregate)
    n = len(series)
    split = int(round(n * (1.0 - args.holdout)))
    valid_split = int(round(split * (1.0 - args.validation)))
    low, high = float(series[:split].min()), float(series[:split].max())   # training part only
    scaled = (series - low) / (high - low)
    horizon = args.horizon

    train_targets = np.arange(args.window, valid_split - horizon + 1)
    valid_targets = np.arange(valid_split, split - horizon + 1)
    test_targets = np.arange(split, n - horizon + 1)
    x_train, y_train = windows_for(scaled, train_targets, args.window, horizon)
    x_valid, y_valid = windows_for(scaled, valid_targets, args.window, horizon)
    x_test, _ = windows_for(scaled, test_targets, args.window, horizon)

    model = Forecaster(args.hidden, args.layers, horizon, args.head_hidden)
    optimiser = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.MSELoss()
    xt = torch.from_numpy(x_train[:, :, None].astype(np.float32))
    yt = torch.from_numpy(y_train.astype(np.float32))
    xv = torch.from_numpy(x_valid[:, :, None].astype(np.float32))
    yv = torch.from_numpy(y_valid.astype(np.float32))
    generator = torch.Generator().manual_seed(args.seed)
    best = (float("inf"), None, -1)
    for epoch in range(args.epochs):
        model.train()
        order = torch.randperm(len(xt), generator=generator)
        for first in range(0, len(order), args.batch):
            index = order[first:first + args.batch]
            optimiser.zero_grad()
            loss = loss_fn(model(xt[index]), yt[index])
            loss.backward()
            optimiser.step()
        model.eval()
        with torch.no_grad():
            valid_loss = float(loss_fn(model(xv), yv))
        if valid_loss < best[0]:
            best = (valid_loss, {k: v.clone() for k, v in model.state_dict().items()}, epoch)
        print(f"epoch {epoch:3d}  validation MSE (scaled) {valid_loss:.6f}", file=sys.stderr)
    model.load_state_dict(best[1])
    model.eval()

    with torch.no_grad():
        lstm_scaled = model(torch.from_numpy(x_test[:, :, None].astype(np.float32))).numpy().astype(np.float64)
    lstm_prediction = lstm_scaled[:, 0] * (high - low) + low
    actual = series[test_targets]
    results = {"lstm": metrics(lstm_prediction, actual),
               "naive": metrics(series[test_targets - 1], actual),
               "seasonal_naive": metrics(series[test_targets - args.season], actual)}
    hw_params = None
    if not args.no_holt_winters:
        hw_prediction, hw_params = holt_winters_one_step(series, split, args.season)
        results["holt_winters"] = metrics(hw_prediction[: len(test_targets)], actual)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    export_torch = load_exporter()
    export_torch(model, args.out, window=args.window, scaling={"kind": "min_max", "min": [low], "max": [high]},
                 step_seconds=args.step_seconds)
    report = {
        "model": os.path.basename(args.out),
        "trace": os.path.relpath(args.csv, ROOT),
        "column": args.column,
        "aggregate_rows": args.aggregate,
        "step_seconds": args.step_seconds,
        "points": n,
        "train_points": split,
        "held_out_points": n - split,
        "held_out_one_step_forecasts": int(len(test_targets)),
        "window": args.window,
        "horizon": horizon,
        "hidden": args.hidden,
        "layers": args.layers,
        "head_hidden": args.head_hidden,
        "epochs": args.epochs,
        "best_epoch": best[2],
        "seed": args.seed,
        "scaling": {"kind": "min_max", "min": low, "max": high},
        "season_for_baselines": args.season,
        "holt_winters": {"statsmodels": "ExponentialSmoothing(trend='add', seasonal='add', initialization_method='heuristic')",
                         "params": hw_params},
        "metrics_percent_cpu": results,
        "torch_version": torch.__version__,
        "wall_seconds": round(time.time() - started, 1),
        "cpu_seconds": round(time.process_time() - started_cpu, 1),
        "weights_bytes": os.path.getsize(args.out),
    }
    with open(os.path.splitext(args.out)[0] + ".metrics.json", "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    print(json.dumps(report["metrics_percent_cpu"], indent=1))
    print(f"{args.out}: {report['weights_bytes']} bytes, best epoch {best[2]}, {report['cpu_seconds']} s of CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
