"""Helpers for the collectives tests: algorithm lists, extra params and references."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from simdist.collectives import ALGORITHMS

ALL_REDUCE = sorted(n for n, a in ALGORITHMS.items() if a.collective == "all_reduce")


def params_for(name, p):
    """A strategy of extra parameters that exercise each algorithm's options."""
    if name == "tree":
        return st.fixed_dictionaries({"pipeline": st.integers(1, 3)})
    if name == "parameter_server":
        return st.fixed_dictionaries({"num_ps": st.integers(1, 3)})
    if name == "hierarchical_copy":
        return st.fixed_dictionaries({"pack_index": st.integers(0, 2 * p)})
    if name == "reduce_broadcast":
        return st.fixed_dictionaries({"root": st.integers(0, p - 1)})
    if name == "two_level":
        divisors = [d for d in range(1, p + 1) if p % d == 0]
        return st.fixed_dictionaries({"local_size": st.sampled_from(divisors)})
    return st.just({})


def reference(values, op):
    """The exact reduction (float64 for floats, the array's own wrapping ints for ints)."""
    stack = np.stack(values)
    dt = stack.dtype
    if op in ("sum", "mean"):
        if dt.kind == "f":
            return stack.astype(np.float64).sum(axis=0)
        return stack.sum(axis=0, dtype=dt)
    if op == "prod":
        return stack.astype(np.float64).prod(axis=0) if dt.kind == "f" \
            else stack.prod(axis=0, dtype=dt)
    return stack.min(axis=0) if op == "min" else stack.max(axis=0)


def tame_for_prod(values):
    """Keep products of up to 17 factors finite in float16: map x to 1 + x/8."""
    return [(1 + v / 8).astype(v.dtype) if v.dtype.kind == "f" else v for v in values]
