"""``Hashing``: values -> bins by a fingerprint (the hashing trick).

Glossary:
  num_bins      -- how many bins; a value's bin is FarmHash Fingerprint64 of its bytes
                   modulo ``num_bins`` (``tf.strings.to_hash_bucket_fast``), integers hashed
                   as their decimal strings (``tf.as_string``).
  mask_value    -- a value that goes to bin 0, the others to ``1 + hash % (num_bins - 1)``.
  salt          -- TF's keyed SipHash (``to_hash_bucket_strong``): not modelled, refused.
  output_mode   -- 'int' (int64 bins) or 'one_hot' / 'multi_hot' / 'count' vectors of
                   ``num_bins`` (float32).

Mirrors tf_keras/src/layers/preprocessing/hashing.py.
"""

from __future__ import annotations

from simdist.framework import dtypes, execute
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import string_ops
from simdist.keras import backend
from simdist.keras.engine.base_layer import Layer
from simdist.keras.layers.preprocessing.category_encoding import validate_string_arg
from simdist.keras.layers.preprocessing.index_lookup import (
    COUNT,
    INT,
    MULTI_HOT,
    ONE_HOT,
    encode_categorical_inputs,
)


def int_output_dtype(kwargs, output_mode):
    """Keras's dtype of an 'int'-or-vectors layer: int64 for 'int' (an explicit float dtype
    replaced by it), floatx for vectors."""
    if kwargs.get("dtype") is None:
        kwargs["dtype"] = dtypes.int64 if output_mode == INT else backend.floatx()
    elif output_mode == INT and not dtypes.as_dtype(kwargs["dtype"]).is_integer:
        kwargs["dtype"] = dtypes.int64


def check_output_mode(layer, output_mode, sparse):
    """Keras's checks of ``output_mode`` and ``sparse`` (shared with Discretization)."""
    validate_string_arg(output_mode, (INT, ONE_HOT, MULTI_HOT, COUNT), type(layer).__name__,
                        "output_mode")
    if sparse and output_mode == INT:
        raise ValueError("`sparse` may only be true if `output_mode` is `\"one_hot\"`, "
                         f"`\"multi_hot\"`, or `\"count\"`. Received: sparse={sparse} and "
                         f"output_mode={output_mode}")
    if sparse:
        raise NotImplementedError(f"sparse=True makes {type(layer).__name__} return a "
                                  "tf.SparseTensor, which simdist does not model here; use "
                                  "sparse=False.")


def encode(indices, output_mode, depth, dtype):
    """'int': the indices cast to ``dtype``; else encode_categorical_inputs's vectors."""
    if output_mode == INT:
        return A.identity(A.cast(indices, dtype))
    return encode_categorical_inputs(indices, output_mode, depth, dtype)


class Hashing(Layer):
    """Hashes values into bins (``tf.keras.layers.Hashing``)."""

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False,
                 **kwargs):
        if num_bins is None or num_bins <= 0:
            raise ValueError("The `num_bins` for `Hashing` cannot be `None` or non-positive "
                             f"values. Received: num_bins={num_bins}.")
        int_output_dtype(kwargs, output_mode)
        super().__init__(**kwargs)
        check_output_mode(self, output_mode, sparse)
        if salt is not None and not (isinstance(salt, (tuple, list)) and len(salt) == 2
                                     or isinstance(salt, int)):
            raise ValueError("The `salt` argument for `Hashing` can only be a tuple of size 2 "
                             f"integers, or a single integer. Received: salt={salt}.")
        if salt is not None:
            raise NotImplementedError("simdist's Hashing does not model a `salt` (TF's keyed "
                                      "SipHash, tf.strings.to_hash_bucket_strong); use "
                                      "salt=None.")
        self.num_bins, self.mask_value = num_bins, mask_value
        self.salt = None
        self.output_mode, self.sparse = output_mode, sparse

    def call(self, inputs):
        inputs = execute.convert_to_tensor(inputs)
        return encode(self._hash_values_to_bins(inputs), self.output_mode, self.num_bins,
                      self.compute_dtype)

    def _hash_values_to_bins(self, values):
        hash_bins, mask = self.num_bins, None
        if self.mask_value is not None and hash_bins > 1:
            hash_bins -= 1
            mask = M.equal(values, self.mask_value)
        if values.dtype.is_integer:
            values = string_ops.as_string(values)
        values = string_ops.to_hash_bucket_fast(values, hash_bins)
        if mask is not None:
            values = M.add(values, A.ones_like(values))
            values = A.where(mask, A.zeros_like(values), values)
        return values

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update(num_bins=self.num_bins, salt=self.salt, mask_value=self.mask_value,
                      output_mode=self.output_mode, sparse=self.sparse)
        return config
