"""Legacy ``Ftrl`` (TF's ResourceApplyFtrl kernel; ResourceApplyFtrlV2 with L2 shrinkage):
``l2 = l2_regularization_strength + beta / (2 * lr)``; ``new_acc = acc + g^2``;
``linear += g' - (new_acc^-p - acc^-p) / lr * var`` (``g' = g + 2 * l2_shrinkage * var``,
``p = learning_rate_power``; square roots for p = -0.5);
``var = |linear| > l1 ? (l1 * sign(linear) - linear) / (new_acc^-p / lr + 2 * l2) : 0``;
``acc = new_acc``. Slots 'accumulator' (``initial_accumulator_value``) and 'linear'.
A sparse gradient: on its rows only, ResourceSparseApplyFtrl(V2)'s ComputeFtrl, whose
L1 step is ``var = (clip(linear, -l1, l1) - linear) / (new_acc^-p / lr + 2 * l2)``.

Float32 steps are TF's bits: M.pow is TF's Pow (Eigen's generic_pow for whole packets of 8,
powf for the tail); p = -0.5 takes square roots, exact in both.

Mirrors tf_keras/src/optimizers/legacy/ftrl.py and the CPU functors of ApplyFtrl,
ApplyFtrlV2 and SparseApplyFtrl in tensorflow/core/kernels/training_ops.cc.
"""

from __future__ import annotations

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras import initializers
from simdist.keras.optimizers.ftrl import check_ftrl_arguments
from simdist.keras.optimizers.legacy import sparse_rows
from simdist.keras.optimizers.legacy.optimizer_v2 import OptimizerV2


class Ftrl(OptimizerV2):
    """The FTRL optimizer, pre-2.11."""

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, name="Ftrl",
                 l2_shrinkage_regularization_strength=0.0, beta=0.0, **kwargs):
        super().__init__(name, **kwargs)
        check_ftrl_arguments(locals())
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("learning_rate_power", learning_rate_power)
        self._set_hyper("l1_regularization_strength", l1_regularization_strength)
        self._set_hyper("l2_regularization_strength", l2_regularization_strength)
        self._set_hyper("beta", beta)
        self._initial_accumulator_value = initial_accumulator_value
        self._l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength

    def _create_slots(self, var_list):
        for var in var_list:
            self.add_slot(var, "accumulator",
                          initializers.Constant(self._initial_accumulator_value))
            self.add_slot(var, "linear")

    def _prepare_local(self, dtype):
        c = super()._prepare_local(dtype)
        for key in ("learning_rate_power", "l1_regularization_strength",
                    "l2_regularization_strength", "beta"):
            c[key] = A.identity(self._get_hyper(key, dtype))
        c["l2_shrinkage"] = A.cast(self._l2_shrinkage_regularization_strength, dtype)
        return c

    def _resource_apply_dense(self, grad, var, c):
        lr, l1, power = c["lr_t"], c["l1_regularization_strength"], c["learning_rate_power"]
        l2 = M.add(c["l2_regularization_strength"],
                   M.divide(c["beta"], M.multiply(A.constant(2.0, dtype=var.dtype), lr)))
        accum, linear = self.get_slot(var, "accumulator"), self.get_slot(var, "linear")
        old, value = accum.read_value(), var.read_value()
        new = M.add(old, M.square(grad))
        if float(power.numpy()) == -0.5:
            def root(x):
                return M.sqrt(x)
        else:
            def root(x):
                return M.pow(x, M.negative(power))
        shrunk = grad
        if self._l2_shrinkage_regularization_strength > 0.0:   # FtrlV2
            two = A.constant(2.0, dtype=var.dtype)
            shrunk = M.add(grad, M.multiply(M.multiply(two, c["l2_shrinkage"]), value))
        linear.assign_add(M.subtract(shrunk, M.multiply(
            M.divide(M.subtract(root(new), root(old)), lr), value)))
        lin = linear.read_value()
        x = M.subtract(M.multiply(l1, M.sign(lin)), lin)
        y = M.add(M.divide(root(new), lr), M.multiply(A.constant(2.0, dtype=var.dtype), l2))
        var.assign(A.where(M.greater(M.abs(lin), l1), M.divide(x, y), A.zeros_like(lin)))
        return accum.assign_add(M.square(grad))

    def _resource_apply_sparse(self, grad, var, indices, c):
        """ResourceSparseApplyFtrl(V2): on the gradient's rows only, TF's ComputeFtrl
        (linear's L1 step clipped: ``clip(linear, -l1, l1) - linear``, where the dense
        kernel selects by ``|linear| > l1``)."""
        lr, l1, power = c["lr_t"], c["l1_regularization_strength"], c["learning_rate_power"]
        two = A.constant(2.0, dtype=var.dtype)
        l2 = M.add(c["l2_regularization_strength"], M.divide(c["beta"], M.multiply(two, lr)))
        accum, linear = self.get_slot(var, "accumulator"), self.get_slot(var, "linear")
        old, value = sparse_rows.rows_of(accum, indices), sparse_rows.rows_of(var, indices)
        new = M.add(old, M.square(grad))
        if float(power.numpy()) == -0.5:
            root = M.sqrt
        else:   # (pow of each row: Eigen's packets, then powf; taken here as M.pow)
            def root(x):
                return M.pow(x, M.negative(power))
        shrunk = grad
        if self._l2_shrinkage_regularization_strength > 0.0:   # FtrlV2
            shrunk = M.add(grad, M.multiply(M.multiply(two, c["l2_shrinkage"]), value))
        lin = M.add(sparse_rows.rows_of(linear, indices), M.subtract(shrunk, M.multiply(
            M.divide(M.subtract(root(new), root(old)), lr), value)))
        sparse_rows.put_rows(linear, lin, indices)
        x = M.subtract(M.maximum(M.minimum(lin, l1), M.negative(l1)), lin)
        y = M.add(M.divide(root(new), lr), M.multiply(two, l2))
        sparse_rows.put_rows(var, M.divide(x, y), indices)
        return sparse_rows.put_rows(accum, new, indices)

    def get_config(self):
        config = super().get_config()
        config.update({
            "learning_rate": self._serialize_hyperparameter("learning_rate"),
            "decay": self._initial_decay,
            "initial_accumulator_value": self._initial_accumulator_value,
            "learning_rate_power": self._serialize_hyperparameter("learning_rate_power"),
            "l1_regularization_strength": self._serialize_hyperparameter(
                "l1_regularization_strength"),
            "l2_regularization_strength": self._serialize_hyperparameter(
                "l2_regularization_strength"),
            "beta": self._serialize_hyperparameter("beta"),
            "l2_shrinkage_regularization_strength":
                self._l2_shrinkage_regularization_strength})
        return config
