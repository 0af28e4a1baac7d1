"""Array ops on RaggedTensors: concat, stack, tile, reverse, boolean_mask, map_fn.

Glossary:
  as ragged    -- the inputs of concat and stack are made alike first: a dense tensor
                  becomes a RaggedTensor of full rows, and every input gets as many ragged
                  dimensions as the most ragged one (its uniform inner dimensions
                  partitioned).
  concat       -- along axis 0 the rows of each input, in order; along axis 1 each row the
                  concatenation of that row of every input (the inputs' row counts equal);
                  deeper, the same within each row.
  expand_dims  -- a uniform dimension of size 1: around all rows (axis 0), around each
                  row (axis 1), or deeper within each row.
  stack        -- along axis 0: a new outer dimension of one row per input; deeper: each
                  input expanded at the axis, then concatenated there.
  tile         -- the rows repeated ``multiples[0]`` times, each row tiled by the rest of
                  the multiples (its values ``multiples[1]`` times ...).
  reverse      -- the rows' order (axis 0), or each row's values' (axis 1), reversed.
  map_rows     -- ``tf.map_fn`` over the rows of a RaggedTensor: ``fn`` on each row, the
                  results the rows of a RaggedTensor, or stacked into a Tensor when the
                  signature is a dense dtype or TensorSpec.
  boolean_mask -- a ragged mask of the data's own rows keeps the values where it is True
                  (the innermost rows shrink); a 1-D dense mask keeps whole rows.

Mirrors tensorflow/python/ops/ragged/ragged_concat_ops.py and ragged_array_ops.py (map_rows:
tensorflow/python/ops/map_fn.py).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import execute, op_recording
from simdist.framework.ops.ragged_getitem import gather_rows
from simdist.framework.ragged_tensor import RaggedTensor, host


def as_ragged(values, ragged_rank=None):
    """The inputs as RaggedTensors of one ragged rank (see the module glossary)."""
    from simdist.framework.ops import ragged_conversion_ops

    ragged = [v for v in values if isinstance(v, RaggedTensor)]
    dtype = ragged[0].dtype
    k = ragged_rank or max(v.ragged_rank for v in ragged)
    out = []
    for v in values:
        if not isinstance(v, RaggedTensor):
            v = ragged_conversion_ops.from_tensor(
                execute.convert_to_tensor(v, dtype_hint=dtype), ragged_rank=k)
        elif v.ragged_rank < k:
            v = v.with_flat_values(ragged_conversion_ops.from_tensor(
                v.flat_values, ragged_rank=k - v.ragged_rank))
        out.append(v)
    return out


def concat(values, axis, name=None):
    """``tf.concat`` of values one of which at least is ragged.

    Raises:
      ValueError: inputs of different ranks, or an axis out of range.
      InvalidArgumentError: different row counts along axis 1.
    """
    rts = as_ragged(list(values))
    rank = rts[0].ndim
    if any(r.ndim != rank for r in rts):
        raise ValueError("Rank of inputs must be equal: "
                         f"{[r.ndim for r in rts]}.")
    axis = int(axis)
    if not -rank <= axis < rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
    return _concat_impl(rts, axis % rank)


def _concat_impl(rts, axis):
    from simdist.framework.ops import array_ops

    if not isinstance(rts[0], RaggedTensor):
        return array_ops.concat(rts, axis)
    if axis == 0:
        splits, offset = [np.zeros(1, np.int64)], 0
        for r in rts:
            s = r._splits()
            splits.append(s[1:] + offset)
            offset += int(s[-1])
        values = _concat_impl([r.values for r in rts], 0)
        return RaggedTensor.from_row_splits(values, np.concatenate(splits), validate=False)
    from simdist.framework.ops.ragged_elementwise import _assert_equal

    for j, r in enumerate(rts[1:], start=1):
        _assert_equal(np.int64(rts[0].nrows_int()), np.int64(r.nrows_int()),
                      message=f"Input tensors at index 0 (=x) and {j} (=y) have "
                              "incompatible shapes.")
    if axis > 1:
        first = rts[0]._splits()
        for r in rts[1:]:
            _assert_equal(first, r._splits())
        return rts[0].with_values(_concat_impl([r.values for r in rts], axis - 1))
    stacked = _concat_impl(rts, 0)
    s = stacked._splits()
    n = rts[0].nrows_int()
    order = [j * n + i for i in range(n) for j in range(len(rts))]
    picks = [np.arange(s[k], s[k + 1]) for k in order]
    idx = np.concatenate(picks).astype(np.int64) if picks else np.zeros(0, np.int64)
    lens = np.asarray([len(p) for p in picks], np.int64).reshape(n, len(rts)).sum(axis=1)
    return RaggedTensor.from_row_lengths(gather_rows(stacked.values, idx), lens,
                                         validate=False)


def expand_dims(input, axis, name=None):  # noqa: A002 - TF's name
    """``tf.expand_dims`` of a RaggedTensor: a new dimension of size 1 (uniform) at
    ``axis``.

    Raises:
      ValueError: an axis out of range.
    """
    rt = input
    rank = rt.ndim
    axis = int(axis)
    if not -rank - 1 <= axis <= rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-rank - 1}<=axis<={rank}")
    return _expand_dims_impl(rt, axis % (rank + 1))


def _expand_dims_impl(rt, axis):
    from simdist.framework.ops import array_ops

    if not isinstance(rt, RaggedTensor):
        return array_ops.expand_dims(rt, axis)
    n = rt.nrows_int()
    if axis == 0:   # one row holding every row
        return RaggedTensor(rt, execute.convert_to_tensor(np.asarray([0, n], np.int64)),
                            internal=True, uniform_row_length=n)
    if axis == 1:   # each row inside a row of its own
        return RaggedTensor(rt, execute.convert_to_tensor(np.arange(n + 1, dtype=np.int64)),
                            internal=True, uniform_row_length=1)
    return rt.with_values(_expand_dims_impl(rt.values, axis - 1))


def stack(values, axis=0, name=None):
    """``tf.stack`` of values one of which at least is ragged: along axis 0 a new outer
    dimension of one row per input; deeper, each input expanded at ``axis`` and the
    results concatenated there (TF's _ragged_stack_concat_helper).

    Raises:
      ValueError: an axis out of range, or inputs of different ranks.
    """
    rts = as_ragged(list(values))
    rank = rts[0].ndim
    axis = int(axis)
    if not -rank - 1 <= axis <= rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-rank - 1}<=axis<{rank + 1}")
    axis %= rank + 1
    if axis:
        return concat([_expand_dims_impl(r, axis) for r in rts], axis)
    lens = np.asarray([r.nrows_int() for r in rts], np.int64)
    return RaggedTensor.from_row_lengths(_concat_impl(rts, 0), lens, validate=False)


def tile(input, multiples, name=None):  # noqa: A002 - TF's name
    """``tf.tile`` of a RaggedTensor: its rows repeated ``multiples[0]`` times, each row
    tiled by the rest of ``multiples`` (its values repeated ``multiples[1]`` times, each
    of them tiled by ``multiples[2:]``, ...).

    Raises:
      ValueError: ``multiples`` not of the input's rank.
    """
    rt = input
    m = [int(x) for x in np.asarray(host(execute.convert_to_tensor(multiples)))]
    if len(m) != rt.ndim:
        raise ValueError(f"Expected multiples argument to be a vector of length {rt.ndim} "
                         f"but got length {len(m)}")
    return _tile_impl(rt, m)


def _tile_impl(rt, m):
    from simdist.framework.ops import array_ops

    if not isinstance(rt, RaggedTensor):
        return array_ops.tile(rt, m) if any(x != 1 for x in m) else rt
    if rt.ragged_rank == 1 and all(x == 1 for x in m[2:]):   # one gather of the values
        s = rt._splits()
        picks = [np.tile(np.arange(s[i], s[i + 1]), m[1])
                 for _ in range(m[0]) for i in range(rt.nrows_int())]
        idx = np.concatenate(picks).astype(np.int64) if picks else np.zeros(0, np.int64)
        return RaggedTensor.from_row_lengths(
            gather_rows(rt.values, idx), np.asarray([len(p) for p in picks], np.int64),
            validate=False)
    rows = [_tile_impl(rt[i], m[1:]) for i in range(rt.nrows_int())]
    return rows_as_ragged(rows * m[0], rt.flat_values)


def rows_as_ragged(rows, like):
    """Rows (Tensors, or RaggedTensors) as the rows of one RaggedTensor; no rows give an
    empty one of ``like``'s dtype."""
    from simdist.framework.ops import array_ops

    if rows and isinstance(rows[0], RaggedTensor):
        return stack(rows)
    rows = [execute.convert_to_tensor(r) for r in rows]
    lens = np.asarray([int(r.shape[0]) for r in rows], np.int64)
    values = array_ops.concat(rows, 0) if rows else like[:0]
    return RaggedTensor.from_row_lengths(values, lens, validate=False)


def reverse(tensor, axis, name=None):
    """``tf.reverse`` of a RaggedTensor along its outer or ragged axes."""
    rt = tensor
    for a in sorted({int(x) % rt.ndim for x in np.atleast_1d(axis)}):
        rt = _reverse_axis(rt, a)
    return rt


def _reverse_axis(rt, axis):
    from simdist.framework.ops import array_ops

    if not isinstance(rt, RaggedTensor):
        return array_ops.reverse(rt, [axis])
    if axis == 0:
        return gather_rows(rt, np.arange(rt.nrows_int())[::-1])
    if axis == 1:
        s = rt._splits()
        picks = [np.arange(s[i + 1] - 1, s[i] - 1, -1) for i in range(rt.nrows_int())]
        idx = np.concatenate(picks).astype(np.int64) if picks else np.zeros(0, np.int64)
        return rt.with_values(gather_rows(rt.values, idx))
    return rt.with_values(_reverse_axis(rt.values, axis - 1))


def refuse_boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """``tf.boolean_mask`` of ragged values: TF 2.21's ValueError (its v2 op takes the
    length of its arguments).

    Raises:
      ValueError: always.
    """
    raise ValueError("TypeError: object of type 'RaggedTensor' has no len()")


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """``tf.boolean_mask`` with ragged data or a ragged mask (see the module glossary).

    Raises:
      InvalidArgumentError: a ragged mask whose rows are not the data's.
    """
    from simdist.framework.ops import ragged_elementwise, selection_ops

    if not isinstance(mask, RaggedTensor):
        keep = np.flatnonzero(np.asarray(host(execute.convert_to_tensor(mask))))
        return gather_rows(tensor, keep)
    if not isinstance(tensor, RaggedTensor):
        tensor = as_ragged([tensor, mask], mask.ragged_rank)[0]
    for mine, theirs in zip(tensor.nested_splits(), mask.nested_splits()):
        ragged_elementwise._assert_equal(mine, theirs)
    keep = np.asarray(host(mask.flat_values)).astype(bool)
    values = selection_ops.boolean_mask(tensor.flat_values, mask.flat_values)
    # The innermost rows shrink to their kept values; the outer rows keep their shape.
    levels = [tensor]
    while isinstance(levels[-1].values, RaggedTensor):
        levels.append(levels[-1].values)
    s = levels[-1]._splits()
    counts = np.add.reduceat(np.append(keep, False).astype(np.int64), s[:-1]) \
        if len(s) > 1 else np.zeros(0, np.int64)
    counts = np.where(s[1:] > s[:-1], counts, 0)
    out = RaggedTensor.from_row_lengths(values, counts, validate=False)
    for level in reversed(levels[:-1]):
        out = level.with_values(out)
    return out


def map_rows(fn, rt, signature=None):
    """See the module glossary."""
    from simdist.framework.ops import array_ops

    results = [fn(rt[i]) for i in range(rt.nrows_int())]
    dense = signature is not None and not hasattr(signature, "ragged_rank")
    if dense:
        return array_ops.stack(results)
    return rows_as_ragged(results, rt.flat_values)


# While a tf.function traces, each ragged op is one node of the graph (its RaggedTensors
# recorded as their components), run again on the values at each execution.
op_recording.record_here(__name__)
