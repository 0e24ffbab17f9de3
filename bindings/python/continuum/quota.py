"""continuum.quota: QuotaLevels (snap_up is the paper's GetNearestQuotaLevel), ReactiveQuotaScaler
(Algorithm 2), ProactiveQuotaScaler (Algorithm 1), HybridQuotaScaler over any continuum forecaster
(or a callable history -> prediction), the multi-namespace fairness rule and split_across_clusters
for Karmada FederatedResourceQuota (seed 001, hybrid resource-quota scaling)."""

from . import _core
from ._submodule import export

__all__ = export(_core.quota, globals())
