"""``tf.tpu``: initializing a (simulated) TPU system and placing computations on it (names only)."""

import types

from simdist.distribute.device_assignment import DeviceAssignment, DeviceOrderMode
from simdist.distribute.tpu_strategy_util import (
    Topology,
    initialize_tpu_system,
    shutdown_tpu_system,
)

experimental = types.SimpleNamespace(
    initialize_tpu_system=initialize_tpu_system,
    shutdown_tpu_system=shutdown_tpu_system,
    DeviceAssignment=DeviceAssignment,
    DeviceOrderMode=DeviceOrderMode,
    Topology=Topology,
)

__all__ = ["experimental"]
