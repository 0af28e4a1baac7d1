"""``tf.keras`` (Keras 2 API) on simdist: layers, models, losses, optimizers, metrics,
callbacks and mixed precision, running under every simulated strategy (names only).

Mirrors keras/api/_v2/keras/__init__.py.
"""

from simdist.keras import (
    activations,
    backend,
    callbacks,
    datasets,
    initializers,
    layers,
    losses,
    metrics,
    mixed_precision,
    models,
    optimizers,
    preprocessing,
    regularizers,
    utils,
)
from simdist.keras.engine.input_layer import Input
from simdist.keras.engine.sequential import Sequential
from simdist.keras.engine.training import Model

__version__ = "2.15.0"
