"""TF's Keras guides on recurrent networks run under simdist and print what TF 2.21 printed
(``record_tf_tutorials.py 1 working_with_rnns``, ``1 masking_and_padding``).

"Working with RNNs" (programs/working_with_rnns.py, the keras-io tf.keras 2 version): the
summaries of Embedding / LSTM / GRU / SimpleRNN / Bidirectional models and their outputs from
seeded weights, an encoder's ``return_state`` states as a decoder's ``initial_state``, a
stateful LSTM over three batches, ``reset_states`` and its states reused by a new layer,
LSTM and ``RNN(LSTMCell)`` models with BatchNormalization fit on MNIST-shaped rows (one
sharing the other's weights) and a prediction, and a custom cell of nested inputs, outputs
and states (a ``TensorShape`` state size of two axes) fit as a two-output model (TF's
output names 'rnn_1' and 'rnn_1_1'). Numbers to 1e-4; Keras's step functions trace.

"Understanding masking & padding" (programs/masking_and_padding.py, the keras-io tf.keras 2
version): ``tf.keras.preprocessing.sequence.pad_sequences``, the masks of Embedding
(``mask_zero``) and Masking, LSTMs given masks by a Sequential, a functional model and by
hand, a custom layer splitting the mask, a custom embedding's ``compute_mask``, a custom
layer passing the mask on in a functional model (its symbolic output's unknown time axis
and the mask's KerasTensor: TF's placeholder name, no layer) and a masked softmax.
"""

from test_tutorials import _replays_traced, cpu_machine  # noqa: F401 - the fixture


def test_working_with_rnns_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("working_with_rnns")


def test_masking_and_padding_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("masking_and_padding")
