"""A wrong-typed argument is continuum.InvalidArgument naming the argument, for every public function,
method, static method and constructor of every module (issue 18): the walk below calls each one with
a wrong-typed value for each parameter in turn, the other parameters given values of their declared
type, and fails on any other exception (pybind11's TypeError listing overloads above all)."""

import importlib
import math
import os
import re

import numpy as np
import pytest

import continuum
from continuum import federation, forecast, packing, quota, scalers

from test_repr import _inputs

MODULES = ["continuum"] + [f"continuum.{name}" for name in
                           ("capacity", "federation", "forecast", "packing", "policy", "quota", "scalers", "sim")]


def _split(text):
    """Top-level comma split of a parameter list (brackets and quotes nest)."""
    parts, depth, quote, current = [], 0, None, ""
    for c in text:
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "[({<":
            depth += 1
        elif c in "])}>":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += c
    if current.strip():
        parts.append(current.strip())
    return parts


def _signatures(function, name):
    """[(parameter name, type, has default)] per overload, from pybind11's docstring."""
    doc = function.__doc__ or ""
    out = []
    for line in doc.splitlines():
        match = re.match(r"^(?:\d+\. )?" + re.escape(name) + r"\((.*)\) -> ", line)
        if not match:
            continue
        parameters = []
        for piece in _split(match.group(1)):
            if piece in ("*", "/") or piece.startswith("*"):
                continue
            head, _, default = piece.partition(" = ")
            pname, _, ptype = head.partition(": ")
            parameters.append((pname, ptype, bool(default)))
        out.append(parameters)
    return out


def _more_inputs():
    """An instance of every class with methods that the repr walk's inputs do not cover, so that no
    method is left out of the walk (CI fails a skipped test)."""
    offers = [federation.Offer("a", {"cpu": 4, "memory": "8Gi"}, node_price=1.0)]
    selector = continuum.policy.PolicySelector([continuum.policy.cost_saving()], "COST_SAVING")
    series = np.arange(1.0, 97.0)
    lstm_path = os.path.join(os.path.dirname(__file__), "..", "..", "models", "alibaba2018_cpu_lstm.safetensors")
    return [
        federation.CostModel(federation.MonetaryCost()),
        packing.DisruptionBudget(),
        federation.ExpanderChain("least-waste,price"),
        federation.ExpansionOption("a", 1, [], {"cpu": 4}),
        federation.Ledger(offers),
        federation.OfferCatalogue(offers),
        federation.PricingModel(node_price=lambda option: 1.0, pod_price=lambda pod: 1.0),
        federation.PriorityTiers('10:\n  - ".*"\n'),
        federation.Recommender(),
        federation.WeightedSum([(1.0, federation.MonetaryCost())]),
        selector,
        scalers.HierarchicalScaler(selector, horizon=4),
        quota.HybridQuotaScaler(lambda history: 1.0, levels={"cpu": ["2", "4"]}),
        continuum.sim.LoadProfile.from_stages([(60.0, 10.0)], start_value=2.0),
        forecast.Drift(), forecast.HoltWinters(season_length=4), forecast.HoltWinters(season_length=4).fit_many(np.vstack([series, series])),
        forecast.LinearRegression(4), forecast.MovingAverage(4), forecast.MovingMedian(4), forecast.SeasonalMedian(4), forecast.SeasonalNaive(4),
        forecast.SimpleExponentialSmoothing(), forecast.Portfolio(), forecast.Lstm.load(lstm_path),
    ]


def _samples():
    """Instances of the bound classes, by class name: the repr walk's inputs and a few more."""
    by_type = {}
    for value in _inputs() + _more_inputs() + [quota.QuotaLevels([1, 2]), forecast.Naive(), continuum.Quantity("1")]:
        by_type.setdefault(type(value).__name__, value)
    return by_type


SAMPLES = _samples()


def _valid(ptype):
    """A value of the declared type, or None when the walk has none (the parameter is then left out
    when it has a default, or given a wrong value too)."""
    t = ptype
    if t.startswith("Optional["):
        return None
    simple = {"int": 1, "float": 1.0, "bool": True, "str": "a", "datetime.timedelta": 1.0,
              "numpy.ndarray[numpy.float64]": np.arange(1.0, 49.0), "numpy.ndarray[numpy.int64]": np.array([1, 2], dtype=np.int64),
              "ResourcesLike": {"cpu": 1}, "OptionalResourcesLike": {"cpu": 1}, "ResourcesListLike": [{"cpu": 1}],
              "AmountLike": 1, "LevelsLike": [1, 2], "CanonicalUnitsLike": {"cpu": 1000}}
    if t in simple:
        return simple[t]
    if t.startswith("List[") or t.startswith("Sequence["):
        return []
    if t.startswith("Dict["):
        return {}
    if t.startswith("Callable["):
        return lambda *args: 1.0
    short = t.rsplit(".", 1)[-1]
    return SAMPLES.get(short)


def _wrong(ptype):
    """A value no converter of `ptype` takes, or None where every value is taken."""
    if ptype in ("object", "Any", "") or ptype.startswith("Callable[") and False:
        return None
    if ptype in ("str", "Optional[str]") or ptype.endswith("[str]") and ptype.startswith("Optional"):
        return object()
    if ptype in ("AmountLike",):
        return [1]
    return "x" if ptype != "LevelsLike" else 3


def _callables():
    seen = set()
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in sorted(dir(module)):
            value = getattr(module, name)
            if name.startswith("_") or id(value) in seen:
                continue
            seen.add(id(value))
            if isinstance(value, type):
                if issubclass(value, BaseException):
                    continue
                for attr, member in sorted(value.__dict__.items()):
                    if attr.startswith("_") and attr != "__init__":
                        continue
                    function = member.__func__ if isinstance(member, (staticmethod, classmethod)) else member
                    if type(function).__name__ in ("instancemethod", "builtin_function_or_method"):
                        function = getattr(value, attr)
                        yield f"{module_name}.{name}.{attr}", value, attr, function, isinstance(member, staticmethod)
            elif type(value).__name__ == "builtin_function_or_method":
                yield f"{module_name}.{name}", None, name, value, True


CALLABLES = list(_callables())


def _cases():
    for qualified, cls, attr, function, static in CALLABLES:
        for number, parameters in enumerate(_signatures(function, attr)):
            for index, (pname, ptype, _) in enumerate(parameters):
                if pname == "self" or _wrong(ptype) is None:
                    continue
                yield pytest.param(qualified, cls, attr, static, parameters, index, id=f"{qualified}#{number}:{pname}")


CASES = list(_cases())


def test_the_walk_sees_every_module_and_enough_callables():
    names = {qualified for qualified, *_ in CALLABLES}
    assert {"continuum.forecast.auto", "continuum.quota.QuotaLevels.snap_up", "continuum.packing.first_fit_decreasing",
            "continuum.scalers.Hpa.__init__", "continuum.federation.Offer.__init__", "continuum.Resources.from_cores"} <= names
    assert len(names) > 300
    assert len(CASES) > 600


@pytest.mark.parametrize("qualified,cls,attr,static,parameters,index", CASES)
def test_a_wrong_typed_argument_is_invalid_argument_naming_it(qualified, cls, attr, static, parameters, index):
    pname, ptype, _ = parameters[index]
    args, kwargs, named = [], {}, {pname}
    for i, (name, t, has_default) in enumerate(parameters):
        if name == "self":
            continue
        if i == index:
            value = _wrong(t)
        else:
            value = _valid(t)
            if value is None:
                if has_default:
                    continue
                value = _wrong(t) if _wrong(t) is not None else 0
                named.add(name)
        kwargs[name] = value
    self_parameter = parameters and parameters[0][0] == "self"
    if cls is None or static:
        target = getattr(cls, attr) if cls is not None else None
        if target is None:
            module = importlib.import_module(qualified.rsplit(".", 1)[0])
            target = getattr(module, attr)
    elif attr == "__init__":
        target = cls
    else:
        instance = SAMPLES.get(cls.__name__)
        assert self_parameter, f"{qualified}: a method without self"
        assert instance is not None, f"no instance of {cls.__name__} in the walk's samples: add one to _more_inputs"
        target = getattr(instance, attr)
    with pytest.raises(continuum.InvalidArgument) as error:
        target(*args, **kwargs)
    message = str(error.value)
    assert any(name in message for name in named), message


def test_the_message_names_the_callable_the_argument_the_type_and_the_value():
    with pytest.raises(continuum.InvalidArgument, match=r"^forecast\.auto\(\): y: expected numpy\.ndarray\[numpy\.float64\], got str 'abc'$"):
        forecast.auto("abc", horizon=12)
    with pytest.raises(continuum.InvalidArgument, match=r"^forecast\.auto\(\): horizon: expected int, got str 'x'$"):
        forecast.auto(np.arange(1.0, 100.0), horizon="x")
    with pytest.raises(continuum.InvalidArgument, match=r"^forecast\.auto\(\): season_lengths: expected List\[int\], got list \['a'\]$"):
        forecast.auto(np.arange(1.0, 100.0), season_lengths=["a"])
    # A method is named by its class, a constructor by the class alone; an enum lists its members.
    with pytest.raises(continuum.InvalidArgument, match=r"^Portfolio\.forecast_interval\(\): level: expected float, got str 'a'$"):
        forecast.auto(np.arange(1.0, 100.0)).forecast_interval(12, level="a")
    with pytest.raises(continuum.InvalidArgument, match=r"^Offer\(\): reachability: expected continuum\.federation\.Reachability "
                                                        r"\(continuum\.federation\.Reachability\.direct, continuum\.federation\.Reachability\.nat\), "
                                                        r"got str 'nat'$"):
        federation.Offer("eu", {"cpu": 4, "memory": "8Gi"}, reachability="nat")
    with pytest.raises(continuum.InvalidArgument, match=r"^Offer\(\): latency_ms: expected Optional\[float\], got str '12ms'$"):
        federation.Offer("eu", {"cpu": 4, "memory": "8Gi"}, latency_ms="12ms")
    with pytest.raises(continuum.InvalidArgument, match=r"^QuotaLevels\(\): resource: expected str, got int 3$"):
        quota.QuotaLevels([1, 2], resource=3)


def test_a_wrong_number_of_arguments_stays_pythons_type_error():
    # Python's own convention for arity and unknown keywords: TypeError (the message is pybind11's).
    with pytest.raises(TypeError):
        forecast.auto()
    with pytest.raises(TypeError):
        forecast.auto(np.arange(1.0, 50.0), no_such_argument=1)
    assert not issubclass(continuum.InvalidArgument, TypeError)


HPA = scalers.Hpa(min_replicas=2, max_replicas=20, metrics=[scalers.HpaMetric(target=60)])


def test_non_finite_numbers_where_a_finite_one_is_required():
    # Every parameter declared float refuses NaN and infinity (None is how an optional limit is left out).
    y = np.arange(1.0, 100.0)
    for bad in (math.nan, math.inf, -math.inf, np.float32("nan")):
        with pytest.raises(continuum.InvalidArgument, match=r"^Portfolio\.forecast_interval\(\): level: expected a finite float, got "):
            forecast.auto(y).forecast_interval(12, level=bad)
        with pytest.raises(continuum.InvalidArgument, match=r"^NodeType\(\): cost: expected a finite float"):
            packing.NodeType("n", {"cpu": 2}, bad)
        with pytest.raises(continuum.InvalidArgument, match=r"^Hpa\.decide\(\): now: expected a finite float"):
            HPA.decide(spec_replicas=1, now=bad)
        with pytest.raises(continuum.InvalidArgument, match=r"^Offer\(\): latency_ms: expected a finite float"):
            federation.Offer("eu", {"cpu": 4, "memory": "8Gi"}, latency_ms=bad)
    # A setter too (properties go through the same dispatcher).
    rules = scalers.ScalingRules(0.0)
    with pytest.raises(continuum.InvalidArgument, match=r"^ScalingRules\.tolerance: expected a finite float, got float nan$"):
        rules.tolerance = math.nan
    assert rules.tolerance is None  # unchanged


def test_the_exception_hierarchy():
    # docs/errors.md, "In Python: the exception classes".
    assert continuum.Error.__mro__[1:] == (RuntimeError, Exception, BaseException, object)
    assert continuum.InvalidArgument.__mro__[1:] == (continuum.Error, RuntimeError, ValueError, Exception, BaseException, object)
    assert continuum.ParseError.__mro__[1] is continuum.InvalidArgument
    assert continuum.Infeasible.__mro__[1:] == (continuum.Error, RuntimeError, Exception, BaseException, object)
    for error in (continuum.InvalidArgument, continuum.ParseError, continuum.Infeasible):
        assert error.__module__ == "continuum"
    # What a user catches: ValueError for bad input and unparsable text, Error for all.
    with pytest.raises(ValueError):
        quota.QuotaLevels([2, 1])
    with pytest.raises(ValueError):
        continuum.Quantity("5Zi")
    with pytest.raises(continuum.Error):
        quota.QuotaLevels([2, 4]).snap_up(5)
    try:
        quota.QuotaLevels([2, 4]).snap_up(5)
    except ValueError:  # pragma: no cover - Infeasible is not a ValueError
        pytest.fail("Infeasible caught as ValueError")
    except continuum.Infeasible as error:
        assert str(error) == "snap_up: cpu 5 is above the top quota level 4 (levels [2, 4])"
    with pytest.raises(ValueError):
        forecast.auto("abc")  # a wrong type: InvalidArgument, so a ValueError too
