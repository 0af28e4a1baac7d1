"""What the built-in recurrent cells share (SimpleRNNCell, GRUCell, LSTMCell).

Glossary:
  units          -- the width of the output and of each state; a positive integer.
  weights        -- ``kernel`` (inputs), ``recurrent_kernel`` (state), ``bias``: their
                    initializers (glorot_uniform, orthogonal, zeros) and regularizers.
  dropout        -- ``dropout`` on the inputs, ``recurrent_dropout`` on the state, clipped
                    to [0, 1] (masks: DropoutRNNCellMixin, drawn from ``seed``).
  get_initial_state -- zeros for each state (base_rnn.zero_state).

Mirrors the constructors and get_config of tf_keras/src/layers/rnn/simple_rnn.py, gru.py and
lstm.py (their cells).
"""

from __future__ import annotations

from simdist.keras import activations, initializers, regularizers
from simdist.keras.engine.base_layer import Layer, refuse_constraints
from simdist.keras.layers.rnn.dropout_rnn_cell_mixin import DropoutRNNCellMixin


class RecurrentCell(DropoutRNNCellMixin, Layer):
    """A cell's shared arguments, weights' settings, initial state and config."""

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, **kwargs):
        if units <= 0:
            raise ValueError("Received an invalid value for argument `units`, expected a "
                             f"positive integer, got {units}.")
        kwargs.pop("enable_caching_device", None)
        self._init_dropout_masks(kwargs.pop("seed", None))   # (TF: BaseRandomLayer's seed)
        super().__init__(**kwargs)
        refuse_constraints(kernel_constraint, recurrent_constraint, bias_constraint)
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.output_size = self.units

    def _add_weights(self, input_dim, gates, bias_shape=None, bias_initializer=None):
        """``kernel`` (input_dim, gates * units), ``recurrent_kernel`` (units, gates *
        units) and, with ``use_bias``, ``bias`` (``bias_shape``, default gates * units)."""
        width = self.units * gates
        self.kernel = self.add_weight(
            shape=(input_dim, width), name="kernel",
            initializer=self.kernel_initializer, regularizer=self.kernel_regularizer)
        self.recurrent_kernel = self.add_weight(
            shape=(self.units, width), name="recurrent_kernel",
            initializer=self.recurrent_initializer, regularizer=self.recurrent_regularizer)
        self.bias = self.add_weight(
            shape=bias_shape or (width,), name="bias",
            initializer=bias_initializer or self.bias_initializer,
            regularizer=self.bias_regularizer) if self.use_bias else None

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        """Zeros for each state, ``[batch_size, units]``.

        Raises:
          ValueError: neither ``inputs`` nor both ``batch_size`` and ``dtype``.
        """
        from simdist.keras.layers.rnn.base_rnn import zero_state

        return zero_state(self, inputs, batch_size, dtype)

    def get_config(self):
        cfg = super().get_config()
        cfg.update(
            units=self.units, activation=activations.serialize(self.activation),
            use_bias=self.use_bias,
            kernel_initializer=initializers.serialize(self.kernel_initializer),
            recurrent_initializer=initializers.serialize(self.recurrent_initializer),
            bias_initializer=initializers.serialize(self.bias_initializer),
            kernel_regularizer=regularizers.serialize(self.kernel_regularizer),
            recurrent_regularizer=regularizers.serialize(self.recurrent_regularizer),
            bias_regularizer=regularizers.serialize(self.bias_regularizer),
            kernel_constraint=None, recurrent_constraint=None, bias_constraint=None,
            dropout=self.dropout, recurrent_dropout=self.recurrent_dropout)
        return cfg
