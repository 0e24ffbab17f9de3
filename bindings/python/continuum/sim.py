"""continuum.sim: the trace-driven simulator (Simulator, LoadProfile), continuum's scalers as
simulator adapters (StaticScaler, HpaAdapter, ClusterAutoscaler, ReactiveQuotaAdapter,
ProactiveQuotaAdapter, HybridQuotaAdapter, FederatedClusterAdapter, HierarchicalAdapter), the seed
papers' workload shapes (heartbeat_stages, flash_sale_stages, vu_to_cpu, rising_falling_replicas,
bursty_cpu) and their experiments replayed (replay_seed000, replay_seed001, replay_seed004,
replay_alibaba) returning tables as dicts."""

from . import _core
from ._submodule import export

__all__ = export(_core.sim, globals())
