"""Shared hypothesis strategies (one module for the whole suite; add, don't delete).

Glossary:
  replica_counts     -- 1..17 replicas, biased to powers of two and their neighbours.
  collective_dtypes  -- the dtypes collectives must handle (floats and ints).
  per_replica_arrays -- one array per replica, same shape and dtype.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

# --- collectives -----------------------------------------------------------------------
REDUCE_OP_NAMES = ("sum", "mean", "min", "max", "prod")
FLOAT_DTYPES = ("float16", "float32", "float64")
INT_DTYPES = ("int8", "int32", "int64", "uint8")


def replica_counts(max_value: int = 17):
    """Replica counts 1..max_value; powers of two and odd counts both show up often."""
    return st.one_of(st.sampled_from([1, 2, 3, 4, 5, 7, 8, 16, 17]),
                     st.integers(1, max_value))


def collective_dtypes():
    return st.sampled_from(FLOAT_DTYPES + INT_DTYPES)


@st.composite
def per_replica_arrays(draw, num_replicas, dtype, max_size: int = 40, shape=None):
    """``num_replicas`` arrays of ``dtype``; sizes include 0 and non-divisible sizes.

    Values stay small so products and int sums do not overflow (float16 stays exact-ish).
    """
    if shape is None:
        shape = (draw(st.integers(0, max_size)),)
    dt = np.dtype(dtype)
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(num_replicas):
        if dt.kind == "f":
            a = rng.uniform(-2, 2, size=shape)
        elif dt.kind == "u":
            a = rng.integers(0, 3, size=shape)
        else:
            a = rng.integers(-3, 4, size=shape)
        out.append(a.astype(dt))
    return out
