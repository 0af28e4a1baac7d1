"""Keras utilities (names only)."""

from simdist.keras.utils.progbar import Progbar
