"""Pickling support for the stateful objects (issue 17, docs/state.md): their __reduce__ names
continuum._core._restore_pickled, which this module replaces by a pure-Python function so pickle
can store it by reference (a pybind11 builtin cannot be pickled)."""

from . import _core


def restore(cls, arguments, text):
    """Rebuilds a pickled object: ``cls(*arguments).from_json(text)``."""
    return cls(*arguments).from_json(text)


setattr(_core, "_restore_pickled", restore)  # setattr: the stubs leave private names out
