"""The operations TF's graph lists for a Keras optimizer's ``apply_gradients``
(``get_operations``), for SGD (nesterov too), Adam (amsgrad too), AdamW, RMSprop,
Adagrad, Adamax, Adadelta, Ftrl and Nadam (update_listing's), Lion and Adafactor
(sign_factored_listing's) with no strategy; clipping
and weight decay are clip_listing's.

Glossary:
  all-reduce     -- aggregate_gradients under the default strategy: an ``Identity`` per
                    gradient, then one ``IdentityN`` of the gradients twice (a
                    custom_gradient's body and its IdentityN); the updates read its outputs.
  optimizer scope -- the optimizer's name (``SGD/``, ``Adam/``; made unique) around the
                    updates and the ``iterations`` increment (``Const``, AssignAddVariableOp).
  variable first -- ``m * momentum`` with ``m`` a variable reads it before the op, in the
                    scope around (``ReadVariableOp``); ``gradient - m`` reads it inside the
                    op (``sub_2/ReadVariableOp``), as TF's operators convert their operands.
  x first        -- ``rho * velocity`` (RMSprop): the variable read before the op, the
                    Python value converted inside it (``mul/x``).
  Cast/x         -- ``tf.cast`` of a Python hyper-parameter: only the converted Const in a
                    ``Cast`` scope (a float32 cast to float32 adds no op); the learning rate
                    variable is used as it is.
  whole          -- what is not listed here (a schedule, use_ema, another optimizer, a strategy, a
                    missing or sparse gradient, a variable not float32, clipnorm of a
                    scalar, weight_decay=0) stays one node.

Mirrors tf_keras/src/optimizers/optimizer.py (apply_gradients, _internal_apply_gradients),
sgd.py, adam.py, rmsprop.py and adagrad.py (update_step), and tf_keras/src/optimizers/utils.py
(all_reduce_sum_gradients).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, graph_operations
from simdist.framework.graph_operations import _is_variable
from simdist.keras.optimizers import (
    clip_listing,
    schedules,
    sign_factored_listing,
    update_listing,
)
from simdist.keras.optimizers.adadelta import Adadelta
from simdist.keras.optimizers.adafactor import Adafactor
from simdist.keras.optimizers.adagrad import Adagrad
from simdist.keras.optimizers.adam import Adam, AdamW
from simdist.keras.optimizers.adamax import Adamax
from simdist.keras.optimizers.clip_listing import ScopeOps
from simdist.keras.optimizers.ftrl import Ftrl
from simdist.keras.optimizers.lion import Lion
from simdist.keras.optimizers.nadam import Nadam
from simdist.keras.optimizers.optimizer import Optimizer
from simdist.keras.optimizers.rmsprop import RMSprop
from simdist.keras.optimizers.sgd import SGD


def _sgd(s, opt, grad, variable, index):
    m = opt.momentums[index]
    momentum = s.cast_x(opt.momentum)
    step = s.op("mul", "Mul", [s.op("Neg", "Neg", [grad]), s.lr])
    kept = s.op("mul", "Mul", [s.read(m), momentum])
    s.assign("AssignVariableOp", m, s.op("add", "AddV2", [step, kept]))
    if opt.nesterov:   # variable += -gradient * lr + m * momentum
        step = s.op("mul", "Mul", [s.op("Neg", "Neg", [grad]), s.lr])
        kept = s.op("mul", "Mul", [s.read(m), momentum])
        s.assign("AssignAddVariableOp", variable, s.op("add", "AddV2", [step, kept]))
        return
    s.assign("AssignAddVariableOp", variable, s.read(m))


def _adam(s, opt, grad, variable, index):
    m, v = opt._momentums[index], opt._velocities[index]
    step = s.op("Cast", "Cast", [s.op("add", "AddV2", [s.read(opt.iterations), ("y", 1)])],
                dtype=dtypes.float32)
    power_1 = s.op("Pow", "Pow", [s.cast_x(opt.beta_1), step])
    power_2 = s.op("Pow", "Pow", [s.cast_x(opt.beta_2), step])
    root = s.op("Sqrt", "Sqrt", [s.op("sub", "Sub", [("x", 1.0), power_2], like=power_2)])
    scaled = s.op("mul", "Mul", [s.read(s.lr), root])
    alpha = s.op("truediv", "RealDiv", [scaled, s.op("sub", "Sub", [("x", 1.0), power_1],
                                                     like=power_1)])
    moved = s.op("mul", "Mul", [s.op("sub", "Sub", [grad, m]), ("y", 1 - opt.beta_1)])
    s.assign("AssignAddVariableOp", m, moved)
    moved = s.op("mul", "Mul", [s.op("sub", "Sub", [s.op("Square", "Square", [grad]), v]),
                                ("y", 1 - opt.beta_2)])
    s.assign("AssignAddVariableOp", v, moved)
    if opt.amsgrad:   # v_hat.assign(maximum(v_hat, v)), both read inside the op
        v_hat = opt._velocity_hats[index]
        s.assign("AssignVariableOp", v_hat, s.op("Maximum", "Maximum", [v_hat, v], like=grad))
        v = v_hat
    top = s.op("mul", "Mul", [s.read(m), alpha])
    bottom = s.op("add", "AddV2", [s.op("Sqrt", "Sqrt", [v], like=grad), ("y", opt.epsilon)])
    s.assign("AssignSubVariableOp", variable, s.op("truediv", "RealDiv", [top, bottom]))


def _rmsprop(s, opt, grad, variable, index):
    velocity = opt._velocities[index]
    rho = opt.rho

    def moving(slot, value):   # slot.assign(rho * slot + (1 - rho) * value())
        kept = s.op("mul", "Mul", [("x", rho), s.read(slot)], like=grad)
        s.assign("AssignVariableOp", slot, s.op("add", "AddV2", [
            kept, s.op("mul", "Mul", [("x", 1 - rho), value()], like=grad)]))

    moving(velocity, lambda: s.op("Square", "Square", [grad]))
    if opt.centered:
        average = opt._average_gradients[index]
        moving(average, lambda: grad)
        squared = s.op("Square", "Square", [average], like=grad)
        denominator = s.op("sub", "Sub", [s.read(velocity), squared])
    else:
        denominator = s.read(velocity)
    denominator = s.op("add", "AddV2", [denominator, ("y", opt.epsilon)])
    scaled = s.op("mul", "Mul", [s.read(s.lr), grad])
    increment = s.op("mul", "Mul", [scaled, s.op("Rsqrt", "Rsqrt", [denominator])])
    if opt.momentum > 0:
        momentum = opt._momentums[index]
        kept = s.op("mul", "Mul", [("x", opt.momentum), s.read(momentum)], like=grad)
        s.assign("AssignVariableOp", momentum, s.op("add", "AddV2", [kept, increment]))
        increment = s.read(momentum)
    s.assign("AssignAddVariableOp", variable, s.op("Neg", "Neg", [increment]))


def _adagrad(s, opt, grad, variable, index):
    accumulator = opt._accumulators[index]
    s.assign("AssignAddVariableOp", accumulator, s.op("mul", "Mul", [grad, grad]))
    scaled = s.op("mul", "Mul", [s.read(s.lr), grad])
    root = s.op("Sqrt", "Sqrt", [s.op("add", "AddV2", [s.read(accumulator),
                                                        ("y", opt.epsilon)])])
    s.assign("AssignSubVariableOp", variable, s.op("truediv", "RealDiv", [scaled, root]))


def _listed(opt) -> bool:
    """Whether TF's ops for this optimizer's step are the ones listed here."""
    if isinstance(opt._learning_rate, schedules.LearningRateSchedule) or opt.use_ema:
        return False
    if type(opt) is SGD:
        return isinstance(opt.momentum, (int, float))
    return type(opt) in _UPDATES


def _nadam(s, opt, grad, variable, index):
    # the counter this update's cond compared when the step was traced: TF's trace moved it
    # once per update_step, in this order (per variable, and per replica of each under
    # MirroredStrategy: Nadam._traced_update_steps)
    seen = s.b.__dict__.setdefault("nadam_seen", {})
    k = seen[id(opt)] = seen.get(id(opt), -1) + 1
    counters = opt._traced_counters.get(s.b.graph)
    counter = counters[k] if counters is not None and k < len(counters) else \
        opt._u_product_counter - len(opt._index_dict) + k
    update_listing.nadam(s, opt, grad, variable, index, counter)


_UPDATES = {SGD: _sgd, Adam: _adam, AdamW: _adam, RMSprop: _rmsprop, Adagrad: _adagrad,
            Adamax: update_listing.adamax, Adadelta: update_listing.adadelta,
            Ftrl: update_listing.ftrl, Nadam: _nadam, Lion: sign_factored_listing.lion,
            Adafactor: sign_factored_listing.adafactor}


def list_apply_gradients(builder, name, args, kwargs, outputs):
    """The ops of an ``apply_gradients`` node (graph_operations.LISTINGS), or None."""
    opt, pairs = (list(args) + [None, None])[:2]
    extra = list(args[2:]) + [v for k, v in kwargs.items() if k != "name"]
    if not _listed(opt) or builder.replica is not None or any(extra) or not pairs:
        return None
    pairs = list(pairs)
    grads = [builder.converted(name, None, g) for g, _ in pairs]
    if not all(grads) or any(not _is_variable(v) or v.dtype != dtypes.float32
                             for _, v in pairs):
        return None
    grads = [g[0] for g in grads]
    if not clip_listing.listed(opt, grads):
        return None
    outer = name.rsplit("/", 1)[0] + "/" if "/" in name else ""
    for g in grads:   # the default strategy's all-reduce (see the module docstring)
        builder.add(builder.unique(outer + "Identity"), "Identity", [g],
                    [(g.dtype, tuple(g.shape.as_list()))])
    summed = builder.add(builder.unique(outer + "IdentityN"), "IdentityN", grads + grads,
                         [(g.dtype, tuple(g.shape.as_list())) for g in grads * 2]).outputs
    s = ScopeOps(builder, builder.unique(outer + (kwargs.get("name") or opt.name)) + "/",
                 opt.learning_rate)
    summed = clip_listing.clip(s, opt, summed[:len(grads)])
    clip_listing.weight_decay(s, opt, [v for _, v in pairs])
    index = opt._index_dict
    for grad, (_, variable) in zip(summed, pairs):
        _UPDATES[type(opt)](s, opt, grad, variable, index[opt._var_key(variable)])
    one = s.b.const(s.b.unique(s.scope + "Const"), np.int64(1))
    return s.assign("AssignAddVariableOp", opt.iterations, one)


graph_operations.register_listing(Optimizer.apply_gradients, list_apply_gradients)
