"""Legacy ``SGD``: ``var -= lr * g``; with momentum ``accum = accum * momentum - lr * g;
var += accum`` (Nesterov: ``var += accum * momentum - lr * g``), TF's KerasMomentum kernel.
The 'momentum' slot exists only when momentum is not 0.

Mirrors tf_keras/src/optimizers/legacy/gradient_descent.py.
"""

from __future__ import annotations

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

    def get_config(self):
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._initial_decay,
                       "momentum": self._serialize_hyperparameter("momentum"),
                       "nesterov": self.nesterov})
        return config
