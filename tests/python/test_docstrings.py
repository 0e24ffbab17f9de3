"""Every public function and method of the extension has a docstring beyond its signature and
names its arguments (no pybind11 arg0/arg1), so help() and IDEs explain each call."""

import inspect
import re

import pytest

from continuum import _core

SIGNATURE = re.compile(r"^\s*(\d+\. )?\w+\(.*\)( -> .*)?$")


def _modules():
    yield _core
    for name in sorted(dir(_core)):
        value = getattr(_core, name)
        if inspect.ismodule(value):
            yield value


def _callables():
    for module in _modules():
        for name, value in sorted(vars(module).items()):
            if name.startswith("_"):
                continue
            if inspect.isclass(value):
                if issubclass(value, BaseException):
                    continue
                for attr in sorted(vars(value)):
                    if attr.startswith("_") and attr != "__init__":
                        continue
                    member = getattr(value, attr)
                    if isinstance(inspect.getattr_static(value, attr), property) or not callable(member):
                        continue
                    # A class's own docstring documents its constructor; enums need none.
                    if attr == "__init__" and ((value.__doc__ or "").strip() or hasattr(value, "__members__")):
                        continue
                    yield f"{module.__name__}.{name}.{attr}", member
            elif callable(value):
                yield f"{module.__name__}.{name}", value


CALLABLES = list(_callables())


def test_the_audit_sees_the_whole_api():
    assert len(CALLABLES) > 150


@pytest.mark.parametrize("name,function", CALLABLES, ids=[name for name, _ in CALLABLES])
def test_documented_with_named_arguments(name, function):
    doc = function.__doc__ or ""
    prose = [line for line in doc.splitlines() if line.strip() and not SIGNATURE.match(line) and line.strip() != "Overloaded function."]
    assert prose, f"{name} has no docstring beyond its signature"
    assert not re.search(r"\barg\d+\b", doc), f"{name} has unnamed arguments: {doc.splitlines()[0]}"
