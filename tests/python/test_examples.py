"""Every examples/python/*.py (the Python examples the docs pages show) runs to completion.

Each script asserts its own key results; here it runs in a fresh interpreter (/usr/bin/python3,
the same PYTHONPATH as this test run, cwd = the repository root) and must exit with status 0;
status 77 means an optional reference package (PyTorch) is missing and is reported as a skip."""

import importlib.util
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "examples" / "python").glob("*.py"))


def test_there_are_examples():
    assert len(SCRIPTS) >= 12


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_example_runs(script):
    result = subprocess.run(["/usr/bin/python3", str(script)], cwd=ROOT, env=dict(os.environ),
                            capture_output=True, text=True, timeout=300)
    if result.returncode == 77:
        pytest.skip(result.stdout.strip())
    assert result.returncode == 0, (
        f"{script.relative_to(ROOT)} exited with {result.returncode}\n"
        f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}")


def _inline_tool():
    spec = importlib.util.spec_from_file_location("inline_examples", ROOT / "tools" / "inline_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pages_show_the_examples_inline():
    """The pages show the code itself (pymdownx's include line reads as itself on the repository page)."""
    tool = _inline_tool()
    shown = {path for page in tool.PAGES for path, _ in tool.blocks(page.read_text())}
    for page in tool.PAGES:
        assert "--8<--" not in page.read_text(), f"{page.name} includes a file: inline it (tools/inline_examples.py)"
    examples = {f"examples/python/{s.name}" for s in SCRIPTS} | {
        f"examples/docs/{s.name}" for s in (ROOT / "examples" / "docs").glob("*.cpp")}
    assert examples <= shown, f"examples no page shows: {sorted(examples - shown)}"


@pytest.mark.parametrize("page", _inline_tool().PAGES, ids=lambda p: p.name)
def test_inline_examples_equal_their_files(page):
    for path, code in _inline_tool().blocks(page.read_text()):
        assert code == (ROOT / path).read_text(), f"{page.name}: the block of {path} is stale: run tools/inline_examples.py"
