"""``tf.keras.layers.LSTMCell``: one step of a long short-term memory layer.

Glossary:
  state         -- ``[h, c]``: the previous output ``h`` (``units`` wide) and carry ``c``;
                   ``state_size`` is ``[units, units]``, ``output_size`` is ``units``.
  gates         -- ``z = x @ kernel + h @ recurrent_kernel + bias`` split in four along the
                   last axis: input ``i``, forget ``f``, candidate, output ``o`` (Keras's
                   implementation 2, its default): ``i, f, o = recurrent_activation(...)``,
                   ``c' = f * c + i * activation(candidate)``, ``h' = o * activation(c')``.
  unit_forget_bias -- the bias starts at ``bias_initializer`` with the forget gate's part
                   at ones.
  get_initial_state -- zeros ``[batch_size, units]`` for ``h`` and ``c`` (the batch of
                   ``inputs`` when given).
  dropout       -- ``dropout`` on the inputs, ``recurrent_dropout`` on ``h``: one mask per
                   gate, cached (DropoutRNNCellMixin); with recurrent dropout the cell runs
                   Keras's implementation 1 (a kernel slice per gate, each gate's input
                   and ``h`` masked on their own); with input dropout only, implementation
                   2 masks the inputs with the first mask (TF draws all four).

Mirrors tf_keras/src/layers/rnn/lstm.py (LSTMCell) and rnn_utils.py
(generate_zero_filled_state_for_cell).
"""

from __future__ import annotations

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import nn_ops as N
from simdist.keras import activations, initializers
from simdist.keras.layers.rnn.recurrent_cell import RecurrentCell


class LSTMCell(RecurrentCell):
    """Cell class for the LSTM layer (``tf.keras.layers.LSTMCell``)."""

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, **kwargs):
        implementation = kwargs.pop("implementation", 2)
        super().__init__(units, activation, use_bias, kernel_initializer,
                         recurrent_initializer, bias_initializer, kernel_regularizer,
                         recurrent_regularizer, bias_regularizer, kernel_constraint,
                         recurrent_constraint, bias_constraint, dropout, recurrent_dropout,
                         **kwargs)
        self.implementation = 1 if self.recurrent_dropout != 0 else implementation
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = unit_forget_bias
        self.state_size = [self.units, self.units]

    def build(self, input_shape):
        self._add_weights(input_shape[-1], 4, bias_initializer=self._bias_initializer())
        super().build(input_shape)

    def _bias_initializer(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        init, units = self.bias_initializer, self.units

        def bias_initializer(_, *args, **kwargs):
            return A.concat([init((units,), *args, **kwargs),
                             initializers.get("ones")((units,), *args, **kwargs),
                             init((units * 2,), *args, **kwargs)], axis=-1)
        return bias_initializer

    def call(self, inputs, states, training=None):
        h_tm1, c_tm1 = states[0], states[1]
        dp_mask = self.get_dropout_mask_for_cell(inputs, training, count=4)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(h_tm1, training, count=4)
        if self.implementation == 1:
            return self._split_step(inputs, h_tm1, c_tm1, dp_mask, rec_dp_mask)
        if 0.0 < self.dropout < 1.0:
            inputs = M.multiply(inputs, dp_mask[0])
        z = M.matmul(inputs, self._weight(self.kernel))
        z = M.add(z, M.matmul(h_tm1, self._weight(self.recurrent_kernel)))
        if self.use_bias:
            z = N.bias_add(z, self._weight(self.bias))
        return self._carry_and_output(A.split(z, num_or_size_splits=4, axis=1), c_tm1)

    def _carry_and_output(self, z, c_tm1):
        """The gates from their pre-activations ``z`` (i, f, candidate, o): ``[h, c]``."""
        i = self.recurrent_activation(z[0])
        f = self.recurrent_activation(z[1])
        c = M.add(M.multiply(f, c_tm1), M.multiply(i, self.activation(z[2])))
        o = self.recurrent_activation(z[3])
        h = M.multiply(o, self.activation(c))
        return h, [h, c]

    def _split_step(self, inputs, h_tm1, c_tm1, dp_mask, rec_dp_mask):
        """Keras's implementation 1: per gate, its (masked) input times its kernel slice
        plus its bias, then its (masked) ``h`` times its recurrent kernel slice."""
        xs = [M.multiply(inputs, m) for m in dp_mask] if 0 < self.dropout < 1.0 else \
            [inputs] * 4
        hs = [M.multiply(h_tm1, m) for m in rec_dp_mask] if 0 < self.recurrent_dropout < 1.0 \
            else [h_tm1] * 4
        kernels = A.split(self._weight(self.kernel), num_or_size_splits=4, axis=1)
        x = [M.matmul(xi, k) for xi, k in zip(xs, kernels)]
        if self.use_bias:
            biases = A.split(self._weight(self.bias), num_or_size_splits=4, axis=0)
            x = [N.bias_add(xi, b) for xi, b in zip(x, biases)]
        rk, u = self._weight(self.recurrent_kernel), self.units
        z = [M.add(x[g], M.matmul(hs[g], rk[:, g * u:(g + 1) * u])) for g in range(4)]
        return self._carry_and_output(z, c_tm1)

    def get_config(self):
        cfg = super().get_config()
        cfg.update(recurrent_activation=activations.serialize(self.recurrent_activation),
                   unit_forget_bias=self.unit_forget_bias, implementation=self.implementation)
        return cfg
