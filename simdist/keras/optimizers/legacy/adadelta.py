"""Legacy ``Adadelta`` (TF's ResourceApplyAdadelta kernel):
``accum = accum * rho + g^2 * (1 - rho)``;
``update = sqrt(accum_update + epsilon) * rsqrt(accum + epsilon) * g``;
``var -= update * lr``; ``accum_update = accum_update * rho + update^2 * (1 - rho)``.
Slots 'accum_grad' and 'accum_var' (zeros). A sparse gradient: that arithmetic on its
rows only, row by row (ResourceSparseApplyAdadelta).

TF's float32 ``rsqrt()`` of whole packets of 8 is the CPU's approximate reciprocal square
root and a Newton step (Eigen's fast math; its last bits depend on the CPU): M.rsqrt
computes it so (eigen_rsqrt.py), and the steps are TF's bits.

Mirrors tf_keras/src/optimizers/legacy/adadelta.py and the CPU functor of ApplyAdadelta
in tensorflow/core/kernels/training_ops.cc.
"""

from __future__ import annotations

import functools

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers.legacy import sparse_rows
from simdist.keras.optimizers.legacy.optimizer_v2 import OptimizerV2


class Adadelta(OptimizerV2):
    """The Adadelta optimizer, pre-2.11."""

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name="Adadelta",
                 **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("rho", rho)
        self.epsilon = epsilon or 1e-7

    def _create_slots(self, var_list):
        for slot in ("accum_grad", "accum_var"):
            for var in var_list:
                self.add_slot(var, slot)

    def _prepare_local(self, dtype):
        c = super()._prepare_local(dtype)
        rho = A.identity(self._get_hyper("rho", dtype))
        c.update(rho=rho, one_minus_rho=M.subtract(A.constant(1.0, dtype=dtype), rho),
                 epsilon=A.constant(self.epsilon, dtype=dtype))
        return c

    def _resource_apply_dense(self, grad, var, c):
        accum, accum_update = self.get_slot(var, "accum_grad"), self.get_slot(var, "accum_var")
        rho, one_minus_rho, eps = c["rho"], c["one_minus_rho"], c["epsilon"]
        accum.assign(M.add(M.multiply(accum.read_value(), rho),
                           M.multiply(M.square(grad), one_minus_rho)))
        update = M.multiply(M.multiply(M.sqrt(M.add(accum_update.read_value(), eps)),
                                       M.rsqrt(M.add(accum.read_value(), eps))), grad)
        var.assign_sub(M.multiply(update, c["lr_t"]))
        return accum_update.assign(M.add(M.multiply(accum_update.read_value(), rho),
                                         M.multiply(M.square(update), one_minus_rho)))

    def _resource_apply_sparse(self, grad, var, indices, c):
        # ResourceSparseApplyAdadelta: the dense kernel's arithmetic row by row, on the
        # gradient's rows only (rsqrt of each row: sparse_rows)
        rows = functools.partial(sparse_rows.rows_of, indices=indices)
        put = functools.partial(sparse_rows.put_rows, indices=indices)
        accum, accum_update = self.get_slot(var, "accum_grad"), self.get_slot(var, "accum_var")
        rho, one_minus_rho, eps = c["rho"], c["one_minus_rho"], c["epsilon"]
        a = M.add(M.multiply(rows(accum), rho), M.multiply(M.square(grad), one_minus_rho))
        put(accum, a)
        old = rows(accum_update)
        update = M.multiply(M.multiply(M.sqrt(M.add(old, eps)),
                                       sparse_rows.row_rsqrt(M.add(a, eps))), grad)
        put(var, M.subtract(rows(var), M.multiply(update, c["lr_t"])))
        return put(accum_update, M.add(M.multiply(old, rho),
                                       M.multiply(M.square(update), one_minus_rho)))

    def get_config(self):
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._initial_decay,
                       "rho": self._serialize_hyperparameter("rho"),
                       "epsilon": self.epsilon})
        return config
