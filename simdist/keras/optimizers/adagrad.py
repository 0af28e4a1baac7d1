"""``Adagrad``: per-coordinate learning rates from the running sum of squared gradients.

Glossary:
  update -- ``acc += g**2``; ``var -= lr * g / sqrt(acc + epsilon)``; ``acc`` starts at
            ``initial_accumulator_value`` (0.1).

Mirrors keras/src/optimizers/adagrad.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers import fused
from simdist.keras.optimizers.optimizer import Optimizer
from simdist.keras.optimizers.sparse_updates import slices


class Adagrad(Optimizer):
    """The Adagrad optimizer."""

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name="Adagrad", **kwargs):
        super().__init__(name=name, learning_rate=learning_rate, **kwargs)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def build(self, var_list):
        super().build(var_list)
        if self._built:
            return
        self._accumulators = [
            self.add_variable_from_reference(
                v, "accumulator",
                initial_value=A.fill(list(v.shape), A.constant(
                    self.initial_accumulator_value, dtype=v.dtype)))
            for v in var_list]
        self._built = True

    def _prepare_local(self, dtype):
        c = super()._prepare_local(dtype)
        c["epsilon"] = A.constant(self.epsilon, dtype=dtype)
        return c

    _takes_indexed_slices = True

    def update_step(self, gradient, variable):
        c = self._coefficients(variable)
        acc = self._accumulators[self._index_dict[self._var_key(variable)]]
        if isinstance(gradient, IndexedSlices):   # only the gradient's rows change
            values = gradient.values
            acc.scatter_add(slices(gradient, M.multiply(values, values)))
            denominator = M.sqrt(M.add(A.gather(acc, gradient.indices), c["epsilon"]))
            variable.scatter_add(slices(gradient, M.divide(
                M.multiply(M.negative(c["lr"]), values), denominator)))
            return
        if self._fused_update_step(gradient, variable, acc, c):
            return
        acc.assign_add(M.multiply(gradient, gradient))
        variable.assign_sub(M.divide(M.multiply(c["lr"], gradient),
                                     M.sqrt(M.add(acc.read_value(), c["epsilon"]))))

    def _fused_update_step(self, gradient, variable, acc, c) -> bool:
        """The dense update above as one fused kernel (fused.py): the same NumPy
        operations in the same order, the same ops charged; False where it does not apply."""
        started = fused.start(gradient, variable, acc)
        if started is None:
            return False
        k, (acc,) = started
        g, lr, eps = gradient._value, c["lr"]._value, c["epsilon"]._value
        with np.errstate(all="ignore"):
            square = k.op("Mul", (g, g), g * g)
            k.write(acc, acc._value + square, "AssignAddVariableOp")
            scaled = k.op("Mul", (lr, g), lr * g)
            shifted = k.op("AddV2", (acc._value, eps), acc._value + eps)
            root = k.op("Sqrt", (shifted,), np.sqrt(shifted))
            update = k.op("RealDiv", (scaled, root), scaled / root)
            k.write(variable, variable._value - update, "AssignSubVariableOp")
        return True

    def get_config(self):
        cfg = super().get_config()
        cfg.update(learning_rate=self._serialize_hyperparameter(self._learning_rate),
                   initial_accumulator_value=self.initial_accumulator_value,
                   epsilon=self.epsilon)
        return cfg
