"""``RMSprop``: divide the gradient by a running root-mean-square.

Glossary:
  update -- ``vel = rho * vel + (1 - rho) * g**2``; centered: ``avg = rho * avg +
            (1 - rho) * g`` and ``denom = vel - avg**2 + eps`` else ``denom = vel + eps``;
            ``inc = lr * g * rsqrt(denom)``; momentum: ``mom = momentum * mom + inc;
            var -= mom`` else ``var -= inc``.

Mirrors keras/src/optimizers/rmsprop.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers import fused
from simdist.keras.optimizers.optimizer import Optimizer
from simdist.keras.optimizers.sparse_updates import slices


class RMSprop(Optimizer):
    """The RMSprop optimizer."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False,
                 ema_overwrite_frequency=100, name="RMSprop", **kwargs):
        # weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema ... go to the base class;
        # RMSprop alone defaults ema_overwrite_frequency to 100, as Keras's does.
        super().__init__(name=name, learning_rate=learning_rate,
                         ema_overwrite_frequency=ema_overwrite_frequency, **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered

    def build(self, var_list):
        super().build(var_list)
        if self._built:
            return
        self._velocities = [self.add_variable_from_reference(v, "velocity") for v in var_list]
        self._momentums = ([self.add_variable_from_reference(v, "momentum") for v in var_list]
                           if self.momentum > 0 else [])
        self._average_gradients = (
            [self.add_variable_from_reference(v, "average_gradient") for v in var_list]
            if self.centered else [])
        self._built = True

    def _prepare_local(self, dtype):
        c = super()._prepare_local(dtype)
        c["rho"] = A.constant(self.rho, dtype=dtype)
        c["one_minus_rho"] = A.constant(1 - self.rho, dtype=dtype)
        c["epsilon"] = A.constant(self.epsilon, dtype=dtype)
        c["momentum"] = A.constant(self.momentum, dtype=dtype)
        return c

    def update_step(self, gradient, variable):
        c = self._coefficients(variable)
        lr, rho, one_m_rho, eps = c["lr"], c["rho"], c["one_minus_rho"], c["epsilon"]
        i = self._index_dict[self._var_key(variable)]
        vel = self._velocities[i]
        slots = [vel] + ([self._average_gradients[i]] if self.centered else []) + (
            [self._momentums[i]] if self.momentum > 0 else [])
        if isinstance(gradient, IndexedSlices):
            return self._sparse_update_step(gradient, variable, i, c)
        if self._fused_update_step(gradient, variable, slots, c):
            return
        vel.assign(M.add(M.multiply(rho, vel.read_value()),
                         M.multiply(one_m_rho, M.square(gradient))))
        if self.centered:
            avg = self._average_gradients[i]
            avg.assign(M.add(M.multiply(rho, avg.read_value()), M.multiply(one_m_rho, gradient)))
            denom = M.add(M.subtract(vel.read_value(), M.square(avg.read_value())), eps)
        else:
            denom = M.add(vel.read_value(), eps)
        increment = M.multiply(M.multiply(lr, gradient), M.rsqrt(denom))
        if self.momentum > 0:
            mom = self._momentums[i]
            mom.assign(M.add(M.multiply(c["momentum"], mom.read_value()), increment))
            variable.assign_sub(mom.read_value())
        else:
            variable.assign_sub(increment)

    _takes_indexed_slices = True

    def _sparse_update_step(self, gradient, variable, i, c):
        rho, one_m_rho = c["rho"], c["one_minus_rho"]
        vel = self._velocities[i]
        vel.assign(M.multiply(rho, vel.read_value()))
        vel.scatter_add(slices(gradient, M.multiply(M.square(gradient.values), one_m_rho)))
        if self.centered:
            avg = self._average_gradients[i]
            avg.assign(M.multiply(rho, avg.read_value()))
            avg.scatter_add(slices(gradient, M.multiply(gradient.values, one_m_rho)))
            denominator = M.add(M.subtract(vel.read_value(), M.square(avg.read_value())),
                                c["epsilon"])
        else:
            denominator = M.add(vel.read_value(), c["epsilon"])
        denominator_slices = A.gather(denominator, gradient.indices)
        increment = slices(gradient, M.multiply(M.multiply(c["lr"], gradient.values),
                                                M.rsqrt(denominator_slices)))
        if self.momentum > 0:
            mom = self._momentums[i]
            mom.assign(M.multiply(c["momentum"], mom.read_value()))
            mom.scatter_add(increment)
            variable.assign_add(M.negative(mom.read_value()))
        else:
            variable.scatter_add(-increment)

    def _fused_update_step(self, gradient, variable, slots, c) -> bool:
        """The dense update above as one fused kernel (fused.py): the same NumPy
        operations in the same order, the same ops charged; False where it does not apply."""
        started = fused.start(gradient, variable, *slots)
        if started is None:
            return False
        k, slots = started
        vel = slots[0]
        g = gradient._value
        lr, rho, one_m_rho, eps = (c[name]._value for name in
                                   ("lr", "rho", "one_minus_rho", "epsilon"))
        with np.errstate(all="ignore"):
            kept = k.op("Mul", (rho, vel._value), rho * vel._value)
            square = k.op("Square", (g,), g * g)
            new = k.op("Mul", (one_m_rho, square), one_m_rho * square)
            k.write(vel, k.op("AddV2", (kept, new), kept + new), "AssignVariableOp")
            if self.centered:
                avg = slots[1]
                kept = k.op("Mul", (rho, avg._value), rho * avg._value)
                new = k.op("Mul", (one_m_rho, g), one_m_rho * g)
                k.write(avg, k.op("AddV2", (kept, new), kept + new), "AssignVariableOp")
                square = k.op("Square", (avg._value,), avg._value * avg._value)
                diff = k.op("Sub", (vel._value, square), vel._value - square)
                denom = k.op("AddV2", (diff, eps), diff + eps)
            else:
                denom = k.op("AddV2", (vel._value, eps), vel._value + eps)
            scaled = k.op("Mul", (lr, g), lr * g)
            root = k.op("Rsqrt", (denom,), M._rsqrt(denom))
            increment = k.op("Mul", (scaled, root), scaled * root)
            if self.momentum > 0:
                mom = slots[-1]
                momentum = c["momentum"]._value
                kept = k.op("Mul", (momentum, mom._value), momentum * mom._value)
                k.write(mom, k.op("AddV2", (kept, increment), kept + increment),
                        "AssignVariableOp")
                increment = mom._value
            k.write(variable, variable._value - increment, "AssignSubVariableOp")
        return True

    def get_config(self):
        cfg = super().get_config()
        cfg.update(learning_rate=self._serialize_hyperparameter(self._learning_rate),
                   rho=self.rho, momentum=self.momentum, epsilon=self.epsilon,
                   centered=self.centered)
        return cfg
