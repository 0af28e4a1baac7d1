"""``tf.ensure_shape``: a tensor whose shape is checked against a (partial) shape.

Glossary:
  EnsureShape  -- eagerly, the kernel's check: every known dimension of ``shape`` must be
                  the tensor's (InvalidArgumentError). While tracing, the output's static
                  shape is the input's merged with ``shape`` (TF's shape function; a known
                  mismatch is its ValueError), and the kernel checks the value at
                  execution.

Mirrors tensorflow/python/ops/check_ops.py (ensure_shape) and the EnsureShape kernel and
shape function (tensorflow/core/kernels/ensure_shape_op.cc, core/ops/array_ops.cc).
"""

from __future__ import annotations

from simdist.framework import context, errors, execute, func_graph, op_recording, shape_errors
from simdist.framework.tensor_shape import TensorShape


def _text(shape: TensorShape) -> str:
    return shape_errors._shape_text(shape.dims)


def ensure_shape(x, shape, name=None):
    """``x``, once its shape is checked against ``shape`` (None: any size).

    Raises:
      InvalidArgumentError: a known dimension of ``shape`` that ``x`` does not have.
    """
    t = execute.convert_to_tensor(x)
    given = TensorShape(shape)
    if not t.shape.is_compatible_with(given):
        raise errors.InvalidArgumentError(
            None, None, f"Shape of tensor input {_text(t.shape)} is not compatible with "
                        f"expected shape {_text(given)}. [Op:EnsureShape]")
    return execute.execute("EnsureShape", [t], t._value)


def ensure_shape_spec(graph, x, shape, name=None):
    """``tf.ensure_shape`` while tracing: the input's static shape merged with ``shape``; a
    known mismatch fails on the placeholders (TF's text, shape_errors_select)."""
    if not func_graph.is_symbolic(x):
        return NotImplemented
    given, have = TensorShape(shape), x.shape
    if given.rank is None:
        dims = have.dims
    elif have.rank is None:
        dims = given.dims
    else:
        dims, problem = shape_errors._merge(given.dims, have.dims) \
            if given.rank == have.rank else (None, "rank")
        if problem is not None:
            return NotImplemented
    return graph.symbolic_like(dims, x.dtype, context.current_device(), "EnsureShape",
                               example=have if have.rank is not None else None)


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
ensure_shape = op_recording.recorded(ensure_shape, kind="spec", spec=ensure_shape_spec,
                                     name="EnsureShape")
