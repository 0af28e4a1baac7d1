"""Op layers (keras/layers/tf_op_layer.py) beyond the recorded cases of op_layer_cases.py:
the warning TF 2.21 logs when an op layer reads a variable that is not its weight."""

import logging

import numpy as np

import simdist as tf

# TF 2.21 + tf-keras, the same program: the "tensorflow" logger's warning, once.
TF_WARNING = ("The following Variables were used in a Lambda layer's call (tf.math.multiply), "
              "but are not present in its tracked objects:   <tf.Variable 'scale:0' shape=() "
              "dtype=float32>. This is a strong indication that the Lambda layer should be "
              "rewritten as a subclassed Layer.")


def test_a_variable_read_by_an_op_layer_is_warned_about_once(caplog):
    tf.keras.backend.clear_session()
    v = tf.Variable(2.0, name="scale")
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        x = tf.keras.Input(shape=(2,))
        m = tf.keras.Model(x, x * v)
        out = [m(np.ones((1, 2), np.float32)) for _ in range(2)]
    assert [r.getMessage() for r in caplog.records if r.name == "tensorflow"] == [TF_WARNING]
    assert out[1].numpy().tolist() == [[2.0, 2.0]]
    assert m.weights == []  # not the layer's: saving the model does not save it
