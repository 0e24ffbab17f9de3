"""continuum.packing: bin packing for node planning (seed 004's Node Planning Agent) and
consolidation (seed 001): first/best/next fit (decreasing) for 1-D and vector items over numpy
arrays, the Martello-Toth L2 lower bound, a budgeted exact solver (column generation + diving +
branch and bound), the cheapest mix of node types, and consolidation plans."""

from . import _core
from ._submodule import export

__all__ = export(_core.packing, globals())
