"""``TensorSpec``: the shape and dtype a tensor argument must have (``tf.TensorSpec``).

Glossary:
  TensorSpec     -- a (possibly partial) shape, a dtype and a name; ``None`` dimensions
                    match any size. ``tf.function(input_signature=[...])`` is a list of them.
  from_tensor    -- the exact spec of a given tensor.

Mirrors tensorflow/python/framework/tensor_spec.py.
"""

from __future__ import annotations

from simdist.framework import dtypes
from simdist.framework.tensor_shape import TensorShape


class TensorSpec:
    """Describes a tensor by shape and dtype (``tf.TensorSpec``)."""

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._name = name

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    name = property(lambda self: self._name)

    @classmethod
    def from_tensor(cls, tensor, name=None) -> TensorSpec:
        """The spec of ``tensor`` (its full shape and dtype)."""
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, other) -> bool:
        """Whether ``other`` (a spec or a tensor) has this dtype and a compatible shape."""
        return (self._dtype == other.dtype
                and self._shape.is_compatible_with(TensorShape(other.shape)))

    def __eq__(self, other) -> bool:
        return (isinstance(other, TensorSpec) and self._shape == other._shape
                and self._dtype == other._dtype and self._name == other._name)

    def __hash__(self) -> int:
        return hash((self._shape, self._dtype, self._name))

    def __repr__(self) -> str:
        name = None if self._name is None else repr(self._name)
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={name})"
