"""``tf.saved_model``: save and load Keras models, and the options of their I/O (names only)."""

from simdist.keras.saving.options import LoadOptions, SaveOptions  # noqa: F401
from simdist.keras.saving.saved_model_api import (  # noqa: F401
    DEFAULT_SIGNATURE_KEY as DEFAULT_SERVING_SIGNATURE_DEF_KEY,
)
from simdist.keras.saving.saved_model_api import load, save  # noqa: F401
