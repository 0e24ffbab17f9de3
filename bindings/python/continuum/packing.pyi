# Type stubs: the names of continuum._core.packing, re-exported.
from ._core.packing import *  # noqa: F401,F403
