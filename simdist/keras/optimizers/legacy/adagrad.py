"""Legacy ``Adagrad`` (TF's ApplyAdagradV2 kernel): ``accumulator += g^2``;
``var -= lr * g / (sqrt(accumulator) + epsilon)``; the accumulator starts at
``initial_accumulator_value`` (0.1). A sparse gradient: that arithmetic on its rows only
(ResourceSparseApplyAdagradV2).

Mirrors tf_keras/src/optimizers/legacy/adagrad.py.
"""

from __future__ import annotations

from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras import initializers
from simdist.keras.optimizers.legacy.optimizer_v2 import OptimizerV2


class Adagrad(OptimizerV2):
    """The Adagrad optimizer, pre-2.11."""

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name="Adagrad", **kwargs):
        if initial_accumulator_value < 0.0:
            raise ValueError("initial_accumulator_value must be non-negative: "
                             f"{initial_accumulator_value}")
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon or 1e-7

    def _create_slots(self, var_list):
        for var in var_list:
            self.add_slot(var, "accumulator",
                          initializers.Constant(self._initial_accumulator_value))

    def _prepare_local(self, dtype):
        c = super()._prepare_local(dtype)
        c["epsilon"] = A.constant(self.epsilon, dtype=dtype)
        return c

    def _resource_apply_dense(self, grad, var, c):
        acc = self.get_slot(var, "accumulator")
        acc.assign_add(M.square(grad))
        return var.assign_sub(M.divide(M.multiply(grad, c["lr_t"]),
                                       M.add(M.sqrt(acc.read_value()), c["epsilon"])))

    def _resource_apply_sparse(self, grad, var, indices, c):
        # ResourceSparseApplyAdagradV2: the dense kernel's arithmetic on the rows given
        acc = self.get_slot(var, "accumulator")
        a = M.add(A.gather(acc, indices), M.square(grad))
        acc.scatter_update(IndexedSlices(a, indices))
        update = M.divide(M.multiply(grad, c["lr_t"]), M.add(M.sqrt(a), c["epsilon"]))
        return var.scatter_update(IndexedSlices(M.subtract(A.gather(var, indices), update),
                                                indices))

    def get_config(self):
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._initial_decay,
                       "initial_accumulator_value": self._initial_accumulator_value,
                       "epsilon": self.epsilon})
        return config
