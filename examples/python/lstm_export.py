"""docs/lstm.md: export a PyTorch model to continuum's safetensors format and check that continuum
predicts what PyTorch predicts. Needs PyTorch (Debian python3-torch); without it the script exits
with status 77, which tests/python/test_examples.py reports as a skip. Run from the repository root."""
import pathlib
import sys
import tempfile

import numpy as np

from continuum import forecast

try:
    import torch
    from torch import nn
except ImportError:
    print("lstm_export.py needs PyTorch: apt-get install python3-torch")
    sys.exit(77)


class Net(nn.Module):
    """What continuum loads: a batch_first nn.LSTM called `lstm` and a Linear/ReLU head called `head`."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(input_size=1, hidden_size=16, num_layers=1, batch_first=True)
        self.head = nn.Linear(16, 1)

    def forward(self, x):
        return self.head(self.lstm(x)[0][:, -1, :])  # the top layer's hidden state at the last step


torch.manual_seed(0)
net = Net()
scaling = {"kind": "min_max", "min": [0.0], "max": [100.0]}  # raw CPU % -> [0, 1]

# A few seconds of training on a synthetic daily CPU pattern (tools/train_lstm.py does it properly).
minutes = np.arange(720)
cpu = 40.0 + 15.0 * np.sin(2 * np.pi * minutes / 240.0) + np.random.default_rng(0).normal(0, 1.0, minutes.size)
x = torch.tensor(np.lib.stride_tricks.sliding_window_view(cpu[:-1] / 100.0, 10)[:, :, None], dtype=torch.float32)
y = torch.tensor(cpu[10:, None] / 100.0, dtype=torch.float32)
optimiser = torch.optim.Adam(net.parameters(), lr=0.02)
for epoch in range(60):
    optimiser.zero_grad()
    loss = nn.functional.mse_loss(net(x), y)
    loss.backward()
    optimiser.step()
net.eval()  # float32 weights -> F32 tensors; continuum computes in float64 either way

with tempfile.TemporaryDirectory() as folder:
    path = str(pathlib.Path(folder) / "net.safetensors")
    forecast.export_torch(net, path, window=10, scaling=scaling)
    model = forecast.Lstm.load(path)

window = np.array([41.2, 40.8, 43.0, 44.1, 42.9, 41.7, 40.2, 39.9, 41.5, 42.0])
with torch.no_grad():
    scaled = torch.tensor((window / 100.0).reshape(1, 10, 1), dtype=torch.float32)
    want = float(net(scaled)[0, 0]) * 100.0  # output scaling defaults to the input's min_max
got = model.predict(window)
print(f"PyTorch {want:.5f} %, continuum {got:.5f} %")
assert abs(got - want) < 1e-4  # float32 PyTorch vs float64 continuum
