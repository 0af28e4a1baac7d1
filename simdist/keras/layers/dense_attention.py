"""``tf.keras.layers.Attention`` (Luong-style) and ``AdditiveAttention`` (Bahdanau-style).

Glossary:
  inputs        -- ``[query, value]`` or ``[query, value, key]`` (the key is the value when
                   not given): query (batch, Tq, dim), value and key (batch, Tv, dim).
  scores        -- (batch, Tq, Tv): Attention's 'dot' ``query @ key^T`` (times the scalar
                   ``scale`` weight with ``use_scale``) or 'concat'
                   ``concat_score_weight * sum(tanh(scale * (q + k)))``; AdditiveAttention's
                   ``sum(scale * tanh(q + k))`` (``scale`` a (dim,) weight, glorot-uniform).
  masks         -- ``mask=[query_mask, value_mask]`` (or the inputs' ``_keras_mask``): a
                   masked value position's score loses 1e9 before the softmax
                   (65504 in float16); ``use_causal_mask`` also masks every position after
                   the query's (a lower-triangular mask); masked query rows of the result
                   are zeros and the query's mask is the output's.
  dropout       -- on the softmax's weights in training (Keras's smart_cond), unseeded.
  return_attention_scores -- the weights (after masking and softmax) as a second output.

Mirrors tf_keras/src/layers/attention/base_dense_attention.py, attention.py and
additive_attention.py.
"""

from __future__ import annotations

from simdist.framework import dtypes
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import dropout_ops, scan_ops
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import nn_ops as N
from simdist.keras.engine.base_layer import Layer
from simdist.keras.utils import control_flow_util


class BaseDenseAttention(Layer):
    """What Attention and AdditiveAttention share: masks, softmax, dropout, the checks.

    Raises:
      ValueError: inputs not a list of 2 or 3 tensors; a mask not a list of 2 (or 3).
      NotImplementedError: a ``seed`` (simdist's attention dropout is unseeded).
    """

    def __init__(self, dropout=0.0, **kwargs):
        if kwargs.pop("seed", None) is not None:
            raise NotImplementedError("simdist's attention dropout takes no seed: use "
                                      "tf.random.set_seed.")
        self.causal = kwargs.pop("causal", False)
        super().__init__(**kwargs)
        self.dropout = dropout
        self.supports_masking = True

    def _calculate_scores(self, query, key):
        raise NotImplementedError

    def _apply_scores(self, scores, value, scores_mask=None, training=None):
        if scores_mask is not None:
            padding = A.cast(M.logical_not(scores_mask), scores.dtype)
            big = 65504.0 if scores.dtype == dtypes.float16 else 1.0e9
            scores = M.subtract(scores, M.multiply(A.constant(big, dtype=scores.dtype),
                                                   padding))
        weights = N.softmax(scores)
        if self.dropout > 0:
            weights = control_flow_util.smart_cond(
                training if training is not None else False,
                lambda: dropout_ops.dropout(weights, rate=self.dropout),
                lambda: A.identity(weights))
        return M.matmul(weights, value), weights

    def call(self, inputs, mask=None, training=None, return_attention_scores=False,
             use_causal_mask=False):
        self._validate_call_args(inputs, mask)
        q, v = inputs[0], inputs[1]
        k = inputs[2] if len(inputs) > 2 else v
        q_mask = mask[0] if mask else None
        v_mask = mask[1] if mask else None
        scores = self._calculate_scores(query=q, key=k)
        if v_mask is not None:
            v_mask = A.expand_dims(v_mask, axis=-2)   # (batch, 1, Tv)
        causal_mask = None
        if self.causal or use_causal_mask:
            shape = A.shape(scores)
            causal_mask = _lower_triangular_mask(
                A.concat([A.ones_like(shape[:-2]), shape[-2:]], axis=0))
        scores_mask = v_mask if causal_mask is None else causal_mask if v_mask is None \
            else M.logical_and(v_mask, causal_mask)
        result, attention_scores = self._apply_scores(scores, v, scores_mask, training)
        if q_mask is not None:
            result = M.multiply(result, A.cast(A.expand_dims(q_mask, axis=-1), result.dtype))
        if return_attention_scores:
            return result, attention_scores
        return result

    def compute_mask(self, inputs, mask=None):
        self._validate_call_args(inputs, mask)
        if mask and mask[0] is not None:
            return A.convert_to_tensor(mask[0])
        return None

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[0])

    def _symbolic_output_shapes(self, inputs, args, kwargs):
        """A functional call's outputs as TF's graph infers them: the query's shape, and
        the scores' (batch, Tq, Tv) (None where the query's or value's steps are)."""
        query, value = (tuple(t.shape.as_list()) for t in inputs[:2])
        if not kwargs.get("return_attention_scores"):
            return query
        return [query, (query[0], query[1], value[1])]

    def _validate_call_args(self, inputs, mask) -> None:
        name = type(self).__name__
        if not isinstance(inputs, list):
            raise ValueError(f"{name} layer must be called on a list of inputs, namely "
                             f"[query, value] or [query, value, key]. Received: {inputs}.")
        if len(inputs) < 2 or len(inputs) > 3:
            raise ValueError(f"{name} layer accepts inputs list of length 2 or 3, namely "
                             "[query, value] or [query, value, key]. Received length: "
                             f"{len(inputs)}.")
        if mask:
            if not isinstance(mask, list):
                raise ValueError(f"{name} layer mask must be a list, namely [query_mask, "
                                 f"value_mask]. Received: {mask}.")
            if len(mask) < 2 or len(mask) > len(inputs):
                raise ValueError(f"{name} layer mask must be a list of length 2, namely "
                                 f"[query_mask, value_mask]. Received length: {len(mask)}.")

    def get_config(self):
        cfg = super().get_config()
        cfg["dropout"] = self.dropout
        return cfg


class Attention(BaseDenseAttention):
    """Dot-product attention layer, a.k.a. Luong-style attention
    (``tf.keras.layers.Attention``).

    Raises:
      ValueError: a ``score_mode`` other than 'dot' or 'concat'.
    """

    def __init__(self, use_scale=False, score_mode="dot", **kwargs):
        super().__init__(**kwargs)
        self.use_scale, self.score_mode = use_scale, score_mode
        if score_mode not in ("dot", "concat"):
            raise ValueError(f"Received: score_mode={score_mode}. Acceptable values are: "
                             '["dot", "concat"]')

    def build(self, input_shape):
        self.scale = self.add_weight(name="scale", shape=(), initializer="ones",
                                     trainable=True) if self.use_scale else None
        self.concat_score_weight = self.add_weight(
            name="concat_score_weight", shape=(), initializer="ones", trainable=True) \
            if self.score_mode == "concat" else None
        super().build(input_shape)

    def _calculate_scores(self, query, key):
        if self.score_mode == "dot":
            scores = M.matmul(query, key, transpose_b=True)
            return scores if self.scale is None else M.multiply(scores, self._weight(self.scale))
        total = M.add(A.expand_dims(query, axis=-2), A.expand_dims(key, axis=-3))
        if self.scale is not None:
            total = M.multiply(self._weight(self.scale), total)
        return M.multiply(self._weight(self.concat_score_weight),
                          M.reduce_sum(M.tanh(total), axis=-1))

    def get_config(self):
        cfg = super().get_config()
        cfg.update(use_scale=self.use_scale, score_mode=self.score_mode)
        return cfg


class AdditiveAttention(BaseDenseAttention):
    """Additive attention layer, a.k.a. Bahdanau-style attention
    (``tf.keras.layers.AdditiveAttention``)."""

    def __init__(self, use_scale=True, **kwargs):
        super().__init__(**kwargs)
        self.use_scale = use_scale

    def build(self, input_shape):
        dim = tuple(input_shape[1])[-1]
        self.scale = self.add_weight(name="scale", shape=[dim], initializer="glorot_uniform",
                                     trainable=True) if self.use_scale else None
        super().build(input_shape)

    def _calculate_scores(self, query, key):
        total = M.tanh(M.add(A.expand_dims(query, axis=-2), A.expand_dims(key, axis=-3)))
        scale = self._weight(self.scale) if self.use_scale else A.constant(1.0, total.dtype)
        return M.reduce_sum(M.multiply(scale, total), axis=-1)

    def get_config(self):
        cfg = super().get_config()
        cfg["use_scale"] = self.use_scale
        return cfg


def _lower_triangular_mask(shape):
    """A boolean mask, True on and below the diagonal of the last two dimensions."""
    ones = A.ones(shape, dtype=dtypes.int32)
    return M.greater_equal(scan_ops.cumsum(ones, axis=-2), scan_ops.cumsum(ones, axis=-1))
