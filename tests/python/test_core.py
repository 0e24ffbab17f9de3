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


@pytest.mark.parametrize(
    "text, canonical",
    [  # apimachinery TestQuantityParseEmit / TestQuantityString rows
        ("1Ki", "1Ki"),
        ("1024Mi", "1Gi"),
        ("1000M", "1G"),
        (".001Ki", "1024m"),
        (".000000000001Ki", "2n"),
        ("1080000000n", "1080m"),
        ("1000E", "1e21"),
        ("0.001e0", "1e-3"),
        ("307200Ki", "300Mi"),
    ],
)
def test_quantity_string_as_apimachinery(text, canonical):
    q = continuum.Quantity(text)
    assert str(q) == canonical
    assert str(-q) == "-" + canonical
    assert repr(q) == f"Quantity('{canonical}')"


def test_quantity_keeps_the_text_upstream_caches():
    # ParseQuantity's fast path keeps canonical-looking text verbatim for String()
    assert str(continuum.Quantity("+1")) == "+1"
    assert continuum.Quantity("+1").canonical() == "1"
    assert str(continuum.Quantity("1E3")) == "1E3"
    assert repr(continuum.Quantity("1E3")) == "Quantity('1E3')"
    assert str(continuum.Quantity("1E3") + continuum.Quantity("0")) == "1e3"


def test_quantity_exactness_issue_16():
    smallest = continuum.Quantity("-9223372036854775808")
    assert int(smallest) == -(2**63)
    assert continuum.Quantity("-9223372036854775808000m") == smallest
    assert continuum.Quantity("-9223372036854775808.0") == smallest
    for text in ("999999999999999999.1", "1000000000000000000.1", "9Ei", "8Ei"):
        with pytest.raises(continuum.ParseError, match=text):
            continuum.Quantity(text)
    for text in (".", "-.", "-", "Ki"):
        assert continuum.Quantity(text).is_zero()
    assert continuum.Quantity("10E").exponent == 19


def test_quantity_ordering_and_arithmetic():
    # TestQuantityCmp, TestAdd, TestSub, TestMul, TestQuantityNeg
    assert continuum.Quantity("100m") > continuum.Quantity("50m")
    assert continuum.Quantity("10000T") > continuum.Quantity("100Gi")
    assert continuum.Quantity("50m").cmp(continuum.Quantity("100m")) == -1
    assert sorted([continuum.Quantity(t) for t in ("1Gi", "1G", "500Mi")]) == [
        continuum.Quantity("500Mi"), continuum.Quantity("1G"), continuum.Quantity("1Gi")]
    assert continuum.Quantity("10") + continuum.Quantity("1e1") == continuum.Quantity("20")
    assert str(continuum.Quantity("0") - continuum.Quantity("50")) == "-50"
    assert (continuum.Quantity("10Ki") - continuum.Quantity("1")).format == continuum.QuantityFormat.binary_si
    assert str(-continuum.Quantity("9.01")) == "-9010m"
    assert continuum.Quantity("-50") * -50 == continuum.Quantity("2500")
    assert 3 * continuum.Quantity("250m") == continuum.Quantity("750m")
    assert continuum.Quantity.from_scaled(2**63 - 1, 0) * 10 == continuum.Quantity.from_scaled(2**63 - 1, 1)
    with pytest.raises(continuum.InvalidArgument, match="int64 mantissa"):
        continuum.Quantity.from_scaled(2**63 - 1, 0) * 2
    with pytest.raises(continuum.InvalidArgument):
        -continuum.Quantity("-9223372036854775808")
    assert hash(continuum.Quantity("1Ki")) == hash(continuum.Quantity("1024"))
    assert len({continuum.Quantity("1.5"), continuum.Quantity("1500m"), continuum.Quantity("1500000u")}) == 1
    assert (continuum.Quantity("1") == "1") is False


def test_quantity_round_up_and_conversions():
    # TestQuantityRoundUp
    assert continuum.Quantity("9.01").round_up(-1) == (continuum.Quantity("9.1"), False)
    assert continuum.Quantity("-9.01").round_up(2) == (continuum.Quantity("-100"), False)
    assert continuum.Quantity("9.01").round_up(-3) == (continuum.Quantity("9.01"), True)
    # TestQuantityAsApproximateFloat64, TestStringQuantityAsApproximateFloat64
    assert continuum.Quantity("1.1Ki").as_approximate_float64() == 1126.4
    assert continuum.Quantity.from_scaled(7 * 1024 * 1024, -1).as_approximate_float64() == 734003.2000000001
    assert continuum.Quantity("0.3").as_approximate_float64() == 0.30000000000000004
    assert float(continuum.Quantity("0.3")) == 0.3
    assert float(continuum.Quantity.from_scaled(12, 500)) == float("inf")
    assert int(continuum.Quantity("1.5Gi")) == 1610612736
    assert continuum.Quantity("1000m").as_int64() == 1
    assert continuum.Quantity("1500m").as_int64() is None
    with pytest.raises(continuum.InvalidArgument, match="not an integer"):
        int(continuum.Quantity("1500m"))
    assert continuum.Quantity("-1m").sign() == -1 and continuum.Quantity("0Gi").sign() == 0
    assert not continuum.Quantity("0") and continuum.Quantity("1n")


def test_quantity_constructors_and_json():
    # TestNewSet, TestMilliNewSet, TestNewScaledSet, TestJSON, TestJSONWhitespace
    fmt = continuum.QuantityFormat
    assert str(continuum.Quantity.from_value(1024, fmt.binary_si)) == "1Ki"
    assert str(continuum.Quantity.from_value(1000000, fmt.decimal_exponent)) == "1e6"
    assert str(continuum.Quantity.from_milli(1024, fmt.binary_si)) == "1024m"
    assert str(continuum.Quantity.from_milli(1234000)) == "1234"
    assert str(continuum.Quantity.from_scaled(1000, -9)) == "1u"
    assert continuum.Quantity("1Mi").to_json() == '"1Mi"'
    assert continuum.Quantity.from_json('" -1"') == continuum.Quantity("-1")
    assert continuum.Quantity.from_json("null").is_zero()
    for q in (continuum.Quantity("1.5Gi"), continuum.Quantity("-7e-3"), continuum.Quantity.from_scaled(5, 21)):
        assert continuum.Quantity.from_json(q.to_json()) == q
    with pytest.raises(continuum.ParseError):
        continuum.Quantity.from_json('"invalid"')


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
    assert r["cpu"] == "250m"  # whole units when whole, else the quantity (issue 18)
    assert r.canonical("cpu") == 250
    assert r["memory"] == 1 << 30
    assert r["pods"] == 3
    assert r["nvidia.com/gpu"] == 0
    assert "cpu" in r and "nvidia.com/gpu" not in r
    assert sorted(r) == ["cpu", "memory", "pods"]
    assert r.to_dict() == {"cpu": "250m", "memory": 1 << 30, "pods": 3}
    assert r.to_dict(canonical=True) == {"cpu": 250, "memory": 1 << 30, "pods": 3}
    assert r.to_quantities() == {"cpu": "250m", "memory": "1Gi", "pods": "3"}
    assert r.quantity("memory") == "1Gi"
    assert str(r) == "{cpu: 250m, memory: 1Gi, pods: 3}"
    # ints are whole natural units, floats round up
    assert continuum.Resources({"cpu": 2})["cpu"] == 2
    assert continuum.Resources({"cpu": 2.3101}).canonical("cpu") == 2311
    assert continuum.Resources.from_cores(2.31)["cpu"] == "2310m"


def test_resources_arithmetic_and_dicts_convert_implicitly():
    node = continuum.Resources({"cpu": "4", "memory": "16Gi"})
    pod = continuum.Resources({"cpu": "250m", "memory": "512Mi"})
    assert continuum.ceil_div(pod * 40, node) == 3
    assert continuum.ceil_div({"cpu": "10"}, {"cpu": "4"}) == 3  # dicts convert implicitly
    assert (node - pod)["cpu"] == "3750m"
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
