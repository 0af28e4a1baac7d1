"""``tf.RaggedTensorSpec`` and ``tf.SparseTensorSpec``: the type of a RaggedTensor or a
SparseTensor argument, as ``tf.function`` keys its traces and takes ``input_signature``.

Glossary:
  RaggedTensorSpec -- shape (None for each ragged dimension; the number of rows known or
                      None), dtype, ragged_rank (default: rank - 1) and the row splits'
                      dtype; printed ``RaggedTensorSpec(TensorShape([None, None]),
                      tf.int32, 1, tf.int64)``.
  SparseTensorSpec -- the dense shape and the values' dtype.
  components       -- the TensorSpecs of the tensors a traced function records the value
                      as (func_graph.register_composite): a ragged tensor's flat values
                      (any number of them), its outer row splits (rows + 1) and its inner
                      ones (any length), then its uniform row lengths (-1: ragged); a
                      sparse tensor's indices, values and dense shape.
  trace key        -- a traced function's arguments of these types match a trace by these
                      component specs, so a RaggedTensor of other row lengths, or a
                      SparseTensor of other values, reuses it (TF's rule); a SparseTensor's
                      dense shape is part of its key by value (a constant of the trace).

Mirrors tensorflow/python/ops/ragged/ragged_tensor.py (RaggedTensorSpec) and
tensorflow/python/framework/sparse_tensor.py (SparseTensorSpec).
"""

from __future__ import annotations

from simdist.framework import dtypes
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.tensor_spec import TensorSpec


class _CompositeSpec:
    """What the two specs share: equal when printed alike, compatible with a value of
    their dtype and a compatible shape."""

    _shape: TensorShape
    _dtype: dtypes.DType

    def is_compatible_with(self, other) -> bool:
        return (getattr(other, "dtype", None) == self._dtype
                and self._shape.is_compatible_with(TensorShape(other.shape)))

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and repr(self) == repr(other)

    def __hash__(self) -> int:
        return hash(repr(self))


class RaggedTensorSpec(_CompositeSpec):
    """The type of a RaggedTensor (see the module glossary).

    Raises:
      ValueError: a ragged_rank not below the shape's rank.
    """

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None,
                 row_splits_dtype=dtypes.int64):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if rank is not None and not 0 <= ragged_rank < rank:
            raise ValueError(f"ragged_rank must be non-negative and less than rank ({rank}), "
                             f"got {ragged_rank}")
        self._ragged_rank = ragged_rank

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)

    @classmethod
    def from_value(cls, value) -> RaggedTensorSpec:
        """The spec of a RaggedTensor: its shape, the number of rows included."""
        return cls(value.shape, value.dtype, value.ragged_rank)

    def components(self) -> tuple:
        """The TensorSpecs of the recorded components, then the uniform row lengths."""
        dims = self._shape.as_list() if self._shape.rank is not None else None
        inner = dims[self._ragged_rank + 1:] if dims is not None else None
        nrows = dims[0] if dims else None
        splits = [TensorSpec([None if nrows is None else nrows + 1], self._row_splits_dtype)]
        splits += [TensorSpec([None], self._row_splits_dtype)] * (self._ragged_rank - 1)
        uniform = (-1,) * self._ragged_rank if dims is None else \
            tuple(-1 if d is None else d for d in dims[1:self._ragged_rank + 1])
        flat = TensorSpec(None if inner is None else [None] + inner, self._dtype)
        return (flat, *splits, uniform)

    def is_compatible_with(self, other) -> bool:
        return (getattr(other, "ragged_rank", None) == self._ragged_rank
                and super().is_compatible_with(other))

    def __repr__(self) -> str:
        return (f"RaggedTensorSpec({self._shape!r}, {self._dtype!r}, {self._ragged_rank}, "
                f"{self._row_splits_dtype!r})")


class SparseTensorSpec(_CompositeSpec):
    """The type of a SparseTensor (see the module glossary)."""

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)

    @classmethod
    def from_value(cls, value) -> SparseTensorSpec:
        return cls(value.shape, value.dtype)

    def components(self) -> tuple:
        rank = self._shape.rank
        return (TensorSpec([None, rank], dtypes.int64), TensorSpec([None], self._dtype),
                TensorSpec([rank], dtypes.int64))

    def __repr__(self) -> str:
        return f"SparseTensorSpec({self._shape!r}, {self._dtype!r})"


def expand_specs(structure, per_replica=True):
    """``structure`` (an input_signature) with each RaggedTensorSpec or SparseTensorSpec
    replaced by its components (tuples nest, as func_graph.expand's parts), and each
    per-replica spec (one with ``_value_specs``) by its value specs' unless
    ``per_replica`` is False."""
    if isinstance(structure, (RaggedTensorSpec, SparseTensorSpec)):
        return structure.components()
    if per_replica_specs(structure) is not None:
        return tuple(expand_specs(v) for v in structure._value_specs) if per_replica \
            else structure
    if isinstance(structure, (list, tuple)) and not hasattr(structure, "_fields"):
        return type(structure)(expand_specs(x, per_replica) for x in structure)
    if isinstance(structure, dict):
        return {k: expand_specs(v, per_replica) for k, v in structure.items()}
    return structure


def per_replica_specs(spec):
    """The value specs of a per-replica spec (tf.distribute's PerReplicaSpec, which this
    layer knows by its ``_value_specs``), or None for another spec."""
    specs = getattr(type(spec), "_value_specs", None)
    return None if specs is None else spec._value_specs


def spec_parts(structure):
    """``structure`` with each RaggedTensorSpec or SparseTensorSpec replaced by its
    components in the parts type of its composite: a traced function's argument of that
    type (``get_concrete_function(tf.RaggedTensorSpec(...))``)."""
    if isinstance(structure, (RaggedTensorSpec, SparseTensorSpec)):
        from simdist.framework import func_graph
        from simdist.framework.ragged_tensor import RaggedTensor
        from simdist.framework.sparse_tensor import SparseTensor

        cls = RaggedTensor if isinstance(structure, RaggedTensorSpec) else SparseTensor
        return func_graph._COMPOSITES[cls][1](structure.components())
    if per_replica_specs(structure) is not None:   # a PerReplica of its value specs' parts
        return structure._from_components([spec_parts(v) for v in structure._value_specs])
    if isinstance(structure, (list, tuple)) and not hasattr(structure, "_fields"):
        items = [spec_parts(x) for x in structure]
        if all(a is b for a, b in zip(items, structure)):
            return structure
        return type(structure)(items)
    if isinstance(structure, dict):
        return {k: spec_parts(v) for k, v in structure.items()}
    return structure


def keyed(expanded):
    """An expanded call's arguments with each RaggedTensor's and SparseTensor's component
    tensors replaced by the specs a trace is keyed by (see the module glossary)."""
    kind = type(expanded).__name__
    if kind in _KEYS:
        return type(expanded)(_KEYS[kind](expanded))
    if isinstance(expanded, (list, tuple)) and not hasattr(expanded, "_fields"):
        items = [keyed(x) for x in expanded]
        return type(expanded)(items) if type(expanded) in (list, tuple) else items
    if isinstance(expanded, dict):
        return {k: keyed(v) for k, v in expanded.items()}
    return expanded


def _ragged_key(parts) -> tuple:
    flat, outer, *inner, uniform = parts
    return (TensorSpec([None] + list(flat.shape)[1:], flat.dtype),
            TensorSpec(outer.shape, outer.dtype),
            *(TensorSpec([None], s.dtype) for s in inner), uniform)


def _sparse_key(parts) -> tuple:
    """A SparseTensor's trace key: any number of values, its dense shape's values (TF's
    SparseTensorSpec has the static shape: another one traces again)."""
    from simdist.framework import func_graph
    from simdist.framework.ragged_tensor import host

    indices, values, dense_shape = parts
    shape = TensorSpec(dense_shape.shape, dense_shape.dtype) if \
        func_graph.is_symbolic(dense_shape) or isinstance(dense_shape, TensorSpec) else \
        "dense_shape=" + ",".join(str(int(d)) for d in host(dense_shape))
    return (TensorSpec([None, indices.shape[1]], indices.dtype),
            TensorSpec([None], values.dtype), shape)


# The names of func_graph's parts types of the two composites.
_KEYS = {"_RaggedTensorParts": _ragged_key, "_SparseTensorParts": _sparse_key}


def component_leaves(leaves) -> list:
    """``leaves`` with each RaggedTensor or SparseTensor replaced by its component tensors,
    as its spec stands for them; every other leaf (a distributed value too) stays one."""
    from simdist.framework import func_graph
    from simdist.framework.ragged_tensor import RaggedTensor
    from simdist.framework.sparse_tensor import SparseTensor

    out: list = []
    for leaf in leaves:
        if isinstance(leaf, (RaggedTensor, SparseTensor)):
            out.extend(func_graph.expanded_leaves(leaf))
        else:
            out.append(leaf)
    return out


def spec_of(value):
    """The spec of a RaggedTensor or a SparseTensor, or None for another value."""
    from simdist.framework.ragged_tensor import RaggedTensor
    from simdist.framework.sparse_tensor import SparseTensor

    if isinstance(value, RaggedTensor):
        return RaggedTensorSpec.from_value(value)
    if isinstance(value, SparseTensor):
        return SparseTensorSpec.from_value(value)
    return None
