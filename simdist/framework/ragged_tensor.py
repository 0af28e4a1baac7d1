"""``tf.RaggedTensor``: rows of different lengths, stored as flat values and row splits.

Glossary:
  values      -- the rows' elements concatenated (a Tensor, or a RaggedTensor for a tensor
                 ragged in more than one dimension).
  row_splits  -- int64 vector of nrows + 1 offsets: row i is values[splits[i]:splits[i+1]].
  ragged_rank -- how many dimensions are ragged (the nesting of RaggedTensors);
                 ``flat_values`` is the innermost Tensor.
  shape       -- TensorShape of the rows' count, None for each ragged dimension, then the
                 flat values' inner dimensions: ``(4, None)``.
  constant    -- ``tf.ragged.constant``: ops/ragged_factory_ops.py.
  text        -- printed as TF prints it eagerly: ``<tf.RaggedTensor [[0, 1], [2]]>``.
  value_rowids -- the row of each value (``from_value_rowids``); row_lengths the splits'
                 differences; ``with_flat_values`` the same rows over other flat values.
  operators   -- ``+ - * / // % ** < <= > >= & | ^ ~ -x abs(x)`` act on the flat values,
                 broadcasting as TF does (ops/ragged_elementwise.py); tf ops dispatch on
                 ragged arguments (ops/ragged_dispatch.py).
  traced      -- a tf.function records a RaggedTensor as its flat values, row splits and
                 uniform row lengths (its trace key: RaggedTensorSpec, composite_specs.py);
                 each ragged op is one node of the graph.

Mirrors tensorflow/python/ops/ragged/ragged_tensor.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dispatch, dtypes, execute, func_graph
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_shape import TensorShape
from simdist.hardware import backend


class RaggedTensor:
    """A tensor with ragged dimensions (see the module glossary). Make one with
    ``tf.ragged.constant`` or a ``from_*`` class method, not the constructor."""

    def __init__(self, values, row_splits, internal=False, uniform_row_length=None):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the "
                             "factory methods instead (e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_splits
        self._uniform_row_length = uniform_row_length   # rows all of this length, or None

    # --- factories ----------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        """Rows ``values[splits[i]:splits[i+1]]``.

        Raises:
          InvalidArgumentError: splits that do not start at 0, decrease, or end elsewhere
            than at the number of values (with ``validate``).
        """
        if not isinstance(values, RaggedTensor):
            values = execute.convert_to_tensor(values)
        splits = execute.convert_to_tensor(row_splits, dtype_hint=dtypes.int64)
        s = host(splits).astype(np.int64)
        if validate and not execute.in_shape_inference():   # (not a trace's placeholders)
            _check_splits(s, _nvals(values))
        return cls(values, execute.convert_to_tensor(s), internal=True)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        """Rows of the given lengths, in order."""
        lengths = host(execute.convert_to_tensor(row_lengths)).astype(np.int64)
        return cls.from_row_splits(values, np.concatenate([[0], np.cumsum(lengths)]),
                                   validate=validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True,
                                name=None):
        """Rows of ``uniform_row_length`` values each (a uniform dimension: its size is
        in the shape)."""
        n = int(uniform_row_length)
        rows = _nvals(values) // n if n else int(nrows or 0)
        splits = np.arange(rows + 1, dtype=np.int64) * n
        return cls(values, execute.convert_to_tensor(splits), internal=True,
                   uniform_row_length=n)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        """Rows of the values whose row id is each row's index (ids sorted ascending).

        Raises:
          InvalidArgumentError: ids that decrease, are negative, or reach ``nrows``.
        """
        ids = host(execute.convert_to_tensor(value_rowids)).astype(np.int64)
        n = int(host(execute.convert_to_tensor(nrows))) if nrows is not None \
            else (int(ids[-1]) + 1 if ids.size else 0)
        bad = ids.size and (np.any(np.diff(ids) < 0) or ids[0] < 0 or ids[-1] >= n)
        if validate and bad and not execute.in_shape_inference():
            from simdist import errors

            raise errors.InvalidArgumentError(
                None, None, "Arguments to from_value_rowids do not form a valid "
                            "RaggedTensor: value_rowids must be sorted, non-negative and "
                            "less than nrows.")
        splits = np.searchsorted(ids, np.arange(n + 1), side="left").astype(np.int64)
        return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                    row_splits_dtype=dtypes.int64):
        """The rows of a dense tensor, each cut at its length (``lengths``) or before its
        trailing ``padding``; ``ragged_rank`` outer dimensions become ragged."""
        from simdist.framework.ops import ragged_conversion_ops

        return ragged_conversion_ops.from_tensor(tensor, lengths, padding, ragged_rank)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
        """The rows of a 2-D SparseTensor (its values in index order)."""
        from simdist.framework.ops import ragged_conversion_ops

        return ragged_conversion_ops.from_sparse(st_input)

    def to_sparse(self, name=None):
        """A SparseTensor of every value, at its index, of the bounding shape."""
        from simdist.framework.ops import ragged_conversion_ops

        return ragged_conversion_ops.to_sparse(self)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None,
                               validate=True):
        """A RaggedTensor of ``len(nested_row_splits)`` ragged dimensions, outermost first."""
        out = flat_values
        for splits in reversed(list(nested_row_splits)):
            out = cls.from_row_splits(out, splits, validate=validate)
        return out

    # --- structure ----------------------------------------------------------------------
    @property
    def values(self):
        return self._values

    @property
    def row_splits(self) -> Tensor:
        return self._row_splits

    @property
    def flat_values(self) -> Tensor:
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v.values
        return v

    @property
    def nested_row_splits(self) -> tuple:
        out, v = [self._row_splits], self._values
        while isinstance(v, RaggedTensor):
            out.append(v.row_splits)
            v = v.values
        return tuple(out)

    @property
    def ragged_rank(self) -> int:
        return len(self.nested_row_splits)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def shape(self) -> TensorShape:
        if func_graph.is_symbolic(self._row_splits):   # in a trace: the static rows' count
            n = self._row_splits.shape[0]
            dims, level = [None if n is None else n - 1], self
        else:
            dims, level = [self.nrows_int()], self
        while isinstance(level, RaggedTensor):
            dims.append(level._uniform_row_length)
            level = level.values
        return TensorShape(dims + list(level.shape)[1:])

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def nrows_int(self) -> int:
        return len(self._splits()) - 1

    def nrows(self, out_type=None, name=None) -> Tensor:
        return execute.convert_to_tensor(np.int64(self.nrows_int()))

    def row_lengths(self, axis=1, name=None):
        """The length of each row (``axis`` 1), or of each row of ``values`` (deeper axes:
        a RaggedTensor of them)."""
        if axis in (1, 1 - self.ndim):
            s = self._splits()
            return execute.convert_to_tensor(s[1:] - s[:-1])
        if axis == 0:
            return self.nrows()
        return self.with_values(self._values.row_lengths(axis - 1))

    def nested_row_lengths(self, name=None) -> tuple:
        """The row lengths of every ragged dimension, outermost first."""
        out, level = [], self
        while isinstance(level, RaggedTensor):
            out.append(level.row_lengths())
            level = level.values
        return tuple(out)

    def value_rowids(self, name=None) -> Tensor:
        """The row index of each value."""
        s = self._splits()
        return execute.convert_to_tensor(np.repeat(np.arange(len(s) - 1, dtype=np.int64),
                                                   s[1:] - s[:-1]))

    def row_starts(self, name=None) -> Tensor:
        return execute.convert_to_tensor(self._splits()[:-1])

    def row_limits(self, name=None) -> Tensor:
        return execute.convert_to_tensor(self._splits()[1:])

    def with_values(self, new_values):
        """The same rows over ``new_values`` (as many as ``values``)."""
        return RaggedTensor(new_values, self._row_splits, internal=True,
                            uniform_row_length=self._uniform_row_length)

    def with_flat_values(self, new_values):
        """The same ragged dimensions over ``new_values`` (as many as ``flat_values``)."""
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(execute.convert_to_tensor(new_values))

    def _splits(self) -> np.ndarray:
        s = host(self._row_splits)
        if func_graph.is_symbolic(self._row_splits):
            # A recorded op runs for its shapes on placeholders, which need not be splits
            # of the values: consistent ones (every value in the first row) stand in.
            nvals = _nvals(self._values)
            s = np.full(s.shape, nvals, np.int64)
            s[:1] = 0
        return s

    def nested_splits(self) -> list:
        """Each level's row splits as host arrays, outermost first."""
        out, level = [], self
        while isinstance(level, RaggedTensor):
            out.append(level._splits())
            level = level.values
        return out

    # --- values -------------------------------------------------------------------------
    def to_list(self) -> list:
        """The rows as nested Python lists."""
        inner = self._values.to_list() if isinstance(self._values, RaggedTensor) \
            else host(self._values).tolist()
        s = self._splits()
        return [inner[s[i]:s[i + 1]] for i in range(len(s) - 1)]

    def numpy(self) -> np.ndarray:
        """The rows as NumPy arrays: an object array of rows when their lengths differ,
        one array when they are all of one length (TF's rule)."""
        values = self._values.numpy()
        s = self._splits()
        rows = [values[s[i]:s[i + 1]] for i in range(len(s) - 1)]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        if any(len(row) != len(rows[0]) for row in rows):
            out = np.empty(len(rows), dtype=object)
            out[:] = rows if len({len(r) for r in rows}) > 1 else [r for r in rows]
            return out
        return np.array(rows)

    def bounding_shape(self, axis=None, name=None, out_type=None) -> Tensor:
        """The smallest shape that holds every row: the longest row per ragged dimension."""
        dims = [self.nrows_int()]
        level = self
        while isinstance(level, RaggedTensor):
            lengths = level._splits()[1:] - level._splits()[:-1]
            dims.append(int(lengths.max()) if lengths.size else 0)
            level = level.values
        dims += list(level.shape)[1:]
        out = np.asarray(dims, dtype=np.int64)
        return execute.convert_to_tensor(out if axis is None else out[axis])

    def to_tensor(self, default_value=None, name=None, shape=None) -> Tensor:
        """Rows padded with ``default_value`` (zero / empty) to the bounding shape, or to
        ``shape`` (its None dimensions the bounding shape's)."""
        from simdist.framework.ops import ragged_conversion_ops

        return ragged_conversion_ops.to_tensor(self, default_value, shape)

    def __getitem__(self, key):
        from simdist.framework.ops import ragged_getitem

        return ragged_getitem.getitem(self, key)

    def __repr__(self) -> str:
        if func_graph.is_symbolic(self._row_splits):   # in a trace: TF's graph text
            return f"tf.RaggedTensor(values={self._values}, row_splits={self._row_splits})"
        # TF's text: NumPy's, elements separated by commas (ragged_tensor._formatter)
        with np.printoptions(formatter={"all": _formatter}):
            return f"<tf.RaggedTensor {_formatter(self.numpy())}>"

    __str__ = __repr__


def host(t) -> np.ndarray:
    """A tensor's values on the host: an eager tensor's, or (while a recorded op runs for
    its shapes in a trace) a symbolic tensor's placeholder values."""
    return np.asarray(backend.to_host(t._value))


def _operator(op: str, reverse):
    def method(self, *other):
        from simdist.framework.ops import ragged_elementwise

        return ragged_elementwise.operator_call(op, self, other, reverse)

    return method


def _operators():
    """TF's operators on RaggedTensor (ragged_operators.py): each calls its op, broadcast
    over the flat values."""
    binary = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "truediv",
              "floordiv": "floordiv", "mod": "floormod", "pow": "pow", "and": "logical_and",
              "or": "logical_or", "xor": "logical_xor"}
    for py, op in binary.items():
        setattr(RaggedTensor, f"__{py}__", _operator(op, reverse=False))
        setattr(RaggedTensor, f"__r{py}__", _operator(op, reverse=True))
    for py, op in {"lt": "less", "le": "less_equal", "gt": "greater",
                   "ge": "greater_equal"}.items():
        setattr(RaggedTensor, f"__{py}__", _operator(op, reverse=False))
    for py, op in {"neg": "negative", "abs": "abs", "invert": "logical_not"}.items():
        setattr(RaggedTensor, f"__{py}__", _operator(op, reverse=None))
    RaggedTensor.__eq__ = _equality("equal", mismatch=False)
    RaggedTensor.__ne__ = _equality("not_equal", mismatch=True, none=True)
    RaggedTensor.__hash__ = _hash


def _equality(op: str, mismatch: bool, none: bool = False):
    """``==`` / ``!=``: element-wise, or ``mismatch`` (a Python bool) for shapes that do not
    broadcast; against None, ``none`` (TF's ragged tensor_equals, and the dense
    tensor_not_equals its ``__ne__`` is)."""
    def method(self, other):
        from simdist.framework import errors
        from simdist.framework.ops import ragged_elementwise

        if other is None:
            return none
        try:
            return ragged_elementwise.operator_call(op, self, (other,), reverse=False)
        except (errors.InvalidArgumentError, ValueError):
            return mismatch

    return method


def _hash(self):
    """A RaggedTensor is unhashable eagerly (it compares element-wise); while a function
    traces, its identity (TF's ragged_hash)."""
    if func_graph.current() is None:
        raise TypeError("RaggedTensor is unhashable.")
    return id(self)


def _formatter(x) -> str:
    if isinstance(x, np.ndarray):
        return np.array2string(x, separator=", ") if x.size else repr(x.tolist())
    return str(x)


def rows(values, start: int, stop: int):
    """Rows ``start:stop`` of a Tensor or a RaggedTensor."""
    if not isinstance(values, RaggedTensor):
        return values[start:stop]
    s = values._splits()
    inner = rows(values.values, int(s[start]), int(s[stop]))
    return RaggedTensor(inner, execute.convert_to_tensor(s[start:stop + 1] - s[start]),
                        internal=True)


def _nvals(values) -> int:
    if isinstance(values, RaggedTensor):
        return values.nrows_int()
    return int(values._value.shape[0]) if func_graph.is_symbolic(values) else \
        int(values.shape[0])


def _check_splits(s, nvals) -> None:
    """TF's checks of row splits (its assert_equal / assert_non_negative texts).

    Raises:
      InvalidArgumentError: splits that do not start at 0, decrease, or do not end at the
        number of values.
    """
    from simdist import errors

    head = "Arguments to _from_row_partition do not form a valid RaggedTensor"
    if s.ndim != 1 or s.size == 0:
        raise errors.InvalidArgumentError(None, None, f"{head}: row_splits must be a "
                                                      "non-empty vector.")
    for x, y, what in ((s[:1], [0], "x == y"), (s[-1:], [nvals], "x == y")):
        if int(x[0]) != int(y[0]):
            raise errors.InvalidArgumentError(
                None, None, f"{head}\nCondition {what} did not hold.\nFirst 1 elements of "
                            f"x:\n[{int(x[0])}]\nFirst 1 elements of y:\n[{int(y[0])}]")
    if np.any(np.diff(s) < 0):
        raise errors.InvalidArgumentError(
            None, None, f"{head}\nCondition x >= 0 did not hold element-wise: the row "
                        "lengths (splits[i + 1] - splits[i]) must not be negative.")


_operators()

def _components(rt) -> tuple:
    """The tensors a traced function records a RaggedTensor as: its flat values, each
    level's row splits, and each level's uniform row length (-1: ragged)."""
    levels, level = [], rt
    while isinstance(level, RaggedTensor):
        levels.append(level)
        level = level.values
    uniform = tuple(-1 if x._uniform_row_length is None else x._uniform_row_length
                    for x in levels)
    return (level,) + tuple(x._row_splits for x in levels) + (uniform,)


def _rebuild(parts) -> RaggedTensor:
    flat, *splits, uniform = parts
    out = flat
    for row_splits, length in reversed(list(zip(splits, uniform))):
        out = RaggedTensor(out, row_splits, internal=True,
                           uniform_row_length=None if length < 0 else length)
    return out


# In a traced function: recorded as its components (TF's CompositeTensor).
func_graph.register_composite(RaggedTensor, _components, _rebuild)
func_graph.record_methods(RaggedTensor, dict.fromkeys((
    "row_lengths", "value_rowids", "nrows", "bounding_shape", "row_starts", "row_limits",
    "nested_row_lengths", "to_tensor", "to_sparse"), "pure"))

# While a tf.function traces, each factory call is one node of the graph.
for _name in ("from_row_splits", "from_row_lengths", "from_value_rowids",
              "from_uniform_row_length", "from_nested_row_splits", "from_tensor",
              "from_sparse"):
    setattr(RaggedTensor, _name, classmethod(func_graph.recorded(
        RaggedTensor.__dict__[_name].__func__, name=f"RaggedTensor.{_name}")))



class _RaggedOpDispatcher(dispatch.GlobalOpDispatcher):
    """Public ops called on a RaggedTensor hand it to the ragged dispatcher
    (ops/ragged_dispatch.py: it loads with the first such call, as it imports the ragged
    ops, which import this module)."""

    def handle(self, op, args, kwargs):
        from simdist.framework.ops import ragged_dispatch

        return ragged_dispatch.DISPATCHER.handle(op, args, kwargs)


_RaggedOpDispatcher().register()
