"""continuum.policy: the MAS-H² strategic policy tuple (Policy, cost_saving, performance), the
utility U(S | P) (Utility, UtilityState) and the Strategic Agent's PolicySelector (seed 004)."""

from . import _core
from ._submodule import export

__all__ = export(_core.policy, globals())
