"""Random ops with TensorFlow's seeding rules (``tf.random``).

Glossary:
  global seed  -- ``set_seed(s)``: makes every later sequence of random ops reproducible
                  and restarts it.
  op seed      -- ``seed=`` of one op. With a global seed and no op seed, each op call
                  takes the next number of an internal counter as its op seed (so successive
                  calls differ, reproducibly); with an op seed and no global seed, the
                  global seed is TF's default ``87654321``; with neither, draws are not
                  reproducible.
  stream       -- one generator per (global seed, op seed) pair that advances with each
                  call, so ``uniform([1], seed=1)`` twice gives two different values, the
                  same two after every ``set_seed``.
Numbers are drawn on the host with NumPy's PCG64 keyed by the seeds, then placed on the
device: reproducible across runs and backends, but not bitwise TF's Philox values.

Mirrors tensorflow/python/ops/random_ops.py and framework/random_seed.py.
"""

from __future__ import annotations

import threading

import numpy as np

from simdist import testing
from simdist.framework import dtypes, op_def
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.tensor import Tensor
from simdist.hardware import backend

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1


class _RandomState:
    def __init__(self):
        self.global_seed: int | None = None
        self.op_counter = 0
        self.streams: dict[tuple[int, int], np.random.Generator] = {}
        self.lock = threading.Lock()


_state = _RandomState()


@testing.register_resetter
def _reset() -> None:
    global _state
    _state = _RandomState()


def set_seed(seed) -> None:
    """Set the global random seed and restart every random sequence (``tf.random.set_seed``)."""
    with _state.lock:
        _state.global_seed = None if seed is None else int(seed)
        _state.op_counter = 0
        _state.streams.clear()


def get_global_seed() -> int | None:
    """The seed last given to :func:`set_seed` (None when unset)."""
    return _state.global_seed


def get_seed(op_seed):
    """The (global seed, op seed) pair an op uses, as TF's ``random_seed.get_seed``."""
    g = _state.global_seed
    if g is not None:
        if op_seed is None:
            with _state.lock:
                _state.op_counter += 1
                op_seed = _state.op_counter
        return g, int(op_seed)
    if op_seed is not None:
        return DEFAULT_GRAPH_SEED, int(op_seed)
    return None, None


def _generator(seed) -> np.random.Generator:
    g, o = get_seed(seed)
    if g is None:
        return np.random.default_rng()
    with _state.lock:
        gen = _state.streams.get((g, o))
        if gen is None:
            gen = _state.streams[(g, o)] = np.random.default_rng([g & 0xFFFFFFFF,
                                                                  o & 0xFFFFFFFF])
        return gen


def _shape(shape) -> tuple:
    return tuple(A._ints(shape)) if not isinstance(shape, tuple) else tuple(map(int, shape))


def _place(op_type, host) -> Tensor:
    return op_def.execute(op_type, [], backend.xp.asarray(host))


def _float_dtype(dtype, what) -> dtypes.DType:
    dt = dtypes.as_dtype(dtype)
    if not dt.is_floating:
        raise TypeError(f"Cannot convert 0.0 to EagerTensor of dtype {dt.name}")
    return dt


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None) -> Tensor:
    """Samples from a normal distribution (``tf.random.normal``)."""
    dt = _float_dtype(dtype, "normal")
    mean_t = op_def.convert_to_tensor(mean, dtype=dt)
    std_t = op_def.convert_to_tensor(stddev, dtype=dt)
    z = _generator(seed).standard_normal(_shape(shape)).astype(dt.as_numpy_dtype)
    return M.add(M.multiply(_place("RandomStandardNormal", z), std_t), mean_t)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None,
                     name=None) -> Tensor:
    """Normal samples more than two standard deviations from the mean are redrawn."""
    dt = _float_dtype(dtype, "truncated_normal")
    mean_t = op_def.convert_to_tensor(mean, dtype=dt)
    std_t = op_def.convert_to_tensor(stddev, dtype=dt)
    gen = _generator(seed)
    z = gen.standard_normal(_shape(shape))
    bad = np.abs(z) > 2
    while bad.any():
        z[bad] = gen.standard_normal(int(bad.sum()))
        bad = np.abs(z) > 2
    z = z.astype(dt.as_numpy_dtype)
    return M.add(M.multiply(_place("TruncatedNormal", z), std_t), mean_t)


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None,
            name=None) -> Tensor:
    """Samples from ``[minval, maxval)`` (``maxval`` defaults to 1 for floats).

    Raises:
      ValueError: an integer ``dtype`` without ``maxval``.
    """
    dt = dtypes.as_dtype(dtype)
    shape = _shape(shape)
    if dt.is_integer:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dt!r}")
        lo, hi = int(A._t(minval)), int(A._t(maxval))
        host = _generator(seed).integers(lo, hi, size=shape).astype(dt.as_numpy_dtype)
        return _place("RandomUniformInt", host)
    if not dt.is_floating:
        raise ValueError(f"Invalid dtype {dt!r} for tf.random.uniform: use a float or int dtype.")
    lo = op_def.convert_to_tensor(minval, dtype=dt)
    hi = op_def.convert_to_tensor(1 if maxval is None else maxval, dtype=dt)
    u = _generator(seed).random(shape).astype(dt.as_numpy_dtype)
    return M.add(M.multiply(_place("RandomUniform", u), M.subtract(hi, lo)), lo)


def shuffle(value, seed=None, name=None) -> Tensor:
    """``value`` with its first dimension randomly permuted (``tf.random.shuffle``)."""
    x = A._t(value)
    perm = _generator(seed).permutation(x.shape[0]) if x.ndim else None
    if perm is None:
        return x
    return A.gather(x, A.constant(perm.astype(np.int32)))


for _op in ("RandomStandardNormal", "TruncatedNormal", "RandomUniform", "RandomUniformInt"):
    op_def.NotDifferentiable(_op)
