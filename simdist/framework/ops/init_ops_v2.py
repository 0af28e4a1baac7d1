"""TF's own initializer classes of the ``tf`` namespace (``tf.zeros_initializer()``,
``tf.random_normal_initializer()`` ...): objects called with a shape and dtype that return
the initial value, as TF 2 code passes them to ``tf.Variable(initial_value=init(...))``.

Glossary:
  unseeded -- ``seed=None``: each call is one stateful random op (``tf.random.normal`` ...),
              seeded by the global seed and the op counter as any other op, so two calls
              give different numbers (Keras's initializers give the same ones instead).
  seeded   -- ``seed=s``: the stateless op with seed ``[s, 0]``: every call, the same numbers.
  partition_shape / partition_offset -- the only keyword arguments a call takes (variable
              partitioning); ``partition_shape`` replaces ``shape``.

Mirrors tensorflow/python/ops/init_ops_v2.py (Zeros, Ones, Constant, RandomUniform,
RandomNormal and _RandomGenerator).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes
from simdist.framework.ops import array_ops, random_ops

_PARTITION_SHAPE = "partition_shape"
_PARTITION_OFFSET = "partition_offset"


class Initializer:
    """The base class: ``__call__(shape, dtype=None, **kwargs)`` returns a tensor."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config):
        config.pop("dtype", None)
        return cls(**config)

    def _validate_kwargs(self, kwargs, support_partition=True) -> None:
        for kwarg in kwargs:
            if kwarg not in (_PARTITION_SHAPE, _PARTITION_OFFSET):
                raise TypeError("Keyword argument should be one of "
                                f"{[_PARTITION_SHAPE, _PARTITION_OFFSET]}. Received: {kwarg}")
            if not support_partition:
                raise ValueError(f"{self.__class__.__name__} initializer doesn't support "
                                 "partition-related arguments")

    def _shape(self, shape, kwargs):
        self._validate_kwargs(kwargs)
        return kwargs.get(_PARTITION_SHAPE, shape)


def _numeric(dtype):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_numpy_compatible or dtype == dtypes.string:
        raise ValueError("Argument `dtype` expected to be numeric or boolean. "
                         f"Received {dtype}.")
    return dtype


class Zeros(Initializer):
    """``tf.zeros_initializer``."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        shape = self._shape(shape, kwargs)
        return array_ops.zeros(shape, _numeric(dtype))


class Ones(Initializer):
    """``tf.ones_initializer``."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        shape = self._shape(shape, kwargs)
        return array_ops.ones(shape, _numeric(dtype))


class Constant(Initializer):
    """``tf.constant_initializer(value)``: ``value`` broadcast (a scalar) or reshaped."""

    def __init__(self, value=0, support_partition=False):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError(f"Invalid type for initial value: {type(value).__name__}. "
                            "Expected Python scalar, list or tuple of values, or "
                            "numpy.ndarray.")
        self.value = value
        self.support_partition = support_partition

    def __call__(self, shape, dtype=None, **kwargs):
        self._validate_kwargs(kwargs, support_partition=self.support_partition)
        dtype = None if dtype is None else dtypes.as_dtype(dtype)
        return array_ops.constant(self.value, dtype=dtype, shape=shape)

    def get_config(self) -> dict:
        return {"value": self.value}


class _RandomGenerator:
    """The stateless op keyed by ``[seed, 0]`` when seeded, else the stateful one."""

    def __init__(self, seed=None):
        self.seed = None if seed is None else [seed, 0]

    def random_normal(self, shape, mean, stddev, dtype):
        if self.seed:
            return random_ops.stateless_normal(shape, self.seed, mean, stddev, dtype)
        return random_ops.normal(shape, mean, stddev, dtype)

    def random_uniform(self, shape, minval, maxval, dtype):
        if self.seed:
            return random_ops.stateless_uniform(shape, self.seed, minval, maxval, dtype)
        return random_ops.uniform(shape, minval, maxval, dtype)


class RandomUniform(Initializer):
    """``tf.random_uniform_initializer``: uniform in ``[minval, maxval)``."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed
        self._random_generator = _RandomGenerator(seed)

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        shape = self._shape(shape, kwargs)
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating and not dtype.is_integer:
            raise ValueError("Argument `dtype` expected to be numeric or boolean. "
                             f"Received {dtype}.")
        return self._random_generator.random_uniform(shape, self.minval, self.maxval, dtype)

    def get_config(self) -> dict:
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class RandomNormal(Initializer):
    """``tf.random_normal_initializer``: normal with ``mean`` and ``stddev``."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed
        self._random_generator = _RandomGenerator(seed)

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        shape = self._shape(shape, kwargs)
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            raise ValueError("Argument `dtype` is expected to be floating point. "
                             f"Received: {dtype}.")
        return self._random_generator.random_normal(shape, self.mean, self.stddev, dtype)

    def get_config(self) -> dict:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}
