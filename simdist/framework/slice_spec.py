"""A Python index's ``StridedSlice`` arguments, as ``tensor[key]`` builds them in a graph.

Glossary:
  key       -- what ``__getitem__`` got: an int, a ``slice``, ``...``, ``None`` (newaxis)
               or a tuple of them.
  begin, end, strides -- one entry per key element, each packed into a Const of shape
               ``(len(key),)`` (``strided_slice/stack``, ``stack_1``, ``stack_2``): an int
               ``i`` gives ``i, i + 1, 1``; a slice its parts (0, 0, 1 where not given);
               ``...`` and ``None`` give ``0, 0, 1``.
  masks     -- bit ``k`` set for element ``k``: ``begin_mask`` / ``end_mask`` (a slice
               part not given), ``ellipsis_mask``, ``new_axis_mask``, ``shrink_axis_mask``
               (an int).
  None      -- a key holding a tensor: not modelled here (its parts stay as listed).

Mirrors tensorflow/python/ops/tensor_getitem_override.py (_slice_helper).
"""

from __future__ import annotations

import numpy as np

MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def _python_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def slice_spec(key):
    """``(begin, end, strides, masks)`` of a key of Python values (see the module
    docstring): three int32 arrays and ``{mask name: int}``; None for another key."""
    elements = key if isinstance(key, tuple) else (key,)
    if not elements:
        return None
    rows, masks = [], dict.fromkeys(MASKS, 0)
    for k, s in enumerate(elements):
        if isinstance(s, slice):
            parts = (s.start, s.stop, s.step)
            if not all(p is None or _python_int(p) for p in parts):
                return None
            rows.append((0 if s.start is None else s.start, 0 if s.stop is None else s.stop,
                         1 if s.step is None else s.step))
            masks["begin_mask"] |= (s.start is None) << k
            masks["end_mask"] |= (s.stop is None) << k
        elif s is Ellipsis or s is None:
            rows.append((0, 0, 1))
            masks["ellipsis_mask" if s is Ellipsis else "new_axis_mask"] |= 1 << k
        elif _python_int(s):
            rows.append((int(s), int(s) + 1, 1))
            masks["shrink_axis_mask"] |= 1 << k
        else:
            return None
    begin, end, strides = (np.asarray(c, np.int32) for c in zip(*rows))
    return begin, end, strides, masks
