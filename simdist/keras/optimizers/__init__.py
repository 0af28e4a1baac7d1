"""``tf.keras.optimizers``: optimizers by object or by name (one table, ``OPTIMIZERS``)."""

from simdist.keras.optimizers.adadelta import Adadelta
from simdist.keras.optimizers.adafactor import Adafactor  # noqa: F401 - tf.keras name
from simdist.keras.optimizers.adagrad import Adagrad
from simdist.keras.optimizers.adam import Adam, AdamW  # noqa: F401 - tf.keras name
from simdist.keras.optimizers.adamax import Adamax
from simdist.keras.optimizers.ftrl import Ftrl
from simdist.keras.optimizers.lion import Lion  # noqa: F401 - tf.keras name
from simdist.keras.optimizers.nadam import Nadam
from simdist.keras.optimizers.optimizer import Optimizer
from simdist.keras.optimizers.rmsprop import RMSprop
from simdist.keras.optimizers.sgd import SGD
from simdist.keras.utils.serialization import lookup

# Keras 2.15 knows AdamW as a class only, not by name (tf-keras 2.21: Adafactor and Lion too).
OPTIMIZERS = {"adam": Adam, "sgd": SGD, "rmsprop": RMSprop, "adagrad": Adagrad,
              "adadelta": Adadelta, "adamax": Adamax, "nadam": Nadam, "ftrl": Ftrl}


def get(identifier, **kwargs):
    """An optimizer for ``identifier`` (an Optimizer, a name such as 'adam', or a config)."""
    if isinstance(identifier, Optimizer):  # legacy ones too (OptimizerV2 subclasses it)
        return identifier
    if hasattr(identifier, "apply_gradients") and hasattr(identifier, "iterations"):
        return identifier
    if isinstance(identifier, dict):
        cls = OPTIMIZERS[identifier["class_name"].lower()]
        return cls.from_config(identifier.get("config", {}))
    if isinstance(identifier, str):
        # Keras matches names case-insensitively and reports an unknown one as given.
        name = identifier.lower() if identifier.lower() in OPTIMIZERS else identifier
        return lookup(OPTIMIZERS, name, "optimizer")()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


def serialize(optimizer) -> dict:
    return {"class_name": type(optimizer).__name__, "config": optimizer.get_config()}


def deserialize(config):
    return get(config)


# (optimizer_listing, mirrored_update_listing: register the graph listings of
# apply_gradients and of its cross-replica update)
from simdist.keras.optimizers import (  # noqa: E402, F401
    experimental,
    legacy,
    mirrored_update_listing,
    optimizer_listing,
    schedules,
)
