"""``Adafactor`` (Shazeer and Stern, 2018): Adam-like steps whose second moment of a matrix
is kept factored, as a row and a column average.

Glossary:
  t         -- ``iterations + 1``; ``rho_t = min(lr, rsqrt(t))`` (with ``relative_step`` and a
               constant rate, ``lr`` itself is first ``min(lr, rsqrt(t))``).
  rms       -- ``sqrt(mean(square(x)))``; ``alpha_t = max(epsilon_2, rms(var)) * rho_t``.
  beta_2_t  -- ``1 - t ** beta_2_decay``: the second moment's decay at step t.
  r, c      -- for a variable of rank 2 or more, the moving averages of
               ``g**2 + epsilon_1`` over its last axis (``r``, shape ``[:-1]``) and over
               its second-last axis (``c``, shape ``[:-2] + [-1]``); then
               ``v = r / mean(r) (as a column) * c (as a row)``. A variable of rank < 2
               keeps ``v`` as a moving average itself; its ``r`` and ``c`` are int32
               placeholders (``tf.Variable(0)``, not among the optimizer's variables).
  update    -- ``u = g * rsqrt(v)``; ``var += -alpha_t * u / max(1, rms(u) / clip_threshold)``.

The arithmetic is TF's, operator for operator: TF's bits (its float32 ``Rsqrt`` of whole
packets of 8 is the CPU's approximate reciprocal square root with a Newton step,
eigen_rsqrt.py).

Mirrors tf_keras/src/optimizers/adafactor.py.
"""

from __future__ import annotations

from simdist.framework import variables
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers import schedules
from simdist.keras.optimizers.optimizer import Optimizer


def _rms(x):
    return M.sqrt(M.reduce_mean(M.square(x)))


class Adafactor(Optimizer):
    """The Adafactor optimizer."""

    def __init__(self, learning_rate=0.001, beta_2_decay=-0.8, epsilon_1=1e-30,
                 epsilon_2=1e-3, clip_threshold=1.0, relative_step=True, name="Adafactor",
                 **kwargs):
        # weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema ... go to the base class.
        super().__init__(name=name, learning_rate=learning_rate, **kwargs)
        self.beta_2_decay, self.epsilon_1, self.epsilon_2 = beta_2_decay, epsilon_1, epsilon_2
        self.clip_threshold, self.relative_step = clip_threshold, relative_step

    def build(self, var_list):
        super().build(var_list)
        if self._built:
            return
        self._built = True
        self._r, self._c, self._v = [], [], []
        for var in var_list:
            name = self._shared_name(var)
            shape = list(var.shape)
            if len(shape) < 2:   # not factored: placeholders (see the glossary)
                self._r.append(variables.Variable(0, name=f"r/{name}"))
                self._c.append(variables.Variable(0, name=f"r/{name}"))
            else:                # always the last two axes
                self._r.append(self.add_variable(shape[:-1], var.dtype, name=f"r/{name}"))
                self._c.append(self.add_variable(shape[:-2] + shape[-1:], var.dtype,
                                                 name=f"c/{name}"))
            self._v.append(self.add_variable_from_reference(var, "v"))

    def update_step(self, gradient, variable):
        dtype = variable.dtype
        lr = A.cast(self.learning_rate, dtype)
        epsilon_2 = A.cast(self.epsilon_2, dtype)
        one = A.cast(1.0, dtype)
        local_step = A.cast(self.iterations + 1, dtype)
        if not isinstance(self._learning_rate, schedules.LearningRateSchedule) and \
                self.relative_step:
            lr = M.minimum(lr, M.rsqrt(local_step))
        i = self._index_dict[self._var_key(variable)]
        r, c, v = self._r[i], self._c[i], self._v[i]
        rho_t = M.minimum(lr, M.rsqrt(local_step))
        alpha_t = M.maximum(epsilon_2, _rms(variable)) * rho_t
        regulated_grad_square = M.square(gradient) + self.epsilon_1
        beta_2_t = 1 - M.pow(local_step, self.beta_2_decay)
        if len(variable.shape) >= 2:
            r.assign(beta_2_t * r + (1 - beta_2_t) *
                     M.reduce_mean(regulated_grad_square, axis=-1))
            c.assign(beta_2_t * c + (1 - beta_2_t) *
                     M.reduce_mean(regulated_grad_square, axis=-2))
            v.assign(A.expand_dims(r / M.reduce_mean(r, axis=-1, keepdims=True), axis=-1) *
                     A.expand_dims(c, -2))
        else:
            v.assign(beta_2_t * v + (1 - beta_2_t) * regulated_grad_square)
        u_t = gradient * M.rsqrt(v)
        u_t_hat = u_t / M.maximum(one, (_rms(u_t) / self.clip_threshold))
        variable.assign_add(-alpha_t * u_t_hat)

    def get_config(self):
        cfg = super().get_config()
        cfg.update(learning_rate=self._serialize_hyperparameter(self._learning_rate),
                   beta_2_decay=self.beta_2_decay, epsilon_1=self.epsilon_1,
                   epsilon_2=self.epsilon_2, clip_threshold=self.clip_threshold,
                   relative_step=self.relative_step)
        return cfg
