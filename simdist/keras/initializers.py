"""Weight initializers, looked up by name in one table (``INITIALIZERS``).

Glossary:
  Initializer     -- ``init(shape, dtype)`` -> a Tensor; Keras's default kernel initializer
                     is ``glorot_uniform`` and its default bias initializer ``zeros``.
  VarianceScaling -- draws with ``scale / fan`` variance; glorot = fan_avg & scale 1,
                     he = fan_in & scale 2, lecun = fan_in & scale 1.
  seed            -- a random initializer draws with stateless ops keyed by its seed
                     (``backend.RandomGenerator``), so every call of one instance gives the
                     same values. An unseeded one takes a seed on its first call from the
                     generator ``tf.keras.utils.set_random_seed`` leaves (Python's ``random``
                     when there is none): ``tf.random.set_seed`` alone does not make its
                     values reproducible, and ``tf.random``'s sequences do not move.
  reuse warning   -- calling one unseeded instance a second time warns (UserWarning) that
                     it returns the same values; ``initializers.get('glorot_uniform')``
                     makes a new instance each time, so each layer has its own.
  serialize       -- Keras's config dict ``{module, class_name, config, registered_name}``,
                     what a layer's ``get_config`` holds for each of its initializers.

Mirrors keras/src/initializers/initializers.py.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from simdist.framework import dtypes
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import linalg_decompositions
from simdist.keras import backend
from simdist.keras.utils.serialization import lookup


def _dtype(dtype):
    return dtypes.as_dtype(dtype or backend.floatx())


class Initializer:
    """Base class: ``__call__(shape, dtype=None)`` returns a Tensor."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError

    def get_config(self) -> dict:
        return {}

    def _warn_reuse(self):
        # Keras's check: an unseeded instance's second call gives the first call's values,
        # which is rarely what was meant (two layers sharing one initializer instance).
        if getattr(self, "_used", False):
            if getattr(self, "seed", None) is None:
                warnings.warn(
                    f"The initializer {self.__class__.__name__} is unseeded and being called "
                    "multiple times, which will return identical values each time (even if "
                    "the initializer is unseeded). Please update your code to provide a seed "
                    "to the initializer, or avoid using the same initializer instance more "
                    "than once.")
        else:
            self._used = True

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Zeros(Initializer):
    """All zeros."""

    def __call__(self, shape, dtype=None, **kwargs):
        return A.zeros(shape, dtype=_dtype(dtype))


class Ones(Initializer):
    """All ones."""

    def __call__(self, shape, dtype=None, **kwargs):
        return A.ones(shape, dtype=_dtype(dtype))


class Constant(Initializer):
    """Every element equal to ``value``."""

    def __init__(self, value=0):
        self.value = value

    def __call__(self, shape, dtype=None, **kwargs):
        # A scalar fills the shape; an array must have the shape's number of elements
        # (tf.constant(value, dtype, shape) does the checking and the error).
        return A.constant(self.value, dtype=_dtype(dtype), shape=list(shape))

    def get_config(self):
        return {"value": self.value}


class _Seeded(Initializer):
    """An initializer that draws, through Keras's stateless RandomGenerator."""

    def __init__(self, seed=None):
        self.seed = seed
        self._random_generator = backend.RandomGenerator(seed)


def _float_dtype(dtype):
    dt = _dtype(dtype)
    if not dt.is_floating:
        raise ValueError(f"Expected floating point type, got {dt}.")
    return dt


class RandomNormal(_Seeded):
    """Normal draws with ``mean`` and ``stddev``."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None, **kwargs):
        dt = _float_dtype(dtype)
        self._warn_reuse()
        return self._random_generator.random_normal(shape, self.mean, self.stddev, dt)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class RandomUniform(_Seeded):
    """Uniform draws in ``[minval, maxval)``."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape, dtype=None, **kwargs):
        dt = _dtype(dtype)
        if not dt.is_floating and not dt.is_integer:
            raise ValueError(f"Expected float or integer dtype, got {dt}.")
        self._warn_reuse()
        return self._random_generator.random_uniform(shape, self.minval, self.maxval, dt)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class TruncatedNormal(RandomNormal):
    """Normal draws redrawn beyond two standard deviations."""

    def __call__(self, shape, dtype=None, **kwargs):
        dt = _float_dtype(dtype)
        self._warn_reuse()
        return self._random_generator.truncated_normal(shape, self.mean, self.stddev, dt)


def _fans(shape):
    shape = tuple(int(s) for s in shape)
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = math.prod(shape[:-2])
    return shape[-2] * receptive, shape[-1] * receptive


class VarianceScaling(_Seeded):
    """Draws with variance ``scale / n`` where n is fan_in, fan_out or their average."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        super().__init__(seed)
        if scale <= 0.0:
            raise ValueError(f"`scale` must be positive float. Received: scale={scale}.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"Invalid `mode` argument: {mode}")
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError(f"Invalid `distribution` argument: {distribution}")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def __call__(self, shape, dtype=None, **kwargs):
        dt = _float_dtype(dtype)
        self._warn_reuse()
        fan_in, fan_out = _fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, n)
        gen = self._random_generator
        if self.distribution == "truncated_normal":
            # 0.879... is the stddev of a standard normal truncated to (-2, 2).
            stddev = math.sqrt(scale) / 0.87962566103423978
            return gen.truncated_normal(shape, 0.0, stddev, dt)
        if self.distribution == "untruncated_normal":
            return gen.random_normal(shape, 0.0, math.sqrt(scale), dt)
        limit = math.sqrt(3.0 * scale)
        return gen.random_uniform(shape, -limit, limit, dt)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed}


class Orthogonal(_Seeded):
    """A random orthogonal matrix (QR of a normal draw, signs fixed by R's diagonal)."""

    def __init__(self, gain=1.0, seed=None):
        super().__init__(seed)
        self.gain = gain

    def __call__(self, shape, dtype=None, **kwargs):
        dt = _float_dtype(dtype)
        shape = [int(s) for s in shape]
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional. "
                             f"Received: shape={tuple(shape)} of rank {len(shape)}.")
        self._warn_reuse()
        rows, cols = math.prod(shape[:-1]), shape[-1]
        a = self._random_generator.random_normal([max(rows, cols), min(rows, cols)], dtype=dt)
        q, r = linalg_decompositions.qr_values(a.numpy(), False, dt == dtypes.float32)
        q = q * np.sign(np.diag(r))   # in q's dtype: float32 where it is TF's bits
        if rows < cols:
            q = q.T
        return A.constant(q.dtype.type(self.gain) * q.reshape(shape), dtype=dt)

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed}


class Identity(Initializer):
    """``gain`` times the identity matrix (2-D shapes only)."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None, **kwargs):
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={tuple(shape)} of rank {len(shape)}.")
        return A.constant(self.gain * np.eye(*[int(s) for s in shape]), dtype=_dtype(dtype))

    def get_config(self):
        return {"gain": self.gain}


def _variance_scaling(name, scale, mode, distribution):
    def __init__(self, seed=None):
        VarianceScaling.__init__(self, scale, mode, distribution, seed)

    def get_config(self):
        return {"seed": self.seed}

    return type(name, (VarianceScaling,), {"__init__": __init__, "get_config": get_config,
                                           "__doc__": f"{name}: VarianceScaling({scale}, "
                                                      f"{mode}, {distribution})."})


GlorotUniform = _variance_scaling("GlorotUniform", 1.0, "fan_avg", "uniform")
GlorotNormal = _variance_scaling("GlorotNormal", 1.0, "fan_avg", "truncated_normal")
HeUniform = _variance_scaling("HeUniform", 2.0, "fan_in", "uniform")
HeNormal = _variance_scaling("HeNormal", 2.0, "fan_in", "truncated_normal")
LecunUniform = _variance_scaling("LecunUniform", 1.0, "fan_in", "uniform")
LecunNormal = _variance_scaling("LecunNormal", 1.0, "fan_in", "truncated_normal")

INITIALIZERS = {
    "zeros": Zeros, "ones": Ones, "constant": Constant, "random_normal": RandomNormal,
    "random_uniform": RandomUniform, "truncated_normal": TruncatedNormal,
    "variance_scaling": VarianceScaling, "glorot_uniform": GlorotUniform,
    "glorot_normal": GlorotNormal, "he_uniform": HeUniform, "he_normal": HeNormal,
    "lecun_uniform": LecunUniform, "lecun_normal": LecunNormal, "orthogonal": Orthogonal,
    "identity": Identity, "uniform": RandomUniform, "normal": RandomNormal,  # Keras's aliases
}
for _cls in list(INITIALIZERS.values()):
    INITIALIZERS[_cls.__name__] = _cls

zeros, ones, constant = Zeros, Ones, Constant
random_normal, random_uniform, glorot_uniform, glorot_normal = (
    RandomNormal, RandomUniform, GlorotUniform, GlorotNormal)
he_normal, he_uniform = HeNormal, HeUniform


def serialize(initializer):
    """The config dict Keras writes for ``initializer`` (``tf.keras.initializers.serialize``);
    a plain function is written as its name."""
    if initializer is None:
        return None
    if not isinstance(initializer, Initializer):
        return getattr(initializer, "__name__", str(initializer))
    return {"module": "keras.initializers", "class_name": type(initializer).__name__,
            "config": initializer.get_config(), "registered_name": None}


def get(identifier):
    """An initializer for ``identifier`` (None, a name, a config dict, or a callable)."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return INITIALIZERS[identifier["class_name"]].from_config(identifier.get("config", {}))
    if isinstance(identifier, str):
        return lookup(INITIALIZERS, identifier, "initializer")()
    if isinstance(identifier, type) and issubclass(identifier, Initializer):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")
