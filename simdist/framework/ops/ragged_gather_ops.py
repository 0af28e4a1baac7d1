"""Selections with RaggedTensors: ``tf.gather``, ``tf.gather_nd`` and ``tf.where``.

Glossary:
  gather      -- rows ``indices`` of ``params`` (axis 0): ragged params give a RaggedTensor
                 of the picked rows; ragged indices give the indices' shape with the picked
                 rows inside (``indices.with_values(gather(params, indices.values))``).
  gather_nd   -- each index tuple (the last dimension of ``indices``) walked into the
                 params' rows: a full tuple picks a value, a shorter one a row; the rows
                 picked make a RaggedTensor.
  where       -- the int64 coordinates of a ragged condition's True values (one row each,
                 as the dense op gives), or ``x`` where it is True, else ``y``: ragged
                 operands of the same row lengths (TF's where broadcasts no ragged
                 dimension), dense ones broadcast as TF's ragged binary ops broadcast,
                 selected over the flat values.

Mirrors tensorflow/python/ops/ragged/ragged_gather_ops.py and ragged_where_op.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import execute, op_recording
from simdist.framework.ops.ragged_getitem import gather_rows
from simdist.framework.ragged_tensor import RaggedTensor, host


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """``tf.gather`` with ragged params or indices (axis 0).

    Raises:
      InvalidArgumentError: an index out of range (TF's text).
    """
    from simdist.framework.ops import array_ops

    if (axis not in (None, 0)) or batch_dims:
        raise NotImplementedError("simdist's ragged gather takes axis=0 and batch_dims=0.")
    if isinstance(indices, RaggedTensor):
        return indices.with_values(gather(params, indices.values))
    if not isinstance(params, RaggedTensor):
        return array_ops.gather(params, indices)
    idx = execute.convert_to_tensor(indices)
    flat = np.asarray(host(idx)).reshape(-1).astype(np.int64)
    n = params.nrows_int()
    bad = flat[(flat < 0) | (flat >= n)]
    if bad.size:
        raise _invalid(f"indices[{int(np.flatnonzero((flat < 0) | (flat >= n))[0])}] = "
                       f"{int(bad[0])} is not in [0, {n})")
    return _nest(gather_rows(params, flat), list(idx.shape)[1:])


def _nest(rt, sizes):
    """``rt``'s rows grouped by ``sizes`` (the indices' inner dimensions): ragged
    dimensions of rows of those sizes, as TF's gather gives (not uniform ones)."""
    for size in reversed(sizes):
        n = rt.nrows_int() // size if size else 0
        rt = RaggedTensor.from_row_splits(rt, np.arange(n + 1, dtype=np.int64) * size,
                                          validate=False)
    return rt


def _invalid(text):
    from simdist.framework import errors

    return errors.InvalidArgumentError(None, None, text)


def gather_nd(params, indices, batch_dims=0, name=None):
    """``tf.gather_nd`` of ragged params by dense index tuples."""
    from simdist.framework.ops import array_ops, ragged_array_ops

    if batch_dims:
        raise NotImplementedError("simdist's ragged gather_nd takes batch_dims=0.")
    idx = np.asarray(host(execute.convert_to_tensor(indices))).astype(np.int64)
    tuples = idx.reshape(-1, idx.shape[-1])
    picked = []
    for t in tuples:
        value = params
        for i in t:
            value = value[int(i)]
        picked.append(value)
    if idx.shape[-1] == params.ndim:   # values
        flat = array_ops.stack(picked) if picked else params.flat_values[:0]
        return array_ops.reshape(flat, list(idx.shape[:-1]))
    return _nest(ragged_array_ops.rows_as_ragged(picked, params.flat_values),
                 list(idx.shape)[1:-1])


def where(condition, x=None, y=None, name=None):
    """``tf.where`` with a ragged condition (or ragged ``x`` / ``y``).

    Raises:
      ValueError: only one of ``x`` and ``y`` given.
      InvalidArgumentError: operands whose row partitions differ.
    """
    from simdist.framework.ops import array_ops

    if x is None and y is None:
        sparse = condition.to_sparse()
        keep = np.flatnonzero(np.asarray(host(sparse.values)))
        return array_ops.gather(sparse.indices, execute.convert_to_tensor(keep))
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    c, xt, yt = (v if isinstance(v, RaggedTensor) else execute.convert_to_tensor(v)
                 for v in (condition, x, y))
    _check_partitions(xt, yt)
    _check_partitions(c, xt if isinstance(xt, RaggedTensor) else yt)
    # Broadcast the three as TF's ragged ops do (its errors too): positions of each
    # operand's flat values, broadcast pairwise; then one select over the gathered values.
    (gc, gx), shape = _broadcast_positions(c, xt)
    (g1, gy), shape = _broadcast_positions(_positions(shape), yt)
    flats = [_flat(v) for v in (c, xt, yt)]
    picks = [gc[g1], gx[g1], gy]
    selected = array_ops.where(*[array_ops.gather(f, execute.convert_to_tensor(p))
                                 for f, p in zip(flats, picks)])
    return shape.with_flat_values(selected) if isinstance(shape, RaggedTensor) else \
        array_ops.reshape(selected, list(shape.shape))


def _check_partitions(target, other):
    """TF's ragged where broadcasts ragged operands of the same row lengths only (its
    RaggedTensorDynamicShape.broadcast_to): the first ragged dimension whose lengths
    differ fails as its assert does.

    Raises:
      InvalidArgumentError: TF's text.
    """
    from simdist.framework import errors

    if not (isinstance(target, RaggedTensor) and isinstance(other, RaggedTensor)):
        return
    for dim, (mine, theirs) in enumerate(zip(target.nested_row_lengths(),
                                             other.nested_row_lengths()), start=1):
        want, got = np.asarray(host(mine)), np.asarray(host(theirs))
        if want.shape != got.shape or np.any(want != got):
            raise errors.InvalidArgumentError(
                None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                "Summarized data: b'Unable to broadcast: dimension size mismatch in "
                f"dimension'\n{dim}\nb'lengths='\n{', '.join(str(v) for v in got)}\n"
                f"b'dim_size='\n{', '.join(str(v) for v in want)}")


def _flat(v):
    from simdist.framework.ops import array_ops

    return v.flat_values if isinstance(v, RaggedTensor) else array_ops.reshape(v, [-1])


def _positions(v):
    """``v`` with each flat value replaced by its position (int64)."""
    n = int(_flat(v).shape[0])
    ids = execute.convert_to_tensor(np.arange(n, dtype=np.int64))
    if isinstance(v, RaggedTensor):
        return v.with_flat_values(ids)
    from simdist.framework.ops import array_ops

    return array_ops.reshape(ids, list(v.shape))


def _broadcast_positions(a, b):
    """The positions of ``a``'s and ``b``'s flat values at each value of their broadcast
    shape, and that shape (positions of its own)."""
    from simdist.framework.ops import ragged_elementwise

    seen = []

    def keep(p, q):
        seen.append((np.asarray(host(p)).reshape(-1), np.asarray(host(q)).reshape(-1)))
        return p

    for v in (a, b):
        if (v.flat_values if isinstance(v, RaggedTensor) else v).shape.rank > 1 and \
                isinstance(v, RaggedTensor):
            raise NotImplementedError("simdist's ragged where takes flat values of rank 1.")
    shape = ragged_elementwise.binary(keep, _positions(a), _positions(b))
    pa, pb = seen[-1]
    n = max(len(pa), len(pb))
    return (np.broadcast_to(pa, n), np.broadcast_to(pb, n)), shape


# While a tf.function traces, each ragged op is one node of the graph (its RaggedTensors
# recorded as their components), run again on the values at each execution.
op_recording.record_here(__name__)
