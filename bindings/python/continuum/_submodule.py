"""Helper for the area modules: re-export one submodule of the C++ extension."""

from types import ModuleType
from typing import Any, Dict, List


def export(extension_submodule: ModuleType, namespace: Dict[str, Any]) -> List[str]:
    """Copy the public names of ``extension_submodule`` into ``namespace``; return them."""
    names = [name for name in dir(extension_submodule) if not name.startswith("_")]
    for name in names:
        namespace[name] = getattr(extension_submodule, name)
    return names
