"""DeviceSpec.from_string and canonicalize keep their parses (lru_cache): every name,
valid or not, gives what the uncached parse gives, and a bad name raises each time."""

import random

import pytest

from simdist.hardware import device_spec
from simdist.hardware.device_spec import DeviceSpec, canonicalize

PARTS = ["/job:worker", "/job:localhost", "/replica:0", "/replica:x", "/task:1", "/task:",
         "/device:GPU:0", "/device:CPU:*", "/gpu:3", "/cpu:0", "/tpu:1", "GPU:2", "cpu",
         "/device:GPU", "/bogus", "", " ", "/device:TPU:x"]
DEFAULTS = [None, "/job:worker/replica:0/task:2/device:CPU:0", "/gpu:1",
            DeviceSpec("ps", 0, 1, "CPU", 0), "/replica:y"]


def _outcome(fn, *args):
    try:
        return fn(*args)
    except ValueError as e:
        return ("ValueError", str(e))


def test_cached_parses_equal_fresh_ones_and_errors_repeat():
    rng = random.Random(0)
    for _ in range(400):
        name = "".join(rng.choice(PARTS) for _ in range(rng.randint(0, 4)))
        default = rng.choice(DEFAULTS)
        for _ in range(2):   # the second call reads the cache
            assert _outcome(DeviceSpec.from_string, name) == \
                _outcome(lambda n: DeviceSpec(*device_spec._parsed.__wrapped__(n)), name)
            assert _outcome(canonicalize, name, default) == \
                _outcome(device_spec._canonical.__wrapped__, name, default)
    assert type(DeviceSpec.from_string("/gpu:0")) is DeviceSpec
    with pytest.raises(ValueError, match="must be a string"):
        canonicalize(["/gpu:0"])   # not hashable: parsed as before, not looked up
