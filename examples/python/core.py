"""docs/core.md: quantities and resources."""
import continuum

# Kubernetes quantities, parsed exactly as apimachinery does.
assert str(continuum.Quantity("1.5Gi")) == "1536Mi"
assert continuum.Quantity("0.0001").milli_value == 1  # rounded away from zero
assert continuum.parse_quantity("250m", -3) == 250
assert continuum.format_quantity(1610612736, 0, continuum.QuantityFormat.binary_si) == "1536Mi"
# Ordering and exact arithmetic, as resource.Quantity's Cmp, Add, Mul and RoundUp.
request = continuum.Quantity("250m") * 3 + continuum.Quantity("0.5")
assert str(request) == "1250m" and request < continuum.Quantity("2")
assert continuum.Quantity("9.01").round_up(0) == (continuum.Quantity("10"), False)
assert int(continuum.Quantity("1.5Gi")) == 1610612736 and float(continuum.Quantity("1500m")) == 1.5

# Resources: a bare number is whole units (cores, bytes), a string a quantity; reading gives the
# same units back (an int when whole, else the quantity), canonical millicores only by name.
node = continuum.Resources({"cpu": "4", "memory": "16Gi"})
pod = continuum.Resources({"cpu": "250m", "memory": "512Mi"})
nodes = continuum.ceil_div(pod * 40, node)
share = continuum.dominant_share(pod, node)
print(f"pod {pod.to_quantities()} fits: {pod.fits_in(node)}, 40 pods need {nodes} nodes, share {share}")
assert pod.fits_in(node) and nodes == 3 and share == 0.0625
assert pod["cpu"] == "250m" and pod.canonical("cpu") == 250 and pod.to_quantities() == {"cpu": "250m", "memory": "512Mi"}
assert node["cpu"] == 4 and continuum.Resources(dict(pod)) == pod  # round trip
assert continuum.Resources.from_cores(2.31)["cpu"] == "2310m"
assert continuum.ceil_div(pod * 40, {"cpu": "4", "memory": "16Gi"}) == 3  # a dict converts implicitly

# Bad input raises a continuum.Error subclass naming the value.
try:
    continuum.Quantity("5Zi")
    raise AssertionError("expected ParseError")
except continuum.ParseError as e:
    print("ParseError:", e)
