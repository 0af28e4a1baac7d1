"""``CUDA_VISIBLE_DEVICES``: which of a host's GPUs a process sees, and in which order.

Glossary:
  visible order -- the physical GPU indices the process sees, in its own numbering: the
                   process's ``GPU:0`` is the first one listed (``"1,0"`` swaps them).
  CUDA's rules  -- (CUDA C++ Programming Guide, "CUDA Environment Variables"): "Only the
                   devices whose index is present in the sequence are visible to CUDA
                   applications and they are enumerated in the order of the sequence. If
                   one of the indices is invalid, only the devices whose index precedes the
                   invalid index are visible" (``"0,2,-1,1"`` shows 0 and 2). An entry is
                   read as ``strtoul`` reads it (leading digits: ``"1gpu"`` is 1); a
                   repeated index makes no device visible, and an index past the last GPU
                   is invalid (as torch.cuda._parse_visible_devices mirrors the driver).
                   Unset: every GPU; set but empty (``""``), or ``"-1"`` as TF's
                   tutorials write it: none, so TF runs on the CPU.
  UUIDs         -- simulated GPUs have no UUIDs: a ``GPU-...`` / ``MIG-...`` entry is
                   invalid here and ends the list.

TF reads the variable once, when it first lists the devices; so does simdist, where it reads
``SIMDIST_MACHINE`` (hardware.machine.get_machine).
"""

from __future__ import annotations

import re

_LEADING_INDEX = re.compile(r"\s*([+-]?\d+)")


def visible_order(text: str | None, num_gpus: int) -> list[int]:
    """The physical GPUs a process sees, in its order, for ``CUDA_VISIBLE_DEVICES=text``."""
    if text is None:
        return list(range(num_gpus))
    order: list[int] = []
    for entry in text.split(","):
        match = _LEADING_INDEX.match(entry)
        index = int(match.group(1)) if match else -1
        if index in order:
            return []
        if not 0 <= index < num_gpus:
            break
        order.append(index)
    return order
