"""Export a PyTorch LSTM forecaster to the safetensors file that ``continuum.forecast.Lstm.load``
(C++: ``continuum::forecast::load_lstm``) reads. torch is imported only when ``export_torch`` is
called; the file is written with numpy + json (no ``safetensors`` package needed).

File layout (docs/lstm.md): tensors named as in the module's ``state_dict`` (``lstm.weight_ih_l0``,
``lstm.weight_hh_l0``, ``lstm.bias_ih_l0``, ``lstm.bias_hh_l0``, ..., ``head.weight`` or
``head.<i>.weight``), and string metadata: ``format``, ``window``, ``input_size``, ``hidden_size``,
``num_layers``, ``head``, ``target_feature``, ``input_scaling`` (+ ``input_min``/``input_max`` or
``input_mean``/``input_std``), ``output_scaling`` (+ ``output_*``), optionally ``step_seconds``.
"""

import json
import math
from typing import Any, Dict, List, Mapping, Optional, Sequence

import numpy as np

FORMAT = "continuum-lstm/1"

_DTYPES = {np.dtype("float32"): ("F32", "<f4"), np.dtype("float64"): ("F64", "<f8")}


def write_safetensors(path: str, tensors: Mapping[str, np.ndarray], metadata: Optional[Mapping[str, str]] = None) -> None:
    """Write ``tensors`` (name -> float32/float64 array, in the given order) and string ``metadata``
    as a safetensors file: 8-byte little-endian header length, JSON header padded with spaces to a
    multiple of 8, then the little-endian C-order data, contiguous."""
    header: Dict[str, Any] = {}
    if metadata:
        for key, value in metadata.items():
            if not isinstance(key, str) or not isinstance(value, str):
                raise TypeError(f"safetensors metadata must map str to str, got {key!r}: {value!r}")
        header["__metadata__"] = dict(metadata)
    chunks: List[bytes] = []
    offset = 0
    for name, array in tensors.items():
        array = np.asarray(array)
        if array.dtype not in _DTYPES:
            raise TypeError(f"tensor {name}: dtype {array.dtype} is not float32 or float64")
        dtype, little = _DTYPES[array.dtype]
        data = np.ascontiguousarray(array, dtype=little).tobytes()
        header[name] = {"dtype": dtype, "shape": list(array.shape), "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as out:
        out.write(len(text).to_bytes(8, "little"))
        out.write(text)
        for chunk in chunks:
            out.write(chunk)


def _as_list(values: Any, count: int, what: str) -> List[float]:
    array = np.atleast_1d(np.asarray(values, dtype=np.float64)).ravel()
    if array.size != count:
        raise ValueError(f"{what}: expected {count} value(s) (one per feature), got {array.size}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{what}: values must be finite, got {array.tolist()}")
    return [float(v) for v in array]


def _scaling_metadata(prefix: str, scaling: Optional[Mapping[str, Any]], count: int) -> Dict[str, str]:
    if scaling is None or scaling.get("kind", "none") == "none":
        return {f"{prefix}_scaling": "none"}
    kind = scaling.get("kind")
    if kind == "min_max":
        low = _as_list(scaling["min"], count, f"{prefix} scaling min")
        high = _as_list(scaling["max"], count, f"{prefix} scaling max")
        if any(h <= l for l, h in zip(low, high)):
            raise ValueError(f"{prefix} scaling: every max must exceed its min, got min={low} max={high}")
        return {f"{prefix}_scaling": "min_max", f"{prefix}_min": json.dumps(low), f"{prefix}_max": json.dumps(high)}
    if kind == "z_score":
        mean = _as_list(scaling["mean"], count, f"{prefix} scaling mean")
        std = _as_list(scaling["std"], count, f"{prefix} scaling std")
        if any(not s > 0 for s in std):
            raise ValueError(f"{prefix} scaling: every std must be > 0, got {std}")
        return {f"{prefix}_scaling": "z_score", f"{prefix}_mean": json.dumps(mean), f"{prefix}_std": json.dumps(std)}
    raise ValueError(f"{prefix} scaling kind must be 'none', 'min_max' or 'z_score', got {kind!r}")


def _select(scaling: Optional[Mapping[str, Any]], feature: int) -> Optional[Dict[str, Any]]:
    """The target feature's entry of a per-feature scaling (the default output scaling)."""
    if scaling is None or scaling.get("kind", "none") == "none":
        return None
    out: Dict[str, Any] = {"kind": scaling["kind"]}
    for key, value in scaling.items():
        if key != "kind":
            out[key] = [np.atleast_1d(np.asarray(value, dtype=np.float64)).ravel()[feature]]
    return out


def export_torch(
    model: Any,
    path: str,
    window: int,
    scaling: Optional[Mapping[str, Any]] = None,
    *,
    output_scaling: Optional[Mapping[str, Any]] = None,
    target_feature: int = 0,
    step_seconds: Optional[int] = None,
) -> None:
    """Write ``model`` to ``path`` as a continuum LSTM safetensors file.

    ``model`` is any ``torch.nn.Module`` with submodules ``lstm`` (``nn.LSTM``, ``batch_first=True``,
    unidirectional, ``proj_size=0``, with biases) and ``head`` (``nn.Linear``, or ``nn.Sequential``
    of ``nn.Linear``, ``nn.ReLU`` and, ignored at inference, ``nn.Dropout``/``nn.Identity``). The
    head reads the top layer's hidden state at the last time step.

    ``window`` is the number of time steps per input. ``scaling`` maps raw inputs to model units,
    per feature: ``{"kind": "min_max", "min": [...], "max": [...]}``, ``{"kind": "z_score",
    "mean": [...], "std": [...]}`` or None. ``output_scaling`` (one value each) defaults to the
    target feature's entry of ``scaling``. Tensors keep the model's dtype (float32 -> F32,
    float64 -> F64). Raises TypeError/ValueError on a model or argument the C++ side cannot load.
    """
    import torch  # noqa: PLC0415 - imported only when exporting
    from torch import nn  # noqa: PLC0415

    lstm = getattr(model, "lstm", None)
    head = getattr(model, "head", None)
    if not isinstance(lstm, nn.LSTM):
        raise TypeError(f"model.lstm must be an nn.LSTM, got {type(lstm).__name__}")
    if not lstm.batch_first:
        raise ValueError("model.lstm must be built with batch_first=True")
    if lstm.bidirectional:
        raise ValueError("bidirectional LSTMs are not supported")
    if getattr(lstm, "proj_size", 0):
        raise ValueError("LSTMs with proj_size > 0 are not supported")
    if not lstm.bias:
        raise ValueError("model.lstm must have biases (bias=True)")
    if isinstance(head, nn.Linear):
        layout = ["linear"]
    elif isinstance(head, nn.Sequential):
        layout = []
        for index, module in enumerate(head):
            if isinstance(module, nn.Linear):
                layout.append("linear")
            elif isinstance(module, nn.ReLU):
                layout.append("relu")
            elif isinstance(module, (nn.Dropout, nn.Identity)):
                layout.append("identity")
            else:
                raise TypeError(f"model.head[{index}] is {type(module).__name__}; only Linear, ReLU, Dropout and Identity are supported")
        if "linear" not in layout:
            raise ValueError("model.head has no nn.Linear")
    else:
        raise TypeError(f"model.head must be an nn.Linear or nn.Sequential, got {type(head).__name__}")
    if not isinstance(window, int) or window < 1:
        raise ValueError(f"window must be an int >= 1, got {window!r}")
    features = lstm.input_size
    if not 0 <= target_feature < features:
        raise ValueError(f"target_feature must be in [0, {features}), got {target_feature}")

    tensors: Dict[str, np.ndarray] = {}
    with torch.no_grad():
        for name, value in model.state_dict().items():
            if not (name.startswith("lstm.") or name.startswith("head.")):
                continue
            array = value.detach().cpu().contiguous().numpy()
            if array.dtype not in _DTYPES:
                array = array.astype(np.float32)
            if not np.all(np.isfinite(array)):
                raise ValueError(f"tensor {name} holds NaN or infinite values")
            tensors[name] = array

    metadata: Dict[str, str] = {
        "format": FORMAT,
        "window": str(window),
        "input_size": str(features),
        "hidden_size": str(lstm.hidden_size),
        "num_layers": str(lstm.num_layers),
        "head": json.dumps(layout),
        "target_feature": str(target_feature),
    }
    if step_seconds is not None:
        if not isinstance(step_seconds, int) or step_seconds <= 0 or math.isnan(step_seconds):
            raise ValueError(f"step_seconds must be a positive int, got {step_seconds!r}")
        metadata["step_seconds"] = str(step_seconds)
    metadata.update(_scaling_metadata("input", scaling, features))
    if output_scaling is None:
        output_scaling = _select(scaling, target_feature)
    metadata.update(_scaling_metadata("output", output_scaling, 1))
    write_safetensors(path, tensors, metadata)


__all__: Sequence[str] = ["export_torch", "write_safetensors"]
