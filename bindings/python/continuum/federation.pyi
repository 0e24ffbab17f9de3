# Type stubs: the names of continuum._core.federation, re-exported.
from ._core.federation import *  # noqa: F401,F403
