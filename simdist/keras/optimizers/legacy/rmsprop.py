"""Legacy ``RMSprop``: without momentum ``rms = rho * rms + (1 - rho) * g^2``,
``var -= lr * g / (sqrt(rms) + epsilon)``, centered subtracting ``mg^2`` (``mg = rho * mg +
(1 - rho) * g``) from ``rms`` first; with momentum TF's ApplyRMSProp / ApplyCenteredRMSProp
kernels: ``rms += (g^2 - rms) * (1 - rho)`` (centered: ``mg += (g - mg) * (1 - rho)``,
``rms - mg^2``), ``mom = mom * momentum + g * lr / sqrt(rms + epsilon)`` (epsilon inside
the root), ``var -= mom``. The 'rms' slot starts at 0. A sparse gradient: without
momentum tf-keras's Python ops (slots decayed whole, the rows scattered in, the rows' step
scattered into the variable); with momentum the ResourceSparseApply(Centered)RMSProp
kernels on the gradient's rows only (``ms = ms * rho + g^2 * (1 - rho)``, ``rsqrt(ms +
epsilon)`` row by row: sparse_rows).

Mirrors tf_keras/src/optimizers/legacy/rmsprop.py and the CPU functors of ApplyRMSProp and
ApplyCenteredRMSProp (and their sparse kernels) in tensorflow/core/kernels/training_ops.cc.
"""

from __future__ import annotations

import functools

from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers.legacy import sparse_rows
from simdist.keras.optimizers.legacy.optimizer_v2 import OptimizerV2, uses_momentum


class RMSprop(OptimizerV2):
    """The RMSprop optimizer, pre-2.11."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, name="RMSprop", **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("rho", rho)
        self._momentum = uses_momentum(momentum)
        self._set_hyper("momentum", momentum)
        self.epsilon = epsilon or 1e-7
        self.centered = centered

    def _create_slots(self, var_list):
        for var in var_list:
            self.add_slot(var, "rms")
        if self._momentum:
            for var in var_list:
                self.add_slot(var, "momentum")
        if self.centered:
            for var in var_list:
                self.add_slot(var, "mg")

    def _prepare_local(self, dtype):
        c = super()._prepare_local(dtype)
        rho = A.identity(self._get_hyper("rho", dtype))
        c.update(rho=rho, one_minus_rho=M.subtract(A.constant(1.0, dtype=dtype), rho),
                 momentum=A.identity(self._get_hyper("momentum", dtype)),
                 epsilon=A.constant(self.epsilon, dtype=dtype))
        return c

    def _resource_apply_dense(self, grad, var, c):
        if self._momentum:
            return self._apply_kernel(grad, var, c)
        rms = self.get_slot(var, "rms")
        rms.assign(M.add(M.multiply(c["rho"], rms.read_value()),
                         M.multiply(c["one_minus_rho"], M.square(grad))))
        denom = rms.read_value()
        if self.centered:
            mg = self.get_slot(var, "mg")
            mg.assign(M.add(M.multiply(c["rho"], mg.read_value()),
                            M.multiply(c["one_minus_rho"], grad)))
            denom = M.subtract(denom, M.square(mg.read_value()))
        return var.assign_sub(M.divide(M.multiply(c["lr_t"], grad),
                                       M.add(M.sqrt(denom), c["epsilon"])))

    def _apply_kernel(self, grad, var, c):
        """ResourceApplyRMSProp / ResourceApplyCenteredRMSProp, in the kernels' order."""
        def moved(slot, value):   # slot += (value - slot) * (1 - rho)
            old = slot.read_value()
            return slot.assign(M.add(old, M.multiply(M.subtract(value, old),
                                                     c["one_minus_rho"])))

        denom = moved(self.get_slot(var, "rms"), M.square(grad))
        if self.centered:
            denom = M.subtract(denom, M.square(moved(self.get_slot(var, "mg"), grad)))
        mom = self.get_slot(var, "momentum")
        step = M.divide(M.multiply(grad, c["lr_t"]), M.sqrt(M.add(denom, c["epsilon"])))
        mom.assign(M.add(M.multiply(mom.read_value(), c["momentum"]), step))
        return var.assign_sub(mom.read_value())

    def _resource_apply_sparse(self, grad, var, indices, c):
        if self._momentum:
            return self._sparse_kernel(grad, var, indices, c)
        # tf-keras's Python ops: the slots decayed whole, the rows scattered in
        neg_lr = M.negative(c["lr_t"])
        rms = self.get_slot(var, "rms")
        rms.assign(M.multiply(rms.read_value(), c["rho"]))
        rms.scatter_add(IndexedSlices(M.multiply(M.multiply(grad, grad), c["one_minus_rho"]),
                                      indices))
        denom = sparse_rows.rows_of(rms, indices)
        if self.centered:
            mg = self.get_slot(var, "mg")
            mg.assign(M.multiply(mg.read_value(), c["rho"]))
            mg.scatter_add(IndexedSlices(M.multiply(grad, c["one_minus_rho"]), indices))
            denom = M.subtract(denom, M.square(sparse_rows.rows_of(mg, indices)))
        return var.scatter_add(IndexedSlices(M.divide(M.multiply(neg_lr, grad), M.add(
            M.sqrt(denom), c["epsilon"])), indices))

    def _sparse_kernel(self, grad, var, indices, c):
        """ResourceSparseApplyRMSProp / ResourceSparseApplyCenteredRMSProp: row by row,
        ``ms = ms * rho + g^2 * (1 - rho)`` (centered: ``mg = mg * rho + g * (1 - rho)``,
        ``ms + epsilon - mg^2``), ``mom = mom * momentum + rsqrt(ms + epsilon) * lr * g``,
        ``var -= mom``."""
        rows = functools.partial(sparse_rows.rows_of, indices=indices)
        put = functools.partial(sparse_rows.put_rows, indices=indices)
        rms, mom = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
        ms = M.add(M.multiply(rows(rms), c["rho"]),
                   M.multiply(M.square(grad), c["one_minus_rho"]))
        put(rms, ms)
        denom = M.add(ms, c["epsilon"])
        if self.centered:
            mg = self.get_slot(var, "mg")
            mg_t = M.add(M.multiply(rows(mg), c["rho"]), M.multiply(grad, c["one_minus_rho"]))
            put(mg, mg_t)
            denom = M.subtract(denom, M.square(mg_t))
        mom_t = M.add(M.multiply(rows(mom), c["momentum"]), M.multiply(
            M.multiply(sparse_rows.row_rsqrt(denom), c["lr_t"]), grad))
        put(mom, mom_t)
        return put(var, M.subtract(rows(var), mom_t))

    def get_config(self):
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._initial_decay,
                       "rho": self._serialize_hyperparameter("rho"),
                       "momentum": self._serialize_hyperparameter("momentum"),
                       "epsilon": self.epsilon, "centered": self.centered})
        return config
