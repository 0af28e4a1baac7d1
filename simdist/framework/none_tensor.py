"""``NoneTensorSpec``: the spec of a ``None`` component of a dataset element.

Glossary:
  None component -- a dataset function may return ``None`` inside its result ((x, None),
                    {"b": None}); tf.data carries it as a NoneTensor: iteration gives None,
                    ``batch`` / ``unbatch`` / ``shuffle`` pass it through, and the element
                    spec shows ``NoneTensorSpec()``.

Mirrors tensorflow/python/framework/none_tensor.py.
"""

from __future__ import annotations


class NoneTensorSpec:
    """The type spec of a None component (``tf.NoneTensorSpec``)."""

    def __repr__(self) -> str:
        return "NoneTensorSpec()"

    def __eq__(self, other) -> bool:
        return isinstance(other, NoneTensorSpec)

    def __hash__(self) -> int:
        return hash(NoneTensorSpec)

    def is_compatible_with(self, other) -> bool:
        return isinstance(other, NoneTensorSpec) or other is None
