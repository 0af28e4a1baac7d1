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
