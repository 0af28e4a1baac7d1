"""Public ops called on RaggedTensors: the table of the ops that take them, and the
dispatcher that routes such calls.

Glossary:
  UNARY    -- element-wise ops of one tensor (its first argument; the others, like
              ``substr``'s ``pos`` and ``len``, passed on): run on the flat values.
  BINARY   -- element-wise ops of two tensors: broadcast (ragged_elementwise.binary).
  NARY     -- element-wise ops of a list of tensors (``add_n``, ``strings.join``).
  REDUCE   -- ``reduce_<kind>`` over axes (ragged_math_ops.reduce).
  ARRAY    -- concat, stack, expand_dims, tile, reverse, gather, gather_nd, where, shape
              and the fills of a DynamicRaggedShape; ``tf.boolean_mask`` refuses ragged
              values as TF 2.21's does (ValueError: ``tf.ragged.boolean_mask`` takes them).
  traced   -- each ragged op is a recorded op (op_recording.record_here): one graph node.
  dispatch -- as TF's ragged dispatch: an op called on a RaggedTensor fails to convert it
              (TypeError or ValueError), and the dispatcher registered here is asked; it
              handles the ops of this table, by their TF api name, and declines others.

Mirrors tensorflow/python/ops/ragged/ragged_dispatch.py.
"""

from __future__ import annotations

import inspect

from simdist.framework import dispatch
from simdist.framework.ops import (
    ragged_array_ops,
    ragged_elementwise,
    ragged_gather_ops,
    ragged_math_ops,
    ragged_shape,
)
from simdist.framework.ragged_tensor import RaggedTensor

UNARY = {f"math.{n}" for n in (
    "abs acos acosh asin asinh atan atanh ceil cos cosh erf exp expm1 floor is_finite "
    "is_inf is_nan log log1p logical_not negative reciprocal round rsqrt sigmoid sign sin "
    "sinh softplus sqrt square tan tanh").split()} | {
    "cast", "clip_by_value", "identity", "ones_like", "zeros_like", "stop_gradient",
    "nn.relu", "nn.relu6", "nn.elu", "nn.selu", "nn.leaky_relu", "nn.gelu", "nn.silu",
    "nn.softsign", "nn.dropout"} | {f"strings.{n}" for n in (
    "as_string length lower upper strip substr to_hash_bucket_fast to_number "
    "regex_full_match regex_replace").split()}
BINARY = {f"math.{n}" for n in (
    "add subtract multiply truediv floormod maximum minimum pow equal not_equal less "
    "less_equal greater greater_equal logical_and logical_or logical_xor squared_difference "
    "atan2 divide_no_nan").split()} | {"__operators__.add", "compat.v1.floor_div"}
NARY = {"math.add_n", "strings.join"}
REDUCE = {f"math.reduce_{k}": k for k in ("sum", "mean", "max", "min", "prod", "all", "any")}
ARRAY = {"concat": ragged_array_ops.concat, "stack": ragged_array_ops.stack,
         "expand_dims": ragged_array_ops.expand_dims,
         "tile": ragged_array_ops.tile, "reverse": ragged_array_ops.reverse,
         "compat.v1.boolean_mask": ragged_array_ops.refuse_boolean_mask,
         "compat.v1.shape": ragged_shape.shape, "reshape": ragged_shape.reshape,
         "zeros": ragged_shape.zeros, "ones": ragged_shape.ones, "fill": ragged_shape.fill,
         "compat.v1.gather": ragged_gather_ops.gather,
         "compat.v1.gather_nd": ragged_gather_ops.gather_nd, "where": ragged_gather_ops.where}


def _ragged_in(value) -> bool:
    if isinstance(value, (RaggedTensor, ragged_shape.DynamicRaggedShape)):
        return True
    if isinstance(value, (list, tuple)):
        return any(isinstance(v, (RaggedTensor, ragged_shape.DynamicRaggedShape))
                   for v in value)
    return False


def _bound(op, args, kwargs):
    """The call's arguments by parameter name, in the op's order."""
    bound = inspect.signature(op).bind(*args, **kwargs)
    return list(bound.arguments.items())


class RaggedDispatcher(dispatch.GlobalOpDispatcher):
    """Handles the ops of the module's table called with a RaggedTensor argument."""

    def handle(self, op, args, kwargs):
        if not any(_ragged_in(a) for a in args) and \
                not any(_ragged_in(v) for v in kwargs.values()):
            return self.NOT_SUPPORTED
        name = dispatch.api_name(op)
        if name in ARRAY:
            return ARRAY[name](*args, **kwargs)
        items = _bound(op, args, kwargs)
        rest = dict(items[1:])
        if name in REDUCE:
            return ragged_math_ops.reduce(REDUCE[name], items[0][1], rest.get("axis"),
                                          bool(rest.get("keepdims", False)))
        if name in UNARY and isinstance(items[0][1], RaggedTensor):
            return ragged_elementwise.unary(
                lambda flat: op(**{items[0][0]: flat, **rest}), items[0][1])
        if name in BINARY and len(items) >= 2:
            (xn, x), (yn, y) = items[:2]
            more = dict(items[2:])
            return ragged_elementwise.binary(lambda a, b: op(**{xn: a, yn: b, **more}), x, y)
        if name in NARY:
            return ragged_elementwise.nary(lambda flat: op(**{items[0][0]: flat, **rest}),
                                           list(items[0][1]))
        return self.NOT_SUPPORTED


DISPATCHER = RaggedDispatcher()   # asked by ragged_tensor's dispatcher, which loads this
