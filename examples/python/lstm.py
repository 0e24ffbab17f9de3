"""docs/lstm.md: load the shipped LSTM (10 minutes of CPU % -> the next minute) and predict one
window, a batch of windows, and 5 minutes ahead. Run from the repository root."""
import pathlib

import numpy as np

import continuum
from continuum import forecast

model = forecast.Lstm.load("models/alibaba2018_cpu_lstm.safetensors")  # computes in float64
assert (model.window, model.features, model.outputs) == (10, 1, 1)

last_10_minutes = np.array([41.2, 40.8, 43.0, 44.1, 42.9, 41.7, 40.2, 39.9, 41.5, 42.0])
next_minute = model.predict(last_10_minutes)  # a float: raw CPU %
print(f"{model.name}: next minute {next_minute:.3f} %")
assert abs(next_minute - 41.847) < 1e-3  # the same model in PyTorch: 41.847

batch = model.predict_batch(np.stack([last_10_minutes, last_10_minutes + 5]))  # (n, 10) -> (n,)
ahead = model.forecast(last_10_minutes, 5)  # recursive: 5 one-step predictions
print("batch:", batch.round(2), "5 minutes ahead:", ahead.round(2))
assert batch.shape == (2,) and batch[0] == next_minute and batch[1] > batch[0]
assert ahead.shape == (5,) and ahead[0] == next_minute

# Bytes from anywhere (a ConfigMap, an object store): the same validation as a file.
data = pathlib.Path("models/alibaba2018_cpu_lstm.safetensors").read_bytes()
assert forecast.Lstm.from_bytes(data, "configmap").predict(last_10_minutes) == next_minute
try:
    forecast.Lstm.from_bytes(data[:100], "truncated")
    raise AssertionError("expected ParseError")
except continuum.ParseError as e:
    print("rejected:", e)
