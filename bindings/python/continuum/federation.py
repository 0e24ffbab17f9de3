"""continuum.federation: offers, label selectors, cost models, the Federation Recommender, the
Cluster Autoscaler expanders (random, most-pods, least-nodes, least-waste, price, priority, chains),
the FederatedClusterScaler and the reservation Ledger (seed 000, Liqo-aware multi-provider CA)."""

from . import _core
from ._submodule import export

__all__ = export(_core.federation, globals())
