"""docs/getting-started.md: the first decision, how many nodes 40 pods need."""
import continuum

pod = continuum.Resources({"cpu": "250m", "memory": "512Mi"})
nodes = continuum.ceil_div(pod * 40, {"cpu": "4", "memory": "16Gi"})  # cpu decides: 10 / 4 -> 3
print(f"40 x {pod.to_quantities()} need {nodes} nodes")
assert nodes == 3
