"""A recurrent layer made of one cell it builds itself (LSTM, GRU, SimpleRNN).

Glossary:
  CELL        -- the cell class; the layer's own arguments (``units``, activations,
                 initializers, dropouts ...) are the cell's, the rest the RNN's.
  cell name   -- ``<cell class in snake case>``: weights are ``lstm/lstm_cell/kernel``.
  attributes  -- ``layer.units``, ``layer.dropout`` ... read the cell's.
  input_spec  -- rank 3: ``Input 0 of layer "lstm" is incompatible with the layer: expected
                 ndim=3, found ndim=2``.
  fused path  -- LSTM and GRU with TF's default activations, a bias, no recurrent dropout,
                 not unrolled (and GRU's reset_after) run TF's cuDNN-compatible path
                 (standard_lstm / standard_gru on a CPU): input dropout is then the
                 layer's own, one mask over the whole ``(batch, time, features)`` input
                 drawn from the layer's ``seed``, not the cell's mask shared by all steps.

Mirrors the constructors and properties of tf_keras/src/layers/rnn/lstm.py (LSTM),
gru.py (GRU) and simple_rnn.py (SimpleRNN).
"""

from __future__ import annotations

import functools
import inspect

from simdist.framework.ops import math_ops as M
from simdist.keras import activations, regularizers
from simdist.keras.engine.input_spec import InputSpec
from simdist.keras.layers.rnn.base_rnn import RNN

_RNN_ARGS = ("return_sequences", "return_state", "go_backwards", "stateful", "time_major",
             "unroll")


class CellLayer(RNN):
    """An RNN over a cell of class ``CELL`` built from the layer's arguments."""

    CELL = None
    CELL_NAME = None
    GATES = 0           # LSTM 4, GRU 3: a fused path (see the glossary); SimpleRNN none

    def __init__(self, units, **kwargs):
        if self.GATES:
            self._init_dropout_masks(kwargs.pop("seed", None))
        cell_args = _cell_arguments(self.CELL)
        cell_kwargs = {k: kwargs.pop(k) for k in list(kwargs) if k in cell_args}
        if "implementation" in kwargs:     # (SimpleRNN: ignored, as TF's)
            implementation = kwargs.pop("implementation")
            if self.GATES:
                cell_kwargs["implementation"] = implementation
        activity_regularizer = kwargs.pop("activity_regularizer", None)
        cell = self.CELL(units, name=self.CELL_NAME, dtype=kwargs.get("dtype"),
                         trainable=kwargs.get("trainable", True), **cell_kwargs)
        super().__init__(cell, **{k: kwargs.pop(k) for k in _RNN_ARGS if k in kwargs},
                         **kwargs)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self.input_spec = [InputSpec(ndim=3)]

    def _fused(self) -> bool:
        cell = self.cell
        return bool(self.GATES) and cell.activation in (activations.tanh, M.tanh) and \
            cell.recurrent_activation in (activations.sigmoid, M.sigmoid) and \
            cell.recurrent_dropout == 0 and not self.unroll and cell.use_bias and \
            getattr(cell, "reset_after", True)

    def call(self, inputs, mask=None, training=None, initial_state=None):
        if not self._fused() or self.dropout == 0:
            return super().call(inputs, mask, training, initial_state)
        self.reset_dropout_mask()
        masks = self.get_dropout_mask_for_cell(inputs, training, count=self.GATES)
        # the cell then runs without dropout of its own (TF's standard_lstm has none):
        # with training off its masks are ones
        return super().call(M.multiply(inputs, masks[0]), mask, False, initial_state)

    def __getattr__(self, name):
        # ``units``, ``activation`` ... are the cell's (TF: a property per argument)
        cell = self.__dict__.get("cell")
        if cell is not None and not name.startswith("_") and \
                name in _cell_arguments(type(cell)) | {"implementation"}:
            return getattr(cell, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def get_config(self):
        cfg = super().get_config()
        del cfg["cell"]
        cell_cfg = self.cell.get_config()
        for k in ("name", "trainable", "dtype"):
            cell_cfg.pop(k, None)
        cfg.update(cell_cfg)
        cfg["activity_regularizer"] = regularizers.serialize(self.activity_regularizer)
        return cfg

    @classmethod
    def from_config(cls, config):
        return cls(**config)


@functools.cache
def _cell_arguments(cls) -> frozenset:
    """The named arguments of ``cls``'s constructors (its own and its bases' up to Layer);
    read at every attribute the layer forwards to its cell: looked up once per class."""
    from simdist.keras.engine.base_layer import Layer

    names = set()
    for klass in cls.__mro__:
        if klass is Layer or not issubclass(klass, Layer):
            break
        if "__init__" in vars(klass):
            names |= set(inspect.signature(klass.__init__).parameters)
    return frozenset(names - {"self", "kwargs"})
