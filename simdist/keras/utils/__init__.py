"""Keras utilities (names only)."""

from simdist.keras.utils.progbar import Progbar
from simdist.keras.utils.tf_utils import set_random_seed
