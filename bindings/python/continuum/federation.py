"""continuum.federation: offers, the offer catalogue, label selectors, cost models, the Federation
Recommender, the Cluster Autoscaler expanders (random, most-pods, least-nodes, least-waste, price,
priority, chains), the FederatedClusterScaler and the reservation Ledger (seed 000, Liqo-aware
multi-provider CA). PlacedPod and PodMove are continuum.packing's types, re-exported here."""

from . import _core
from ._submodule import export

__all__ = export(_core.federation, globals())

PlacedPod = _core.packing.PlacedPod
PodMove = _core.packing.PodMove
__all__ += ["PlacedPod", "PodMove"]
