"""Every examples/python/*.py (the Python examples the docs pages show) runs to completion.

Each script asserts its own key results; here it runs in a fresh interpreter (/usr/bin/python3,
the same PYTHONPATH as this test run, cwd = the repository root) and must exit with status 0;
status 77 means an optional reference package (PyTorch) is missing and is reported as a skip."""

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
