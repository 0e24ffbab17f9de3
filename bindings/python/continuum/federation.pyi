# Type stubs: the names of continuum._core.federation, re-exported, and packing's pod types.
from ._core.federation import *  # noqa: F401,F403
from ._core.packing import PlacedPod as PlacedPod, PodMove as PodMove  # noqa: F401
