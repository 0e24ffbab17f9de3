"""One meaning for a number in every Python entry point that takes or returns resources (issue 18):
a bare number is whole units (cores for cpu, bytes for memory, a count otherwise), a float is rounded
up to the canonical unit, a string is a Kubernetes quantity; canonical integers (millicores) only
through names that say so. Every entry point converts with the same converter, so the same inputs
give the same value and the same errors, naming the argument."""

import math

import numpy as np
import pytest

import continuum
from continuum import capacity, federation, forecast, packing, policy, quota, scalers

Resources = continuum.Resources

# Entry points that store one resources argument, each with the way to read back what it stored:
# (name of the argument in error messages, build(value) -> Resources).
STORING = {
    "Resources": ("quantities", lambda r: Resources(r)),
    "capacity.WaitingNode": ("capacity", lambda r: capacity.WaitingNode("wn", r).capacity),
    "packing.NodeType": ("capacity", lambda r: packing.NodeType("t", r).capacity),
    "packing.ExistingNode.capacity": ("capacity", lambda r: packing.ExistingNode("n", r).capacity),
    "packing.ExistingNode.allocated": ("allocated", lambda r: packing.ExistingNode("n", {"cpu": 64}, r).allocated),
    "packing.PlacedPod": ("request", lambda r: packing.PlacedPod("p", r).request),
    "packing.NodeState": ("capacity", lambda r: packing.NodeState("n", r).capacity),
    "federation.Offer": ("capacity", lambda r: federation.Offer("c", r).capacity),
    "federation.ExpansionPod": ("requests", lambda r: federation.ExpansionPod("p", r).requests),
    "federation.PendingPod": ("request", lambda r: federation.PendingPod("p", r).request),
    "federation.VirtualNode": ("allocatable", lambda r: federation.VirtualNode("v", "c", r).allocatable),
    "federation.Ledger.set_capacity": ("capacity", lambda r: _ledger_capacity(r)),
    "policy.Policy": ("node_capacity", lambda r: policy.Policy("p", "pool", "t", r).node_capacity),
    "scalers.ApplicationState": ("pod_request", lambda r: scalers.ApplicationState("a", r).pod_request),
    "scalers.OtherWorkload": ("request", lambda r: scalers.OtherWorkload("o", r).request),
    "quota.NamespaceSnapshot.usage": ("usage", lambda r: quota.NamespaceSnapshot("ns", r, {}).usage),
    "quota.NamespaceSnapshot.quota": ("quota", lambda r: quota.NamespaceSnapshot("ns", {}, r).quota),
    "positive_part": ("resources", lambda r: continuum.positive_part(r)),
}


def _ledger_capacity(r):
    ledger = federation.Ledger()
    ledger.set_capacity("c", r)
    return ledger.capacity("c")


# Spellings of the same amounts: 2.5 cores and 1 GiB.
SAME = [
    {"cpu": "2500m", "memory": "1Gi"},
    {"cpu": "2.5", "memory": 2**30},
    {"cpu": 2.5, "memory": "1073741824"},
    {"cpu": 2.4991, "memory": 2**30},  # a float rounds up to the millicore: 2499.1m -> 2500m
    Resources.from_units({"cpu": 2500, "memory": 2**30}),
    {"cpu": continuum.Quantity("2500m"), "memory": np.int64(2**30)},
]
EXPECTED = Resources.from_units({"cpu": 2500, "memory": 2**30})


@pytest.mark.parametrize("entry", sorted(STORING))
def test_every_entry_point_reads_numbers_as_whole_units(entry):
    _, build = STORING[entry]
    for spelled in SAME:
        stored = build(spelled)
        assert stored == EXPECTED, (entry, spelled)
        assert stored["cpu"] == "2500m" and stored["memory"] == 2**30
    whole = build({"cpu": 2, "memory": 3})
    assert whole.canonical("cpu") == 2000 and whole["cpu"] == 2 and whole["memory"] == 3
    assert whole == build({"cpu": "2", "memory": "3"}) == build({"cpu": 2.0, "memory": 2.5})


@pytest.mark.parametrize("entry", sorted(STORING))
def test_every_entry_point_names_the_argument_on_bad_input(entry):
    argument, build = STORING[entry]
    with pytest.raises(continuum.InvalidArgument, match=f"^{argument}: expected a continuum.Resources or a dict"):
        build(5)
    with pytest.raises(continuum.InvalidArgument, match=f"^{argument}: expected a continuum.Resources or a dict"):
        build([("cpu", 1)])
    for bad in (math.nan, math.inf, -1.5):
        with pytest.raises(continuum.InvalidArgument, match=rf'^{argument}\["cpu"\]: a float amount of "cpu" must be finite and >= 0'):
            build({"cpu": bad})
    with pytest.raises(continuum.InvalidArgument, match=rf'^{argument}\["cpu"\]: expected a number or a quantity string, got bool'):
        build({"cpu": True})
    with pytest.raises(continuum.InvalidArgument, match=rf'^{argument}\["cpu"\]: expected an int or float .* got list'):
        build({"cpu": [1]})
    with pytest.raises(continuum.ParseError, match=rf'^{argument}\["cpu"\]: '):
        build({"cpu": "5Zi"})
    with pytest.raises(continuum.InvalidArgument, match=rf'^{argument}\["memory"\]: .* do not fit in int64'):
        build({"memory": 2**70})


ROUND_TRIP = [
    Resources(),
    Resources({"cpu": 2}),
    Resources({"cpu": "250m", "memory": "1.5Gi", "nvidia.com/gpu": 1, "pods": 110}),
    Resources({"cpu": "1m", "requests.cpu": "2500m", "ephemeral-storage": "10Gi"}),
    Resources({"cpu": 1}) - Resources({"cpu": "1250m", "memory": 3}),  # negative amounts
    Resources.from_units({"cpu": 2**62, "memory": 2**62}),
    Resources.from_cores(2.31),
]


@pytest.mark.parametrize("r", ROUND_TRIP, ids=str)
def test_reading_gives_the_same_units_back(r):
    assert Resources(dict(r)) == r
    assert Resources(r.to_dict()) == r
    assert Resources(dict(r.items())) == r
    assert Resources.from_units(r.to_dict(canonical=True)) == r
    for name in r:
        assert r.canonical(name) == r.to_dict(canonical=True)[name]
        assert r.get(name) == r[name]
        value = r[name]
        # an int exactly when whole units, else the Kubernetes quantity
        assert isinstance(value, int) == (r.canonical(name) % 1000 == 0 or "cpu" not in name)
        assert isinstance(value, (int, str))
        copy = Resources()
        copy[name] = value
        assert copy.canonical(name) == r.canonical(name)


def test_canonical_units_only_by_name():
    assert Resources.from_units({"cpu": 2500, "memory": 2**30}) == Resources({"cpu": 2.5, "memory": "1Gi"})
    assert Resources.from_units({"cpu": -5}).canonical("cpu") == -5
    with pytest.raises(continuum.InvalidArgument, match=r'^units\["cpu"\]: 18446744073709551616 does not fit in int64'):
        Resources.from_units({"cpu": 2**64})
    with pytest.raises(continuum.InvalidArgument, match=r'^units\["cpu"\]: expected an int of canonical units, got str'):
        Resources.from_units({"cpu": "250m"})
    with pytest.raises(continuum.InvalidArgument, match="^units: expected a dict"):
        Resources.from_units([("cpu", 1)])


def test_reading_examples():
    r = Resources({"cpu": "250m", "memory": "1Gi"})
    assert r["cpu"] == "250m" and r["memory"] == 2**30 and r["absent"] == 0
    assert r.to_dict() == {"cpu": "250m", "memory": 2**30} == dict(r)
    assert r.to_dict(canonical=True) == {"cpu": 250, "memory": 2**30}
    assert r.get("gpu", None) is None and r.get("cpu") == "250m"
    assert Resources({"cpu": 4})["cpu"] == 4 and Resources.from_cores(2.31)["cpu"] == "2310m"
    r["cpu"] = 1.5
    assert r.canonical("cpu") == 1500
    with pytest.raises(continuum.InvalidArgument, match=r'^resources\["cpu"\]: a float amount'):
        r["cpu"] = math.nan


def test_quota_levels_mean_the_same_given_either_way():
    levels = quota.QuotaLevels([2, 4, 8, 16])
    assert levels.resource == "cpu" and levels.levels == [2, 4, 8, 16] and levels.canonical_levels == [2000, 4000, 8000, 16000]
    assert levels == quota.QuotaLevels(["2", "4000m", 8.0, 16]) == quota.QuotaLevels.parse("cpu", ["2", "4", "8", "16"])
    assert levels.snap_up(14.5) == 16 and levels.snap_up("3500m") == 4 and levels.snap_up(2) == 2
    assert levels.snap_down(14.5) == 8 and levels.snap_nearest(5.9) == 4 and levels.snap_nearest(6.0) == 8
    assert levels.top == 16 and levels.bottom == 2
    snap = levels.try_snap_up(17)
    assert snap.value == 17 and snap.outcome == quota.SnapOutcome.above_top
    assert levels.try_snap_up(0.001).value == 2
    assert quota.QuotaLevels(["500m", 1]).levels == ["500m", 1]
    assert repr(quota.QuotaLevels(["500m", 1])) == "QuotaLevels(['500m', 1])"
    memory = quota.QuotaLevels(["1Gi", "2Gi"], resource="memory")
    assert memory.levels == [2**30, 2**31] and memory.snap_up(1.5 * 2**30) == 2**31
    assert repr(memory) == "QuotaLevels([1073741824, 2147483648], resource='memory')"
    # the scaler's levels: cores, whether a list or a QuotaLevels
    given_list = quota.ProactiveQuotaScaler(levels={"cpu": [2, 4, 8, 16]})
    given_levels = quota.ProactiveQuotaScaler(levels={"cpu": levels})
    for scaler in (given_list, given_levels):  # a predicted decrease lowers the quota to snap_up(5.5 cores)
        d = scaler.decide(0, {"cpu": 5.5}, {"cpu": 16}, {"cpu": 5}, {"cpu": 32})
        assert d.action == quota.ProactiveAction.lower_quota and d.new_quota == Resources({"cpu": 8}), d.reason
    with pytest.raises(continuum.InvalidArgument, match=r'^levels\["memory"\]: QuotaLevels of resource "cpu" given for "memory"'):
        quota.ProactiveQuotaScaler(resources=["memory"], levels={"memory": levels})


@pytest.mark.parametrize("method", ["snap_up", "snap_down", "snap_nearest", "try_snap_up", "try_snap_down", "try_snap_nearest"])
def test_snapping_rejects_what_is_not_an_amount(method):
    snap = getattr(quota.QuotaLevels([2, 4, 8, 16]), method)
    for bad in (math.nan, math.inf, -math.inf, -0.5):
        with pytest.raises(continuum.InvalidArgument, match="^value: a float amount"):
            snap(bad)
    with pytest.raises(continuum.InvalidArgument, match="^value: expected an int or float .* got NoneType"):
        snap(None)
    with pytest.raises(continuum.ParseError, match="^value: "):
        snap("fourteen")


def test_quota_levels_errors():
    with pytest.raises(continuum.InvalidArgument, match=r"^levels\[1\]: a float amount"):
        quota.QuotaLevels([1, math.nan])
    with pytest.raises(continuum.InvalidArgument, match="^levels: expected a continuum.quota.QuotaLevels or a list of amounts, got int"):
        quota.QuotaLevels(4)
    with pytest.raises(continuum.InvalidArgument, match="^levels: expected a dict"):
        quota.ProactiveQuotaScaler(levels=[2, 4])
    with pytest.raises(continuum.InvalidArgument):
        quota.QuotaLevels([4, 2])


ITEMS_DICTS = [{"cpu": 2, "memory": "1Gi"}, {"cpu": "1500m", "memory": "3Gi"}, {"cpu": 1, "memory": "2Gi"}, {"cpu": 3, "memory": "1Gi"}]
NODE = {"cpu": 4, "memory": "4Gi"}
STRUCTURED = np.array([(2000, 2**30), (1500, 3 * 2**30), (1000, 2 * 2**30), (3000, 2**30)], dtype=[("cpu", "i8"), ("memory", "i8")])
PLAIN = np.array([[2000, 1], [1500, 3], [1000, 2], [3000, 1]])


@pytest.mark.parametrize("items", [ITEMS_DICTS, [Resources(d) for d in ITEMS_DICTS], STRUCTURED], ids=["dicts", "Resources", "structured"])
def test_packing_takes_the_same_inputs_everywhere(items):
    node = Resources(NODE)
    # 2-D heuristics over the union of the names, as over the same sizes in a plain array
    plain = packing.first_fit_decreasing(PLAIN, [4000, 4])
    named = packing.first_fit_decreasing(items, NODE)
    assert named.bins == plain.bins == [[1, 0], [3, 2]]
    assert packing.best_fit_decreasing(items, node).bins == packing.best_fit_decreasing(PLAIN, [4000, 4]).bins
    for heuristic in (packing.first_fit, packing.best_fit, packing.next_fit):
        assert heuristic(items, node).bins == heuristic(PLAIN, [4000, 4]).bins
    assert packing.lower_bound(items, NODE) == packing.lower_bound(PLAIN, [4000, 4]) == 2  # 7.5 cores, 7 GiB
    exact = packing.solve_exact(items, NODE)
    assert exact.optimal and exact.num_bins == 2
    mix = packing.cheapest_node_mix(items, [packing.NodeType("n", NODE, cost=1.0)])
    assert mix.cost == 2.0
    onto = packing.first_fit_decreasing_onto_existing(items, [], NODE)
    assert onto.num_new_nodes == 2


def test_packing_input_errors_name_the_argument():
    with pytest.raises(continuum.InvalidArgument, match=r'^sizes\[1\]\["cpu"\]: a float amount'):
        packing.first_fit_decreasing([{"cpu": 1}, {"cpu": math.nan}], NODE)
    with pytest.raises(continuum.InvalidArgument, match="^capacity: expected a continuum.Resources or a dict"):
        packing.first_fit_decreasing(ITEMS_DICTS, 4)
    with pytest.raises(continuum.InvalidArgument, match="^items: a plain numpy array has no resource names"):
        packing.cheapest_node_mix(PLAIN, [packing.NodeType("n", NODE)])
    with pytest.raises(continuum.InvalidArgument, match=r"^items\[0\]: expected a continuum.Resources or a dict"):
        packing.cheapest_node_mix([5], [packing.NodeType("n", NODE)])
    with pytest.raises(continuum.InvalidArgument, match="^items: expected a list"):
        packing.cheapest_node_mix(5, [packing.NodeType("n", NODE)])
    floats = np.array([(1.5,)], dtype=[("cpu", "f8")])
    with pytest.raises(continuum.InvalidArgument, match='^items: field "cpu" must hold integers'):
        packing.cheapest_node_mix(floats, [packing.NodeType("n", NODE)])


def test_functions_take_the_converter_inputs_and_name_the_argument():
    pod = {"cpu": "250m", "memory": "512Mi"}
    assert continuum.ceil_div(Resources(pod) * 40, {"cpu": 4, "memory": "16Gi"}) == 3
    assert continuum.dominant_share(pod, {"cpu": 4, "memory": "16Gi"}) == 0.0625
    assert Resources(pod).fits_in({"cpu": 1, "memory": "1Gi"})
    plan = capacity.choose_nodes_to_activate({"cpu": 10}, [capacity.WaitingNode("a", {"cpu": 8}), capacity.WaitingNode("b", {"cpu": 16})])
    assert plan.names == ["b"]
    split = quota.split_across_clusters({"cpu": 9}, {"a": {"cpu": 2}, "b": {"cpu": 1}})
    assert split == {"a": Resources({"cpu": 6}), "b": Resources({"cpu": 3})}
    r = quota.ReactiveQuotaScaler().decide({"cpu": 12}, {"cpu": 10}, {"cpu": 4})
    assert r.new_quota == Resources({"cpu": 12})
    offer = federation.Offer("c", {"cpu": 4, "memory": "8Gi"}, unit_prices={"cpu": 2.0})
    assert offer.price_of({"cpu": 1.5}) == pytest.approx(3.0)
    assert federation.MonetaryCost().cost(offer, {"cpu": 2}) == pytest.approx(4.0)
    catalogue = federation.OfferCatalogue([offer, federation.Offer("d", {"cpu": "1500m", "memory": "1Gi"})])
    assert catalogue.capacity("cpu") == [4, "1500m"] and catalogue.canonical_capacity("cpu") == [4000, 1500]
    cases = [
        (lambda: continuum.ceil_div(5, {"cpu": 1}), "demand"),
        (lambda: continuum.dominant_share({"cpu": 1}, "4"), "capacity"),
        (lambda: Resources({"cpu": 1}).fits_in(None), "capacity"),
        (lambda: capacity.choose_nodes_to_activate(None, []), "shortfall"),
        (lambda: quota.split_across_clusters(1, {}), "overall"),
        (lambda: quota.ReactiveQuotaScaler().decide({"cpu": 1}, 10, {"cpu": 1}), "current_quota"),
        (lambda: quota.ProactiveQuotaScaler().decide(0, {"cpu": 1}, {"cpu": 1}, "x", {"cpu": 1}), "current_usage"),
        (lambda: offer.price_of(2), "reserved"),
        (lambda: federation.MonetaryCost().cost(offer, 2), "request"),
        (lambda: packing.first_fit_decreasing_onto_existing([{"cpu": 1}], [], 4), "new_node_capacity"),
    ]
    for call, argument in cases:
        with pytest.raises(continuum.InvalidArgument, match=f"^{argument}: expected a continuum.Resources or a dict"):
            call()


def _bad_snap():
    quota.QuotaLevels([2, 4]).snap_up(math.nan)


# One case per row of the "Python only" table of docs/errors.md: (call, error, message start).
PYTHON_ERRORS = {
    "P01": (lambda: federation.Offer("c", 4), continuum.InvalidArgument, "capacity: expected a continuum.Resources or a dict {resource: amount}, got int"),
    "P02": (lambda: capacity.WaitingNode("w", {"cpu": math.nan}), continuum.InvalidArgument, 'capacity["cpu"]: a float amount of "cpu" must be finite and >= 0, got nan'),
    "P03": (lambda: federation.PendingPod("p", {"cpu": True}), continuum.InvalidArgument, 'request["cpu"]: expected a number or a quantity string, got bool'),
    "P04": (lambda: Resources({"memory": 2**70}), continuum.InvalidArgument, 'quantities["memory"]: 1180591620717411303424 whole units'),
    "P05": (lambda: federation.PendingPod("p", {"cpu": "5Zi"}), continuum.ParseError, 'request["cpu"]: '),
    "P06": (lambda: packing.cheapest_node_mix(PLAIN, [packing.NodeType("n", NODE)]), continuum.InvalidArgument, "items: a plain numpy array has no resource names"),
    "P07": (lambda: packing.cheapest_node_mix(np.array([(1.5,)], dtype=[("cpu", "f8")]), []), continuum.InvalidArgument,
            'items: field "cpu" must hold integers (canonical units), got dtype float64'),
    "P08": (_bad_snap, continuum.InvalidArgument, 'value: a float amount of "cpu" must be finite and >= 0, got nan'),
    "P09": (lambda: quota.HybridQuotaScaler(lambda h: 1.0, resources=["memory"], levels={"memory": quota.QuotaLevels([1])}), continuum.InvalidArgument,
            'levels["memory"]: QuotaLevels of resource "cpu" given for "memory"'),
    "P10": (lambda: packing.best_fit(ITEMS_DICTS, 4), continuum.InvalidArgument, "capacity: expected a continuum.Resources or a dict"),
    "P11": (lambda: Resources.from_units({"cpu": 1.5}), continuum.InvalidArgument, 'units["cpu"]: expected an int of canonical units, got float'),
    "P12": (lambda: setattr(packing.NodeType("t", {"cpu": 1}), "capacity", 5), continuum.InvalidArgument,
            "NodeType.capacity: expected a continuum.Resources or a dict {resource: amount}, got int"),
    "P13": (lambda: setattr(scalers.ScalingRules(0.0), "tolerance", "x"), continuum.InvalidArgument, "ScalingRules.tolerance: expected float, got str 'x'"),
    "P14": (lambda: scalers.HpaMetric(target="80%"), continuum.InvalidArgument, "HpaMetric.target (percent): expected int, got str '80%'"),
    "P15": (lambda: forecast.auto(np.arange(1.0, 100.0), horizon="x"), continuum.InvalidArgument, "forecast.auto(): horizon: expected int, got str 'x'"),
}


@pytest.mark.parametrize("row", sorted(PYTHON_ERRORS))
def test_python_error_catalogue(row):
    call, error, message = PYTHON_ERRORS[row]
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value).startswith(message), str(raised.value)
    if error is continuum.InvalidArgument:
        assert not isinstance(raised.value, continuum.ParseError)


def test_every_python_row_of_the_error_catalogue_has_a_case():
    import pathlib
    import re

    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "errors.md").read_text()
    rows = re.findall(r"^\| (P\d\d) \|", text, flags=re.MULTILINE)
    assert rows and sorted(rows) == sorted(PYTHON_ERRORS)


# Every settable field of a bound class (issue 18): (class, field) -> a fresh object. The walk below fails
# on a settable field missing here, so a new def_field is tested as it lands.
def _settable_objects():
    return {
        "WaitingNode": lambda: capacity.WaitingNode("w", {"cpu": 1}),
        "NodeType": lambda: packing.NodeType("t", {"cpu": 1}),
        "ExistingNode": lambda: packing.ExistingNode("n", {"cpu": 1}),
        "PlacedPod": lambda: packing.PlacedPod("p", {"cpu": 1}),
        "NodeState": lambda: packing.NodeState("n", {"cpu": 1}),
        "UtilityWeights": lambda: policy.UtilityWeights(),
        "Policy": lambda: policy.cost_saving(),
        "UtilityState": lambda: policy.UtilityState(),
        "NamespaceSnapshot": lambda: quota.NamespaceSnapshot("ns", {"cpu": 1}, {"cpu": 2}),
        "PodSample": lambda: scalers.PodSample("p", value=1, request=1),
        "HpaMetric": lambda: scalers.HpaMetric(),
        "ScalingPolicy": lambda: scalers.ScalingPolicy(scalers.ScalingPolicyType.pods, 4),
        "ScalingRules": lambda: scalers.ScalingRules(0.0),
        "HpaBehavior": lambda: scalers.HpaBehavior(),
        "ApplicationState": lambda: scalers.ApplicationState("a", {"cpu": 1}),
        "OtherWorkload": lambda: scalers.OtherWorkload("o", {"cpu": 1}),
        "NodePoolState": lambda: scalers.NodePoolState("pool"),
        "ClusterSnapshot": lambda: scalers.ClusterSnapshot([], []),
    }


def _settable_fields():
    import importlib

    for module_name in ("continuum", "continuum.capacity", "continuum.federation", "continuum.forecast", "continuum.packing",
                        "continuum.policy", "continuum.quota", "continuum.scalers", "continuum.sim"):
        module = importlib.import_module(module_name)
        for name in sorted(dir(module)):
            cls = getattr(module, name)
            if isinstance(cls, type) and not name.startswith("_"):
                for field, value in sorted(vars(cls).items()):
                    if isinstance(value, property) and value.fset is not None:
                        yield name, field


SETTABLE = sorted(set(_settable_fields()))
RESOURCE_FIELDS = [(c, f) for c, f in SETTABLE if isinstance(getattr(_settable_objects()[c](), f), Resources)]


def test_every_settable_field_is_listed():
    assert SETTABLE and {c for c, _ in SETTABLE} == set(_settable_objects())
    assert len(RESOURCE_FIELDS) == 11


@pytest.mark.parametrize("cls,field", SETTABLE, ids=lambda v: v)
def test_a_wrong_type_set_on_any_field_names_the_field(cls, field):
    obj = _settable_objects()[cls]()
    before = repr(obj)
    with pytest.raises(continuum.InvalidArgument, match=rf"^{cls}\.{field}\b") as raised:
        setattr(obj, field, object())
    assert "object" in str(raised.value)  # and the value given
    assert repr(obj) == before  # a refused value changes nothing
    setattr(obj, field, getattr(obj, field))  # what a field gives back, it takes
    assert repr(obj) == before


@pytest.mark.parametrize("cls,field", RESOURCE_FIELDS, ids=lambda v: v)
def test_resource_fields_take_what_the_constructors_take(cls, field):
    obj = _settable_objects()[cls]()
    for spelled in SAME:
        setattr(obj, field, spelled)
        assert getattr(obj, field) == EXPECTED, (cls, field, spelled)
    with pytest.raises(continuum.InvalidArgument, match=rf"^{cls}\.{field}: expected a continuum.Resources or a dict"):
        setattr(obj, field, 5)
    with pytest.raises(continuum.InvalidArgument, match=rf'^{cls}\.{field}\["cpu"\]: a float amount of "cpu" must be finite and >= 0'):
        setattr(obj, field, {"cpu": -1.5})


def test_scalar_fields_take_numbers_and_refuse_other_types():
    rules = scalers.ScalingRules(0.0)
    rules.tolerance = np.float32(0.25)
    rules.tolerance = 1  # an int where a float is
    assert rules.tolerance == 1.0
    with pytest.raises(continuum.InvalidArgument, match=r"^ScalingRules\.tolerance: expected float, got str 'x'"):
        rules.tolerance = "x"
    pool = scalers.NodePoolState("pool")
    pool.size = np.int32(3)
    assert pool.size == 3
    with pytest.raises(continuum.InvalidArgument, match=r"^NodePoolState\.size: expected int, got float 2\.5"):
        pool.size = 2.5
    with pytest.raises(continuum.InvalidArgument, match=r"^NodePoolState\.size: expected int, got bool"):
        pool.size = True
    # What the constructor validates, the setter validates.
    p = policy.cost_saving()
    with pytest.raises(continuum.InvalidArgument, match="min_replicas"):
        p.min_replicas = -1
    assert p.min_replicas == 1


def test_numpy_scalars_and_float32_arrays_are_numbers():
    """np.float32 / np.float16 / np.int32 / np.uint64 amounts wherever a Python number is; float32 arrays
    wherever float64 arrays are (converted, not refused)."""
    for x in (np.float32(14.5), np.float16(14.5), np.float64(14.5)):
        assert quota.QuotaLevels([2, 4, 8, 16]).snap_up(x) == 16
        assert Resources({"cpu": x}).canonical("cpu") == 14500
    for n in (np.int32(3), np.uint64(3), np.int8(3)):
        assert Resources({"cpu": n}) == Resources({"cpu": 3})
    with pytest.raises(continuum.InvalidArgument, match="must be finite"):
        Resources({"cpu": np.float32("nan")})
    history = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], dtype=np.float32)
    for model in (continuum.forecast.Naive(), continuum.forecast.Drift(), continuum.forecast.HoltWinters(trend="add")):
        np.testing.assert_allclose(model.fit(history).forecast(2), type(model)(**({"trend": "add"} if isinstance(model, continuum.forecast.HoltWinters) else {})).fit(history.astype(np.float64)).forecast(2))
        model.update(np.float32(7.0))
    assert continuum.forecast.smape(history, history) == 0.0
    app = scalers.ApplicationState("a", {"cpu": np.float32(0.5)}, demand=np.array([1.5, 2.0], dtype=np.float32))
    assert list(app.demand) == [1.5, 2.0] and app.pod_request["cpu"] == "500m"
    cpu = scalers.HpaMetric.resource_utilization("cpu", 75, usage=np.full(4, 0.9, dtype=np.float32), requests=np.ones(4, dtype=np.float32))
    assert [p.value_milli for p in cpu.pods] == [900] * 4  # float32(0.9) is 0.899999976...: rounded up to 900m
    assert scalers.metric_replicas(cpu, 4, tolerance=np.float32(0.1)).replicas == 5
