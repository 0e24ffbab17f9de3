# Type stubs: the names of continuum._core.forecast, plus the pure-Python torch exporter.
from ._core.forecast import *  # noqa: F401,F403
from ._lstm_export import export_torch as export_torch, write_safetensors as write_safetensors
