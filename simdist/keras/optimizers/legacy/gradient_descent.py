"""Legacy ``SGD``: ``var -= lr * g``; with momentum ``accum = accum * momentum - lr * g;
var += accum`` (Nesterov: ``var += accum * momentum - lr * g``), TF's KerasMomentum kernel.
The 'momentum' slot exists only when momentum is not 0. A sparse gradient: without momentum
its rows scattered into ``var`` (repeats one by one, ResourceScatterAdd); with momentum the
kernel's arithmetic on the rows given (ResourceSparseApplyKerasMomentum).

Mirrors tf_keras/src/optimizers/legacy/gradient_descent.py.
"""

from __future__ import annotations

from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers.legacy.optimizer_v2 import OptimizerV2, uses_momentum


class SGD(OptimizerV2):
    """Gradient descent (with momentum), the pre-2.11 optimizer."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._momentum = uses_momentum(momentum)
        self._set_hyper("momentum", momentum)
        self.nesterov = nesterov

    def _create_slots(self, var_list):
        if self._momentum:
            for var in var_list:
                self.add_slot(var, "momentum")

    def _prepare_local(self, dtype):
        c = super()._prepare_local(dtype)
        c["momentum"] = A.identity(self._get_hyper("momentum", dtype))
        return c

    def _resource_apply_dense(self, grad, var, c):
        step = M.multiply(grad, c["lr_t"])
        if not self._momentum:
            return var.assign_sub(step)
        accum = self.get_slot(var, "momentum")
        accum.assign(M.subtract(M.multiply(accum.read_value(), c["momentum"]), step))
        if self.nesterov:
            return var.assign_add(M.subtract(M.multiply(accum.read_value(), c["momentum"]),
                                             step))
        return var.assign_add(accum.read_value())

    def _resource_apply_sparse_duplicate_indices(self, grad, var, indices, c):
        if self._momentum:
            return super()._resource_apply_sparse_duplicate_indices(grad, var, indices, c)
        # without momentum: every row scattered in, a repeated index once per row
        return var.scatter_add(IndexedSlices(M.multiply(M.negative(grad), c["lr_t"]), indices))

    def _resource_apply_sparse(self, grad, var, indices, c):
        # ResourceSparseApplyKerasMomentum: the dense kernel's arithmetic on the rows given
        accum = self.get_slot(var, "momentum")
        step = M.multiply(grad, c["lr_t"])
        a = M.subtract(M.multiply(A.gather(accum, indices), c["momentum"]), step)
        accum.scatter_update(IndexedSlices(a, indices))
        if self.nesterov:
            a = M.subtract(M.multiply(a, c["momentum"]), step)
        return var.scatter_update(IndexedSlices(M.add(A.gather(var, indices), a), indices))

    def get_config(self):
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._initial_decay,
                       "momentum": self._serialize_hyperparameter("momentum"),
                       "nesterov": self.nesterov})
        return config
