"""The README's examples are real: the C++ block is examples/quickstart.cpp (built and run by ctest)
and the Python block runs here."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _blocks(language):
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```" + language + r"\n(.*?)```", text, flags=re.S)


def test_cpp_example_is_the_compiled_quickstart():
    (block,) = _blocks("cpp")
    assert block == (ROOT / "examples" / "quickstart.cpp").read_text()
    assert len(block.strip().splitlines()) <= 16


def test_python_example_runs():
    (block,) = _blocks("python")
    assert len(block.strip().splitlines()) <= 10
    exec(compile(block, "README.md", "exec"), {})
