# Type stubs: the names of continuum._core.capacity, re-exported.
from ._core.capacity import *  # noqa: F401,F403
