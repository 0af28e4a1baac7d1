"""What simdist refuses about optimizers, with TF 2.15's exception types and messages."""

import pytest

import simdist as tf


def test_loss_scale_optimizer_needs_an_optimizer_object():
    # TF 2.15: TypeError: "inner_optimizer" must be an instance of
    # `tf.keras.optimizers.Optimizer` or `tf.keras.optimizers.experimental.Optimizer`, but
    # got: sgd.
    with pytest.raises(TypeError, match=r'"inner_optimizer" must be an instance of '
                                        r"`tf.keras.optimizers.Optimizer` .* but got: sgd\."):
        tf.keras.mixed_precision.LossScaleOptimizer("sgd")


@pytest.mark.parametrize("name", ["Adadelta", "Adamax", "Ftrl", "Nadam"])
def test_unsimulated_legacy_optimizers_are_refused_naming_those_that_are(name):
    with pytest.raises(NotImplementedError, match=f"legacy.{name} is not simulated .* "
                                                  "Adagrad, Adam, Optimizer, RMSprop, SGD"):
        getattr(tf.keras.optimizers.legacy, name)(learning_rate=0.1)
