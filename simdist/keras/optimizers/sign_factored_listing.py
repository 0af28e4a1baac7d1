"""The operations TF's graph lists for the update_step of Lion and Adafactor in a traced
``apply_gradients`` (optimizer_listing lists the rest of the step; reads as update_listing's
glossary says).

Glossary:
  Cast/x     -- ``tf.cast`` of a Python hyper-parameter (beta_1, beta_2; epsilon_2 and 1.0):
                its Const only, made first; the learning rate (a float32 variable) is used as
                it is, read where an op takes it.
  Mean       -- ``tf.reduce_mean(x)`` over every axis: the axes as a ``Const`` of the scope,
                then ``Mean``; with an axis: ``Mean/reduction_indices`` inside the op (and a
                variable read inside, ``Mean/ReadVariableOp``, before it).
  rms        -- Adafactor's ``sqrt(reduce_mean(square(x)))``: Square, Const, Mean, Sqrt.

Mirrors tf_keras/src/optimizers/lion.py and adafactor.py (update_step).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes
from simdist.framework.graph_operations import _is_variable
from simdist.framework.tensor_shape import TensorShape
from simdist.keras.optimizers import schedules
from simdist.keras.optimizers.update_listing import _step


def lion(s, opt, grad, variable, index):
    m = opt.momentums[index]
    beta_1, beta_2 = s.cast_x(opt.beta_1), s.cast_x(opt.beta_2)

    def mixed(beta):   # m * beta + gradient * (1.0 - beta)
        kept = s.op("mul", "Mul", [s.read(m), beta])
        new = s.op("mul", "Mul", [grad, s.op("sub", "Sub", [("x", 1.0), beta], like=beta)])
        return s.op("add", "AddV2", [kept, new], like=grad)

    sign = s.op("Sign", "Sign", [mixed(beta_1)])
    s.assign("AssignSubVariableOp", variable, s.op("mul", "Mul", [s.read(s.lr), sign],
                                                   like=grad))
    s.assign("AssignVariableOp", m, mixed(beta_2))


def _shape(x):
    return tuple(x.shape)


def _mean(s, x, axis=None, keepdims=False):
    """``tf.reduce_mean`` (see the glossary)."""
    shape = list(_shape(x))
    if axis is None and not shape:   # a scalar: TF's range(0, rank(x)) (its rank 0 is falsy)
        rank = s.b.const(s.b.unique(s.scope + "Rank"), np.int32(0))
        name = s.b.unique(s.scope + "range")
        axes = s.b.add(name, "Range", [s.b.const(f"{name}/start", np.int32(0)), rank,
                                       s.b.const(f"{name}/delta", np.int32(1))],
                       [(dtypes.int32, (0,))]).outputs[0]
        name, kept = s.b.unique(s.scope + "Mean"), ()
    elif axis is None:
        axes = s.b.const(s.b.unique(s.scope + "Const"), np.arange(len(shape), dtype=np.int32))
        name, kept = s.b.unique(s.scope + "Mean"), ()
    else:
        name = s.b.unique(s.scope + "Mean")
        if _is_variable(x):
            x = s.b.read(f"{name}/ReadVariableOp", x, named=True)
        axes = s.b.const(f"{name}/reduction_indices", np.int32(axis))
        kept = shape[:axis % len(shape)] + ([1] if keepdims else []) + \
            shape[axis % len(shape) + 1:]
    return s.b.add(name, "Mean", [x, axes], [(dtypes.float32, tuple(kept))]).outputs[0]


def _rms(s, x):
    return s.op("Sqrt", "Sqrt", [_mean(s, s.op("Square", "Square", [x]))])


class _Like:
    """A variable's dtype and shape, for an op whose first tensor input has another shape."""

    def __init__(self, variable):
        self.dtype, self.shape = variable.dtype, TensorShape(_shape(variable))


def _expand_dims(s, x, axis):
    name = s.b.unique(s.scope + "ExpandDims")
    if _is_variable(x):
        x = s.b.read(f"{name}/ReadVariableOp", x, named=True)
    shape = list(_shape(x))
    at = axis % (len(shape) + 1)
    return s.b.add(name, "ExpandDims", [x, s.b.const(f"{name}/dim", np.int32(axis))],
                   [(x.dtype, tuple(shape[:at] + [1] + shape[at:]))]).outputs[0]


def adafactor(s, opt, grad, variable, index):
    epsilon_2, one = s.cast_x(opt.epsilon_2), s.cast_x(1.0)
    local_step = _step(s, opt, 1)
    lr = s.lr
    if not isinstance(opt._learning_rate, schedules.LearningRateSchedule) and \
            opt.relative_step:
        lr = s.op("Minimum", "Minimum", [lr, s.op("Rsqrt", "Rsqrt", [local_step])],
                  like=local_step)
    r, c, v = opt._r[index], opt._c[index], opt._v[index]
    rho_t = s.op("Minimum", "Minimum", [lr, s.op("Rsqrt", "Rsqrt", [local_step])],
                 like=local_step)
    alpha_t = s.op("mul", "Mul", [s.op("Maximum", "Maximum", [epsilon_2, _rms(s, variable)]),
                                  rho_t])
    like = _Like(variable)   # (an all-reduced gradient's listed shape may be unknown)
    regulated = s.op("add", "AddV2", [s.op("Square", "Square", [grad], like=like),
                                      ("y", np.float32(opt.epsilon_1))])
    power = s.op("Pow", "Pow", [local_step, ("y", np.float32(opt.beta_2_decay))])
    beta_2_t = s.op("sub", "Sub", [("x", np.float32(1)), power], like=power)

    def moving(slot, value):   # slot.assign(beta_2_t * slot + (1 - beta_2_t) * value())
        kept = s.op("mul", "Mul", [beta_2_t, slot], like=_Like(slot))
        rest = s.op("sub", "Sub", [("x", np.float32(1)), beta_2_t], like=beta_2_t)
        s.assign("AssignVariableOp", slot, s.op("add", "AddV2", [
            kept, s.op("mul", "Mul", [rest, value()], like=_Like(slot))]))

    if len(_shape(variable)) >= 2:
        moving(r, lambda: _mean(s, regulated, -1))
        moving(c, lambda: _mean(s, regulated, -2))
        mean = _mean(s, r, -1, keepdims=True)
        ratio = s.op("truediv", "RealDiv", [s.read(r), mean])
        s.assign("AssignVariableOp", v, s.op("mul", "Mul", [
            _expand_dims(s, ratio, -1), _expand_dims(s, c, -2)], like=like))
    else:
        moving(v, lambda: regulated)
    u_t = s.op("mul", "Mul", [grad, s.op("Rsqrt", "Rsqrt", [v], like=like)], like=like)
    clipped = s.op("truediv", "RealDiv", [_rms(s, u_t),
                                          ("y", np.float32(opt.clip_threshold))])
    u_t_hat = s.op("truediv", "RealDiv", [u_t, s.op("Maximum", "Maximum", [one, clipped])])
    s.assign("AssignAddVariableOp", variable, s.op("mul", "Mul", [
        s.op("Neg", "Neg", [alpha_t]), u_t_hat], like=like))
