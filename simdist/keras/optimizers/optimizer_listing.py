"""The operations TF's graph lists for a Keras optimizer's ``apply_gradients``
(``get_operations``), for SGD, Adam, RMSprop and Adagrad with no strategy.

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
  whole          -- what is not listed here (clipping, weight decay, a schedule, nesterov,
                    amsgrad, another optimizer, a strategy, a missing or sparse gradient, a
                    variable not float32) stays one node.

Mirrors tf_keras/src/optimizers/optimizer.py (apply_gradients, _internal_apply_gradients),
sgd.py, adam.py, rmsprop.py and adagrad.py (update_step), and tf_keras/src/optimizers/utils.py
(all_reduce_sum_gradients).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, graph_operations
from simdist.framework.graph_operations import GraphTensor, _is_variable
from simdist.keras.optimizers import schedules
from simdist.keras.optimizers.adagrad import Adagrad
from simdist.keras.optimizers.adam import Adam
from simdist.keras.optimizers.optimizer import Optimizer
from simdist.keras.optimizers.rmsprop import RMSprop
from simdist.keras.optimizers.sgd import SGD


class _Ops:
    """TF's ops made in one name scope (``scope``, ending in ``/``)."""

    def __init__(self, builder, scope):
        self.b = builder
        self.scope = scope

    def op(self, base, op_type, inputs, like=None, dtype=None):
        """``inputs``: GraphTensors, variables (read inside the op: ``<op>/ReadVariableOp``)
        or (input name, Python value) for the Const TF converts it to."""
        name = self.b.unique(self.scope + base)
        made = []
        for x in inputs:
            if isinstance(x, tuple):
                x = self.b.const(f"{name}/{x[0]}", np.asarray(x[1]))
            elif _is_variable(x):
                x = self.b.read(name, x)
            made.append(x)
        like = like if like is not None else next(
            (x for x in made if isinstance(x, GraphTensor)), None)
        shape = tuple(like.shape.as_list()) if like is not None and like.shape.rank is not \
            None else None
        return self.b.add(name, op_type, made, [(dtype or getattr(like, "dtype", None),
                                                  shape)]).outputs[0]

    def read(self, variable):
        """A variable read before the op that uses it (``ReadVariableOp`` in the scope)."""
        return self.b.read(self.b.unique(self.scope + "ReadVariableOp"), variable, named=True)

    def cast_x(self, value):
        """``tf.cast(python value, float32)``: the Const ``Cast/x`` only."""
        return self.b.const(self.b.unique(self.scope + "Cast") + "/x", np.float32(value))

    def assign(self, op_type, variable, value):
        name = self.b.unique(self.scope + op_type)
        return self.b.add(name, op_type, [self.b.resource(name, variable), value], ())


def _sgd(s, opt, grad, variable, index):
    m = opt.momentums[index]
    momentum = s.cast_x(opt.momentum)
    step = s.op("mul", "Mul", [s.op("Neg", "Neg", [grad]), opt.learning_rate])
    kept = s.op("mul", "Mul", [s.read(m), momentum])
    s.assign("AssignVariableOp", m, s.op("add", "AddV2", [step, kept]))
    s.assign("AssignAddVariableOp", variable, s.read(m))


def _adam(s, opt, grad, variable, index):
    m, v = opt._momentums[index], opt._velocities[index]
    step = s.op("Cast", "Cast", [s.op("add", "AddV2", [s.read(opt.iterations), ("y", 1)])],
                dtype=dtypes.float32)
    power_1 = s.op("Pow", "Pow", [s.cast_x(opt.beta_1), step])
    power_2 = s.op("Pow", "Pow", [s.cast_x(opt.beta_2), step])
    root = s.op("Sqrt", "Sqrt", [s.op("sub", "Sub", [("x", 1.0), power_2], like=power_2)])
    scaled = s.op("mul", "Mul", [s.read(opt.learning_rate), root])
    alpha = s.op("truediv", "RealDiv", [scaled, s.op("sub", "Sub", [("x", 1.0), power_1],
                                                     like=power_1)])
    moved = s.op("mul", "Mul", [s.op("sub", "Sub", [grad, m]), ("y", 1 - opt.beta_1)])
    s.assign("AssignAddVariableOp", m, moved)
    moved = s.op("mul", "Mul", [s.op("sub", "Sub", [s.op("Square", "Square", [grad]), v]),
                                ("y", 1 - opt.beta_2)])
    s.assign("AssignAddVariableOp", v, moved)
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
    scaled = s.op("mul", "Mul", [s.read(opt.learning_rate), grad])
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
    scaled = s.op("mul", "Mul", [s.read(opt.learning_rate), grad])
    root = s.op("Sqrt", "Sqrt", [s.op("add", "AddV2", [s.read(accumulator),
                                                        ("y", opt.epsilon)])])
    s.assign("AssignSubVariableOp", variable, s.op("truediv", "RealDiv", [scaled, root]))


def _listed(opt) -> bool:
    """Whether TF's ops for this optimizer's step are the ones listed here."""
    plain = not (opt.clipnorm or opt.clipvalue or opt.global_clipnorm or opt.weight_decay) \
        and not isinstance(opt._learning_rate, schedules.LearningRateSchedule)
    if type(opt) is SGD:
        return plain and not opt.nesterov and isinstance(opt.momentum, (int, float))
    if type(opt) is Adam:
        return plain and not opt.amsgrad
    return plain and type(opt) in _UPDATES


_UPDATES = {SGD: _sgd, Adam: _adam, RMSprop: _rmsprop, Adagrad: _adagrad}


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
    outer = name.rsplit("/", 1)[0] + "/" if "/" in name else ""
    for g in grads:   # the default strategy's all-reduce (see the module docstring)
        builder.add(builder.unique(outer + "Identity"), "Identity", [g],
                    [(g.dtype, tuple(g.shape.as_list()))])
    summed = builder.add(builder.unique(outer + "IdentityN"), "IdentityN", grads + grads,
                         [(g.dtype, tuple(g.shape.as_list())) for g in grads * 2]).outputs
    s = _Ops(builder, builder.unique(outer + (kwargs.get("name") or opt.name)) + "/")
    index = opt._index_dict
    for grad, (_, variable) in zip(summed, pairs):
        _UPDATES[type(opt)](s, opt, grad, variable, index[opt._var_key(variable)])
    one = s.b.const(s.b.unique(s.scope + "Const"), np.int64(1))
    return s.assign("AssignAddVariableOp", opt.iterations, one)


graph_operations.register_listing(Optimizer.apply_gradients, list_apply_gradients)
