"""``tf.keras.models`` (names only)."""

from simdist.keras.engine.sequential import Sequential  # noqa: F401
from simdist.keras.engine.training import Model  # noqa: F401
from simdist.keras.saving.saving_api import load_model, save_model  # noqa: F401
