"""``Ftrl``: Follow The Regularized Leader (McMahan et al., 2013), with L1, L2 and L2
shrinkage.

Glossary:
  accumulator -- running sum of squared gradients; starts at ``initial_accumulator_value``.
  linear      -- ``linear += g' - (new_acc**-p - acc**-p) / lr * var`` with
                 ``g' = g + 2 * l2_shrinkage * var`` and ``p = learning_rate_power``.
  update      -- ``quadratic = new_acc**-p / lr + 2 * (l2 + beta / (2 * lr))``;
                 ``var = (clip(linear, -l1, l1) - linear) / quadratic``.

The arithmetic is TF's, operator for operator, so float32 results are TF's bits.

Mirrors tf_keras/src/optimizers/ftrl.py.
"""

from __future__ import annotations

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers.optimizer import Optimizer

# (argument, what it must be) in the order TF checks them
_NON_NEGATIVE = ("initial_accumulator_value", "l1_regularization_strength",
                 "l2_regularization_strength", "l2_shrinkage_regularization_strength")


def check_ftrl_arguments(values: dict) -> None:
    """TF's checks of Ftrl's arguments (the new and the legacy optimizer share them).

    Raises:
      ValueError: a negative accumulator or strength, or a positive learning_rate_power.
    """
    for key in ("initial_accumulator_value", "learning_rate_power") + _NON_NEGATIVE[1:]:
        value = values[key]
        if key == "learning_rate_power":
            if value > 0.0:
                raise ValueError("`learning_rate_power` needs to be negative or zero. "
                                 f"Received: learning_rate_power={value}.")
        elif value < 0.0:
            raise ValueError(f"`{key}` needs to be positive or zero. Received: "
                             f"{key}={value}.")


class Ftrl(Optimizer):
    """The FTRL optimizer."""

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, l2_shrinkage_regularization_strength=0.0,
                 beta=0.0, name="Ftrl", **kwargs):
        super().__init__(name=name, **kwargs)
        check_ftrl_arguments(locals())
        self._learning_rate = self._build_learning_rate(learning_rate)
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def build(self, var_list):
        super().build(var_list)
        if self._built:
            return
        self._accumulators, self._linears = [], []
        for v in var_list:
            self._accumulators.append(self.add_variable_from_reference(
                v, "accumulator", initial_value=A.cast(A.fill(
                    list(v.shape), self.initial_accumulator_value), v.dtype)))
            self._linears.append(self.add_variable_from_reference(v, "linear"))
        self._built = True

    def update_step(self, gradient, variable):
        lr = A.cast(self.learning_rate, variable.dtype)
        i = self._index_dict[self._var_key(variable)]
        accum, linear = self._accumulators[i], self._linears[i]
        lr_power = self.learning_rate_power
        l2_reg = self.l2_regularization_strength + self.beta / (2.0 * lr)
        grad_to_use = gradient + 2 * self.l2_shrinkage_regularization_strength * variable
        new_accum = accum + M.pow(gradient, 2)
        linear.assign_add(grad_to_use - (M.pow(new_accum, -lr_power) - M.pow(accum, -lr_power))
                          / lr * variable)
        quadratic = M.pow(new_accum, -lr_power) / lr + 2 * l2_reg
        linear_clipped = M.clip_by_value(linear, -self.l1_regularization_strength,
                                         self.l1_regularization_strength)
        variable.assign((linear_clipped - linear) / quadratic)
        accum.assign(new_accum)

    def get_config(self):
        cfg = super().get_config()
        cfg.update(learning_rate=self._serialize_hyperparameter(self._learning_rate),
                   learning_rate_power=self.learning_rate_power,
                   initial_accumulator_value=self.initial_accumulator_value,
                   l1_regularization_strength=self.l1_regularization_strength,
                   l2_regularization_strength=self.l2_regularization_strength,
                   l2_shrinkage_regularization_strength=(
                       self.l2_shrinkage_regularization_strength),
                   beta=self.beta)
        return cfg
