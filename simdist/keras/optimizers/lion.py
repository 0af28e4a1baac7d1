"""``Lion``: EvoLved Sign Momentum (Chen et al., 2023): the update is the sign of an
interpolation between the momentum and the gradient.

Glossary:
  update   -- ``var -= lr * sign(m * beta_1 + g * (1 - beta_1))``;
              ``m = m * beta_2 + g * (1 - beta_2)``.
  slot     -- ``m`` per variable (zeros).

The arithmetic is TF's, operator for operator (``beta_1`` and ``beta_2`` cast to the
variable's dtype, ``1.0 - beta_1`` a float32 Sub), so float32 results are TF's bits.
An IndexedSlices gradient: ``m = m * beta_1``, the gradient's rows scattered in with
``1 - beta_1``, ``var -= lr * sign(m)``, then ``m = m * beta_2 / beta_1`` and the rows again
with ``1 - beta_2 / beta_1`` (TF's sparse branch, ``m`` as a buffer).

Mirrors tf_keras/src/optimizers/lion.py.
"""

from __future__ import annotations

from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers.optimizer import Optimizer
from simdist.keras.optimizers.sgd import MomentumSlot
from simdist.keras.optimizers.sparse_updates import slices


class Lion(MomentumSlot, Optimizer):
    """The Lion optimizer.

    Raises:
      ValueError: ``beta_1`` outside ]0, 1] (TF's message).
    """

    def __init__(self, learning_rate=0.0001, beta_1=0.9, beta_2=0.99, name="Lion",
                 **kwargs):
        # weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema ... go to the base class.
        super().__init__(name=name, learning_rate=learning_rate, **kwargs)
        self.beta_1, self.beta_2 = beta_1, beta_2
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError(f"`beta_1`={beta_1} must be between ]0, 1]. Otherwise, the "
                             "optimizer degenerates to SignSGD.")

    _takes_indexed_slices = True

    def update_step(self, gradient, variable):
        dtype = variable.dtype
        lr = A.cast(self.learning_rate, dtype)
        beta_1, beta_2 = A.cast(self.beta_1, dtype), A.cast(self.beta_2, dtype)
        m = self.momentums[self._index_dict[self._var_key(variable)]]
        if isinstance(gradient, IndexedSlices):   # m is the interpolation's buffer
            m.assign(m * beta_1)
            m.scatter_add(slices(gradient, gradient.values * (1.0 - beta_1)))
            variable.assign_sub(lr * M.sign(m))
            m.assign(m * beta_2 / beta_1)
            m.scatter_add(slices(gradient, gradient.values * (1.0 - beta_2 / beta_1)))
            return
        variable.assign_sub(lr * M.sign(m * beta_1 + gradient * (1.0 - beta_1)))
        m.assign(m * beta_2 + gradient * (1.0 - beta_2))

    def get_config(self):
        cfg = super().get_config()
        cfg.update(learning_rate=self._serialize_hyperparameter(self._learning_rate),
                   beta_1=self.beta_1, beta_2=self.beta_2)
        return cfg
