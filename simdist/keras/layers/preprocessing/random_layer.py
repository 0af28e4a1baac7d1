"""``BaseRandomLayer``: a layer that draws through a ``tf.random.Generator`` of its own.

Glossary:
  force_generator -- Keras's augmentation layers ask for the "stateful" kind of
                   backend.RandomGenerator: a ``tf.random.Generator.from_seed(seed,
                   AUTO_SELECT)`` made when the layer is built, every draw moving its state
                   on (each call, and each execution of a traced step, differs).
  seed          -- the layer's ``seed``, or one drawn when it is built from the generator
                   ``tf.keras.utils.set_random_seed`` left (Python's ``random`` without one),
                   as Keras's initializers draw theirs (backend.RandomGenerator._create_seed).
  stateless seed -- ``make_seed_for_stateless_op``: ``generator.make_seeds()[:, 0]``, a new
                   [2] int64 seed per call for tf.image's stateless ops (RandomFlip's).
  rng_type      -- get_config's 'stateful' (what Keras writes for these layers).

Mirrors tf_keras/src/engine/base_layer.py (BaseRandomLayer) and the "stateful" kind of
tf_keras/src/backend.py's RandomGenerator.
"""

from __future__ import annotations

from simdist.framework import dtypes
from simdist.framework.ops import stateful_random_ops
from simdist.keras import backend
from simdist.keras.engine.base_layer import Layer

_RNG_TYPES = ("stateful", "stateless", "legacy_stateful")


class StatefulRandomGenerator:
    """Keras's RandomGenerator of ``rng_type="stateful"``: a ``tf.random.Generator``."""

    def __init__(self, seed=None):
        self._seed = seed
        self._generator = None

    def maybe_init(self) -> None:
        """Make the generator from the seed (drawn now when the layer has none)."""
        if self._generator is None:
            seed = backend.RandomGenerator._create_seed(self._seed)
            self._generator = stateful_random_ops.Generator.from_seed(seed, alg=3)

    def make_seed_for_stateless_op(self):
        """A new ``[2]`` int64 seed: the generator's ``make_seeds()[:, 0]``."""
        self.maybe_init()
        return self._generator.make_seeds()[:, 0]

    def random_uniform(self, shape, minval=0.0, maxval=None, dtype=None):
        """The generator's ``uniform`` (float ``floatx()`` by default)."""
        self.maybe_init()
        return self._generator.uniform(shape, minval, maxval,
                                       dtype=dtypes.as_dtype(dtype or backend.floatx()))


class BaseRandomLayer(Layer):
    """A layer with its own random generator (see the glossary)."""

    def __init__(self, seed=None, rng_type=None, **kwargs):
        kwargs.pop("force_generator", None)   # always the "stateful" kind (see the glossary)
        super().__init__(**kwargs)
        if rng_type is not None and rng_type not in _RNG_TYPES:
            raise ValueError('Invalid `rng_type` received. Valid `rng_type` are ["stateless", '
                             f'"stateful", "legacy_stateful"]. Got: {rng_type}')
        self._random_generator = StatefulRandomGenerator(seed)

    def build(self, input_shape):
        super().build(input_shape)
        self._random_generator.maybe_init()

    def get_config(self):
        config = super().get_config()
        config["rng_type"] = "stateful"
        return config
