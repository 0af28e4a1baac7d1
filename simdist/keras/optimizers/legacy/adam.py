"""Legacy ``Adam`` (TF's ResourceApplyAdam kernel): ``alpha = lr * sqrt(1 - beta_2^t) /
(1 - beta_1^t)``; ``m += (g - m) * (1 - beta_1)``; ``v += (g^2 - v) * (1 - beta_2)``;
``var -= m * alpha / (sqrt(v) + epsilon)``; amsgrad keeps ``vhat = max(vhat, v)``. A sparse
gradient (tf-keras's Python ops): ``m *= beta_1``, ``v *= beta_2``, the rows scattered in,
``var -= lr * (sqrt(1 - beta_2^t) / (1 - beta_1^t)) * m / (sqrt(v) + epsilon)``.

Mirrors tf_keras/src/optimizers/legacy/adam.py.
"""

from __future__ import annotations

from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers.legacy.beta_moments import LegacyBetaMoments


class Adam(LegacyBetaMoments):
    """The Adam optimizer, pre-2.11."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, name="Adam", **kwargs):
        super().__init__(name, kwargs.get("lr", learning_rate), beta_1, beta_2, epsilon, **kwargs)
        self.amsgrad = amsgrad

    def _create_slots(self, var_list):
        for var in var_list:
            self.add_slot(var, "m")
        for var in var_list:
            self.add_slot(var, "v")
        if self.amsgrad:
            for var in var_list:
                self.add_slot(var, "vhat")

    def _prepare_local(self, dtype):
        c = super()._prepare_local(dtype)
        local_step = A.cast(M.add(self.iterations.read_value(), A.constant(1, "int64")), dtype)
        beta_1_t = A.identity(self._get_hyper("beta_1", dtype))
        beta_2_t = A.identity(self._get_hyper("beta_2", dtype))
        one = A.constant(1.0, dtype=dtype)
        beta_1_power, beta_2_power = M.pow(beta_1_t, local_step), M.pow(beta_2_t, local_step)
        c["beta_1_t"], c["beta_2_t"] = beta_1_t, beta_2_t
        c["beta_1_power"], c["beta_2_power"] = beta_1_power, beta_2_power
        c["alpha"] = M.divide(M.multiply(c["lr_t"], M.sqrt(M.subtract(one, beta_2_power))),
                              M.subtract(one, beta_1_power))
        c["one_minus_beta_1_t"] = M.subtract(one, beta_1_t)
        c["one_minus_beta_2_t"] = M.subtract(one, beta_2_t)
        c["epsilon"] = A.constant(self.epsilon, dtype=dtype)
        return c

    def _resource_apply_dense(self, grad, var, c):
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m.assign_add(M.multiply(M.subtract(grad, m.read_value()), c["one_minus_beta_1_t"]))
        v.assign_add(M.multiply(M.subtract(M.square(grad), v.read_value()),
                                c["one_minus_beta_2_t"]))
        v_t = v.read_value()
        if self.amsgrad:
            vhat = self.get_slot(var, "vhat")
            vhat.assign(M.maximum(vhat.read_value(), v_t))
            v_t = vhat.read_value()
        return var.assign_sub(M.divide(M.multiply(m.read_value(), c["alpha"]),
                                       M.add(M.sqrt(v_t), c["epsilon"])))

    def _resource_apply_sparse(self, grad, var, indices, c):
        # tf-keras's Python ops: slots decayed whole, the rows scattered in, the whole
        # variable updated with lr_t * (sqrt(1 - beta_2^t) / (1 - beta_1^t))
        one = A.constant(1.0, dtype=var.dtype)
        lr = M.multiply(c["lr_t"], M.divide(M.sqrt(M.subtract(one, c["beta_2_power"])),
                                           M.subtract(one, c["beta_1_power"])))
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m.assign(M.multiply(m.read_value(), c["beta_1_t"]))
        m.scatter_add(IndexedSlices(M.multiply(grad, c["one_minus_beta_1_t"]), indices))
        v.assign(M.multiply(v.read_value(), c["beta_2_t"]))
        v.scatter_add(IndexedSlices(M.multiply(M.multiply(grad, grad), c["one_minus_beta_2_t"]),
                                    indices))
        v_t = v.read_value()
        if self.amsgrad:
            vhat = self.get_slot(var, "vhat")
            vhat.assign(M.maximum(vhat.read_value(), v_t))
            v_t = vhat.read_value()
        return var.assign_sub(M.divide(M.multiply(lr, m.read_value()),
                                       M.add(M.sqrt(v_t), c["epsilon"])))

    def get_config(self):
        config = super().get_config()
        config["amsgrad"] = self.amsgrad
        return config
