"""``tf.keras.optimizers.legacy``: the pre-2.11 optimizers (OptimizerV2), each simulated
with TF's update kernels (or, for Nadam, TF's composite ops)."""

from simdist.keras.optimizers.legacy.adadelta import Adadelta
from simdist.keras.optimizers.legacy.adagrad import Adagrad
from simdist.keras.optimizers.legacy.adam import Adam
from simdist.keras.optimizers.legacy.adamax import Adamax
from simdist.keras.optimizers.legacy.ftrl import Ftrl
from simdist.keras.optimizers.legacy.gradient_descent import SGD
from simdist.keras.optimizers.legacy.nadam import Nadam
from simdist.keras.optimizers.legacy.optimizer_v2 import OptimizerV2 as Optimizer
from simdist.keras.optimizers.legacy.rmsprop import RMSprop

__all__ = ["SGD", "Adadelta", "Adagrad", "Adam", "Adamax", "Ftrl", "Nadam", "Optimizer",
           "RMSprop"]
