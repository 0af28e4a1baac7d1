"""``IntegerLookup``: integer tokens -> indices through a vocabulary (or back, ``invert``).

Glossary:
  oov_token / mask_token -- -1 / None by default, kept as NumPy int64 as Keras does;
                            several OOV indices take ``token mod num_oov_indices``.
  vocabulary_dtype       -- 'int64' (or another integer dtype) of the tokens.
See index_lookup.py for the lookup, the special indices and the output modes.

Mirrors tf_keras/src/layers/preprocessing/integer_lookup.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes
from simdist.keras.layers.preprocessing.index_lookup import IndexLookup


class IntegerLookup(IndexLookup):
    """Maps integers to indices (``tf.keras.layers.IntegerLookup``)."""

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1,
                 vocabulary=None, vocabulary_dtype="int64", idf_weights=None, invert=False,
                 output_mode="int", sparse=False, pad_to_max_tokens=False, **kwargs):
        if not dtypes.as_dtype(vocabulary_dtype).is_integer:
            raise ValueError("`vocabulary_dtype` must be an integer dtype. "
                             f"Received: {vocabulary_dtype}")
        if output_mode != "int" and kwargs.get("dtype") in (dtypes.int64, "int64"):
            del kwargs["dtype"]
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError("If `max_tokens` is set for `IntegerLookup`, it must be greater "
                             f"than 1. Received: max_tokens={max_tokens}.")
        if num_oov_indices < 0:
            raise ValueError("The value of `num_oov_indices` argument for `IntegerLookup` "
                             f"must >= 0. Received num_oov_indices={num_oov_indices}.")
        mask_token = None if mask_token is None else np.int64(mask_token)
        oov_token = None if oov_token is None else np.int64(oov_token)
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         vocabulary_dtype=vocabulary_dtype, idf_weights=idf_weights,
                         invert=invert, output_mode=output_mode, sparse=sparse,
                         pad_to_max_tokens=pad_to_max_tokens, **kwargs)

    def _key(self, token):
        return int(token)

    def _tokens_to_numpy(self, keys):
        return [np.int64(k) for k in keys]
