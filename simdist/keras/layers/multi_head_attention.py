"""``tf.keras.layers.MultiHeadAttention``: scaled dot-product attention over several heads.

Glossary:
  projections   -- EinsumDense layers 'query', 'key', 'value' (input dim -> num_heads x
                   key_dim / value_dim) and 'attention_output' (heads x value_dim -> the
                   query's last dim, or ``output_shape``), made at the first call from the
                   inputs' shapes (``_build_from_signature``; kept as query_shape /
                   key_shape / value_shape in the config); weights named
                   'multi_head_attention/query/kernel' ...
  attention axes -- the axes attended over (default: all but batch, heads and features);
                   the dot-product and combine einsum equations are built from them
                   (``_build_attention_equation``), scores are (batch, heads, Tq, Tv) for
                   rank-3 inputs.
  scores        -- ``einsum(key, query / sqrt(key_dim))``, a Keras Softmax over the key's
                   attention axes with the mask (masked positions get -1e9 added), then
                   Dropout (in training), then ``einsum(scores, value)``.
  masks         -- ``attention_mask`` (batch, Tq, Tv), and-ed with the query's, value's and
                   key's ``_keras_mask`` and the causal mask of ``use_causal_mask``; the
                   output's mask is the query's.
Not simulated: ragged inputs.

Mirrors tf_keras/src/layers/attention/multi_head_attention.py.
"""

from __future__ import annotations

import collections.abc
import math
import string

import numpy as np

from simdist.framework import dtypes
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import linalg_ops, special_math_ops
from simdist.framework.ops import math_ops as M
from simdist.framework.tensor_shape import TensorShape
from simdist.keras import initializers, regularizers
from simdist.keras.engine.base_layer import Layer, refuse_constraints
from simdist.keras.engine.keras_tensor import KerasTensor
from simdist.keras.layers.activation import Softmax
from simdist.keras.layers.core import Dropout
from simdist.keras.layers.einsum_dense import EinsumDense

_CHR_IDX = string.ascii_lowercase


def _build_attention_equation(rank, attn_axes):
    """The dot-product and combine equations and the scores' rank (TF's)."""
    target = _CHR_IDX[:rank]
    batch_dims = tuple(np.delete(range(rank), attn_axes + (rank - 1,)))
    letter, source = rank, ""
    for i in range(rank):
        if i in batch_dims or i == rank - 1:
            source += target[i]
        else:
            source += _CHR_IDX[letter]
            letter += 1
    product = "".join([target[i] for i in batch_dims] + [target[i] for i in attn_axes]
                      + [source[i] for i in attn_axes])
    return f"{source},{target}->{product}", f"{product},{source}->{target}", len(product)


def _build_proj_equation(free_dims, bound_dims, output_dims):
    """A projection's einsum equation, its bias axes and its output rank (TF's)."""
    free = _CHR_IDX[:free_dims]
    bound = _CHR_IDX[free_dims:free_dims + bound_dims]
    out = _CHR_IDX[free_dims + bound_dims:free_dims + bound_dims + output_dims]
    return f"{free}{bound},{bound}{out}->{free}{out}", out, len(free + out)


def _einsum_shape(equation, *shapes) -> tuple:
    """The static output shape of an einsum of operands of these shapes."""
    inputs, output = equation.split("->")
    sizes = {}
    for spec, shape in zip(inputs.split(","), shapes):
        for char, size in zip(spec, shape):
            if sizes.get(char) is None:
                sizes[char] = size
    return tuple(sizes[char] for char in output)


class MultiHeadAttention(Layer):
    """MultiHeadAttention layer (``tf.keras.layers.MultiHeadAttention``).

    Raises:
      ValueError: (``compute_output_shape``) a query and value of different last
        dimensions, or a key and value of other inner dimensions.
      NotImplementedError: weight constraints.
    """

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True,
                 output_shape=None, attention_axes=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 softmax_robust_masking=False, **kwargs):
        super().__init__(**kwargs)
        refuse_constraints(kernel_constraint, bias_constraint)
        self.supports_masking = True
        self._num_heads, self._key_dim = num_heads, key_dim
        self._value_dim = value_dim if value_dim else key_dim
        self._dropout, self._use_bias, self._output_shape = dropout, use_bias, output_shape
        self._kernel_initializer = initializers.get(kernel_initializer)
        self._bias_initializer = initializers.get(bias_initializer)
        self._kernel_regularizer = regularizers.get(kernel_regularizer)
        self._bias_regularizer = regularizers.get(bias_regularizer)
        self._activity_regularizer = regularizers.get(activity_regularizer)
        self._softmax_robust_masking = softmax_robust_masking
        self._attention_axes = (attention_axes,) if attention_axes is not None and \
            not isinstance(attention_axes, collections.abc.Sized) else attention_axes
        self._built_from_signature = False
        self._query_shape = self._key_shape = self._value_shape = None

    def get_config(self):
        cfg = super().get_config()
        cfg.update(
            num_heads=self._num_heads, key_dim=self._key_dim, value_dim=self._value_dim,
            dropout=self._dropout, use_bias=self._use_bias, output_shape=self._output_shape,
            attention_axes=self._attention_axes,
            kernel_initializer=initializers.serialize(self._kernel_initializer),
            bias_initializer=initializers.serialize(self._bias_initializer),
            kernel_regularizer=regularizers.serialize(self._kernel_regularizer),
            bias_regularizer=regularizers.serialize(self._bias_regularizer),
            activity_regularizer=regularizers.serialize(self._activity_regularizer),
            kernel_constraint=None, bias_constraint=None, query_shape=self._query_shape,
            key_shape=self._key_shape, value_shape=self._value_shape,
            softmax_robust_masking=self._softmax_robust_masking)
        return cfg

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        shapes = [config.pop(k) for k in ("query_shape", "key_shape", "value_shape")]
        layer = cls(**config)
        if None not in shapes:
            layer._build_from_signature(shapes[0], shapes[2], shapes[1])
        return layer

    def __call__(self, query, value=None, key=None, **kwargs):
        if not self._built_from_signature and any(
                isinstance(t, KerasTensor) for t in (query, value, key)):
            self._build_from_signature(query, value, key)   # the symbolic shapes (None)
        return super().__call__(query, value, key, **kwargs)

    def _build_from_signature(self, query, value, key=None):
        """Make the projections for inputs of these shapes (tensors or shapes)."""
        self._built_from_signature = True

        def shape_of(x):
            return TensorShape(x.shape if hasattr(x, "shape") else x)

        self._query_shape, self._value_shape = shape_of(query), shape_of(value)
        self._key_shape = self._value_shape if key is None else shape_of(key)
        free_dims = self._query_shape.rank - 1
        self._query_dense = self._projection(free_dims, 1, [self._num_heads, self._key_dim],
                                             "query")
        self._key_dense = self._projection(self._key_shape.rank - 1, 1,
                                           [self._num_heads, self._key_dim], "key")
        self._value_dense = self._projection(self._value_shape.rank - 1, 1,
                                             [self._num_heads, self._value_dim], "value")
        self._build_attention(self._value_shape.rank + 1)
        output_shape = self._output_shape or [self._query_shape[-1]]
        if not isinstance(output_shape, collections.abc.Sized):
            output_shape = [output_shape]
        self._output_dense = self._projection(free_dims, 2, list(output_shape),
                                              "attention_output")

    def _projection(self, free_dims, bound_dims, known_last_dims, name):
        equation, bias_axes, output_rank = _build_proj_equation(free_dims, bound_dims,
                                                                len(known_last_dims))
        return EinsumDense(
            equation, output_shape=[None] * (output_rank - 1 - len(known_last_dims))
            + list(known_last_dims), bias_axes=bias_axes if self._use_bias else None,
            name=name, kernel_regularizer=self._kernel_regularizer,
            bias_regularizer=self._bias_regularizer,
            activity_regularizer=self._activity_regularizer, dtype=self.dtype,
            kernel_initializer=type(self._kernel_initializer).from_config(
                self._kernel_initializer.get_config()),
            bias_initializer=type(self._bias_initializer).from_config(
                self._bias_initializer.get_config()))

    def _build_attention(self, rank):
        self._attention_axes = tuple(range(1, rank - 2)) if self._attention_axes is None \
            else tuple(self._attention_axes)
        self._dot_product_equation, self._combine_equation, scores_rank = \
            _build_attention_equation(rank, attn_axes=self._attention_axes)
        norm_axes = tuple(range(scores_rank - len(self._attention_axes), scores_rank))
        self._softmax = Softmax(axis=norm_axes, robust_masking=self._softmax_robust_masking,
                                dtype=self.dtype)
        self._dropout_layer = Dropout(rate=self._dropout, dtype=self.dtype)

    def _masked_softmax(self, scores, attention_mask=None):
        if attention_mask is not None:
            axis = -len(self._attention_axes) * 2 - 1
            for _ in range(len(scores.shape) - len(attention_mask.shape)):
                attention_mask = A.expand_dims(attention_mask, axis=axis)
        return self._softmax(scores, attention_mask)

    def _compute_attention(self, query, key, value, attention_mask=None, training=None):
        query = M.multiply(query, 1.0 / math.sqrt(float(self._key_dim)))
        scores = special_math_ops.einsum(self._dot_product_equation, key, query)
        scores = self._masked_softmax(scores, attention_mask)
        dropped = self._dropout_layer(scores, training=training)
        return special_math_ops.einsum(self._combine_equation, dropped, value), scores

    def call(self, query, value, key=None, attention_mask=None, return_attention_scores=False,
             training=None, use_causal_mask=False):
        if not self._built_from_signature:
            self._build_from_signature(query=query, value=value, key=key)
        if key is None:
            key = value
        attention_mask = self._compute_attention_mask(query, value, key, attention_mask,
                                                      use_causal_mask)
        output, scores = self._compute_attention(
            self._query_dense(query), self._key_dense(key), self._value_dense(value),
            attention_mask, training)
        output = self._output_dense(output)
        return (output, scores) if return_attention_scores else output

    def _compute_attention_mask(self, query, value, key=None, attention_mask=None,
                                use_causal_mask=False):
        """The attention mask and-ed with the inputs' Keras masks and the causal mask."""
        auto_mask = None
        for tensor, axis in ((query, 2), (value, 1), (key, 1)):
            mask = getattr(tensor, "_keras_mask", None)
            if mask is not None:
                mask = A.expand_dims(A.cast(mask, dtypes.bool_), axis)
                auto_mask = mask if auto_mask is None else M.logical_and(auto_mask, mask)
        if use_causal_mask:
            mask = self._compute_causal_mask(query, value)
            auto_mask = mask if auto_mask is None else M.logical_and(auto_mask, mask)
        if auto_mask is not None:
            attention_mask = auto_mask if attention_mask is None else \
                M.logical_and(A.cast(attention_mask, dtypes.bool_), auto_mask)
        return attention_mask

    def _compute_causal_mask(self, query, value=None):
        """(1, Tq, Tv) booleans, True on and below the diagonal."""
        q_len = A.shape(query)[1]
        v_len = q_len if value is None else A.shape(value)[1]
        ones = A.ones(A.stack([1, q_len, v_len]), dtype=dtypes.bool_)
        return linalg_ops.band_part(ones, -1, 0)

    def compute_output_shape(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        query_shape, value_shape = TensorShape(query_shape), TensorShape(value_shape)
        key_shape = TensorShape(key_shape)
        if query_shape[-1] != value_shape[-1]:
            raise ValueError(
                "The last dimension of `query_shape` and `value_shape` must be equal, but are "
                f"{query_shape[-1]}, {value_shape[-1]}. Received: query_shape={{query_shape}}, "
                "value_shape={value_shape}")
        if value_shape[1:-1] != key_shape[1:-1]:
            raise ValueError("All dimensions of `value` and `key`, except the last one, must "
                             f"be equal. Received {value_shape} and {key_shape}")
        if self._output_shape:
            return query_shape[:-1].concatenate(self._output_shape)
        return query_shape

    def _symbolic_output_shapes(self, inputs, args, kwargs):
        """A functional call's outputs as TF's graph infers them (None where the inputs'
        sizes are unknown): the output, and the scores of ``return_attention_scores``."""
        query = tuple(inputs.shape.as_list())
        value = args[0] if args else kwargs.get("value")
        key = args[1] if len(args) > 1 else kwargs.get("key")
        value = tuple(value.shape.as_list())
        key = value if key is None else tuple(key.shape.as_list())
        output_last = self._output_shape or query[-1]
        output_last = list(output_last) if isinstance(output_last, collections.abc.Sized) \
            else [output_last]
        output = query[:-1] + tuple(output_last)
        if not kwargs.get("return_attention_scores"):
            return output
        heads = (self._num_heads, self._key_dim)
        scores = _einsum_shape(self._dot_product_equation, key[:-1] + heads,
                               query[:-1] + heads)
        return [output, scores]
