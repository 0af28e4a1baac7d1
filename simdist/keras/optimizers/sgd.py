"""``SGD`` with optional momentum and Nesterov momentum.

Glossary:
  update -- ``m = -g * lr + m * momentum``; ``var += m`` (Nesterov:
            ``var += -g * lr + m * momentum``). The momentum slot exists even for
            momentum 0, as in Keras.
  sparse -- an IndexedSlices gradient: ``m = m * momentum``, then ``-g * lr`` scattered
            into ``m`` (Nesterov: and into ``var``), then ``var += m`` (Nesterov:
            ``var += m * momentum``).

Mirrors keras/src/optimizers/sgd.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers import fused
from simdist.keras.optimizers.optimizer import Optimizer
from simdist.keras.optimizers.sparse_updates import slices


class MomentumSlot:
    """An optimizer whose one slot per variable is ``m`` (``self.momentums``): SGD's and
    Lion's ``build``."""

    def build(self, var_list):
        super().build(var_list)
        if self._built:
            return
        self.momentums = [self.add_variable_from_reference(v, "m") for v in var_list]
        self._built = True


class SGD(MomentumSlot, Optimizer):
    """Gradient descent (with momentum) optimizer."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        # weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema ... go to the base class.
        super().__init__(name=name, learning_rate=learning_rate, **kwargs)
        self.momentum = momentum
        self.nesterov = nesterov
        if isinstance(momentum, (int, float)) and (momentum < 0 or momentum > 1):
            raise ValueError("`momentum` must be between [0, 1].")

    def _prepare_local(self, dtype):
        c = super()._prepare_local(dtype)
        c["momentum"] = A.cast(A.constant(self.momentum), dtype)
        return c

    def update_step(self, gradient, variable):
        c = self._coefficients(variable)
        lr, momentum = c["lr"], c["momentum"]
        m = self.momentums[self._index_dict[self._var_key(variable)]]
        if isinstance(gradient, IndexedSlices):
            return self._sparse_update_step(gradient, variable, m, c)
        if self._fused_update_step(gradient, variable, m, lr, momentum):
            return
        step = M.multiply(M.negative(gradient), lr)
        m.assign(M.add(step, M.multiply(m.read_value(), momentum)))
        if self.nesterov:
            variable.assign_add(M.add(M.multiply(M.negative(gradient), lr),
                                      M.multiply(m.read_value(), momentum)))
        else:
            variable.assign_add(m.read_value())

    _takes_indexed_slices = True

    def _sparse_update_step(self, gradient, variable, m, c):
        add_value = slices(gradient, M.multiply(M.negative(gradient.values), c["lr"]))
        m.assign(M.multiply(m.read_value(), c["momentum"]))
        m.scatter_add(add_value)
        if self.nesterov:
            variable.scatter_add(add_value)
            variable.assign_add(M.multiply(m.read_value(), c["momentum"]))
        else:
            variable.assign_add(m.read_value())

    def _fused_update_step(self, gradient, variable, m, lr, momentum) -> bool:
        """The dense update above as one fused kernel (fused.py): the same NumPy
        operations in the same order, the same ops charged; False where it does not apply."""
        started = fused.start(gradient, variable, m)
        if started is None:
            return False
        k, (m,) = started
        g, lr, momentum = gradient._value, lr._value, momentum._value
        with np.errstate(all="ignore"):
            neg = k.op("Neg", (g,), -g)
            step = k.op("Mul", (neg, lr), neg * lr)
            kept = k.op("Mul", (m._value, momentum), m._value * momentum)
            k.write(m, k.op("AddV2", (step, kept), step + kept), "AssignVariableOp")
            if self.nesterov:
                neg = k.op("Neg", (g,), -g)
                step = k.op("Mul", (neg, lr), neg * lr)
                kept = k.op("Mul", (m._value, momentum), m._value * momentum)
                update = k.op("AddV2", (step, kept), step + kept)
            else:
                update = m._value
            k.write(variable, variable._value + update, "AssignAddVariableOp")
        return True

    def get_config(self):
        cfg = super().get_config()
        cfg.update(learning_rate=self._serialize_hyperparameter(self._learning_rate),
                   momentum=self.momentum, nesterov=self.nesterov)
        return cfg
