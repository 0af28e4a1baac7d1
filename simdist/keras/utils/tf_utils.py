"""Small helpers shared by the Keras modules.

Glossary:
  snake_case               -- 'BatchNormalization' -> 'batch_normalization' (layer names).
  validate_axis            -- an axis or list of axes as a list of non-negative ints, with
                              Keras's errors for one out of range or repeated.
  set_random_seed          -- seed Python's ``random``, NumPy's global generator and
                              ``tf.random`` at once, and give Keras a seed generator that
                              unseeded initializers take their seeds from
                              (``tf.keras.utils.set_random_seed``).

Mirrors keras/src/utils/tf_utils.py and generic_utils.py.
"""

from __future__ import annotations

import random
import re

import numpy as np

from simdist.framework.ops import random_ops
from simdist.keras import backend


def set_random_seed(seed):
    """Seed Python, NumPy and simdist's random generators with one integer; unseeded Keras
    initializers made afterwards draw the same weights again (``tf.random.set_seed`` alone
    does not do that).

    Raises:
      ValueError: ``seed`` is not an int.
    """
    if not isinstance(seed, int):
        raise ValueError("Expected `seed` argument to be an integer. "
                         f"Received: seed={seed} (of type {type(seed)})")
    random.seed(seed)
    np.random.seed(seed)
    random_ops.set_seed(seed)
    # A generator of its own, so code that draws from Python's `random` between here and
    # building a model does not change the model's initial weights.
    backend._SEED_GENERATOR.generator = random.Random(seed)


def snake_case(name: str) -> str:
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    s = re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()
    return s


def validate_axis(axis, input_shape) -> list:
    """``axis`` (an int or a list/tuple of ints, negatives counted from the end) as a list of
    non-negative axes of ``input_shape``.

    Raises:
      ValueError: the rank is 0 or unknown, an axis is out of range, or one is repeated.
    """
    rank = len(input_shape) if input_shape is not None else None
    if not rank:
        shape = "<unknown>" if input_shape is None else tuple(input_shape)
        raise ValueError(f"Input has undefined rank. Received: input_shape={shape}")
    axis = [axis] if isinstance(axis, int) else list(axis)
    axis = [a + rank if a < 0 else a for a in axis]
    if any(not 0 <= a < rank for a in axis):
        raise ValueError("Invalid value for `axis` argument. Expected 0 <= axis < inputs.rank "
                         f"(with inputs.rank={rank}). Received: axis={tuple(axis)}")
    if len(axis) != len(set(axis)):
        raise ValueError(f"Duplicate axis: {tuple(axis)}")
    return axis
