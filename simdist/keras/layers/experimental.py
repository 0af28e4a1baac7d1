"""``tf.keras.layers.experimental`` (names only)."""

from simdist.keras.layers import preprocessing
from simdist.keras.layers.normalization import SyncBatchNormalization

__all__ = ["SyncBatchNormalization", "preprocessing"]
