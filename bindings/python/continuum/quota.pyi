# Type stubs: the names of continuum._core.quota, re-exported.
from ._core.quota import *  # noqa: F401,F403
