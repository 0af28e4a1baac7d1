"""``Input``: a placeholder that tells a Sequential model its input shape.

Glossary:
  KerasInput -- what ``Input(shape=...)`` returns here: the shape and dtype only. Passed
                as the first entry of a ``Sequential`` it builds the model (simdist has no
                symbolic graphs, so the functional API beyond this is not offered).

Mirrors keras/src/engine/input_layer.py.
"""

from __future__ import annotations


class KerasInput:
    """A symbolic input: ``shape`` excludes the batch dimension."""

    def __init__(self, shape, batch_size=None, dtype=None, name=None):
        self.shape = (batch_size,) + tuple(shape)
        self.dtype = dtype or "float32"
        self.name = name

    def __repr__(self):
        return (f"<KerasTensor: shape={self.shape} dtype={self.dtype} "
                f"(created by layer '{self.name or 'input_1'}')>")


def Input(shape=None, batch_size=None, name=None, dtype=None, **kwargs):  # noqa: N802
    """A Keras input placeholder of ``shape`` (without the batch dimension)."""
    if shape is None:
        raise ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` "
                         "argument. Note that `shape` does not include the batch dimension.")
    return KerasInput(shape, batch_size, dtype, name)
