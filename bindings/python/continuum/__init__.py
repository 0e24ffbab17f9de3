"""continuum: header-only C++20 autoscaling decision engines, from Python.

The C++ extension lives in ``continuum._core``; each library area is a submodule here
(``continuum.packing``, ``continuum.forecast``, ...), mirroring the C++ namespaces.
"""

from ._core import (  # noqa: F401
    Error,
    InvalidArgument,
    ParseError,
    Infeasible,
    Quantity,
    QuantityFormat,
    Resources,
    parse_quantity,
    format_quantity,
    ceil_div,
    dominant_share,
    positive_part,
    __version__,
)

# The library areas, as submodules mirroring the C++ namespaces.
from . import capacity, federation, forecast, packing, policy, quota, scalers, sim  # noqa: E402,F401
from . import _state  # noqa: E402,F401  (makes the stateful objects picklable)

__all__ = [
    "Error",
    "InvalidArgument",
    "ParseError",
    "Infeasible",
    "Quantity",
    "QuantityFormat",
    "Resources",
    "parse_quantity",
    "format_quantity",
    "ceil_div",
    "dominant_share",
    "positive_part",
    "__version__",
    "capacity",
    "federation",
    "forecast",
    "packing",
    "policy",
    "quota",
    "scalers",
    "sim",
]
