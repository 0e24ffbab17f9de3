# Type stubs: the names of continuum._core.sim, re-exported.
from ._core.sim import *  # noqa: F401,F403
