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
  stateless    -- ``stateless_uniform(shape, seed=[a, b])`` etc.: the numbers depend on the
                  two-integer seed only (same seed, same numbers; the global seed and the
                  streams are neither read nor advanced). Keras's initializers use them.
Numbers are drawn on the host with NumPy's PCG64 keyed by the seeds, then placed on the
device: reproducible across runs and backends, but not bitwise TF's Philox values.

Mirrors tensorflow/python/ops/random_ops.py, stateless_random_ops.py and
framework/random_seed.py.
"""

from __future__ import annotations

import threading

import numpy as np

from simdist import _world
from simdist.framework import dtypes, errors, op_def
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


@_world.register_resetter
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


def _normal(gen, op_type, shape, mean, stddev, dtype) -> Tensor:
    dt = _float_dtype(dtype, "normal")
    mean_t = op_def.convert_to_tensor(mean, dtype=dt)
    std_t = op_def.convert_to_tensor(stddev, dtype=dt)
    z = gen.standard_normal(_shape(shape)).astype(dt.as_numpy_dtype)
    return M.add(M.multiply(_place(op_type, z), std_t), mean_t)


def _truncated_normal(gen, op_type, shape, mean, stddev, dtype) -> Tensor:
    dt = _float_dtype(dtype, "truncated_normal")
    mean_t = op_def.convert_to_tensor(mean, dtype=dt)
    std_t = op_def.convert_to_tensor(stddev, dtype=dt)
    z = gen.standard_normal(_shape(shape))
    bad = np.abs(z) > 2
    while bad.any():
        z[bad] = gen.standard_normal(int(bad.sum()))
        bad = np.abs(z) > 2
    z = z.astype(dt.as_numpy_dtype)
    return M.add(M.multiply(_place(op_type, z), std_t), mean_t)


def _uniform(gen, op_type, shape, minval, maxval, dtype) -> Tensor:
    dt = dtypes.as_dtype(dtype)
    shape = _shape(shape)
    if dt.is_integer:
        if minval is None:  # a stateless draw without bounds covers the whole dtype
            info = np.iinfo(dt.as_numpy_dtype)
            minval, maxval = info.min, info.max + 1
        lo, hi = int(A._t(minval)), int(A._t(maxval))
        host = gen.integers(lo, hi, size=shape).astype(dt.as_numpy_dtype)
        return _place(op_type + "Int", host)
    if not dt.is_floating:
        raise ValueError(f"Invalid dtype {dt!r} for tf.random.uniform: use a float or int dtype.")
    lo = op_def.convert_to_tensor(minval, dtype=dt)
    hi = op_def.convert_to_tensor(1 if maxval is None else maxval, dtype=dt)
    u = gen.random(shape).astype(dt.as_numpy_dtype)
    return M.add(M.multiply(_place(op_type, u), M.subtract(hi, lo)), lo)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None) -> Tensor:
    """Samples from a normal distribution (``tf.random.normal``)."""
    return _normal(_generator(seed), "RandomStandardNormal", shape, mean, stddev, dtype)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None,
                     name=None) -> Tensor:
    """Normal samples more than two standard deviations from the mean are redrawn."""
    return _truncated_normal(_generator(seed), "TruncatedNormal", shape, mean, stddev, dtype)


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None,
            name=None) -> Tensor:
    """Samples from ``[minval, maxval)`` (``maxval`` defaults to 1 for floats).

    Raises:
      ValueError: an integer ``dtype`` without ``maxval``.
    """
    if dtypes.as_dtype(dtype).is_integer and maxval is None:
        raise ValueError(f"Must specify maxval for integer dtype {dtypes.as_dtype(dtype)!r}")
    return _uniform(_generator(seed), "RandomUniform", shape, minval, maxval, dtype)


# --- stateless ops: the numbers are a function of (seed, shape) only ---------------------
def _stateless_generator(seed) -> np.random.Generator:
    """A fresh generator keyed by the shape-[2] ``seed``: the same seed gives the same
    numbers every call, and no state of the stateful ops above is read or advanced."""
    pair = np.asarray(seed.numpy() if hasattr(seed, "numpy") else seed)
    if not np.issubdtype(pair.dtype, np.integer):
        raise errors.InvalidArgumentError(
            None, None, "Value for attr 'Tseed' of "
                        f"{'float' if pair.dtype.kind == 'f' else pair.dtype} is not in the "
                        "list of allowed values: int32, int64\nPass two integers, e.g. "
                        "seed=[1, 2].")
    if pair.shape != (2,):
        raise errors.InvalidArgumentError(
            None, None, f"seed must have shape [2], not {list(pair.shape)}\nPass two "
                        "integers, e.g. seed=[1, 2].")
    return np.random.default_rng([int(s) % 2**64 for s in pair])


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                     name=None) -> Tensor:
    """Normal samples determined by ``seed`` alone (``tf.random.stateless_normal``)."""
    return _normal(_stateless_generator(seed), "StatelessRandomNormalV2", shape, mean,
                   stddev, dtype)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                               name=None) -> Tensor:
    """Truncated normal samples determined by ``seed`` alone."""
    return _truncated_normal(_stateless_generator(seed), "StatelessTruncatedNormalV2", shape,
                             mean, stddev, dtype)


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32,
                      name=None) -> Tensor:
    """Uniform samples determined by ``seed`` alone (``tf.random.stateless_uniform``).

    Raises:
      ValueError: an integer ``dtype`` without both ``minval`` and ``maxval``.
    """
    dt = dtypes.as_dtype(dtype)
    if dt.is_integer and (minval is None) != (maxval is None):
        raise ValueError(f"For integer `dtype` argument {dt!r}, argument `minval` and "
                         "`maxval` must be both None or not None. Got `minval`="
                         f"{minval} and `maxval`={maxval}.")
    return _uniform(_stateless_generator(seed), "StatelessRandomUniformV2", shape, minval,
                    maxval, dtype)


def shuffle(value, seed=None, name=None) -> Tensor:
    """``value`` with its first dimension randomly permuted (``tf.random.shuffle``)."""
    x = A._t(value)
    perm = _generator(seed).permutation(x.shape[0]) if x.ndim else None
    if perm is None:
        return x
    return A.gather(x, A.constant(perm.astype(np.int32)))


for _op in ("RandomStandardNormal", "TruncatedNormal", "RandomUniform", "RandomUniformInt",
            "StatelessRandomNormalV2", "StatelessTruncatedNormalV2", "StatelessRandomUniformV2",
            "StatelessRandomUniformV2Int"):
    op_def.NotDifferentiable(_op)
