"""Device names as TensorFlow writes them.

Glossary:
  canonical name -- ``/job:localhost/replica:0/task:0/device:GPU:0``: every part spelled out.
  canonicalize   -- ``"/gpu:0"``, ``"GPU:0"``, ``"/device:CPU:0"`` -> the canonical name, the
                    missing parts taken from ``default`` (the local host by default).

Mirrors tensorflow/python/framework/device_spec.py and python/distribute/device_util.py.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

_PART = re.compile(r"^(job|replica|task|device|cpu|gpu|tpu):(.*)$", re.IGNORECASE)


class DeviceSpec(NamedTuple):   # not a dataclass: ~1 ms less at the first op
    """The parts of a device name; ``None`` where a name leaves a part out."""

    job: str | None = None
    replica: int | None = None
    task: int | None = None
    device_type: str | None = None
    device_index: int | None = None

    @classmethod
    def from_string(cls, spec: str) -> DeviceSpec:
        """Parse a TF device string.

        Raises:
          ValueError: if the string is not a device name.
        """
        if not isinstance(spec, str):
            raise ValueError(f"A device name must be a string, got {type(spec).__name__}.")
        return cls(*_parsed(spec))

    def make_merged_spec(self, other: DeviceSpec) -> DeviceSpec:
        """Fill the parts this spec leaves out from ``other``."""
        return other._replace(**{k: v for k, v in self._asdict().items() if v is not None})

    def to_string(self) -> str:
        out = ""
        if self.job is not None:
            out += f"/job:{self.job}"
        if self.replica is not None:
            out += f"/replica:{self.replica}"
        if self.task is not None:
            out += f"/task:{self.task}"
        if self.device_type is not None:
            idx = "*" if self.device_index is None else self.device_index
            out += f"/device:{self.device_type}:{idx}"
        return out


@functools.lru_cache(maxsize=4096)   # the same few names are read at every op and step
def _parsed(spec: str) -> tuple:
    """The parts of device string ``spec``, as DeviceSpec's fields (a ValueError is raised
    again for each call: lru_cache keeps results only)."""
    job = replica = task = dtype = index = None
    for part in filter(None, spec.strip().split("/")):
        m = _PART.match(part)
        if not m:
            dtype, index = _device_part(part, spec)
            continue
        key, val = m.group(1).lower(), m.group(2)
        if key == "job":
            job = val
        elif key in ("replica", "task"):
            if not val.isdigit():
                raise ValueError(f"Invalid {key} {val!r} in device name {spec!r}.")
            if key == "replica":
                replica = int(val)
            else:
                task = int(val)
        elif key == "device":
            dtype, index = _device_part(val, spec)
        else:
            dtype, index = key.upper(), _index(val, spec)
    return job, replica, task, dtype, index


def _index(val: str, spec: str) -> int | None:
    if val == "*":   # any index, as a name that leaves the index out
        return None
    if not val.isdigit():
        raise ValueError(f"Invalid device index {val!r} in device name {spec!r}.")
    return int(val)


_DEVICE_TYPES = ("CPU", "GPU", "TPU")


def _device_part(part: str, spec: str) -> tuple[str, int | None]:
    if ":" not in part and part.upper() in _DEVICE_TYPES:   # "cpu": any CPU, as in TF
        return part.upper(), None
    if ":" not in part:
        raise ValueError(
            f"Cannot parse device name {spec!r}: expected parts like '/job:worker', "
            "'/task:0', '/device:GPU:0' or '/gpu:0'."
        )
    dtype, val = part.rsplit(":", 1)
    return dtype.upper(), _index(val, spec)


LOCALHOST = DeviceSpec("localhost", 0, 0, "CPU", 0)


def canonicalize(device, default: str | DeviceSpec | None = None) -> str:
    """Return the canonical name of ``device`` (a string or an object with ``.name``).

    Parts the name leaves out come from ``default`` (the local host's CPU:0 by default).
    """
    name = getattr(device, "name", device)
    if isinstance(name, str) and (default is None or isinstance(default, (str, DeviceSpec))):
        return _canonical(name, default)
    return _canonical.__wrapped__(name, default)


@functools.lru_cache(maxsize=4096)   # a strategy's devices, named again at every step
def _canonical(name, default) -> str:
    """canonicalize's name of ``name`` (a string), the missing parts from ``default``."""
    spec = DeviceSpec.from_string(name)
    base = default if isinstance(default, DeviceSpec) else (
        LOCALHOST if default is None else DeviceSpec.from_string(default)
    )
    base = base.make_merged_spec(LOCALHOST)
    if spec.job is not None and spec.job != base.job and spec.task is None:
        base = base._replace(task=0)
    return spec.make_merged_spec(base).to_string()
