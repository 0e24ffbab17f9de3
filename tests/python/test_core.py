"""continuum core from Python: quantities, Resources, the exception hierarchy."""

import pytest

import continuum


@pytest.mark.parametrize(
    "text, scale, expected",
    [
        ("250m", -3, 250),
        ("2", -3, 2000),
        ("0.0001", -3, 1),
        ("1.5Gi", 0, 1610612736),
        ("1e3", 0, 1000),
        ("1500m", 0, 2),
    ],
)
def test_parse_quantity(text, scale, expected):
    assert continuum.parse_quantity(text, scale) == expected


def test_quantity_canonical_form():
    assert str(continuum.Quantity("1.5Gi")) == "1536Mi"
    assert str(continuum.Quantity("1.5")) == "1500m"
    assert continuum.Quantity("1Ki") == continuum.Quantity("1024")
    assert continuum.Quantity("0.0001").milli_value == 1
    assert continuum.format_quantity(1500, -3) == "1500m"
    assert continuum.format_quantity(1610612736, 0, continuum.QuantityFormat.binary_si) == "1536Mi"


def test_errors_are_typed_and_named():
    with pytest.raises(continuum.ParseError, match='"5Zi"'):
        continuum.parse_quantity("5Zi")
    assert issubclass(continuum.ParseError, continuum.InvalidArgument)
    assert issubclass(continuum.InvalidArgument, ValueError)
    assert issubclass(continuum.InvalidArgument, continuum.Error)
    assert issubclass(continuum.Infeasible, continuum.Error)
    with pytest.raises(ValueError):
        continuum.Resources({"memory": "4GB"})
    with pytest.raises(continuum.Infeasible, match="nvidia.com/gpu"):
        continuum.ceil_div(continuum.Resources({"nvidia.com/gpu": 1}), continuum.Resources({"cpu": 4}))
    with pytest.raises(continuum.InvalidArgument, match="overflow"):
        continuum.Resources.from_units({"cpu": 2**62}) * 4


def test_resources_dict_like():
    r = continuum.Resources({"cpu": "250m", "memory": "1Gi", "pods": 3})
    assert r["cpu"] == 250
    assert r["memory"] == 1 << 30
    assert r["pods"] == 3
    assert r["nvidia.com/gpu"] == 0
    assert "cpu" in r and "nvidia.com/gpu" not in r
    assert sorted(r) == ["cpu", "memory", "pods"]
    assert r.to_dict() == {"cpu": 250, "memory": 1 << 30, "pods": 3}
    assert r.to_quantities() == {"cpu": "250m", "memory": "1Gi", "pods": "3"}
    assert r.quantity("memory") == "1Gi"
    assert str(r) == "{cpu: 250m, memory: 1Gi, pods: 3}"
    # ints are whole natural units, floats round up
    assert continuum.Resources({"cpu": 2})["cpu"] == 2000
    assert continuum.Resources({"cpu": 2.3101})["cpu"] == 2311
    assert continuum.Resources.from_cores(2.31)["cpu"] == 2310


def test_resources_arithmetic_and_dicts_convert_implicitly():
    node = continuum.Resources({"cpu": "4", "memory": "16Gi"})
    pod = continuum.Resources({"cpu": "250m", "memory": "512Mi"})
    assert continuum.ceil_div(pod * 40, node) == 3
    assert continuum.ceil_div({"cpu": "10"}, {"cpu": "4"}) == 3  # dicts convert implicitly
    assert (node - pod)["cpu"] == 3750
    assert (pod - node).any_negative()
    assert continuum.positive_part(pod - node).to_dict() == {}
    assert pod.fits_in(node)
    assert continuum.dominant_share(pod, node) == pytest.approx(1 / 16)


def test_bad_resource_values():
    with pytest.raises(continuum.InvalidArgument):
        continuum.Resources({"cpu": float("nan")})
    with pytest.raises(continuum.InvalidArgument):
        continuum.Resources({"cpu": -1.0})
    with pytest.raises(continuum.InvalidArgument):
        continuum.Resources({"cpu": True})
    with pytest.raises(continuum.InvalidArgument):
        continuum.Resources({"cpu": [1]})


def test_version():
    assert continuum.__version__.count(".") == 2
