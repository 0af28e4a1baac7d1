"""``Embedding``: integer ids -> rows of a trainable table.

Glossary:
  embeddings -- the ``(input_dim, output_dim)`` table, ``uniform`` (-0.05, 0.05) by default;
                never autocast: under 'mixed_float16' the lookup is cast afterwards.
  lookup     -- ``tf.gather`` of the table's rows; non-integer ids are cast to int32 first.
                Its gradient adds each output row's gradient into its id's row.
                A RaggedTensor of ids gives a RaggedTensor of its flat values' rows.
  input_length -- the sequence length, if fixed (only shapes use it).
  mask_zero  -- id 0 is padding: the output's mask (``compute_mask``, ``_keras_mask``) is
                ``ids != 0``, which layers after it (RNNs, GlobalAveragePooling1D, the loss)
                honour; ``input_dim`` must then count id 0.

Mirrors tf_keras/src/layers/core/embedding.py.
"""

from __future__ import annotations

from simdist.framework import dtypes
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ragged_tensor import RaggedTensor
from simdist.keras import initializers, regularizers
from simdist.keras.engine.base_layer import Layer, refuse_constraints


class Embedding(Layer):
    """Turns positive integers (ids) into dense vectors (``tf.keras.layers.Embedding``)."""

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, activity_regularizer=None,
                 embeddings_constraint=None, mask_zero=False, input_length=None, sparse=False,
                 **kwargs):
        if "input_shape" not in kwargs:
            kwargs["input_shape"] = (input_length,) if input_length else (None,)
        if input_dim <= 0 or output_dim <= 0:
            raise ValueError("Both `input_dim` and `output_dim` should be positive, Received "
                             f"input_dim = {input_dim} and output_dim = {output_dim}")
        refuse_constraints(embeddings_constraint)
        if sparse:
            raise NotImplementedError("simdist's Embedding does not simulate sparse "
                                      "(SparseTensor) inputs.")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.supports_masking = mask_zero
        self.input_dim, self.output_dim = input_dim, output_dim
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.mask_zero, self.input_length, self.sparse = mask_zero, input_length, sparse

    def _maybe_cast(self, x):
        return x  # ids are not autocast (Keras's autocast=False)

    def build(self, input_shape=None):
        self.embeddings = self.add_weight("embeddings", shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer)
        super().build(input_shape)

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        if self.input_length is None:
            return input_shape + (self.output_dim,)
        lens = list(self.input_length) if isinstance(self.input_length, (list, tuple)) \
            else [self.input_length]
        if len(lens) != len(input_shape) - 1:
            raise ValueError(f'"input_length" is {self.input_length}, but received input has '
                             f"shape {input_shape}")
        for i, (s1, s2) in enumerate(zip(lens, input_shape[1:])):
            if s1 is not None and s2 is not None and s1 != s2:
                raise ValueError(f'"input_length" is {self.input_length}, but received input '
                                 f"has shape {input_shape}")
            if s1 is None:
                lens[i] = s2
        return (input_shape[0], *lens, self.output_dim)

    def compute_mask(self, inputs, mask=None):
        """``inputs != 0`` with ``mask_zero``, else None."""
        if not self.mask_zero:
            return None
        return M.not_equal(inputs, 0)

    def call(self, inputs):
        ids = inputs
        if ids.dtype not in (dtypes.int32, dtypes.int64):
            ids = A.cast(ids, dtypes.int32)
        if isinstance(ids, RaggedTensor):   # tf.nn.embedding_lookup of its flat values
            out = A.gather(self.embeddings, ids.flat_values)
            if self.compute_dtype != self.variable_dtype:
                out = A.cast(out, self.compute_dtype)
            return ids.with_flat_values(out)
        out = A.gather(self.embeddings, ids)
        if self.compute_dtype != self.variable_dtype:
            out = A.cast(out, self.compute_dtype)
        return out

    def get_config(self):
        cfg = super().get_config()
        cfg.update(input_dim=self.input_dim, output_dim=self.output_dim,
                   embeddings_initializer=initializers.serialize(self.embeddings_initializer),
                   embeddings_regularizer=regularizers.serialize(self.embeddings_regularizer),
                   activity_regularizer=regularizers.serialize(self.activity_regularizer),
                   embeddings_constraint=None, mask_zero=self.mask_zero,
                   input_length=self.input_length)
        return cfg
