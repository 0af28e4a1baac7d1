"""``tf.keras.optimizers.experimental``: the Keras 2.11+ optimizers under their pre-2.11
home (the same classes as ``tf.keras.optimizers``; Adafactor, not Lion, as tf-keras)."""

from simdist.keras.optimizers.adadelta import Adadelta  # noqa: F401
from simdist.keras.optimizers.adafactor import Adafactor  # noqa: F401
from simdist.keras.optimizers.adagrad import Adagrad  # noqa: F401
from simdist.keras.optimizers.adam import Adam, AdamW  # noqa: F401
from simdist.keras.optimizers.adamax import Adamax  # noqa: F401
from simdist.keras.optimizers.ftrl import Ftrl  # noqa: F401
from simdist.keras.optimizers.nadam import Nadam  # noqa: F401
from simdist.keras.optimizers.optimizer import Optimizer  # noqa: F401
from simdist.keras.optimizers.rmsprop import RMSprop  # noqa: F401
from simdist.keras.optimizers.sgd import SGD  # noqa: F401
