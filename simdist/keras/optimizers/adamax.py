"""``Adamax``: Adam with the infinity norm in place of the second moment.

Glossary:
  update -- ``t = iterations + 1``; ``m += (g - m) * (1 - beta_1)``;
            ``u = max(beta_2 * u, |g|)``; ``var -= lr * m / ((1 - beta_1**t) * (u + epsilon))``.
  slots  -- ``m`` and ``u`` per variable (zeros).

The arithmetic is TF's, operator for operator (Python floats become float32 constants
where TF's operators convert them), so float32 results are TF's bits.

Mirrors tf_keras/src/optimizers/adamax.py.
"""

from __future__ import annotations

from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers.beta_moments import BetaMomentsOptimizer
from simdist.keras.optimizers.sparse_updates import slices


class Adamax(BetaMomentsOptimizer):
    """The Adamax optimizer."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="Adamax", **kwargs):
        super().__init__(learning_rate, beta_1, beta_2, epsilon, name=name, **kwargs)

    def build(self, var_list):
        super().build(var_list)
        if self._built:
            return
        self._m, self._u = [], []
        for v in var_list:
            self._m.append(self.add_variable_from_reference(v, "m"))
            self._u.append(self.add_variable_from_reference(v, "u"))
        self._built = True

    _takes_indexed_slices = True

    def update_step(self, gradient, variable):
        dtype = variable.dtype
        lr = A.cast(self.learning_rate, dtype)
        local_step = A.cast(self.iterations + 1, dtype)
        beta_1_power = M.pow(A.cast(self.beta_1, dtype), local_step)
        i = self._index_dict[self._var_key(variable)]
        m, u = self._m[i], self._u[i]
        if isinstance(gradient, IndexedSlices):   # m and u decay, then scatter
            m.assign_add(-m * (1 - self.beta_1))
            m.scatter_add(slices(gradient, gradient.values * (1 - self.beta_1)))
            u.assign(u * self.beta_2)
            u_slice = A.gather(u, gradient.indices)
            u.scatter_add(slices(gradient,
                                 M.maximum(u_slice, M.abs(gradient.values)) - u_slice))
        else:
            m.assign_add((gradient - m) * (1 - self.beta_1))
            u.assign(M.maximum(self.beta_2 * u, M.abs(gradient)))
        variable.assign_sub((lr * m) / ((1 - beta_1_power) * (u + self.epsilon)))
