"""``tf.keras.optimizers.legacy``: the pre-2.11 optimizers (OptimizerV2).

SGD, Adam, RMSprop and Adagrad are simulated with TF's update kernels; the others
(Adadelta, Adamax, Ftrl, Nadam) raise NotImplementedError naming those that are.
"""

from simdist.keras.optimizers.legacy.adagrad import Adagrad
from simdist.keras.optimizers.legacy.adam import Adam
from simdist.keras.optimizers.legacy.gradient_descent import SGD
from simdist.keras.optimizers.legacy.optimizer_v2 import OptimizerV2 as Optimizer
from simdist.keras.optimizers.legacy.rmsprop import RMSprop

__all__ = ["SGD", "Adagrad", "Adam", "Optimizer", "RMSprop"]


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)

    def refuse(*args, **kwargs):
        raise NotImplementedError(
            f"tf.keras.optimizers.legacy.{name} is not simulated by simdist; the legacy "
            f"optimizers it simulates are {', '.join(sorted(__all__))}.")

    return refuse
