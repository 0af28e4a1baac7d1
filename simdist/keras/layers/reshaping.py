"""``Reshape``: the same elements per example in another shape.

Glossary:
  target_shape -- the shape of one example (no batch dimension); at most one -1, which
                  takes whatever size is left.

Mirrors tf_keras/src/layers/reshaping/reshape.py.
"""

from __future__ import annotations

import math

from simdist.framework.ops import array_ops as A
from simdist.keras.engine.base_layer import Layer


class Reshape(Layer):
    """Reshape each example to ``target_shape`` (``tf.keras.layers.Reshape``)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def _fix_unknown_dimension(self, input_shape, output_shape):
        """``output_shape`` with its -1 replaced by the size left over.

        Raises:
          ValueError: two -1s, or sizes that do not match.
        """
        output_shape = list(output_shape)
        msg = (f"total size of new array must be unchanged, input_shape = {list(input_shape)}, "
               f"output_shape = {output_shape}")
        known, unknown = 1, None
        for index, dim in enumerate(output_shape):
            if dim < 0:
                if unknown is not None:
                    raise ValueError("There must be at most one unknown dimension in "
                                     f"output_shape. Received: output_shape={output_shape}.")
                unknown = index
            else:
                known *= dim
        original = math.prod(input_shape)
        if unknown is not None:
            if known == 0 or original % known != 0:
                raise ValueError(msg)
            output_shape[unknown] = original // known
        elif original != known:
            raise ValueError(msg)
        return output_shape

    def compute_output_shape(self, input_shape):
        input_shape = list(input_shape)
        if None in input_shape[1:]:
            rest = [s if s != -1 else None for s in self.target_shape]
        else:
            rest = self._fix_unknown_dimension(input_shape[1:], self.target_shape)
        return (input_shape[0], *rest)

    def call(self, inputs):
        return A.reshape(inputs, [inputs.shape[0], *self.target_shape])  # the op checks

    def get_config(self):
        cfg = super().get_config()
        cfg.update(target_shape=self.target_shape)
        return cfg
