"""continuum.forecast.Lstm and export_torch: parity with PyTorch through the Python API, numpy
shapes, errors, and the shipped model's held-out accuracy as documented in models/README.md."""

import json
import os

import numpy as np
import pytest

import continuum

try:
    from continuum import forecast
except ImportError:  # the forecast package module is wired by the integrator
    from continuum._core import forecast

try:
    export_torch = forecast.export_torch
except AttributeError:
    from continuum._lstm_export import export_torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "lstm")
MODEL = os.path.join(ROOT, "models", "alibaba2018_cpu_lstm.safetensors")


def fixture(name):
    with open(os.path.join(FIXTURES, name + ".json")) as f:
        data = json.load(f)
    return data, os.path.join(FIXTURES, data["weights"])


@pytest.mark.parametrize("name", ["h8_l1_f1_f32", "h32_l2_f2_f32", "h16_l2_f1_f64", "h128_l1_f1_f32"])
def test_parity_with_stored_pytorch_outputs(name):
    data, weights = fixture(name)
    model = forecast.Lstm.load(weights)
    assert (model.window, model.features, model.outputs) == (data["window"], data["features"], data["outputs"])
    windows = np.array(data["windows"]).reshape(-1, data["window"], data["features"])
    if data["features"] == 1:
        windows = windows[:, :, 0]
    expected = np.array(data["expected"])
    tolerance = (1e-5 if data["dtype"] == "float32" else 1e-10) * max(1.0, data["output_width"])
    batch = model.predict_batch(windows)
    if data["outputs"] == 1:
        assert batch.shape == (len(windows),)
        assert np.max(np.abs(batch - expected[:, 0])) <= tolerance
        assert isinstance(model.predict(windows[0]), float)
    else:
        assert batch.shape == (len(windows), data["outputs"])
        assert np.max(np.abs(batch - expected)) <= tolerance
        assert model.predict(windows[0]).shape == (data["outputs"],)
    for w, want in zip(windows, expected):
        assert np.max(np.abs(np.atleast_1d(model.predict(w)) - want)) <= tolerance


def test_export_torch_round_trip(tmp_path):
    torch = pytest.importorskip("torch")
    from torch import nn

    torch.manual_seed(3)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(2, 24, num_layers=2, batch_first=True)
            self.head = nn.Sequential(nn.Linear(24, 8), nn.ReLU(), nn.Linear(8, 3))

        def forward(self, x):
            return self.head(self.lstm(x)[0][:, -1, :])

    net = Net().double().eval()
    path = str(tmp_path / "net.safetensors")
    scaling = {"kind": "z_score", "mean": [40.0, 1.0], "std": [10.0, 0.5]}
    export_torch(net, path, window=7, scaling=scaling)
    model = forecast.Lstm.load(path)
    assert (model.window, model.features, model.outputs, model.num_layers, model.hidden_size) == (7, 2, 3, 2, 24)
    rng = np.random.default_rng(0)
    raw = rng.uniform(0, 80, size=(50, 7, 2))
    x = (raw - np.array([40.0, 1.0])) / np.array([10.0, 0.5])
    with torch.no_grad():
        want = net(torch.from_numpy(x)).numpy() * 10.0 + 40.0  # output scaling = target feature 0
    assert np.max(np.abs(model.predict_batch(raw) - want)) <= 1e-10 * 10.0
    assert np.max(np.abs(model.predict(raw[4]) - want[4])) <= 1e-9
    # A two-feature model cannot forecast a single series.
    with pytest.raises(continuum.InvalidArgument, match="takes 2 input features"):
        model.forecast(raw[4, :, 0], 2)


def test_export_torch_refuses_unsupported_modules(tmp_path):
    torch = pytest.importorskip("torch")
    from torch import nn

    class Net(nn.Module):
        def __init__(self, lstm, head):
            super().__init__()
            self.lstm = lstm
            self.head = head

    path = str(tmp_path / "x.safetensors")
    with pytest.raises(ValueError, match="batch_first"):
        export_torch(Net(nn.LSTM(1, 4), nn.Linear(4, 1)), path, window=3)
    with pytest.raises(ValueError, match="bidirectional"):
        export_torch(Net(nn.LSTM(1, 4, batch_first=True, bidirectional=True), nn.Linear(8, 1)), path, window=3)
    with pytest.raises(TypeError, match="Tanh"):
        export_torch(Net(nn.LSTM(1, 4, batch_first=True), nn.Sequential(nn.Linear(4, 2), nn.Tanh())), path, window=3)
    with pytest.raises(ValueError, match="max must exceed"):
        export_torch(Net(nn.LSTM(1, 4, batch_first=True), nn.Linear(4, 1)), path, window=3,
                     scaling={"kind": "min_max", "min": [5.0], "max": [5.0]})
    del torch


def test_forecast_recursive_and_errors():
    data, weights = fixture("h8_l1_f1_f32")
    model = forecast.Lstm.load(weights)
    window = np.array(data["windows"][0])
    history = np.concatenate([[1.0, 2.0, 3.0], window])
    steps = model.forecast(history, 3)
    assert steps.shape == (3,)
    manual = list(window)
    for k in range(3):
        nxt = model.predict(np.array(manual[-10:]))
        assert steps[k] == pytest.approx(nxt, abs=1e-12)
        manual.append(nxt)
    with pytest.raises(continuum.InvalidArgument, match="at least window = 10"):
        model.forecast(window[:5], 1)
    with pytest.raises(continuum.InvalidArgument, match="expected shape"):
        model.predict(window[:9])
    with pytest.raises(continuum.InvalidArgument, match="not finite"):
        model.predict(np.where(np.arange(10) == 3, np.nan, window))
    with pytest.raises(continuum.InvalidArgument, match="windows must have shape"):
        model.predict_batch(window)
    assert "LSTM(window=10, hidden=8x1, outputs=1)" in repr(model)


def test_malformed_files_raise_parse_error(tmp_path):
    _, weights = fixture("h8_l1_f1_f32")
    with open(weights, "rb") as f:
        good = f.read()
    with pytest.raises(continuum.ParseError, match="truncated file"):
        forecast.Lstm.from_bytes(good[:4], "cut.safetensors")
    path = tmp_path / "cut.safetensors"
    path.write_bytes(good[:-3])
    with pytest.raises(continuum.ParseError, match=r"cut\.safetensors: tensor head\.bias: data_offsets"):
        forecast.Lstm.load(str(path))
    with pytest.raises(continuum.InvalidArgument, match="cannot open"):
        forecast.Lstm.load(str(tmp_path / "missing.safetensors"))


def test_shipped_model_matches_its_documented_accuracy():
    with open(os.path.splitext(MODEL)[0] + ".metrics.json") as f:
        report = json.load(f)
    assert os.path.getsize(MODEL) < 200 * 1024
    model = forecast.Lstm.load(MODEL)
    assert model.window == report["window"] == 10
    values = np.loadtxt(os.path.join(ROOT, report["trace"]), delimiter=",", skiprows=1, usecols=0)
    step = report["aggregate_rows"]
    series = values[: len(values) // step * step].reshape(-1, step).mean(axis=1)
    split = report["train_points"]
    targets = np.arange(split, len(series))
    windows = np.stack([series[t - 10:t] for t in targets])
    prediction = model.predict_batch(windows)
    rmse = float(np.sqrt(np.mean((prediction - series[targets]) ** 2)))
    # C++ in float64 on float32 weights vs PyTorch in float32: equal to well under 1e-4 % CPU.
    assert rmse == pytest.approx(report["metrics_percent_cpu"]["lstm"]["rmse"], abs=1e-4)
    assert rmse < report["metrics_percent_cpu"]["naive"]["rmse"]
