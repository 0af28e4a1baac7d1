"""``tf.keras.layers`` (names only)."""

from simdist.keras.engine.base_layer import Layer
from simdist.keras.engine.input_layer import Input
from simdist.keras.layers import experimental
from simdist.keras.layers.core import Activation, Dense, Dropout, Flatten, InputLayer
from simdist.keras.layers.normalization import BatchNormalization
