"""``Masking``: time steps whose features all equal ``mask_value`` are skipped downstream.

Glossary:
  mask_value -- a step (the last axis's vector) equal to it everywhere is masked: its output
                is zeros and its entry of the output's mask (``_keras_mask``) False.
  jointly    -- the output and its mask are computed together in ``call`` (tf-keras's
                ``_compute_output_and_mask_jointly``); ``compute_mask`` gives the same mask.

Mirrors tf_keras/src/layers/core/masking.py.
"""

from __future__ import annotations

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras import backend
from simdist.keras.engine.base_layer import Layer, same_shape


class Masking(Layer):
    """Masks a sequence's steps equal to ``mask_value`` (``tf.keras.layers.Masking``)."""

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self._compute_output_and_mask_jointly = True

    def compute_mask(self, inputs, mask=None):
        return M.reduce_any(M.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        boolean_mask = M.reduce_any(M.not_equal(inputs, self.mask_value), axis=-1,
                                    keepdims=True)
        outputs = M.multiply(inputs, A.cast(boolean_mask, inputs.dtype))
        backend.set_keras_mask(outputs, A.squeeze(boolean_mask, axis=-1))
        return outputs

    compute_output_shape = same_shape

    def get_config(self):
        cfg = super().get_config()
        cfg.update(mask_value=self.mask_value)
        return cfg
