# Type stubs: the names of continuum._core.scalers, re-exported.
from ._core.scalers import *  # noqa: F401,F403
