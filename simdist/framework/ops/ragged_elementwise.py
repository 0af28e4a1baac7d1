"""Element-wise ops on RaggedTensors: the op runs on the flat values, the row partitions
say where each result goes.

Glossary:
  unary       -- ``op(rt, *rest)``: the same rows over ``op(rt.flat_values, *rest)``.
  binary      -- ``op(x, y)`` with a RaggedTensor among them. A dense operand of lower rank
                 than the ragged one's flat values broadcasts against the flat values alone;
                 otherwise both shapes broadcast layer by layer (TF's DynamicRaggedShape):
  layer       -- one dimension of the broadcast shape, as row splits over the layer above.
                 Each operand keeps a gather index, the position in its own layer of each
                 position of the result's layer; the flat values are gathered by the last
                 ones, then the op runs on them. A uniform dimension of size 1 broadcasts
                 to the other's rows; other sizes must give the same splits, checked with
                 assert_equal (x the uniform operand's splits, else the first operand's:
                 TF's order).
  n-ary       -- ``op([a, b, ...])`` (``strings.join``, ``add_n``): every ragged input must
                 have the same row partitions (TF's check), the op runs on the flat values.

Mirrors tensorflow/python/ops/ragged/ragged_dispatch.py (the element-wise handlers) and
dynamic_ragged_shape.py (broadcast_dynamic_shape_extended).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import errors, execute, op_recording
from simdist.framework.ragged_tensor import RaggedTensor


def unary(op, rt, *args, **kwargs):
    """``op`` on the flat values of ``rt``, the rows unchanged."""
    return rt.with_flat_values(op(rt.flat_values, *args, **kwargs))


def nary(op, inputs, *args, **kwargs):
    """``op`` on a list of values, one of them ragged: all must share the row partitions."""
    ragged = [x for x in inputs if isinstance(x, RaggedTensor)]
    first = ragged[0]
    splits = first.nested_splits()
    flat = []
    for x in inputs:
        if not isinstance(x, RaggedTensor):
            x = _dense_like(x, first)
        for mine, theirs in zip(splits, x.nested_splits()):
            _assert_equal(mine, theirs)
        flat.append(x.flat_values)
    return first.with_flat_values(op(flat, *args, **kwargs))


def _dense_like(x, like):
    from simdist.framework.ops import ragged_conversion_ops

    t = execute.convert_to_tensor(x, dtype_hint=like.dtype)
    return ragged_conversion_ops.from_tensor(t, ragged_rank=like.ragged_rank)


def operator_call(op_name: str, rt, other, reverse):
    """A Python operator on a RaggedTensor: ``reverse`` None for a unary one, True when the
    RaggedTensor is the right operand."""
    from simdist.framework.ops import math_ops

    op = getattr(math_ops, op_name)
    if reverse is None:
        return unary(op, rt)
    return binary(op, other[0], rt) if reverse else binary(op, rt, other[0])


def binary(op, x, y, *args, **kwargs):
    """``op(x, y)`` broadcast as TF broadcasts ragged shapes (see the module glossary).

    Raises:
      InvalidArgumentError: ragged dimensions whose splits differ, or uniform sizes that
        do not broadcast.
    """
    x_ragged, y_ragged = isinstance(x, RaggedTensor), isinstance(y, RaggedTensor)
    if not x_ragged:
        x = execute.convert_to_tensor(x, dtype_hint=y.dtype)
    if not y_ragged:
        y = execute.convert_to_tensor(y, dtype_hint=x.dtype)
    if x_ragged and not y_ragged and x.flat_values.ndim > y.ndim:
        return x.with_flat_values(op(x.flat_values, y, *args, **kwargs))
    if y_ragged and not x_ragged and y.flat_values.ndim > x.ndim:
        return y.with_flat_values(op(x, y.flat_values, *args, **kwargs))
    if x_ragged and y_ragged and _same_partitions(x, y):
        return x.with_flat_values(op(x.flat_values, y.flat_values, *args, **kwargs))
    return _broadcast_impl(op, x, y, args, kwargs)


def _same_partitions(x, y) -> bool:
    xs, ys = x.nested_row_splits, y.nested_row_splits
    return len(xs) == len(ys) and all(a is b for a, b in zip(xs, ys))


class _Shape:
    """An operand as its rows' count, its row partitions (splits, uniform length or None)
    and its flat values."""

    def __init__(self, value):
        self.parts, level = [], value
        if isinstance(value, RaggedTensor):
            self.nrows = value.nrows_int()
            while isinstance(level, RaggedTensor):
                self.parts.append((level._splits(),
                                   level._uniform_row_length))
                level = level.values
        else:
            self.nrows = int(value.shape[0]) if value.ndim else 1
            if not value.ndim:
                from simdist.framework.ops import array_ops

                level = array_ops.reshape(value, [1])
        self.flat = level

    @property
    def rank(self) -> int:
        return len(self.parts) + self.flat.ndim

    def expand_outer(self) -> None:
        """A leading dimension of size 1."""
        self.parts.insert(0, (np.array([0, self.nrows], np.int64), self.nrows))
        self.nrows = 1

    def partition_to(self, k: int) -> None:
        """Uniform partitions of the flat values' inner dimensions until there are ``k``."""
        from simdist.framework.ops import array_ops

        while len(self.parts) < k:
            n, d = int(self.flat.shape[0]), int(self.flat.shape[1])
            self.parts.append((np.arange(n + 1, dtype=np.int64) * d, d))
            self.flat = array_ops.reshape(self.flat, [n * d] + list(self.flat.shape[2:]))


def _broadcast_impl(op, x, y, args, kwargs):
    from simdist.framework.ops import array_ops

    a, b = _Shape(x), _Shape(y)
    while a.rank < b.rank:
        a.expand_outer()
    while b.rank < a.rank:
        b.expand_outer()
    k = max(len(a.parts), len(b.parts))
    a.partition_to(k)
    b.partition_to(k)
    # Layer 0: the rows' counts broadcast as dense dimensions do.
    nrows = _size(a.nrows, b.nrows)
    ga = np.arange(nrows) if a.nrows == nrows else np.zeros(nrows, np.int64)
    gb = np.arange(nrows) if b.nrows == nrows else np.zeros(nrows, np.int64)
    layers = []
    for (sa, ua), (sb, ub) in zip(a.parts, b.parts):
        ga, gb, splits, uniform = _next_layer(ga, gb, sa, ua, sb, ub)
        layers.append((splits, uniform))
    fa = a.flat if _identity(ga, a.flat) else array_ops.gather(a.flat, ga)
    fb = b.flat if _identity(gb, b.flat) else array_ops.gather(b.flat, gb)
    out = op(fa, fb, *args, **kwargs)
    for splits, uniform in reversed(layers):
        out = RaggedTensor(out, execute.convert_to_tensor(splits), internal=True,
                           uniform_row_length=uniform)
    return out


def _identity(g, flat) -> bool:
    return len(g) == int(flat.shape[0]) and bool(np.all(g == np.arange(len(g))))


def _size(m: int, n: int) -> int:
    if m == n or n == 1:
        return m
    if m == 1:
        return n
    raise errors.InvalidArgumentError(
        None, None, f"Incompatible shapes: [{m}] vs. [{n}]: the dimensions of a ragged "
                    "broadcast must be equal or 1.")


def _next_layer(ga, gb, sa, ua, sb, ub):
    """One partition of each operand, seen through the gather indices of the layer above:
    the result's splits, whether uniform, and the next gather indices."""
    starts_a, lens_a = sa[ga], sa[ga + 1] - sa[ga]
    starts_b, lens_b = sb[gb], sb[gb + 1] - sb[gb]
    if ua is not None and ub is not None:
        width = _size(ua, ub)
        lens = np.full(len(ga), width, np.int64)
        uniform = width
    elif ua == 1 or ub == 1:
        lens, uniform = (lens_b if ua == 1 else lens_a), None
    else:
        # Neither broadcasts: the rows must be the same (the uniform side is x).
        first, second = (lens_b, lens_a) if ub is not None and ua is None else (lens_a, lens_b)
        _assert_equal(_splits(first), _splits(second))
        lens, uniform = lens_a, None
    splits = _splits(lens)
    within = np.arange(splits[-1], dtype=np.int64) - np.repeat(splits[:-1], lens)
    rows = np.repeat(np.arange(len(lens)), lens)
    # A uniform dimension of size 1 broadcasts: all its positions read its one value.
    next_a = starts_a[rows] + (0 if ua == 1 else within)
    next_b = starts_b[rows] + (0 if ub == 1 else within)
    return next_a.astype(np.int64), next_b.astype(np.int64), splits, uniform


def _splits(lens) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)


def _assert_equal(x, y, message=None) -> None:
    """TF's check that two row partitions are the same: the text of an eager
    check_ops.assert_equal (the first 3 differing values and elements).

    Raises:
      InvalidArgumentError: ``x`` and ``y`` differ.
    """
    x, y = np.asarray(x), np.asarray(y)
    if x.shape == y.shape and np.array_equal(x, y):
        return
    data = [message] if message else []
    data.append("Condition x == y did not hold.")
    if x.shape == y.shape and x.ndim:
        differ = x != y
        n = min(3, int(differ.sum()))
        data += [f"Indices of first {n} different values:", str(np.argwhere(differ)[:n]),
                 "Corresponding x values:", str(x[differ][:n]),
                 "Corresponding y values:", str(y[differ][:n])]
    xs, ys = x.reshape(-1), y.reshape(-1)
    data += [f"First {min(xs.size, 3)} elements of x:", str(xs[:3]),
             f"First {min(ys.size, 3)} elements of y:", str(ys[:3])]
    raise errors.InvalidArgumentError(None, None, "\n".join(data))


# While a tf.function traces, each ragged op is one node of the graph (its RaggedTensors
# recorded as their components), run again on the values at each execution.
op_recording.record_here(__name__)
