"""continuum.scalers: the Kubernetes HPA reference (Hpa, HpaMetric, HpaBehavior, KEDA activation)
and the MAS-H² HierarchicalScaler with make-before-break migration (seed 004)."""

from . import _core
from ._submodule import export

__all__ = export(_core.scalers, globals())
