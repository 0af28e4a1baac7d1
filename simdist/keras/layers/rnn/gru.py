"""``tf.keras.layers.GRUCell`` and ``GRU``: the gated recurrent unit (TF 2's, reset after).

Glossary:
  gates       -- update ``z`` and reset ``r`` (``recurrent_activation``, sigmoid), the
                 candidate ``hh`` (``activation``, tanh); ``h' = z * h + (1 - z) * hh``.
  reset_after -- (default) the reset gate multiplies ``h @ recurrent_kernel`` after the
                 matmul (cuDNN's order): two biases, ``bias`` of shape ``(2, 3 * units)``;
                 ``reset_after=False`` multiplies ``h`` first, one bias ``(3 * units,)``.
  implementation -- 2 (default): one matmul for the three gates, split; 1 (taken with
                 ``recurrent_dropout``): a kernel slice per gate, each gate's input and
                 ``h`` masked on their own.

Mirrors tf_keras/src/layers/rnn/gru.py (GRUCell, GRU).
"""

from __future__ import annotations

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import nn_ops as N
from simdist.keras import activations
from simdist.keras.layers.rnn.cell_layer import CellLayer
from simdist.keras.layers.rnn.dropout_rnn_cell_mixin import DropoutRNNCellMixin
from simdist.keras.layers.rnn.recurrent_cell import RecurrentCell


class GRUCell(RecurrentCell):
    """Cell class for the GRU layer (``tf.keras.layers.GRUCell``)."""

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None,
                 dropout=0.0, recurrent_dropout=0.0, reset_after=True, **kwargs):
        implementation = kwargs.pop("implementation", 2)
        super().__init__(units, activation, use_bias, kernel_initializer,
                         recurrent_initializer, bias_initializer, kernel_regularizer,
                         recurrent_regularizer, bias_regularizer, kernel_constraint,
                         recurrent_constraint, bias_constraint, dropout, recurrent_dropout,
                         **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.implementation = 1 if self.recurrent_dropout != 0 else implementation
        self.reset_after = reset_after
        self.state_size = self.units

    def build(self, input_shape):
        u = self.units
        self._add_weights(input_shape[-1], 3, (2, 3 * u) if self.reset_after else None)
        super().build(input_shape)

    def call(self, inputs, states, training=None):
        nested = isinstance(states, (list, tuple))
        h_tm1 = states[0] if nested else states
        dp_mask = self.get_dropout_mask_for_cell(inputs, training, count=3)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(h_tm1, training, count=3)
        input_bias = recurrent_bias = None
        if self.use_bias:
            bias = self._weight(self.bias)
            input_bias, recurrent_bias = A.unstack(bias) if self.reset_after else (bias, None)
        step = self._split_step if self.implementation == 1 else self._fused_step
        z, hh = step(inputs, h_tm1, dp_mask, rec_dp_mask, input_bias, recurrent_bias)
        h = M.add(M.multiply(z, h_tm1), M.multiply(M.subtract(1.0, z), hh))
        return h, [h] if nested else h

    def _fused_step(self, inputs, h_tm1, dp_mask, rec_dp_mask, input_bias, recurrent_bias):
        """Implementation 2: ``(z, hh)`` from one matmul of the inputs, one of ``h``."""
        u, rk = self.units, self._weight(self.recurrent_kernel)
        if 0.0 < self.dropout < 1.0:
            inputs = M.multiply(inputs, dp_mask[0])
        matrix_x = M.matmul(inputs, self._weight(self.kernel))
        if self.use_bias:
            matrix_x = N.bias_add(matrix_x, input_bias)
        x_z, x_r, x_h = A.split(matrix_x, 3, axis=-1)
        if self.reset_after:
            matrix_inner = M.matmul(h_tm1, rk)
            if self.use_bias:
                matrix_inner = N.bias_add(matrix_inner, recurrent_bias)
        else:
            matrix_inner = M.matmul(h_tm1, rk[:, :2 * u])
        recurrent_z, recurrent_r, recurrent_h = A.split(matrix_inner, [u, u, -1], axis=-1)
        z = self.recurrent_activation(M.add(x_z, recurrent_z))
        r = self.recurrent_activation(M.add(x_r, recurrent_r))
        if self.reset_after:
            recurrent_h = M.multiply(r, recurrent_h)
        else:
            recurrent_h = M.matmul(M.multiply(r, h_tm1), rk[:, 2 * u:])
        return z, self.activation(M.add(x_h, recurrent_h))

    def _split_step(self, inputs, h_tm1, dp_mask, rec_dp_mask, input_bias, recurrent_bias):
        """Implementation 1: ``(z, hh)`` from a kernel slice per gate, each gate's inputs
        and ``h`` masked with its own mask."""
        u = self.units
        kernel, rk = self._weight(self.kernel), self._weight(self.recurrent_kernel)
        xs = [M.multiply(inputs, m) for m in dp_mask] if 0.0 < self.dropout < 1.0 \
            else [inputs] * 3
        hs = [M.multiply(h_tm1, m) for m in rec_dp_mask] \
            if 0.0 < self.recurrent_dropout < 1.0 else [h_tm1] * 3
        gate = [slice(0, u), slice(u, 2 * u), slice(2 * u, None)]
        x = [M.matmul(xs[g], kernel[:, gate[g]]) for g in range(3)]
        if self.use_bias:
            x = [N.bias_add(x[g], input_bias[gate[g]]) for g in range(3)]
        rec = [M.matmul(hs[g], rk[:, gate[g]]) for g in range(2)]
        if self.reset_after and self.use_bias:
            rec = [N.bias_add(rec[g], recurrent_bias[gate[g]]) for g in range(2)]
        z = self.recurrent_activation(M.add(x[0], rec[0]))
        r = self.recurrent_activation(M.add(x[1], rec[1]))
        if self.reset_after:
            recurrent_h = M.matmul(hs[2], rk[:, gate[2]])
            if self.use_bias:
                recurrent_h = N.bias_add(recurrent_h, recurrent_bias[gate[2]])
            recurrent_h = M.multiply(r, recurrent_h)
        else:
            recurrent_h = M.matmul(M.multiply(r, hs[2]), rk[:, gate[2]])
        return z, self.activation(M.add(x[2], recurrent_h))

    def get_config(self):
        cfg = super().get_config()
        cfg.update(recurrent_activation=activations.serialize(self.recurrent_activation),
                   implementation=self.implementation, reset_after=self.reset_after)
        return cfg


class GRU(DropoutRNNCellMixin, CellLayer):
    """Gated Recurrent Unit - Cho et al. 2014 (``tf.keras.layers.GRU``)."""

    CELL, CELL_NAME, GATES = GRUCell, "gru_cell", 3
