# Type stubs: the names of continuum._core.policy, re-exported.
from ._core.policy import *  # noqa: F401,F403
