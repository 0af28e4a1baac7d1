"""``StringLookup``: strings -> integer indices through a vocabulary (or back, ``invert``).

Glossary:
  oov_token / mask_token -- '[UNK]' / None by default; ``encoding`` decodes the table's
                            bytes for ``get_vocabulary`` (tokens as NumPy ``str_``).
See index_lookup.py for the lookup, the special indices and the output modes.

Mirrors tf_keras/src/layers/preprocessing/string_lookup.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes
from simdist.keras.layers.preprocessing.index_lookup import IndexLookup


class StringLookup(IndexLookup):
    """Maps strings to indices (``tf.keras.layers.StringLookup``)."""

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]",
                 vocabulary=None, idf_weights=None, encoding="utf-8", invert=False,
                 output_mode="int", sparse=False, pad_to_max_tokens=False, **kwargs):
        if kwargs.get("dtype") in (dtypes.string, "string"):
            del kwargs["dtype"]
        self.encoding = encoding
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         vocabulary_dtype="string", idf_weights=idf_weights, invert=invert,
                         output_mode=output_mode, sparse=sparse,
                         pad_to_max_tokens=pad_to_max_tokens, **kwargs)

    def _key(self, token):
        if isinstance(token, bytes):
            return bytes(token)
        return str(token).encode(self.encoding)

    def _tokens_to_numpy(self, keys):
        return list(np.array([k.decode(self.encoding) if isinstance(k, bytes) else k
                              for k in keys]))

    def get_config(self):
        config = super().get_config()
        del config["vocabulary_dtype"]
        config["encoding"] = self.encoding
        return config
