"""continuum.forecast: demand forecasters (seed 001's forecast, seed 004's portfolio future work).

Baselines (Naive, SeasonalNaive, SeasonalMedian, Drift, MovingAverage, MovingMedian,
LinearRegression, SimpleExponentialSmoothing), HoltWinters (statsmodels-compatible smoothing, SSE fit), auto_ets
(AICc choice), Portfolio / auto (rolling-origin selection and combination), the metrics mae, rmse,
mape, smape, mase, owa, and the LSTM forecaster (Lstm, export_torch)."""

from . import _core
from ._submodule import export

__all__ = export(_core.forecast, globals())

from ._lstm_export import export_torch, write_safetensors  # noqa: E402

__all__ += ["export_torch", "write_safetensors"]
