"""Ops that select elements: ``tf.unique``, ``tf.boolean_mask``, ``tf.slice``.

Glossary:
  unique       -- the distinct elements of a 1-D tensor in order of first appearance, and
                  for each input element the index of its value among them (``Unique``:
                  ``y``, ``idx``; ``idx`` is ``out_idx``, int32 or int64).
  boolean_mask -- the slices of ``tensor`` where the ``mask`` is true; the mask's dimensions
                  cover ``tensor``'s from ``axis`` on and are flattened into one (a Python
                  composite in TF: reshape, ``where``, ``gather``: TF's ValueErrors come
                  from its static checks, eagerly and while tracing).
  slice        -- ``size[i]`` elements from ``begin[i]`` in each dimension (``-1``: all the
                  rest).
  while tracing -- a selection's size depends on values: ``unique``'s ``y`` and the masked
                  dimension are ``None``; a slice's sizes are known where ``size`` (and, for
                  ``-1``, ``begin`` and the input's dimension) are.

Mirrors tensorflow/python/ops/array_ops.py (unique, boolean_mask, slice) and the Unique and
Slice shape functions of tensorflow/core/ops/array_ops.cc.
"""

from __future__ import annotations

import collections

import numpy as np

from simdist.framework import context, dtypes, errors, execute, func_graph, op_recording
from simdist.framework.tensor_shape import TensorShape
from simdist.hardware import array_api, backend

Unique = collections.namedtuple("Unique", ["y", "idx"])

_OUT_IDX_ERROR = (
    "Value for attr 'out_idx' of {} is not in the list of allowed values: int32, int64\n\t; "
    "NodeDef: {{{{node Unique}}}}; Op<name=Unique; signature=x:T -> y:T, idx:out_idx; "
    "attr=T:type; attr=out_idx:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]> "
    "[Op:Unique]")


def _t(x, dtype=None):
    return execute.convert_to_tensor(x, dtype=dtype)


def _out_idx(out_idx):
    dt = dtypes.as_dtype(out_idx)
    if dt not in (dtypes.int32, dtypes.int64):
        raise errors.InvalidArgumentError(None, None, _OUT_IDX_ERROR.format(
            execute.kernel_dtype_name(dt)))
    return dt


def unique(x, out_idx=dtypes.int32, name=None) -> Unique:
    """The distinct elements of the 1-D ``x`` in order of first appearance, and the index
    of each element's value among them.

    Raises:
      InvalidArgumentError: ``x`` is not 1-D; ``out_idx`` is not int32 or int64.
    """
    t = _t(x)
    dt = _out_idx(out_idx)
    if t.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "unique expects a 1D vector. [Op:Unique]")
    host = np.asarray(backend.to_host(t._value))
    _, first, inverse = np.unique(host, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")        # the sorted values' first positions
    position = np.empty_like(order)
    position[order] = np.arange(order.size)         # sorted value -> order of appearance
    y = host[np.sort(first)]
    idx = position[np.reshape(inverse, (-1,))].astype(dt.as_numpy_dtype)
    ys, idxs = execute.execute_multi(
        "Unique", [t], [array_api.from_host(y) if host.dtype != object else y,
                        array_api.from_host(idx)])
    return Unique(ys, idxs)


def unique_spec(graph, x, out_idx=dtypes.int32, name=None):
    """``tf.unique`` while tracing: ``y`` has an unknown size, ``idx`` the input's shape
    (TF's Unique shape function); another rank fails on the placeholders (TF's text)."""
    with func_graph.recorded_op_scope(0):   # a Python value converted as the op does
        t = _t(x)
    dt = _out_idx(out_idx)
    if t.shape.rank not in (1, None):
        return NotImplemented
    device = context.current_device()
    return Unique(graph.symbolic_like([None], t.dtype, device, "Unique"),
                  graph.symbolic_like(t.shape, dt, device, "Unique", example=[None]))


def _mask_layout(tensor, mask, axis):
    """TF's static checks of boolean_mask: (tensor, mask, axis, mask rank).

    Raises:
      ValueError: a scalar mask, a mask of unknown rank, or mask dimensions that do not
        fit the tensor's from ``axis`` on.
    """
    t, m = _t(tensor), _t(mask)
    rank = m.shape.rank
    if rank == 0:
        raise ValueError("mask cannot be scalar.")
    if rank is None:
        raise ValueError("Number of mask dimensions must be specified, even if some "
                         "dimensions are None.  E.g. shape=[None] is ok, but shape=None is "
                         "not.")
    a = 0 if axis is None else int(axis)
    covered = TensorShape(t.shape.dims[a:a + rank] if t.shape.rank is not None
                          else [None] * rank)
    if len(covered) != rank or any(d is not None and e is not None and d != e
                                   for d, e in zip(covered.dims, m.shape.dims)):
        raise ValueError(f"Shapes {covered} and {m.shape} are incompatible")
    return t, m, a, rank


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """The slices of ``tensor`` where ``mask`` is true (its dimensions from ``axis`` on,
    flattened into one).

    Raises:
      ValueError: TF's static checks (``_mask_layout``).
    """
    t, m, a, rank = _mask_layout(tensor, mask, axis)
    shape = tuple(t._value.shape)
    flat_mask = np.reshape(np.asarray(backend.to_host(m._value)).astype(bool), (-1,))
    keep = np.nonzero(flat_mask)[0]
    xp = array_api.namespace(t._value)
    merged = xp.reshape(t._value, shape[:a] + (int(np.prod(shape[a:a + rank])),) +
                        shape[a + rank:])
    ids = keep if xp is np else xp.asarray(keep)
    return execute.execute("GatherV2", [t, m], xp.take(merged, ids, axis=a))


def boolean_mask_spec(graph, tensor, mask, axis=None, name="boolean_mask"):
    """``tf.boolean_mask`` while tracing: the masked dimension is unknown."""
    with func_graph.recorded_op_scope(0):   # a Python mask converted as the op does
        tensor, mask = _t(tensor), _t(mask)
    t, m, a, rank = _mask_layout(tensor, mask, axis)   # static shapes, out of that scope
    if t.shape.rank is None:
        dims = None
    else:
        dims = t.shape.dims[:a] + [None] + t.shape.dims[a + rank:]
    return graph.symbolic_like(dims, t.dtype, context.current_device(), "GatherV2")


def slice(input_, begin, size, name=None):  # noqa: A001 - TF's name
    """``size[i]`` elements of ``input_`` from ``begin[i]`` in each dimension (-1: the rest).

    Raises:
      InvalidArgumentError: ``begin`` / ``size`` of another length than the rank, or a
        range outside the input.
    """
    x = _t(input_)
    b, s = _index_list(begin), _index_list(size)
    dims = list(x._value.shape)
    if len(b) != len(dims) or len(s) != len(dims):
        raise errors.InvalidArgumentError(
            None, None, f"Expected begin and size arguments to be 1-D tensors of size "
                        f"{len(dims)}, but got shapes [{len(b)}] and [{len(s)}] instead. "
                        "[Op:Slice]")
    for i, (start, n, dim) in enumerate(zip(b, s, dims)):
        if not 0 <= start <= dim:
            raise errors.InvalidArgumentError(
                None, None, f"Expected begin[{i}] in [0, {dim}], but got {start} [Op:Slice]")
        if n == -1:
            s[i] = dim - start
        elif not 0 <= n <= dim - start:
            raise errors.InvalidArgumentError(
                None, None, f"Expected size[{i}] in [0, {dim - start}], but got {n} [Op:Slice]")
    key = tuple(np.s_[start:start + n] for start, n in zip(b, s))
    return execute.execute("Slice", [x], array_api.copy(x._value[key]),
                           attrs={"begin": b, "size": s})


def _index_list(value) -> list:
    if hasattr(value, "_value"):
        return [int(v) for v in np.reshape(backend.to_host(value._value), (-1,))]
    return [int(backend.to_host(v._value)) if hasattr(v, "_value") else int(v)
            for v in np.reshape(np.asarray(value, dtype=object), (-1,))]


def slice_spec(graph, input_, begin, size, name=None):
    """``tf.slice`` while tracing, as TF's Slice shape function: the output's sizes are
    ``size``'s where known (a ``-1``: the input's size less ``begin``), unknown where
    ``size`` is symbolic; ranges are checked at execution. A length that is not the rank
    fails on the placeholders (TF's text)."""
    with func_graph.recorded_op_scope(0):   # a Python value converted as the op does
        x = _t(input_)
    if func_graph.taped_on_placeholders(x, begin, size):
        return NotImplemented
    rank = x.shape.rank
    symbolic_size = func_graph.is_symbolic(size)
    n = size.shape.num_elements() if symbolic_size else len(_index_list(size))
    if rank is not None and n != rank:
        return NotImplemented
    device = context.current_device()
    if symbolic_size:
        return graph.symbolic_like([None] * n, x.dtype, device, "Slice")
    sizes = _index_list(size)
    starts = None if func_graph.is_symbolic(begin) else _index_list(begin)
    dims = x.shape.dims if rank is not None else [None] * n
    out = [k if k != -1 else (None if starts is None or d is None else d - starts[i])
           for i, (k, d) in enumerate(zip(sizes, dims))]
    return graph.symbolic_like(out, x.dtype, device, "Slice")


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
unique = op_recording.recorded(unique, kind="spec", spec=unique_spec, name="Unique")
boolean_mask = op_recording.recorded(
    boolean_mask, kind="spec", spec=boolean_mask_spec,
    name=lambda *args, **kwargs: ("boolean_mask", "GatherV2"))   # TF's composite's scope
slice = op_recording.recorded(slice, kind="spec", spec=slice_spec, name="Slice")  # noqa: A001
