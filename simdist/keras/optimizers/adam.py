"""``Adam``: adaptive moments, with Keras's formulation of the bias correction.

Glossary:
  update -- ``t = iterations + 1``; ``alpha = lr * sqrt(1 - beta_2**t) / (1 - beta_1**t)``;
            ``m += (g - m) * (1 - beta_1)``; ``v += (g**2 - v) * (1 - beta_2)``;
            ``var -= m * alpha / (sqrt(v) + epsilon)`` (epsilon 1e-7, *not* bias-corrected:
            Keras's "epsilon hat").

Mirrors keras/src/optimizers/adam.py.
"""

from __future__ import annotations

import operator

import numpy as np

from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.tensor import Tensor
from simdist.keras.optimizers import fused
from simdist.keras.optimizers.optimizer import Optimizer
from simdist.keras.optimizers.sparse_updates import slices

_ALPHA_DTYPES = tuple(map(np.dtype, ("float32", "int64", "int64", "float32", "float32",
                                      "float32")))   # _alpha_quiet's inputs'


class Adam(Optimizer):
    """The Adam optimizer."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False,
                 name="Adam", **kwargs):
        # weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema ... go to the base class.
        super().__init__(name=name, learning_rate=learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon, self.amsgrad = beta_1, beta_2, epsilon, amsgrad

    def build(self, var_list):
        super().build(var_list)
        if self._built:
            return
        self._momentums, self._velocities, self._velocity_hats = [], [], []
        for v in var_list:
            self._momentums.append(self.add_variable_from_reference(v, "m"))
            self._velocities.append(self.add_variable_from_reference(v, "v"))
            if self.amsgrad:
                self._velocity_hats.append(self.add_variable_from_reference(v, "vhat"))
        self._built = True

    def _prepare_local(self, dtype):
        c = super()._prepare_local(dtype)
        if self._fused_prepare_local(c, dtype):
            return c
        local_step = A.cast(M.add(self.iterations.read_value(), A.constant(1, "int64")), dtype)
        one = A.constant(1.0, dtype=dtype)
        beta_1_power = M.pow(A.cast(A.constant(self.beta_1), dtype), local_step)
        beta_2_power = M.pow(A.cast(A.constant(self.beta_2), dtype), local_step)
        c["alpha"] = M.divide(M.multiply(c["lr"], M.sqrt(M.subtract(one, beta_2_power))),
                              M.subtract(one, beta_1_power))
        c["one_minus_beta_1"] = A.constant(1 - self.beta_1, dtype=dtype)
        c["one_minus_beta_2"] = A.constant(1 - self.beta_2, dtype=dtype)
        c["epsilon"] = A.constant(self.epsilon, dtype=dtype)
        return c

    def _fused_prepare_local(self, c, dtype) -> bool:
        """``alpha`` below as one fused kernel (float32: the eager ops' NumPy operations in
        their order, each charged as they are); False where the eager ops must run."""
        if not self._fused_scalars_apply(dtype):
            return False
        step = self.iterations.read_value()
        one_64, one, beta_1, beta_2 = fused.constants(self, self._alpha_constants(dtype))
        k = fused.scalar_kernel(c["lr"], step, one_64, one, beta_1, beta_2)
        if k is None or step._value.dtype != np.int64:
            return False
        # The step's value and charges once for every device (the copies' updates run on
        # each copy's device with the same inputs), charged to each as its ops would be.
        inputs = (c["lr"]._value, step._value, one_64._value, one._value, beta_1._value,
                  beta_2._value)
        alpha, charges, memo = fused.shared_scalars(self, self._fused_alpha, inputs,
                                                    self._alpha_quiet)
        if k.charged:
            k.device.run_ops(charges, memo)
        c["alpha"] = Tensor(alpha, k.device)
        c["one_minus_beta_1"], c["one_minus_beta_2"], c["epsilon"] = fused.constants(
            self, self._update_constants(dtype))
        fused.first_scalars(self, c, step._value,
                            [t._value for t in (one_64, one, beta_1, beta_2)], charges, memo)
        return True

    def _fused_scalars_apply(self, dtype, scoped=True) -> bool:
        """Whether the step's scalars for ``dtype`` may be made by the fused kernel: float32,
        float betas, the plain eager path (``fused.plain_eager(scoped)``)."""
        return dtype == "float32" and fused.plain_eager(scoped) and all(
            type(x) is float for x in (self.beta_1, self.beta_2))

    def _alpha_constants(self, dtype):
        return ((1, "int64"), (1.0, dtype), (self.beta_1, None), (self.beta_2, None))

    def _update_constants(self, dtype):
        return ((1 - self.beta_1, dtype), (1 - self.beta_2, dtype), (self.epsilon, dtype))

    def _fused_prepare_at(self, dtype, at):
        """``_prepare_local(dtype)`` on the step's first device, made without entering the
        scopes of its copy's update (``at``: (replica index, device); fused_apply): where
        ``_fused_prepare_local`` would run and its constants were converted at an earlier
        step, the same tensors in the same order (the learning rate's read, which
        ``tf.cast`` to its own dtype gives back, the step's read, the four constants,
        ``alpha``, the last three constants), values and charges; else None (the call then
        runs in the scopes)."""
        if type(self)._prepare_local is not Adam._prepare_local or \
                not self._fused_scalars_apply(dtype, scoped=False):
            return None
        arrays = fused.kept_constants(self, self._alpha_constants(dtype))
        tail = fused.kept_constants(self, self._update_constants(dtype))
        lr = fused.local_copy(self.learning_rate, None, at)
        step = fused.local_copy(self.iterations, None, at)
        if arrays is None or tail is None or lr is None or step is None:
            return None
        lr_value, step_value = lr._value, step._value   # (NumPy arrays or scalars)
        if not all(type(v) is np.ndarray or isinstance(v, np.generic)
                   for v in (lr_value, step_value)) or lr_value.dtype != np.float32 or \
                step_value.dtype != np.int64:
            return None   # a cast, or a value the eager ops take otherwise
        alpha, charges, memo = fused.shared_scalars(
            self, self._fused_alpha, (lr_value, step_value, *arrays), self._alpha_quiet)
        c = fused.scalars_made(lr, step, arrays, charges, memo, at[1], zip(
            ("alpha", "one_minus_beta_1", "one_minus_beta_2", "epsilon"), (alpha, *tail)))
        fused.first_scalars(self, c, step_value, list(arrays), charges, memo)
        return c

    def _fused_local_like(self, first, dtype, at=None):
        """``_prepare_local(dtype)``'s scalars on another device of the step (inside its
        update context), made from ``first``: the dict ``_fused_prepare_local`` made on the
        step's first device. The same tensors in the same order (the learning rate's and
        the step's reads, the four constants ``alpha`` is computed from, ``alpha``, the
        last three constants), the same charges; None where the reads would differ (a
        copy of other bits, a teaching check) or the fused path does not apply. ``at``:
        (replica index, device) of the copy's update, where the caller has not entered its
        device scope and update context (fused_apply: the scalars need neither)."""
        kept = fused.kept_first(self, first, at)
        if kept is None or type(self)._prepare_local is not Adam._prepare_local:
            return None
        step0, transients, charges, memo, shared = kept
        lr = fused.local_copy(self.learning_rate, first["lr"]._value, at)
        step = fused.local_copy(self.iterations, step0, at)
        if lr is None or step is None:
            return None
        return fused.scalars_like(first, lr, step, transients, charges, memo, shared,
                                  None if at is None else at[1])

    @staticmethod
    def _fused_alpha(k, lr, step, one_64, one, beta_1, beta_2):
        """``alpha`` from the arrays of its inputs, each op through ``k``."""
        b = fused.binary  # the operators math_ops applies (``a ** b`` is not np.power:
        with np.errstate(all="ignore"):  # NumPy squares for an exponent of 2)
            t = b(k, "AddV2", operator.add, step, one_64)
            t = k.op("Cast", (t,), t.astype(np.float32, copy=False))
            beta_1_power = b(k, "Pow", operator.pow, beta_1, t)
            beta_2_power = b(k, "Pow", operator.pow, beta_2, t)
            root = fused.unary(k, "Sqrt", np.sqrt, b(k, "Sub", operator.sub, one, beta_2_power))
            scaled = b(k, "Mul", operator.mul, lr, root)
            return b(k, "RealDiv", operator.truediv, scaled,
                     b(k, "Sub", operator.sub, one, beta_1_power))

    @staticmethod
    def _alpha_quiet(lr, step, one_64, one, beta_1, beta_2):
        """``_fused_alpha``'s value without a kernel (a step's, whose charges are known:
        ``fused.shared_scalars``): its AddV2, Cast and Pows as it makes them (``a ** b``
        on the arrays), its Subs, Mul and RealDiv on float32 NumPy scalars (IEEE
        arithmetic rounds a scalar's result as the ufunc's), without its per-op wrapping.
        None unless every input is of no shape and of the dtypes ``_fused_prepare_local``
        gives (float32; the step and 1 int64), the constants arrays; None for a NaN."""
        if not (type(one_64) is type(one) is type(beta_1) is type(beta_2) is np.ndarray and
                all(type(a) is np.ndarray or isinstance(a, np.generic) for a in (lr, step))):
            return None
        if (lr.dtype, step.dtype, one_64.dtype, one.dtype, beta_1.dtype, beta_2.dtype) != \
                _ALPHA_DTYPES or lr.shape or step.shape or one_64.shape or one.shape or \
                beta_1.shape or beta_2.shape:
            return None
        with np.errstate(all="ignore"):
            t = np.asarray(step + one_64).astype(np.float32, copy=False)
            one = one[()]
            root = np.sqrt(one - beta_2 ** t)
            alpha = lr[()] * root / (one - beta_1 ** t)
        # A NaN's payload may come from either operand (the ufunc's loop may order them
        # otherwise): no NaN on the way (the result would be one) leaves no choice
        return None if alpha != alpha else np.asarray(alpha)

    _takes_indexed_slices = True

    def update_step(self, gradient, variable):
        c = self._coefficients(variable)
        i = self._index_dict[self._var_key(variable)]
        m, v = self._momentums[i], self._velocities[i]
        if isinstance(gradient, IndexedSlices):   # m and v decay everywhere, then scatter
            m.assign_add(M.multiply(M.negative(m.read_value()), c["one_minus_beta_1"]))
            m.scatter_add(slices(gradient, M.multiply(gradient.values, c["one_minus_beta_1"])))
            v.assign_add(M.multiply(M.negative(v.read_value()), c["one_minus_beta_2"]))
            v.scatter_add(slices(gradient, M.multiply(M.square(gradient.values),
                                                      c["one_minus_beta_2"])))
        elif not self.amsgrad and self._fused_update_step(gradient, variable, m, v, c):
            return
        else:
            m.assign_add(M.multiply(M.subtract(gradient, m.read_value()),
                                    c["one_minus_beta_1"]))
            v.assign_add(M.multiply(M.subtract(M.square(gradient), v.read_value()),
                                    c["one_minus_beta_2"]))
        v_t = v.read_value()
        if self.amsgrad:
            v_hat = self._velocity_hats[i]
            v_hat.assign(M.maximum(v_hat.read_value(), v_t))
            v_t = v_hat.read_value()
        variable.assign_sub(M.divide(M.multiply(m.read_value(), c["alpha"]),
                                     M.add(M.sqrt(v_t), c["epsilon"])))

    def _fused_update_step(self, gradient, variable, m, v, c) -> bool:
        """The dense update below as one fused kernel (fused.py): the same NumPy
        operations in the same order, the same ops charged; False where it does not apply."""
        started = fused.start(gradient, variable, m, v)
        if started is None:
            return False
        k, slots = started
        with np.errstate(all="ignore"):
            self._fused_arrays(k, gradient._value, variable, slots, c)
        return True

    # _fused_arrays computes each element from that element alone (fused_flat joins copies)
    _fused_elementwise = True

    def _fused_slots(self, index):
        """The slots a fused update of variable ``index`` writes (fused_apply), or None
        where it has no fused update (AMSGrad)."""
        return None if self.amsgrad else (self._momentums[index], self._velocities[index])

    @staticmethod
    def _fused_arrays(k, g, variable, slots, c) -> None:
        """The dense update's arithmetic on one copy's arrays (``k``: its device's
        fused.Kernel), under the caller's ``np.errstate(all="ignore")``."""
        m, v = slots
        one_minus_beta_1, one_minus_beta_2 = c["one_minus_beta_1"]._value, \
            c["one_minus_beta_2"]._value
        alpha, epsilon = c["alpha"]._value, c["epsilon"]._value
        diff = k.op("Sub", (g, m._value), g - m._value)
        step = k.op("Mul", (diff, one_minus_beta_1), diff * one_minus_beta_1)
        k.write(m, m._value + step, "AssignAddVariableOp")
        square = k.op("Square", (g,), g * g)
        diff = k.op("Sub", (square, v._value), square - v._value)
        step = k.op("Mul", (diff, one_minus_beta_2), diff * one_minus_beta_2)
        k.write(v, v._value + step, "AssignAddVariableOp")
        scaled = k.op("Mul", (m._value, alpha), m._value * alpha)
        root = k.op("Sqrt", (v._value,), np.sqrt(v._value))
        denominator = k.op("AddV2", (root, epsilon), root + epsilon)
        update = k.op("RealDiv", (scaled, denominator), scaled / denominator)
        k.write(variable, variable._value - update, "AssignSubVariableOp")

    def get_config(self):
        cfg = super().get_config()
        cfg.update(learning_rate=self._serialize_hyperparameter(self._learning_rate),
                   beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon,
                   amsgrad=self.amsgrad)
        return cfg


class AdamW(Adam):
    """Adam with decoupled weight decay (``var -= lr * weight_decay * var`` each step)."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, name="AdamW", **kwargs):
        if weight_decay is None:
            raise ValueError("Missing value of `weight_decay` which is required and must be "
                             "a float value.")
        super().__init__(learning_rate=learning_rate, beta_1=beta_1, beta_2=beta_2,
                         epsilon=epsilon, amsgrad=amsgrad, name=name,
                         weight_decay=weight_decay, **kwargs)
