"""Keras's preprocessing layers: vocabulary lookups and feature normalization.

Glossary:
  index_lookup      -- the vocabulary table shared by StringLookup and IntegerLookup.
  string_lookup / integer_lookup -- strings / integers -> indices (and back).
  normalization     -- ``(x - mean) / sqrt(variance)``, learned by ``adapt``.
Mirrors tf_keras/src/layers/preprocessing/.
"""

# tf.keras.layers.experimental.preprocessing's names (older tutorials use them).
from simdist.keras.engine.base_preprocessing_layer import PreprocessingLayer  # noqa: E402
from simdist.keras.layers.preprocessing.integer_lookup import IntegerLookup  # noqa: E402
from simdist.keras.layers.preprocessing.normalization import Normalization  # noqa: E402
from simdist.keras.layers.preprocessing.string_lookup import StringLookup  # noqa: E402

__all__ = ["IntegerLookup", "Normalization", "PreprocessingLayer", "StringLookup"]
