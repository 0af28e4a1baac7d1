"""TF's hierarchical copy all-reduce, designed for the DGX-1's two GPU quads.

Glossary:
  groups      -- the first and second half of the devices ({0-3} and {4-7} on a DGX-1).
  main device -- per pack i, group 0's lead is device ``i % p`` and group 1's lead the
                 device at the same position in the other half, so successive packs spread
                 the reduction work over all GPUs (``pack_index`` selects the pack).
Phases (each a copy over NVLink, the reduction done with add_n on the lead):
  1. every device sends its value to its group's lead, which sums the group;
  2. group 1's lead sends its group sum to group 0's lead, which adds it;
  3. group 0's lead copies the total back to group 1's lead;
  4. each lead copies the total to the members of its group.
Mirrors tensorflow/python/distribute/cross_device_utils.py
(aggregate_gradients_using_hierarchical_copy). TF uses ``group_size = p // 2`` and so
silently leaves out the last device's value when p is odd (it still receives the total);
simdist puts it in the second group, unless ``tf_groups=True`` asks for TF's groups (what
``tf.distribute.HierarchicalCopyAllReduce`` computes, warning about it).
"""

from __future__ import annotations

from simdist.collectives.registry import Algorithm, register
from simdist.collectives.schedule import Schedule, Step, Transfer


def build(p, pack_index=0, tf_groups=False):
    if p == 1:
        return Schedule("all_reduce", "hierarchical_copy", 1, 1, [])
    half = p // 2
    # TF's second group is [half, 2 * half): with p odd the last device sends nothing, but
    # is sent the total by the second half's lead, as TF's broadcast loop does.
    end = 2 * half if tf_groups else p
    groups = [list(range(half)), list(range(half, end))]
    receivers = [groups[0], list(range(half, p))]
    lead0 = int(pack_index) % p
    if lead0 >= end:  # TF's pack i on the left-out device: its group is the second half
        lead0 = half + lead0 % half
    g0 = 0 if lead0 < half else 1
    first, second = groups[g0], groups[1 - g0]
    lead1 = second[first.index(lead0) % len(second)]
    gather = [Transfer(d, lead, 0, True) for group, lead in ((first, lead0), (second, lead1))
              for d in group if d != lead]
    steps = [
        Step("group-reduce", gather),
        Step("cross-reduce", [Transfer(lead1, lead0, 0, True)]),
        Step("cross-broadcast", [Transfer(lead0, lead1, 0, False)]),
        Step("group-broadcast", [Transfer(lead, d, 0, False)
                                 for group, lead in ((receivers[g0], lead0),
                                                     (receivers[1 - g0], lead1))
                                 for d in group if d != lead]),
    ]
    return Schedule("all_reduce", "hierarchical_copy", p, 1, [s for s in steps if s.transfers])


register(Algorithm(
    "hierarchical_copy", "all_reduce",
    "TF hierarchical copy: sum within two halves, combine the leads, copy back (DGX-1).",
    build, mirrors="tensorflow/python/distribute/cross_device_utils.py "
                   "aggregate_gradients_using_hierarchical_copy",
    # pack_index wraps around the devices (TF's pack i leads on device i % p); tf_groups
    # is left out: with p odd TF's groups drop a value, so it is no all-reduce then.
    param_space=lambda p: {"pack_index": range(2 * p + 1)}))
