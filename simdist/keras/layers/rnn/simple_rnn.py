"""``tf.keras.layers.SimpleRNNCell`` and ``SimpleRNN``: a fully connected recurrence.

Glossary:
  step     -- ``h' = activation(x @ kernel + bias + h @ recurrent_kernel)`` (tanh); the
              output is ``h'``; ``state_size`` and ``output_size`` are ``units``.
  dropout  -- one mask on the inputs, one on ``h`` (``recurrent_dropout``), cached per
              sequence (DropoutRNNCellMixin).

Mirrors tf_keras/src/layers/rnn/simple_rnn.py.
"""

from __future__ import annotations

from simdist.framework.ops import math_ops as M
from simdist.framework.ops import nn_ops as N
from simdist.keras.layers.rnn.cell_layer import CellLayer
from simdist.keras.layers.rnn.recurrent_cell import RecurrentCell


class SimpleRNNCell(RecurrentCell):
    """Cell class for SimpleRNN (``tf.keras.layers.SimpleRNNCell``)."""

    def __init__(self, units, **kwargs):
        super().__init__(units, **kwargs)
        self.state_size = self.units

    def build(self, input_shape):
        self._add_weights(input_shape[-1], 1)
        super().build(input_shape)

    def call(self, inputs, states, training=None):
        nested = isinstance(states, (list, tuple))
        prev_output = states[0] if nested else states
        dp_mask = self.get_dropout_mask_for_cell(inputs, training)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(prev_output, training)
        if dp_mask is not None:
            inputs = M.multiply(inputs, dp_mask)
        h = M.matmul(inputs, self._weight(self.kernel))
        if self.bias is not None:
            h = N.bias_add(h, self._weight(self.bias))
        if rec_dp_mask is not None:
            prev_output = M.multiply(prev_output, rec_dp_mask)
        output = M.add(h, M.matmul(prev_output, self._weight(self.recurrent_kernel)))
        if self.activation is not None:
            output = self.activation(output)
        return output, [output] if nested else output


class SimpleRNN(CellLayer):
    """Fully-connected RNN where the output is fed back to input (``tf.keras.layers.SimpleRNN``)."""

    CELL, CELL_NAME = SimpleRNNCell, "simple_rnn_cell"
