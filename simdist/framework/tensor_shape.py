"""``TensorShape``: a shape whose dimensions may be unknown (``None``).

Glossary:
  rank          -- number of dimensions (``None`` when unknown).
  compatible    -- two shapes are compatible when every known dimension agrees.
  subtype       -- a shape another can stand for: that one's known dimensions all agree
                   (a trace's input shape takes the calls of its subtypes).
  merge_with    -- the known dimensions of two compatible shapes together.

Mirrors tensorflow/python/framework/tensor_shape.py.
"""

from __future__ import annotations


class TensorShape:
    """The static shape of a tensor or of a dataset element."""

    __slots__ = ("_dims",)

    def __init__(self, dims):
        if isinstance(dims, TensorShape):
            dims = dims._dims
        self._dims = None if dims is None else tuple(
            None if d is None else int(d) for d in dims
        )

    @classmethod
    def from_ints(cls, dims: tuple) -> TensorShape:
        """The shape of an array: ``dims`` a tuple of Python ints (an array's ``.shape``),
        taken as it is, without the general constructor's conversion of each dimension."""
        shape = object.__new__(cls)
        shape._dims = dims
        return shape

    @property
    def rank(self):
        return None if self._dims is None else len(self._dims)

    ndims = rank

    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    def as_list(self) -> list:
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def num_elements(self):
        if self._dims is None or None in self._dims:
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_fully_defined(self) -> bool:
        return self._dims is not None and None not in self._dims

    def is_compatible_with(self, other) -> bool:
        other = TensorShape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def is_subtype_of(self, other) -> bool:
        """Whether ``other`` can stand for this shape: an unknown rank, or the same rank with
        each of its known dimensions equal to this one's (not symmetric: [2, 3] is a subtype
        of [None, 3], not the reverse). A trace for ``other`` takes calls of this shape."""
        other = TensorShape(other)
        if other._dims is None:
            return True
        if self._dims is None or len(self._dims) != len(other._dims):
            return False
        return all(b is None or a == b for a, b in zip(self._dims, other._dims))

    def most_specific_compatible_shape(self, other) -> TensorShape:
        other = TensorShape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return TensorShape(None)
        return TensorShape([a if a == b else None for a, b in zip(self._dims, other._dims)])

    def merge_with(self, other) -> TensorShape:
        """The shape with the known dimensions of both (TF's ``merge_with``).

        Raises:
          ValueError: the shapes are not compatible (TF's text).
        """
        other = TensorShape(other)
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims)])

    def concatenate(self, other) -> TensorShape:
        """This shape's dimensions, then ``other``'s (unknown rank if either's is)."""
        other = TensorShape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def __len__(self) -> int:
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other) -> bool:
        try:
            other = TensorShape(other)
        except TypeError:
            return NotImplemented
        return self._dims == other._dims

    def __hash__(self) -> int:
        return hash(self._dims)

    def __str__(self) -> str:
        if self._dims is None:
            return "<unknown>"
        if len(self._dims) == 1:
            return f"({self._dims[0]},)"
        return "(" + ", ".join(str(d) for d in self._dims) + ")"

    def __repr__(self) -> str:
        if self._dims is None:
            return "TensorShape(None)"
        return f"TensorShape({list(self._dims)})"
