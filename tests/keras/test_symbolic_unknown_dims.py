"""A user's layer called on a KerasTensor with unknown dimensions besides the batch (no
compute_output_shape): its output keeps them unknown, as TF's graph infers them (simdist
probes its call twice, with those dimensions 1 and 2), and what its call prints shows once,
as TF calls it once in its scratch graph. The masking and padding guide's replay
(test_keras_rnn_guides.py) is the TF evidence for the shape."""

import simdist as tf


class _Doubling(tf.keras.layers.Layer):
    def call(self, x):
        print("call")
        self.add_loss(tf.reduce_sum(x))
        return tf.concat([x, x], axis=-1)


def test_unknown_dimensions_stay_unknown_and_the_call_prints_once(capsys):
    inputs = tf.keras.Input((None, 3))
    outputs = _Doubling()(inputs)
    assert outputs.shape.as_list() == [None, None, 6]
    assert capsys.readouterr().out == "call\n"
    model = tf.keras.Model(inputs, outputs)
    assert len(model.losses) == 1
    assert model(tf.ones((2, 5, 3))).shape == (2, 5, 6)
