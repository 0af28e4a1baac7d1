"""``tf.sparse``'s ops: SparseTensors combined, sliced, reordered, reduced and multiplied.

Glossary:
  canonical order -- indices sorted row-major (lexicographically), each once; ``reorder``
                     makes it, and the ops that merge entries (add, concat, transpose)
                     return it.
  add             -- two SparseTensors: the union of their entries, values of a shared
                     index summed, kept where ``|sum| >= threshold``; with a dense
                     operand: the dense sum (a Tensor).
  concat          -- entries of each input shifted along ``axis`` by the sizes before it.
  slice           -- the entries in ``[start, start + size)``, shifted to start at 0; the
                     dense shape clipped to the input's.
  map_values      -- ``op`` on the values of SparseTensors that share their indices.
  reductions      -- over the stored values only (``reduce_max`` of [-5, (0), -3] stored
                     as -5 and -3 is -3), into a dense Tensor; a group with none is 0.
  sparse_dense_matmul -- the dense product, each stored value times its row of ``b``
                     added in the entries' order (TF's kernel).
  fill_empty_rows -- each row with no entry gets one at column 0 of ``default_value``;
                     the entries come row by row (a row's in their given order), and a
                     bool per row says which were filled (TF's SparseFillEmptyRows).
  cwise with dense -- ``st * dense``, ``st / dense``: the dense value at each index (it
                     broadcasts to the dense shape), the indices kept.

Mirrors tensorflow/python/ops/sparse_ops.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import errors, execute, op_recording
from simdist.framework.ragged_tensor import host
from simdist.framework.sparse_tensor import SparseTensor


def _np(t):
    return np.asarray(host(execute.convert_to_tensor(t)))


def _parts(st):
    return _np(st.indices), _np(st.values), [int(d) for d in _np(st.dense_shape)]


def _check(st, what="sp_input"):
    if not isinstance(st, SparseTensor):
        raise TypeError(f"Input must be a SparseTensor, got {type(st).__name__} for {what}.")


def _sorted(idx, vals, shape, values_like, op_type="SparseReorder"):
    order = np.lexsort(idx.T[::-1]) if len(idx) else np.zeros(0, np.int64)
    values = execute.execute(op_type, [values_like], vals[order])
    return SparseTensor(idx[order].reshape(-1, len(shape)), values, shape)


def reorder(sp_input, name=None):
    """The same entries in canonical (row-major) order."""
    _check(sp_input)
    idx, vals, shape = _parts(sp_input)
    return _sorted(idx, vals, shape, sp_input.values)


def add(a, b, threshold=0, name=None):
    """``a + b`` (see the module glossary).

    Raises:
      InvalidArgumentError: dense shapes that differ.
    """
    from simdist.framework.ops import math_ops

    if not isinstance(a, SparseTensor):
        a, b = b, a
    if not isinstance(b, SparseTensor):
        from simdist.framework.sparse_tensor import to_dense

        return math_ops.add(to_dense(a), b)
    ia, va, sa = _parts(a)
    ib, vb, sb = _parts(b)
    for d, (m, n) in enumerate(zip(sa, sb)):
        if m != n or len(sa) != len(sb):
            raise errors.InvalidArgumentError(
                None, None, f"Operands' shapes do not match: got {m} and {n} for dimension "
                            f"{d} [Op:SparseAdd]")
    merged = {}
    for index, v in list(zip(map(tuple, ia), va)) + list(zip(map(tuple, ib), vb)):
        merged[index] = merged[index] + v if index in merged else v
    keys = sorted(k for k, v in merged.items() if abs(v) >= threshold)
    idx = np.asarray(keys, np.int64).reshape(-1, len(sa))
    vals = np.asarray([merged[k] for k in keys], dtype=va.dtype)
    return SparseTensor(idx, execute.execute("SparseAdd", [a.values, b.values], vals), sa)


def concat(axis, sp_inputs, name=None, expand_nonconcat_dims=False, concat_dim=None):
    """The inputs side by side along ``axis``.

    Raises:
      InvalidArgumentError: inputs whose other dimensions differ.
    """
    axis = concat_dim if concat_dim is not None else axis
    parts = [_parts(st) for st in sp_inputs]
    rank = len(parts[0][2])
    axis = int(axis) % rank
    shape = list(parts[0][2])
    if expand_nonconcat_dims:
        shape = [max(p[2][d] for p in parts) for d in range(rank)]
    idx, vals, offset = [], [], 0
    for i, (ix, v, s) in enumerate(parts):
        other = [d for d in range(rank) if d != axis]
        if not expand_nonconcat_dims and any(s[d] != shape[d] for d in other):
            raise errors.InvalidArgumentError(
                None, None, f"Input shapes must match: expected {shape[other[0]]} for "
                            f"dimension {other[0]} but got {s[other[0]]} at position {i} "
                            "[Op:SparseConcat]")
        ix = ix.copy()
        ix[:, axis] += offset
        offset += s[axis]
        idx.append(ix)
        vals.append(v)
    shape[axis] = offset
    return _sorted(np.concatenate(idx).astype(np.int64), np.concatenate(vals), shape,
                   sp_inputs[0].values, "SparseConcat")


def slice(sp_input, start, size, name=None):  # noqa: A001 - TF's name
    """The entries in ``[start, start + size)`` (see the module glossary)."""
    _check(sp_input)
    idx, vals, shape = _parts(sp_input)
    lo = _np(start).astype(np.int64)
    hi = lo + _np(size).astype(np.int64)
    keep = np.all((idx >= lo) & (idx < hi), axis=1) if len(idx) else np.zeros(0, bool)
    new_shape = [max(0, min(int(h), d) - int(s)) for s, h, d in zip(lo, hi, shape)]
    values = execute.execute("SparseSlice", [sp_input.values], vals[keep])
    return SparseTensor(idx[keep] - lo, values, new_shape)


def map_values(op, *args, **kwargs):
    """``op`` on the values of the SparseTensors among the arguments (same indices).

    Raises:
      ValueError: no SparseTensor among the arguments.
      InvalidArgumentError: SparseTensors whose indices differ.
    """
    found = [x for x in list(args) + list(kwargs.values()) if isinstance(x, SparseTensor)]
    if not found:
        raise ValueError("No SparseTensor in argument list of map_values")
    first = _np(found[0].indices)
    for other in found[1:]:
        if not np.array_equal(first, _np(other.indices)):
            raise errors.InvalidArgumentError(
                None, None, "Inputs must have identical indices.")

    def values(x):
        return x.values if isinstance(x, SparseTensor) else x

    out = op(*[values(a) for a in args], **{k: values(v) for k, v in kwargs.items()})
    return SparseTensor(found[0].indices, out, found[0].dense_shape)


def transpose(sp_input, perm=None, name=None):
    """The dimensions permuted by ``perm`` (reversed by default), in canonical order."""
    _check(sp_input)
    idx, vals, shape = _parts(sp_input)
    perm = list(range(len(shape)))[::-1] if perm is None else [int(p) for p in _np(perm)]
    return _sorted(idx[:, perm], vals, [shape[p] for p in perm], sp_input.values,
                   "SparseTranspose")


def _reduce(kind, sp_input, axis, keepdims, output_is_sparse, ufunc, identity):
    _check(sp_input)
    if output_is_sparse:
        raise NotImplementedError("simdist's sparse reductions give dense Tensors "
                                  "(output_is_sparse=False).")
    idx, vals, shape = _parts(sp_input)
    if execute.in_shape_inference():   # placeholders of a trace: the shape only
        idx, vals = idx[:0], vals[:0]
    rank = len(shape)
    axes = list(range(rank)) if axis is None else \
        sorted({int(a) % rank for a in np.atleast_1d(axis)})
    kept = [d for d in range(rank) if d not in axes]
    out_shape = [shape[d] for d in kept]
    init = identity(vals.dtype)
    if kept:
        out = np.full(out_shape, init, dtype=vals.dtype)
        where = tuple(idx[:, d] for d in kept)
        ufunc.at(out, where, vals)
        stored = np.zeros(out_shape, np.int64)
        np.add.at(stored, where, 1)
        out[stored == 0] = 0   # a group with no stored value gives 0 (TF's kernel)
    else:
        out = np.asarray(ufunc.reduce(vals, initial=init), dtype=vals.dtype)
    if keepdims:
        out = out.reshape([1 if d in axes else shape[d] for d in range(rank)])
    return execute.execute(f"SparseReduce{kind}", [sp_input.values], out)


def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The sum of the stored values over ``axis`` (all of them by default)."""
    return _reduce("Sum", sp_input, axis, keepdims, output_is_sparse, np.add, lambda dt: 0)


def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The largest stored value over ``axis`` (all of them by default)."""
    def lowest(dt):
        return -np.inf if dt.kind == "f" else np.iinfo(dt).min

    return _reduce("Max", sp_input, axis, keepdims, output_is_sparse, np.maximum, lowest)


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """The dense product of a 2-D SparseTensor and a dense matrix.

    Raises:
      InvalidArgumentError: inner dimensions that differ (TF's text).
    """
    _check(sp_a, "sp_a")
    bt = execute.convert_to_tensor(b, dtype_hint=sp_a.dtype)
    idx, vals, stored = _parts(sp_a)
    bv = np.asarray(host(bt))
    shape = stored[::-1] if adjoint_a else stored
    if adjoint_a:
        idx, vals = idx[:, ::-1], np.conj(vals)
    if adjoint_b:
        bv = np.conj(bv.T)
    if execute.in_shape_inference():   # placeholders of a trace: the shape only
        out = np.zeros((shape[0], bv.shape[1]), dtype=bv.dtype)
        return execute.execute("SparseTensorDenseMatMul", [sp_a.values, bt], out)
    if shape[1] != bv.shape[0]:
        raise errors.InvalidArgumentError(
            None, None, f"Cannot multiply A and B because inner dimension does not match: "
                        f"{shape[1]} vs. {bv.shape[0]}.  Did you forget a transpose?  "
                        f"Dimensions of A: [{stored[0]}, {stored[1]}).  Dimensions of B: "
                        f"[{bv.shape[0]},{bv.shape[1]}] [Op:SparseTensorDenseMatMul]")
    out = np.zeros((shape[0], bv.shape[1]), dtype=bv.dtype)
    for (r, c), v in zip(idx, vals):
        out[r] += v * bv[c]
    return execute.execute("SparseTensorDenseMatMul", [sp_a.values, bt], out)


def fill_empty_rows(sp_input, default_value, name=None):
    """``sp_input`` with an entry of ``default_value`` at column 0 of each empty row, and
    the rows' empty indicator (see the module glossary)."""
    _check(sp_input)
    idx, vals, shape = _parts(sp_input)
    rows = idx[:, 0] if len(idx) else np.zeros(0, np.int64)
    count = np.bincount(rows, minlength=shape[0])[:shape[0]] if shape else np.zeros(0, int)
    empty = count == 0
    order = np.argsort(rows, kind="stable")      # row by row, a row's in its given order
    filled = np.zeros((int(empty.sum()), len(shape)), np.int64)
    filled[:, 0] = np.flatnonzero(empty)
    new_idx = np.concatenate([idx[order].reshape(-1, len(shape)), filled])
    new_vals = np.concatenate([vals[order], np.full(len(filled), default_value, vals.dtype)])
    final = np.argsort(new_idx[:, 0], kind="stable") if len(new_idx) else np.zeros(0, int)
    values = execute.execute("SparseFillEmptyRows", [sp_input.values], new_vals[final])
    indicator = execute.execute("SparseFillEmptyRows", [sp_input.values], empty)
    return SparseTensor(new_idx[final], values, shape), indicator


def dense_cwise(op_type, fn, sp, dense):
    """``fn(st.values, dense at each index)`` with the indices kept (``st * x``)."""
    d = execute.convert_to_tensor(dense, dtype_hint=sp.dtype)
    idx, vals, shape = _parts(sp)
    if execute.in_shape_inference():   # placeholders of a trace: the values' shape only
        return SparseTensor(sp.indices, execute.execute(op_type, [sp.values, d], vals),
                            sp.dense_shape)
    full = np.broadcast_to(np.asarray(host(d)), shape)
    picked = full[tuple(idx.T)] if len(idx) else full.reshape(-1)[:0]
    out = fn(vals, picked).astype(vals.dtype)
    return SparseTensor(sp.indices, execute.execute(op_type, [sp.values, d], out),
                        sp.dense_shape)


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__)
