"""House rules that can be checked mechanically (DESIGN.md): every public header opens with a comment
saying what it is for, the umbrella header reaches every public header but the opt-in ones (sim/, the LSTM
weights loader), and
no header includes a folder below it in the pipeline."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
INCLUDE = ROOT / "include"
PIPELINE = ["core", "forecast", "capacity", "packing", "quota", "federation", "policy", "scalers", "sim"]


def _headers():
    return sorted((INCLUDE / "continuum").rglob("*.hpp"))


def _includes(path):
    return re.findall(r"#include <(continuum/[^>]+)>", path.read_text())


def test_every_header_opens_with_a_comment():
    for header in _headers():
        first = header.read_text().lstrip().splitlines()[0]
        assert first.startswith("//"), f"{header} should open with a comment on what it is for"


def _reached_from(root):
    reached = set()
    todo = [root]
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        path = INCLUDE / name
        if path.exists():
            todo.extend(_includes(path))
    return reached


# What a user includes on its own, not through continuum.hpp: the simulator (the demo's machinery;
# sim/adapters.hpp reaches all of it, sim.hpp is the simulator without the adapters).
# The LSTM weights loader: needs nlohmann_json (optional) and costs seconds of compile time.
OPT_IN = {
    "continuum/sim/adapters.hpp": "continuum/sim/",
    "continuum/sim.hpp": "continuum/sim.hpp",
    "continuum/forecast/lstm_loader.hpp": "continuum/forecast/lstm_loader.hpp",
}


def test_umbrella_reaches_every_public_header():
    reached = _reached_from("continuum/continuum.hpp")
    public = {str(h.relative_to(INCLUDE)) for h in _headers() if "/detail/" not in str(h)}
    # The JSON state documents (serialization/) need nlohmann_json: users include them on their own.
    public = {h for h in public if not h.startswith("continuum/serialization")}
    opt_in = {h for h in public if any(h == root or h.startswith(prefix) for root, prefix in OPT_IN.items())}
    missing = sorted(public - opt_in - reached)
    assert not missing, f"continuum.hpp does not reach: {missing}"
    serialization = sorted(name for name in reached if name.startswith("continuum/serialization"))
    assert not serialization, f"continuum.hpp must not reach the JSON state documents: {serialization}"
    pulled_in = sorted(opt_in & reached)
    assert not pulled_in, f"continuum.hpp should not include (include them on their own): {pulled_in}"
    for root, prefix in OPT_IN.items():
        missing = sorted(h for h in opt_in if h.startswith(prefix) and h not in _reached_from(root))
        assert not missing, f"{root} does not reach: {missing}"


def test_simulator_alone_does_not_include_the_decision_areas():
    # <continuum/sim.hpp> is the simulator: its baseline Cluster Autoscaler needs core and packing's
    # drain rules; the adapters (sim/adapters/), which include every other area, are opt-in.
    reached = _reached_from("continuum/sim.hpp")
    heavy = sorted(name for name in reached if name.split("/")[1] in {"forecast", "quota", "federation", "policy", "scalers"})
    assert not heavy, f"continuum/sim.hpp reaches {heavy}"
    assert not any(name.startswith("continuum/sim/adapters/") for name in reached)


def test_areas_only_include_areas_above_them():
    # capacity and packing are independent siblings below quota (packing may not include quota).
    rank = {area: i for i, area in enumerate(PIPELINE)}
    for header in _headers():
        parts = header.relative_to(INCLUDE / "continuum").parts
        if len(parts) < 2 or parts[0] not in rank:
            continue
        area = parts[0]
        for inc in _includes(header):
            inc_parts = inc.split("/")
            if len(inc_parts) < 3 or inc_parts[1] not in rank:
                continue
            assert rank[inc_parts[1]] <= rank[area], f"{header}: {area} must not include {inc}"


def test_doctest_names_can_be_ctest_names():
    # Each doctest test case is a ctest entry (doctest_discover_tests), whose CMake script splits the
    # list of names on ';': a name with a ';' would become two tests that run nothing.
    for source in sorted((ROOT / "tests").rglob("test_*.cpp")):
        for name in re.findall(r'TEST_CASE(?:_TEMPLATE)?\("([^"]*)"', source.read_text()):
            assert ";" not in name, f"{source}: test case name with ';': {name}"
