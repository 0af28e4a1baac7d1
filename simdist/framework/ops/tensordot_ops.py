"""``tf.tensordot``: a contraction of two tensors over pairs of axes, made of a transpose,
a reshape and one matmul, as TF's Python builds it.

Glossary:
  axes        -- an int ``N`` (the last N axes of ``a`` with the first N of ``b``), a pair
                 of lists (or of ints) of axes, or an int32 tensor of shape [2, k].
  free        -- the axes of a tensor that are not contracted; its free dims lead the
                 result (``a``'s, then ``b``'s).
  static      -- ``a`` or ``b`` of a fully known shape with axes as a Python list: the
                 transpose and reshape are made only when they change the tensor, and the
                 matmul's result is reshaped (``name``) only when it is not already the
                 result (``Tensordot/MatMul`` alone for ``tensordot(a, b, 1)`` of matrices).
  dynamic     -- the others (axes given as a tensor, a shape known only in part, traced):
                 the shape is read at run time (Shape, GatherV2, Prod, Pack, ConcatV2; a
                 tensor's axes made non-negative by a Select and its free axes by
                 ``ListDiff``). A trace records this as one node (``Tensordot``) listed as
                 TF's ops (tensordot_listing).

Mirrors tensorflow/python/ops/math_ops.py (tensordot, _tensordot_reshape,
_tensordot_axes) and array_ops' ListDiff kernel (tensorflow/core/kernels/listdiff_op.cc).
"""

from __future__ import annotations

import builtins

import numpy as np

from simdist.framework import dtypes, eager_errors, errors, execute, func_graph, op_recording
from simdist.framework.name_scope import name_scope, op_scope
from simdist.framework.ops import array_ops, math_ops

_INTEGRAL = (int, np.integer)


def list_diff(x, y, out_idx=dtypes.int32, name=None):
    """The values of the 1-D ``x`` that are not in ``y``, in order, and their indices in
    ``x`` (TF's ``ListDiff``, ``tf.compat.v1.setdiff1d``)."""
    xt, yt = execute.convert_to_tensor(x), execute.convert_to_tensor(y, dtype=x.dtype)
    for label, t in (("x", xt), ("y", yt)):
        if t.shape.rank != 1:   # the kernel's checks, in TF's eager text
            error = errors.InvalidArgumentError(
                None, None, f"{label} should be a 1D vector. [Op:ListDiff]")
            eager_errors.add_context(error, list_diff, (x, y), {})
            raise error
    host = np.asarray(xt.numpy())
    keep = ~np.isin(host, np.asarray(yt.numpy()))
    idx = np.nonzero(keep)[0].astype(dtypes.as_dtype(out_idx).as_numpy_dtype)
    return execute.execute_multi("ListDiff", [xt, yt], [host[keep], idx])


def _tracing():
    """The FuncGraph this thread traces into (not a recorded op's shape run), or None."""
    g = func_graph.current()
    return g if g is not None and func_graph.recorded_op_variant() is None else None


def _converted(x, label):
    """``convert_to_tensor(x, name=label)`` in the scope: a traced tensor as it is, a
    variable read (``ReadVariableOp``), in a trace a value made a Const named ``label``."""
    if hasattr(x, "_as_tensor") and callable(getattr(x, "value", None)):
        return x.value()   # resource_variable_ops' _dense_var_to_tensor: a read here
    if func_graph.is_symbolic(x) or _tracing() is None:
        return array_ops.convert_to_tensor(x)
    return array_ops.constant(x, name=label)


def _static_reshape(a, axes, flipped):
    """_tensordot_reshape for a fully known shape and Python axes: (reshaped, free dims)."""
    shape_a = a.shape.as_list()
    axes = [i if i >= 0 else i + len(shape_a) for i in axes]
    free = [i for i in builtins.range(len(shape_a)) if i not in axes]
    free_dims = [shape_a[i] for i in free]
    prod_free = int(np.prod([shape_a[i] for i in free]))
    prod_axes = int(np.prod([shape_a[i] for i in axes]))   # IndexError: an axis too large
    perm = list(axes) + free if flipped else free + list(axes)
    new_shape = [prod_axes, prod_free] if flipped else [prod_free, prod_axes]
    if (perm != np.arange(len(shape_a))).any():
        a = array_ops.transpose(a, perm)
    if a.shape.as_list() != new_shape:
        a = array_ops.reshape(a, new_shape)
    return a, free_dims


def _dynamic_reshape(a, axes, flipped):
    """_tensordot_reshape otherwise: (reshaped, free dims tensor, static free dims)."""
    if a.shape.rank is not None and isinstance(axes, (list, tuple)):
        shape_a = a.shape.as_list()
        axes = [i if i >= 0 else i + len(shape_a) for i in axes]
        free = [i for i in builtins.range(len(shape_a)) if i not in axes]
        static = [shape_a[i] for i in free]
        axes = array_ops.convert_to_tensor(axes, dtype=dtypes.int32, name="axes")
        free = array_ops.convert_to_tensor(free, dtype=dtypes.int32, name="free")
        shape_a = array_ops.shape(a)
    else:
        static = None
        shape_a = array_ops.shape(a)
        rank_a = array_ops.rank(a)
        axes = array_ops.convert_to_tensor(axes, dtype=dtypes.int32, name="axes")
        axes = array_ops.where(axes >= 0, axes, axes + rank_a)
        free, _ = list_diff(array_ops.range(rank_a), axes, dtypes.int32)
    free_dims = array_ops.gather(shape_a, free)
    axes_dims = array_ops.gather(shape_a, axes)
    prod_free, prod_axes = math_ops.reduce_prod(free_dims), math_ops.reduce_prod(axes_dims)
    if flipped:
        perm = array_ops.concat([axes, free], 0)
        new_shape = array_ops.stack([prod_axes, prod_free])
    else:
        perm = array_ops.concat([free, axes], 0)
        new_shape = array_ops.stack([prod_free, prod_axes])
    return array_ops.reshape(array_ops.transpose(a, perm), new_shape), free_dims, static


def _reshape(a, axes, flipped=False):
    if a.shape.is_fully_defined() and isinstance(axes, (list, tuple)):
        reshaped, free_dims = _static_reshape(a, axes, flipped)
        return reshaped, free_dims, free_dims
    return _dynamic_reshape(a, axes, flipped)


def axes_lists(rank, axes):
    """Python ``axes`` (an int N, for a known ``rank``, or a pair) as the two lists of
    contracted axes, as given (negative ones too)."""
    if isinstance(axes, _INTEGRAL):
        return list(builtins.range(rank - axes, rank)), list(builtins.range(axes))
    a_axes, b_axes = axes
    if isinstance(a_axes, _INTEGRAL) and isinstance(b_axes, _INTEGRAL):
        return [a_axes], [b_axes]
    return a_axes, b_axes


def _axes(a, axes):
    """_tensordot_axes: the contracted axes of ``a`` and of ``b``.

    Raises:
      ValueError: TF's texts: a negative or too large ``N``, a list not of two, two lists
        of different lengths.
    """
    rank = a.shape.rank
    if isinstance(axes, _INTEGRAL):
        if axes < 0:
            raise ValueError(f"`axes` must be at least 0. Received: {axes}.")
        if rank is not None:
            if axes > rank:
                raise ValueError(f"`axes` must not be larger than the number of "
                                 f"dimensions of tensor {a}.  Received {axes}, vs "
                                 f"tensor dimensions {rank}.")
            return axes_lists(rank, axes)
        rank_t = array_ops.rank(a)
        return (array_ops.range(rank_t - axes, rank_t, dtype=dtypes.int32),
                array_ops.range(axes, dtype=dtypes.int32))
    if isinstance(axes, (list, tuple)):
        if len(axes) != 2:
            raise ValueError(f"`axes` must be an integer or have length 2. Received {axes}.")
        a_axes, b_axes = axes_lists(rank, axes)
        if len(a_axes) != len(b_axes):
            raise ValueError(f"Different number of contraction axes `a` and `b`, "
                             f"{len(a_axes)} != {len(b_axes)}.")
        return a_axes, b_axes
    axes = array_ops.convert_to_tensor(axes, dtype=dtypes.int32, name="axes")
    return axes[0], axes[1]


def tensordot(a, b, axes, name=None):
    """The contraction of ``a`` and ``b`` over ``axes`` (``tf.tensordot``; see the module
    docstring).

    Raises:
      ValueError: ``axes`` of the wrong form (``_axes``).
      IndexError: an axis beyond a fully known tensor's rank (TF's list index).
      InvalidArgumentError: the contracted dimensions differ, or the dtypes do (matmul).
    """
    if _tracing() is not None and not _all_static(a, b, axes):
        return tensordot_node(a, b, axes, name=name)
    return _tensordot_impl(a, b, axes, name)


def _all_static(a, b, axes) -> bool:
    """Whether TF's static path builds both sides (no shape read at run time)."""
    shapes = [t.shape for t in (a, b) if func_graph.is_symbolic(t)]   # a value's is known
    if any(not s.is_fully_defined() for s in shapes):
        return False
    return isinstance(axes, _INTEGRAL + (list, tuple))


def _tensordot_impl(a, b, axes, name):
    with name_scope(name or "Tensordot") as scope:
        scope = op_scope(scope)
        a, b = _converted(a, "a"), _converted(b, "b")
        a_axes, b_axes = _axes(a, axes)
        a_reshape, a_free, a_static = _reshape(a, a_axes)
        b_reshape, b_free, b_static = _reshape(b, b_axes, True)
        product = math_ops.matmul(a_reshape, b_reshape)
        if isinstance(a_free, list) and isinstance(b_free, list):
            if product.shape.is_fully_defined() and product.shape.as_list() == a_free + b_free:
                return product
            return array_ops.reshape(product, a_free + b_free, name=scope)
        a_free = array_ops.convert_to_tensor(a_free, dtype=dtypes.int32)
        b_free = array_ops.convert_to_tensor(b_free, dtype=dtypes.int32)
        product = array_ops.reshape(product, array_ops.concat([a_free, b_free], 0), name=scope)
        if a_static is not None and b_static is not None:
            product.set_shape(a_static + b_static)
        return product


def tensordot_node(a, b, axes, name=None):
    """tensordot recorded whole in a trace (the dynamic path; framework/ops/__init__
    records it with ``tensordot_spec``); it runs the composite on the values."""
    return _tensordot_impl(a, b, axes, name)


def tensordot_spec(graph, a, b, axes, name=None):
    """The traced node's output: TF's static shape (the free dims known, unknown rank
    where a rank or the axes are not known)."""
    # (a variable's own shape and dtype: converting it here would record a read)
    a_t, b_t = (x if hasattr(x, "_as_tensor") and hasattr(x, "assign")
                else array_ops.convert_to_tensor(x) for x in (a, b))
    dims = None
    if a_t.shape.rank is not None and b_t.shape.rank is not None and \
            isinstance(axes, _INTEGRAL + (list, tuple)):
        a_axes, b_axes = axes_lists(a_t.shape.rank, axes)
        dims = []
        for t, ax in ((a_t, a_axes), (b_t, b_axes)):
            rank = t.shape.rank
            ax = [i if i >= 0 else i + rank for i in ax]
            dims += [t.shape.as_list()[i] for i in range(rank) if i not in ax]
    if a_t.dtype != b_t.dtype:
        return NotImplemented   # matmul's error, on the placeholders
    from simdist.framework import context

    return graph.symbolic_like(dims, a_t.dtype, context.current_device(), "Tensordot")


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
tensordot_node = op_recording.recorded(
    tensordot_node, kind="spec", spec=tensordot_spec,
    name=lambda a, b, axes, name=None: (name or "Tensordot",))   # TF's scope, its Reshape
