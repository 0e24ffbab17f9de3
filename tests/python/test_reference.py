"""The Python reference (docs/python/*.md, one page per module) is current: rendering it again from
the built extension changes nothing; every page is in the mkdocs nav; every public class has a
docstring of its own (tests/python/test_docstrings.py checks functions and methods)."""

import importlib
import inspect
import os
import pathlib
import subprocess
import sys

import pytest

import continuum

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE_PARENT = pathlib.Path(continuum.__file__).resolve().parent.parent
MODULES = ["continuum"] + [f"continuum.{name}" for name in
                           ("forecast", "quota", "packing", "capacity", "federation", "policy", "scalers", "sim")]


def test_reference_pages_match_the_built_extension(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE_PARENT), env.get("PYTHONPATH", "")])
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_python_reference.py"), "--check"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr


def test_every_module_has_a_page_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    for module in MODULES:
        page = "python/index.md" if module == "continuum" else f"python/{module.split('.', 1)[1]}.md"
        assert (ROOT / "docs" / page).exists(), page
        assert f"{module}: {page}" in nav, page


def _public_classes():
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in sorted(dir(module)):
            value = getattr(module, name)
            if not name.startswith("_") and inspect.isclass(value):
                yield f"{module_name}.{name}", value


@pytest.mark.parametrize("name,cls", list(_public_classes()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_public_class_has_a_docstring(name, cls):
    doc = inspect.cleandoc(cls.__doc__ or "")
    # pybind11 enums start their docstring with the member list: the description must come first.
    assert doc and not doc.startswith("Members:"), f"{name} has no docstring"


def test_a_page_shows_signatures_docstrings_and_members():
    page = (ROOT / "docs" / "python" / "packing.md").read_text()
    assert "## class `NodeType`" in page
    assert "NodeType(name: str, capacity: " in page  # the constructor, without self or module prefixes
    assert "| `capacity` | read-write |" in page
    assert "## `cheapest_node_mix`" in page and "Returns NodeMix" in page
    assert "continuum._core" not in page and " at 0x" not in page
