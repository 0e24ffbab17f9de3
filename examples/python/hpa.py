"""docs/hpa.md: the Kubernetes HPA on one cpu Utilization metric: scale up at once, scale down only
after the 300 s stabilisation window."""
import numpy as np

from continuum import scalers


def cpu_at(n, usage):
    """n pods, each requesting 1 core and using `usage` cores, against a 75 % target."""
    return scalers.HpaMetric.resource_utilization("cpu", 75, usage=np.full(n, usage), requests=np.full(n, 1))


hpa = scalers.Hpa(min_replicas=1, max_replicas=100, metrics=[cpu_at(50, 0.9)])
up = hpa.decide(50, now=0.0)  # 50 pods at 90 %: ceil(50 * 90 / 75) = 60, at once
held = hpa.decide(60, now=60.0, metrics=[cpu_at(60, 0.3)])  # 30 %: proposes 24, held back
down = hpa.decide(60, now=400.0, metrics=[cpu_at(60, 0.3)])  # the 300 s window has passed
for d in (up, held, down):
    print(f"{d.current_replicas} -> {d.desired_replicas} (metric {d.metric_replicas}, {d.able_to_scale_reason})")
assert up.desired_replicas == 60 and up.scale
assert (held.metric_replicas, held.desired_replicas, held.able_to_scale_reason) == (24, 60, "ScaleDownStabilized")
assert down.desired_replicas == 24
