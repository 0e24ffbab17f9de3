"""House rules that can be checked mechanically (DESIGN.md): every public header opens with a comment
saying what it is for, the umbrella header reaches every public header, and no header includes a
folder below it in the pipeline."""

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


def test_umbrella_reaches_every_public_header():
    reached = set()
    todo = ["continuum/continuum.hpp"]
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        path = INCLUDE / name
        if path.exists():
            todo.extend(_includes(path))
    # The JSON state documents (serialization/) need nlohmann_json: users include them on their own.
    public = {str(h.relative_to(INCLUDE)) for h in _headers() if "/detail/" not in str(h) and "/serialization" not in str(h)}
    missing = sorted(public - reached)
    assert not missing, f"continuum.hpp does not reach: {missing}"
    serialization = sorted(name for name in reached if name.startswith("continuum/serialization"))
    assert not serialization, f"continuum.hpp must not reach the JSON state documents: {serialization}"


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
