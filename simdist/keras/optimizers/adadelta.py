"""``Adadelta``: step sizes from running averages of squared gradients and squared updates.

Glossary:
  rms    -- ``sqrt(x + epsilon)``.
  update -- ``acc_g = rho * acc_g + (1 - rho) * g * g``;
            ``delta = -rms(acc_delta) * g / rms(acc_g)``;
            ``acc_delta = rho * acc_delta + (1 - rho) * delta * delta``; ``var += lr * delta``.
  slots  -- ``accumulated_grad`` and ``accumulated_delta_var`` per variable (zeros).

The arithmetic is TF's, operator for operator, so float32 results are TF's bits.

Mirrors tf_keras/src/optimizers/adadelta.py.
"""

from __future__ import annotations

from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers.optimizer import Optimizer
from simdist.keras.optimizers.sparse_updates import slices


class Adadelta(Optimizer):
    """The Adadelta optimizer."""

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name="Adadelta",
                 **kwargs):
        super().__init__(name=name, learning_rate=learning_rate, **kwargs)
        self.rho, self.epsilon = rho, epsilon

    def build(self, var_list):
        super().build(var_list)
        if self._built:
            return
        self._accumulated_grads, self._accumulated_delta_vars = [], []
        for v in var_list:
            self._accumulated_grads.append(self.add_variable_from_reference(
                v, "accumulated_grad"))
            self._accumulated_delta_vars.append(self.add_variable_from_reference(
                v, "accumulated_delta_var"))
        self._built = True

    _takes_indexed_slices = True

    def update_step(self, gradient, variable):
        lr = A.cast(self.learning_rate, variable.dtype)
        i = self._index_dict[self._var_key(variable)]
        acc_grad, acc_delta = self._accumulated_grads[i], self._accumulated_delta_vars[i]
        rho = self.rho

        def rms(x):
            return M.sqrt(x + self.epsilon)

        if isinstance(gradient, IndexedSlices):   # the accumulator decays, then scatters
            acc_grad.assign_add((rho - 1) * acc_grad)
            acc_grad.scatter_add(slices(gradient, (1 - rho) * M.square(gradient.values)))
        else:
            acc_grad.assign(rho * acc_grad + (1 - rho) * gradient * gradient)
        delta_var = -rms(acc_delta) * gradient / rms(acc_grad)
        acc_delta.assign(rho * acc_delta + (1 - rho) * delta_var * delta_var)
        variable.assign_add(lr * delta_var)

    def get_config(self):
        cfg = super().get_config()
        cfg.update(learning_rate=self._serialize_hyperparameter(self._learning_rate),
                   rho=self.rho, epsilon=self.epsilon)
        return cfg
