"""``tf.keras.layers.LSTM``: an LSTMCell run over the time axis.

Glossary:
  standard_lstm -- on a CPU (and on simdist's simulated devices) TF-Keras runs the cell's
                   step in a ``while_loop`` (``backend.rnn``); cuDNN's kernel on a real GPU
                   is not simulated: the same formulas in the same order.

Mirrors tf_keras/src/layers/rnn/lstm.py (LSTM).
"""

from __future__ import annotations

from simdist.keras.layers.rnn.cell_layer import CellLayer
from simdist.keras.layers.rnn.dropout_rnn_cell_mixin import DropoutRNNCellMixin
from simdist.keras.layers.rnn.lstm_cell import LSTMCell


class LSTM(DropoutRNNCellMixin, CellLayer):
    """Long Short-Term Memory layer - Hochreiter 1997 (``tf.keras.layers.LSTM``)."""

    CELL, CELL_NAME, GATES = LSTMCell, "lstm_cell", 4
