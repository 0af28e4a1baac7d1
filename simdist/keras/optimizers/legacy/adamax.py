"""Legacy ``Adamax`` (TF's ResourceApplyAdaMax kernel): ``m += (g - m) * (1 - beta_1)``;
``v = max(beta_2 * v, |g|)``; ``var -= lr / (1 - beta_1^t) * (m / (v + epsilon))``, with
``t = iterations + 1``. Slots 'm' and 'v' (zeros), every 'm' first. A sparse gradient:
tf-keras's Python ops on its rows only (``m = m * beta_1 + g * (1 - beta_1)``,
``v = max(v * beta_2, |g|)``, ``-lr / (1 - beta_1^t) * (m / (v + epsilon))`` scattered in).

Mirrors tf_keras/src/optimizers/legacy/adamax.py and the CPU functor of ApplyAdaMax in
tensorflow/core/kernels/training_ops.cc.
"""

from __future__ import annotations

from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers.legacy import sparse_rows
from simdist.keras.optimizers.legacy.beta_moments import LegacyBetaMoments


class Adamax(LegacyBetaMoments):
    """The Adamax optimizer, pre-2.11."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="Adamax", **kwargs):
        super().__init__(name, kwargs.get("lr", learning_rate), beta_1, beta_2, epsilon, **kwargs)

    def _create_slots(self, var_list):
        for slot in ("m", "v"):
            for var in var_list:
                self.add_slot(var, slot)

    def _prepare_local(self, dtype):
        c = super()._prepare_local(dtype)
        local_step = A.cast(M.add(self.iterations.read_value(), A.constant(1, "int64")), dtype)
        beta_1_t = A.identity(self._get_hyper("beta_1", dtype))
        one = A.constant(1.0, dtype=dtype)
        c.update(beta_1_t=beta_1_t, beta_2_t=A.identity(self._get_hyper("beta_2", dtype)),
                 beta_1_power=M.pow(beta_1_t, local_step),
                 one_minus_beta_1=M.subtract(one, beta_1_t), one=one,
                 epsilon=A.constant(self.epsilon, dtype=dtype))
        return c

    def _resource_apply_sparse(self, grad, var, indices, c):
        # tf-keras's Python ops on the gradient's rows: m and v gathered, updated, put back
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_t = M.add(M.multiply(sparse_rows.rows_of(m, indices), c["beta_1_t"]),
                    M.multiply(grad, c["one_minus_beta_1"]))
        sparse_rows.put_rows(m, m_t, indices)
        v_t = M.maximum(M.multiply(sparse_rows.rows_of(v, indices), c["beta_2_t"]),
                        M.abs(grad))
        sparse_rows.put_rows(v, v_t, indices)
        neg_scaled_lr = M.divide(M.negative(c["lr_t"]),
                                 M.subtract(c["one"], c["beta_1_power"]))
        return var.scatter_add(IndexedSlices(M.multiply(neg_scaled_lr, M.divide(
            m_t, M.add(v_t, c["epsilon"]))), indices))

    def _resource_apply_dense(self, grad, var, c):
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m.assign_add(M.multiply(M.subtract(grad, m.read_value()), c["one_minus_beta_1"]))
        v.assign(M.maximum(M.multiply(c["beta_2_t"], v.read_value()), M.abs(grad)))
        scale = M.divide(c["lr_t"], M.subtract(c["one"], c["beta_1_power"]))
        return var.assign_sub(M.multiply(scale, M.divide(
            m.read_value(), M.add(v.read_value(), c["epsilon"]))))
