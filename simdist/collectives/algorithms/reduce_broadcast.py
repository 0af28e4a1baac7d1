"""Reduction to one device, then broadcast: TF's ReductionToOneDevice.

Glossary:
  root -- the device that receives every value, sums them (add_n, in device order after its
          own) and copies the result back to everyone (``root``, default 0: TF's
          ``reduce_to_device`` defaults to the first destination device).
Simple and latency-light (2 steps) but the root's links carry (p-1) buffers each way.
Mirrors tensorflow/python/distribute/cross_device_ops.py (ReductionToOneDevice,
_simple_reduce) and cross_device_utils.aggregate_tensors_or_indexed_slices.
"""

from __future__ import annotations

from simdist.collectives.registry import Algorithm, register
from simdist.collectives.schedule import Schedule, Step, Transfer


def build(p, root=0):
    if not 0 <= int(root) < p:
        raise ValueError(f"reduce_broadcast: root must be in 0..{p - 1}, got {root}.")
    others = [d for d in range(p) if d != root]
    # Reduce: everyone sends to the root in one step; the root adds them in device order
    # after its own value (TF's add_n on the reduce device).
    # Broadcast: the root copies the sum back, so every replica holds the root's bits.
    steps = [Step("reduce", [Transfer(d, root, 0, True) for d in others]),
             Step("broadcast", [Transfer(root, d, 0, False) for d in others])]
    return Schedule("all_reduce", "reduce_broadcast", p, 1,
                    [s for s in steps if s.transfers], root=int(root))


register(Algorithm(
    "reduce_broadcast", "all_reduce",
    "Reduction to one device + broadcast (TF ReductionToOneDevice).",
    build, mirrors="tensorflow/python/distribute/cross_device_ops.py ReductionToOneDevice",
    param_space=lambda p: {"root": range(p)}))
