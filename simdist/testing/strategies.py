"""Hypothesis strategies for distributed-training properties (one module for simdist's
own tests and for learners' tests alike).

Glossary:
  replica_counts     -- 1..max replicas, biased to powers of two, their neighbours, odd counts.
  FLOAT_DTYPES, INT_DTYPES, collective_dtypes -- the dtypes collectives must handle
                        (float16 included; ints wrap, so their sums are exact in any order).
  shapes             -- array shapes, including 0-d and zero-size ones.
  per_replica_arrays -- one array per replica, same shape and dtype; optionally special
                        values (inf, -inf, nan, -0.0) sprinkled in.
  reduce_ops         -- "SUM", "MEAN", "MIN", "MAX" (optionally as ``tf.distribute.ReduceOp``).
  topologies         -- preset topology names from ``simdist.hardware.topology.TOPOLOGIES``.
  batch_sizes        -- global batch sizes, including ones that do not divide by the replicas.
  input_layouts      -- a dataset size, global batch, workers x replicas and drop_remainder:
                        the arguments of ``simdist.data.distribute_rules.plan_distribution``.
  algorithm_params   -- parameters of a collective algorithm on p ranks, drawn from its
                        registry entry's ``param_space``.
  nonempty_shapes, broadcastable_shapes, float_arrays, distinct_floats -- inputs of
                        numerical gradient checks: small shapes without zero sides, a
                        shape that broadcasts with another, float64 arrays in a range (away
                        from 0 when asked), values without near-ties (for max / min).
  utf8_texts         -- str that UTF-8 encodes: hypothesis's own default text (every
                        character but the surrogates), spelled without its utf-8 codec table.
  string_lists       -- short lists of str and bytes (string tensors).
Requires hypothesis (``pip install simdist[test]``).
"""

from __future__ import annotations

import functools

import numpy as np
from hypothesis import strategies as st

FLOAT_DTYPES = ("float16", "float32", "float64")
INT_DTYPES = ("int8", "int32", "int64", "uint8")
SPECIAL_VALUES = (np.inf, -np.inf, np.nan, -0.0)


def replica_counts(max_value: int = 17, min_value: int = 1):
    """Replica counts ``min_value..max_value``; powers of two and odd counts both show up."""
    common = [n for n in (1, 2, 3, 4, 5, 7, 8, 16, 17) if min_value <= n <= max_value]
    return st.one_of(st.sampled_from(common or [min_value]),
                     st.integers(min_value, max_value))


def collective_dtypes(floats: bool = True, ints: bool = True):
    """The dtype names collectives must handle."""
    return st.sampled_from((FLOAT_DTYPES if floats else ()) + (INT_DTYPES if ints else ()))


def shapes(max_dims: int = 3, max_side: int = 6, max_size: int = 40):
    """Array shapes with 0..max_dims axes (0-d and zero-size shapes included)."""
    return st.lists(st.integers(0, max_side), max_size=max_dims).map(tuple).filter(
        lambda s: int(np.prod(s, dtype=np.int64)) <= max_size) | \
        st.integers(0, max_size).map(lambda n: (n,))


@st.composite
def per_replica_arrays(draw, num_replicas, dtype, max_size: int = 40, shape=None,
                       special: bool = False):
    """``num_replicas`` arrays of ``dtype`` and one shape (sizes include 0 and odd ones).

    Values stay small (|x| <= 2 for floats, -3..3 for ints) so no order of summing 17 of
    them overflows float16 or int8, and products stay in range once mapped to 1 + x/8.
    ``special`` puts inf, -inf, nan or -0.0 into some float elements.
    """
    if shape is None:
        shape = (draw(st.integers(0, max_size)),)
    dt = np.dtype(dtype)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    out = []
    for _ in range(num_replicas):
        if dt.kind == "f":
            a = rng.uniform(-2, 2, size=shape)
        elif dt.kind == "u":
            a = rng.integers(0, 3, size=shape)
        else:
            a = rng.integers(-3, 4, size=shape)
        out.append(a.astype(dt))
    if special and dt.kind == "f" and out and out[0].size:
        for _ in range(draw(st.integers(1, 3))):
            r = draw(st.integers(0, num_replicas - 1))
            i = draw(st.integers(0, out[0].size - 1))
            out[r].reshape(-1)[i] = draw(st.sampled_from(SPECIAL_VALUES))
    return out


def reduce_ops(names=("SUM", "MEAN", "MIN", "MAX"), as_reduce_op: bool = False):
    """Reduce op names; with ``as_reduce_op`` sometimes ``tf.distribute.ReduceOp`` members."""
    ops = st.sampled_from(tuple(names))
    if not as_reduce_op:
        return ops
    from simdist.distribute.reduce_util import ReduceOp

    members = [getattr(ReduceOp, n.upper()) for n in names if hasattr(ReduceOp, n.upper())]
    return ops | st.sampled_from(members) if members else ops


def topologies():
    """Preset topology names (``simdist.hardware.topology.TOPOLOGIES``)."""
    from simdist.hardware.topology import TOPOLOGIES

    return st.sampled_from(sorted(TOPOLOGIES))


def batch_sizes(max_value: int = 64, num_replicas: int | None = None):
    """Global batch sizes 1..max_value; with ``num_replicas``, divisible and not, both."""
    sizes = st.integers(1, max_value)
    if num_replicas is None:
        return sizes
    multiples = st.integers(1, max(max_value // num_replicas, 1)).map(lambda k: k * num_replicas)
    return multiples | sizes


@st.composite
def input_layouts(draw, max_workers: int = 4, max_replicas_per_worker: int = 4,
                  max_dataset_size: int = 60, max_batch: int = 17):
    """Keyword arguments for ``plan_distribution``: a dataset over workers and replicas."""
    workers = draw(st.integers(1, max_workers))
    per_worker = draw(st.integers(1, max_replicas_per_worker))
    return dict(dataset_size=draw(st.integers(0, max_dataset_size)),
                global_batch=draw(st.integers(1, max_batch)),
                num_replicas=workers * per_worker, num_workers=workers,
                drop_remainder=draw(st.booleans()))


def algorithm_params(algorithm, num_devices: int):
    """Keyword arguments for ``algorithm`` (a ``collectives.Algorithm``) on ``num_devices``
    ranks: each parameter drawn from the values its registry entry allows."""
    space = algorithm.param_space(int(num_devices))
    return st.fixed_dictionaries({key: st.sampled_from(list(values))
                                  for key, values in space.items()})


@functools.lru_cache(maxsize=256, typed=True)
def nonempty_shapes(min_rank: int = 1, max_rank: int = 3, max_dim: int = 3):
    """Shapes of ``min_rank..max_rank`` axes, each of size ``1..max_dim`` (one strategy
    per arguments: hypothesis validates each new strategy object at its first draw, which
    cost more than the draw where a test asked for one per example)."""
    return st.lists(st.integers(1, max_dim), min_size=min_rank, max_size=max_rank).map(tuple)


@st.composite
def broadcastable_shapes(draw, shape):
    """A shape that broadcasts with ``shape`` (dims kept or set to 1, leading ones dropped)."""
    dims = [d if draw(st.booleans()) else 1 for d in shape]
    drop = draw(st.integers(0, len(dims)))
    return tuple(dims[drop:])


@st.composite
def float_arrays(draw, shape, lo: float = -2.0, hi: float = 2.0, min_abs: float = 0.0):
    """A float64 array of ``shape`` in ``[lo, hi]``; with ``min_abs``, none nearer 0 than it."""
    n = int(np.prod(shape)) if shape else 1
    vals = draw(_float_lists(n, lo, hi))
    a = np.array(vals, dtype=np.float64).reshape(shape)
    if min_abs:
        a = np.where(np.abs(a) < min_abs, np.where(a < 0, -min_abs, min_abs), a)
    return a


@functools.lru_cache(maxsize=256, typed=True)   # -2 and -2.0 stay apart, as given
def _float_lists(n: int, lo: float, hi: float):
    """``n`` floats in ``[lo, hi]``, no NaN: one strategy per arguments (see
    ``nonempty_shapes``)."""
    return st.lists(st.floats(lo, hi, allow_nan=False, width=64), min_size=n, max_size=n)


@st.composite
def distinct_floats(draw, shape, gap: float = 0.3):
    """Values whose pairwise differences are at least about ``gap`` (no ties for max/min)."""
    n = int(np.prod(shape)) if shape else 1
    perm = np.array(draw(st.permutations(range(n))), dtype=np.float64)
    noise = draw(float_arrays((n,), -0.05, 0.05))
    return ((perm - n / 2) * gap + noise).reshape(shape)


def utf8_texts(max_size: int | None = None):
    """``st.text(max_size=...)``'s strings: its default alphabet, ``characters(codec=
    "utf-8")``, is every character but the surrogates (category Cs), the same intervals as
    ``characters(exclude_categories=("Cs",))`` (so the same draws). Named by category, it
    does not build hypothesis's utf-8 codec table (encoding each of 1.1M code points,
    ~3.5 s CPU, on every fresh checkout and in every xdist worker, until cached in
    .hypothesis/)."""
    return st.text(st.characters(exclude_categories=("Cs",)), max_size=max_size)


def string_lists(max_len: int = 6, max_size: int = 5):
    """1..max_size texts or byte strings of at most ``max_len`` characters each."""
    return st.lists(utf8_texts(max_len) | st.binary(max_size=max_len), min_size=1,
                    max_size=max_size)
