"""The operations TF's graph lists for the crossentropies of ``tf.nn`` in a trace
(``get_operations``): sparse_softmax_, softmax_ and sigmoid_cross_entropy_with_logits,
called directly or by Keras's losses (keras/crossentropy_listing lists them inside a loss).

Glossary:
  sparse scope -- nn_ops' name scope ``SparseSoftmaxCrossEntropyWithLogits/`` (made
              unique): the node's name is its kernel's,
              ``<scope>SparseSoftmaxCrossEntropyWithLogits``; the labels' static shape,
              folded to a Const (``<scope>Shape``), before the kernel (its inputs: the
              logits, then the labels).
  softmax_cross_entropy_with_logits -- nn_ops' scope: the logits and labels flattened to
              2-D (folded Rank, Shape, ``Sub``, ``Slice`` with a packed begin, ``concat``,
              ``Reshape``), the kernel named as the scope, the result reshaped back
              (``Slice_2``, ``Reshape_2``).
  logistic_loss -- nn_impl.sigmoid_cross_entropy_with_logits: ``max(x, 0) - x * z +
              log1p(exp(-|x|))`` with Selects (array_ops.where v1), the last AddV2 named
              as the scope.
  whole    -- shapes not fully known, other ranks (logits other than 2-D for the softmax
              ones), an axis other than -1: listed as one node.

Mirrors tensorflow/python/ops/nn_ops.py (sparse_softmax_cross_entropy_with_logits_v2,
softmax_cross_entropy_with_logits_v2, _flatten_outer_dims) and nn_impl.py
(sigmoid_cross_entropy_with_logits).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes
from simdist.framework.gradient_listing import Scope
from simdist.framework.ops.nn_ops import SPARSE_XENT_KERNEL

KERNEL = SPARSE_XENT_KERNEL


def list_sparse_xent(builder, name, args, kwargs, outputs):
    """The ops of the node ``name`` (graph_operations.LISTINGS), or None."""
    call = dict(zip(("labels", "logits"), args))
    call.update(kwargs)
    scope, _, last = name.rpartition("/")
    if last != KERNEL or not scope.rpartition("/")[2].startswith(KERNEL):   # a name= given
        return None
    found = [builder.converted(name, None, call.get(k)) for k in ("labels", "logits")]
    if not all(len(f) == 1 for f in found):
        return None
    labels, logits = found[0][0], found[1][0]
    shapes = [t.shape.as_list() if t.shape.rank is not None else None
              for t in (labels, logits)]
    if shapes[0] is None or shapes[1] is None or len(shapes[0]) != 1 or \
            len(shapes[1]) != 2 or None in shapes[0] + shapes[1]:
        return None
    s = Scope(builder, name[:-len(KERNEL)])
    s.const("Shape", shapes[0], dtypes.int32)
    return builder.add(name, KERNEL, [logits, labels],
                       [(logits.dtype, tuple(shapes[0])), (logits.dtype, tuple(shapes[1]))])


_I32 = dtypes.int32
_OPERATORS = ("mul", "sub")   # Python operators: binary_op_wrapper's own scope


def _op(s, base, op_type, inputs, like, dtype=None):
    out = s.op(base, op_type, inputs, like=like, dtype=dtype)
    if base in _OPERATORS:
        out.op.forward_scope = out.op.name + "/"
    return out


def logistic_loss(builder, name, labels, logits):
    """nn_impl.sigmoid_cross_entropy_with_logits' ops in the scope ``name`` (unique
    already): the output of its last op, named ``name``."""
    s = Scope(builder, name + "/")
    zeros = s.const("zeros_like", np.zeros(tuple(logits.shape.as_list()), np.float32),
                    logits.dtype)
    positive = _op(s, "GreaterEqual", "GreaterEqual", [logits, zeros], logits,
                   dtype=dtypes.bool_)
    relu = _op(s, "Select", "Select", [positive, logits, zeros], logits)
    negative = _op(s, "Select", "Select", [positive, _op(s, "Neg", "Neg", [logits], logits),
                                          logits], logits)
    linear = _op(s, "sub", "Sub", [relu, _op(s, "mul", "Mul", [logits, labels], logits)],
                 logits)
    soft = _op(s, "Log1p", "Log1p", [_op(s, "Exp", "Exp", [negative], logits)], logits)
    return s.op(None, "AddV2", [linear, soft], like=logits, name=name)


def _flat_2d(s, x):
    """nn_ops._flatten_outer_dims of a rank-2 ``x``: its folded ``Rank`` and ``Shape``,
    ``Sub``, ``Slice`` (a packed begin), ``concat``, ``Reshape``."""
    rank = s.const("Rank", 2)
    shape = s.const("Shape", x.shape.as_list())
    sub = s.op("Sub", "Sub", [rank, ("y", 1)], like=rank)
    name = s.name("Slice")
    inner = Scope(s.b, name + "/")
    begin = inner.op("begin", "Pack", [sub], dtype=_I32, shape=(1,), name=name + "/begin")
    size = inner.const("size", [1])
    last = s.op(None, "Slice", [shape, begin, size], dtype=_I32, shape=(1,), name=name)
    name = s.name("concat")
    first = Scope(s.b, name + "/").const("values_0", [-1])
    packed = s.op(None, "ConcatV2", [first, last, ("axis", 0)], dtype=_I32, shape=(2,),
                  name=name)
    return s.op("Reshape", "Reshape", [x, packed], like=x)


def softmax_xent(builder, name, labels, logits):
    """nn_ops.softmax_cross_entropy_with_logits_v2's ops in the scope ``name`` (unique
    already) for 2-D logits: the output of the result's Reshape."""
    s = Scope(builder, name + "/")
    rank = s.const("Rank", 2)
    shape = s.const("Shape", logits.shape.as_list())
    flat = [_flat_2d(s, x) for x in (logits, labels)]
    rows = tuple(logits.shape.as_list()[:1])
    op = builder.add(name, "SoftmaxCrossEntropyWithLogits", flat,
                     [(logits.dtype, rows), (logits.dtype, tuple(logits.shape.as_list()))])
    op.forward_scope = name + "/"   # made in its own scope (nn_ops' name=scope)
    sub = s.op("Sub", "Sub", [rank, ("y", 1)], like=rank)
    sliced = s.name("Slice")
    inner = Scope(builder, sliced + "/")
    begin = inner.const("begin", [0])
    size = inner.op("size", "Pack", [sub], dtype=_I32, shape=(1,), name=sliced + "/size")
    rows_shape = s.op(None, "Slice", [shape, begin, size], dtype=_I32, shape=(1,),
                      name=sliced)
    return s.op("Reshape", "Reshape", [op.outputs[0], rows_shape], dtype=logits.dtype,
                shape=rows)


def _known_pair(builder, name, call):
    """The labels' and logits' GraphTensors of a call, both fully known of one shape."""
    found = [builder.converted(name, None, call.get(k)) for k in ("labels", "logits")]
    if not all(len(f) == 1 for f in found):
        return None
    labels, logits = found[0][0], found[1][0]
    shapes = [t.shape.as_list() if t.shape.rank is not None else None for t in found[0] + found[1]]
    if shapes[0] is None or shapes[0] != shapes[1] or None in shapes[0]:
        return None
    return labels, logits


def list_logistic_loss(builder, name, args, kwargs, outputs):
    """The ops of a sigmoid_cross_entropy_with_logits node ``name`` (its scope), or None."""
    call = dict(zip(("labels", "logits"), args))
    call.update(kwargs)
    pair = _known_pair(builder, name, call)
    return None if pair is None else logistic_loss(builder, name, *pair).op


def list_softmax_xent(builder, name, args, kwargs, outputs):
    """The ops of a softmax_cross_entropy_with_logits node ``name`` (its scope), or None."""
    call = dict(zip(("labels", "logits", "axis"), args))
    call.update(kwargs)
    pair = _known_pair(builder, name, call)
    if pair is None or call.get("axis", -1) not in (-1, 1) or pair[1].shape.rank != 2:
        return None
    return softmax_xent(builder, name, *pair).op
