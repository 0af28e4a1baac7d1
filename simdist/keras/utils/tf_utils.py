"""Small helpers shared by the Keras modules.

Glossary:
  enter_or_assert_strategy -- TF enters a distributed variable's strategy when no strategy
                              is current, so a top-level read/assign acts on all copies.
  to_tensor                -- convert arrays and variables to Tensors (structures too).
  snake_case               -- 'BatchNormalization' -> 'batch_normalization' (layer names).
  set_random_seed          -- seed Python's ``random``, NumPy's global generator and
                              ``tf.random`` at once (``tf.keras.utils.set_random_seed``).

Mirrors keras/src/utils/tf_utils.py and generic_utils.py.
"""

from __future__ import annotations

import contextlib
import random
import re

import numpy as np

from simdist.distribute import distribution_strategy_context as ds
from simdist.framework import nest, op_def
from simdist.framework.ops import random_ops


def set_random_seed(seed):
    """Seed Python, NumPy and simdist's random generators with one integer.

    Raises:
      ValueError: ``seed`` is not an int.
    """
    if not isinstance(seed, int):
        raise ValueError("Expected `seed` argument to be an integer. "
                         f"Received: seed={seed} (of type {type(seed)})")
    random.seed(seed)
    np.random.seed(seed)
    random_ops.set_seed(seed)


def strategy_of(var):
    return getattr(var, "_distribute_strategy", None)


@contextlib.contextmanager
def enter_or_assert_strategy(strategy):
    """Enter ``strategy``'s scope when no strategy is current (TF's enter_or_assert_strategy)."""
    if strategy is None or ds.has_strategy():
        yield
        return
    with strategy.scope():
        yield


def to_tensor(x, dtype=None):
    return op_def.convert_to_tensor(x, dtype=dtype)


def map_tensors(fn, structure):
    return nest.map_structure(fn, structure)


def snake_case(name: str) -> str:
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    s = re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()
    return s
