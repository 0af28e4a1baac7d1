"""Weight and activity regularizers: penalties that join the loss through ``layer.losses``.

Glossary:
  L1 / L2 / L1L2 -- ``l1 * sum(|w|)``, ``l2 * sum(w**2)``, or both (defaults 0.01).
  weight penalty -- ``add_weight(regularizer=...)`` keeps a callable; ``layer.losses``
                    evaluates it on the weight's current value every time it is read.
  activity       -- ``activity_regularizer`` on a layer's output, divided by the batch
                    size, added during each call (and cleared before the next outer call).
  serialize      -- Keras's config dict ``{module, class_name, config, registered_name}``;
                    factors are kept as float32, as Keras casts them (0.01 reads back as
                    0.009999999776482582).

Mirrors keras/src/regularizers.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.utils.serialization import lookup


class Regularizer:
    """Base class: ``regularizer(x)`` is a scalar penalty."""

    def __call__(self, x):
        return A.constant(0.0)

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1L2(Regularizer):
    """``l1 * sum(|x|) + l2 * sum(x**2)``."""

    def __init__(self, l1=0.0, l2=0.0):
        # Keras casts the factors to floatx; the penalty is float32 arithmetic either way.
        self.l1, self.l2 = float(np.float32(l1)), float(np.float32(l2))

    def __call__(self, x):
        x = A._t(x)
        penalty = A.constant(0.0, dtype=x.dtype)
        if self.l1:
            penalty = M.add(penalty, M.multiply(M.reduce_sum(M.abs(x)), self.l1))
        if self.l2:
            penalty = M.add(penalty, M.multiply(M.reduce_sum(M.square(x)), self.l2))
        return penalty

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


class L1(L1L2):
    """``l1 * sum(|x|)``."""

    def __init__(self, l1=0.01):
        super().__init__(l1=l1)

    def get_config(self):
        return {"l1": self.l1}


class L2(L1L2):
    """``l2 * sum(x**2)``."""

    def __init__(self, l2=0.01):
        super().__init__(l2=l2)

    def get_config(self):
        return {"l2": self.l2}


def l1_l2(l1=0.01, l2=0.01):
    return L1L2(l1=l1, l2=l2)


l1, l2 = L1, L2
REGULARIZERS = {"l1": L1, "l2": L2, "l1_l2": l1_l2, "L1": L1, "L2": L2, "L1L2": L1L2}


def serialize(regularizer):
    """The config dict Keras writes for ``regularizer`` (``tf.keras.regularizers.serialize``);
    a plain function is written as its name."""
    if regularizer is None:
        return None
    if not isinstance(regularizer, Regularizer):
        return getattr(regularizer, "__name__", str(regularizer))
    return {"module": "keras.regularizers", "class_name": type(regularizer).__name__,
            "config": regularizer.get_config(), "registered_name": None}


def get(identifier):
    """A regularizer for ``identifier`` (None, a name, a config dict, or a callable)."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return REGULARIZERS[identifier["class_name"]].from_config(identifier.get("config", {}))
    if isinstance(identifier, str):
        return lookup(REGULARIZERS, identifier, "regularizer")()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")
