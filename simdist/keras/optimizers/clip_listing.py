"""The operations TF's graph lists for an optimizer's gradient clipping and weight decay
(``get_operations``), in the optimizer's scope, between the all-reduce and the updates.

Glossary:
  clip_by_norm   -- clipnorm, per gradient (clip_ops.clip_by_norm, scope made unique):
                    ``mul`` (t * t), its axes ``Const``, ``Sum`` (keepdims), ``Greater``
                    than 0, ``ones_like`` (a Fill of a folded shape), ``Select``, ``Sqrt``,
                    ``Select_1``, ``mul_1`` (t * clipnorm), ``Maximum``, ``truediv`` and the
                    scope's own ``Identity``.
  clip_by_value  -- clipvalue, per gradient: ``Minimum`` then the scope's ``Maximum``.
  global_norm    -- global_clipnorm: ``global_norm/`` (an ``L2Loss`` per gradient, ``stack``,
                    ``Sum``, times 2, ``Sqrt`` named ``global_norm``), then
                    ``clip_by_global_norm/`` (clip_norm * min(1 / norm, 1 / clip_norm) +
                    (norm - norm), one ``mul`` per gradient and an ``Identity`` named
                    ``<scope>/<scope>/_<i>``).
  weight decay   -- per variable: ``Cast/x`` (the decay), the variable read, ``mul``,
                    ``mul_1`` by the learning rate (read inside it), AssignSubVariableOp.

Mirrors tf_keras/src/optimizers/optimizer.py (_clip_gradients, _apply_weight_decay) and
tensorflow/python/ops/clip_ops.py (clip_by_norm, clip_by_value, global_norm,
clip_by_global_norm).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes
from simdist.framework.graph_operations import GraphTensor, _is_variable


class ScopeOps:
    """TF's ops made in one name scope (``scope``, ending in ``/``)."""

    def __init__(self, builder, scope, lr=None):
        self.b = builder
        self.scope = scope
        self.lr = lr   # the learning rate: its variable, or a read of it (a GraphTensor)

    def op(self, base, op_type, inputs, like=None, dtype=None):
        """``inputs``: GraphTensors, variables (read inside the op: ``<op>/ReadVariableOp``)
        or (input name, Python value) for the Const TF converts it to."""
        name = self.b.unique(self.scope + base)
        made = []
        for x in inputs:
            if isinstance(x, tuple):
                x = self.b.const(f"{name}/{x[0]}", np.asarray(   # a Python float: float32
                    x[1], np.float32 if type(x[1]) is float else None))
            elif _is_variable(x):   # a second one: <op>/ReadVariableOp_1
                x = self.b.read(self.b.unique(f"{name}/ReadVariableOp"), x, named=True)
            made.append(x)
        like = like if like is not None else next(
            (x for x in made if isinstance(x, GraphTensor)), None)
        shape = tuple(like.shape.as_list()) if like is not None and like.shape.rank is not \
            None else None
        return self.b.add(name, op_type, made, [(dtype or getattr(like, "dtype", None),
                                                  shape)]).outputs[0]

    def read(self, variable):
        """A variable read before the op that uses it (``ReadVariableOp`` in the scope); a
        value already read as it is."""
        if isinstance(variable, GraphTensor):
            return variable
        return self.b.read(self.b.unique(self.scope + "ReadVariableOp"), variable, named=True)

    def cast_x(self, value):
        """``tf.cast(python value, float32)``: the Const ``Cast/x`` only."""
        return self.b.const(self.b.unique(self.scope + "Cast") + "/x", np.float32(value))

    def assign(self, op_type, variable, value):
        name = self.b.unique(self.scope + op_type)
        return self.b.add(name, op_type, [self.b.resource(name, variable), value], ())


def _shape(t):
    return tuple(t.shape.as_list())


def _clip_by_norm(s, grad, clipnorm):
    c = ScopeOps(s.b, s.b.unique(s.scope + "clip_by_norm") + "/")
    shape = _shape(grad)
    squares = c.op("mul", "Mul", [grad, grad])
    axes = c.b.const(c.b.unique(c.scope + "Const"), np.arange(len(shape), dtype=np.int32))
    kept = (1,) * len(shape)
    total = c.b.add(c.b.unique(c.scope + "Sum"), "Sum", [squares, axes],
                    [(grad.dtype, kept)]).outputs[0]
    positive = c.op("Greater", "Greater", [total, ("y", np.float32(0))], dtype=dtypes.bool_)
    ones = c.b.unique(c.scope + "ones_like")
    fill = [c.b.const(f"{ones}/Shape/shape_as_tensor", np.asarray(kept, np.int32)),
            c.b.const(f"{ones}/Const", np.float32(1))]
    ones = c.b.add(ones, "Fill", fill, [(grad.dtype, kept)]).outputs[0]
    safe = c.op("Select", "Select", [positive, total, ones], like=total)
    norm = c.op("Select", "Select", [positive, c.op("Sqrt", "Sqrt", [safe]), total],
                like=total)
    scaled = c.op("mul", "Mul", [grad, ("y", np.float32(clipnorm))])
    bound = c.op("Maximum", "Maximum", [norm, ("y", np.float32(clipnorm))])
    clipped = c.op("truediv", "RealDiv", [scaled, bound], like=grad)
    return c.b.add(c.scope[:-1], "Identity", [clipped], [(grad.dtype, shape)]).outputs[0]


def _clip_by_value(s, grad, clipvalue):
    name = s.b.unique(s.scope + "clip_by_value")
    low = s.b.add(f"{name}/Minimum", "Minimum", [
        grad, s.b.const(f"{name}/Minimum/y", np.float32(clipvalue))],
        [(grad.dtype, _shape(grad))]).outputs[0]
    return s.b.add(name, "Maximum", [low, s.b.const(f"{name}/y", np.float32(-clipvalue))],
                   [(grad.dtype, _shape(grad))]).outputs[0]


def _clip_by_global_norm(s, grads, clipnorm):
    n = ScopeOps(s.b, s.b.unique(s.scope + "global_norm") + "/")
    halves = [n.b.add(n.b.unique(n.scope + "L2Loss"), "L2Loss", [g],
                      [(g.dtype, ())]).outputs[0] for g in grads]
    stacked = n.b.add(n.b.unique(n.scope + "stack"), "Pack", halves,
                      [(grads[0].dtype, (len(grads),))]).outputs[0]
    axes = n.b.const(n.b.unique(n.scope + "Const"), np.arange(1, dtype=np.int32))
    total = n.b.add(n.b.unique(n.scope + "Sum"), "Sum", [stacked, axes],
                    [(grads[0].dtype, ())]).outputs[0]
    two = n.b.const(n.b.unique(n.scope + "Const"), np.float32(2))
    norm = n.op("global_norm", "Sqrt", [n.op("mul", "Mul", [total, two])])
    c = ScopeOps(s.b, s.b.unique(s.scope + "clip_by_global_norm") + "/")
    inverse = c.op("truediv", "RealDiv", [("x", np.float32(1)), norm], like=norm)
    one = c.b.const(c.b.unique(c.scope + "Const"), np.float32(1))
    bound = c.op("truediv", "RealDiv", [one, ("y", np.float32(clipnorm))])
    smaller = c.op("Minimum", "Minimum", [inverse, bound])
    scale = c.op("mul", "Mul", [("x", np.float32(clipnorm)), smaller], like=norm)
    scale = c.op("add", "AddV2", [scale, c.op("sub", "Sub", [norm, norm])])
    out = []
    for i, g in enumerate(grads):
        scaled = c.op("mul", "Mul", [g, scale])
        name = f"{c.scope}{c.scope[:-1]}/_{i}"
        out.append(c.b.add(name, "Identity", [scaled], [(g.dtype, _shape(g))]).outputs[0])
    return out


def listed(opt, grads) -> bool:
    """Whether the clipping and weight decay of ``opt`` for ``grads`` are listed here."""
    if opt.weight_decay is not None and not opt.weight_decay:   # 0: TF lists it, simdist
        return False                                            # skips it
    if opt.clipnorm or opt.global_clipnorm:   # TF's reductions of a scalar: not listed
        return all(g.shape.rank for g in grads)
    return True


def clip(s, opt, grads) -> list:
    """optimizer._clip_gradients' ops (see the module docstring)."""
    if opt.clipnorm and opt.clipnorm > 0:
        return [_clip_by_norm(s, g, opt.clipnorm) for g in grads]
    if opt.global_clipnorm and opt.global_clipnorm > 0:
        return _clip_by_global_norm(s, grads, opt.global_clipnorm)
    if opt.clipvalue and opt.clipvalue > 0:
        return [_clip_by_value(s, g, opt.clipvalue) for g in grads]
    return grads


def weight_decay(s, opt, variables) -> None:
    """optimizer._apply_weight_decay's ops: ``variable -= variable * wd * lr``."""
    if not opt.weight_decay:
        return
    for variable in variables:
        decay = s.cast_x(opt.weight_decay)
        decayed = s.op("mul", "Mul", [s.read(variable), decay])
        s.assign("AssignSubVariableOp", variable,
                 s.op("mul", "Mul", [decayed, s.lr]))
