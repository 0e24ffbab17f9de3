"""continuum.capacity: shortfall, required_nodes, waiting (paused / hibernated) worker nodes and
choose_nodes_to_activate (seed 001, hybrid resource-quota scaling, sections 3.3-3.4)."""

from . import _core
from ._submodule import export

__all__ = export(_core.capacity, globals())
