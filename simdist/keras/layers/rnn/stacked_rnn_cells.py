"""``tf.keras.layers.StackedRNNCells``: several cells run as one, each feeding the next.

Glossary:
  state_size  -- the cells' state sizes one after another (a cell with several states adds
                 a tuple of them).
  output_size -- the last cell's.
  step        -- cell i gets cell i-1's output and its own states; the new states are every
                 cell's, in order.

Mirrors tf_keras/src/layers/rnn/stacked_rnn_cells.py.
"""

from __future__ import annotations

from simdist.framework import nest
from simdist.framework.name_scope import name_scope
from simdist.keras.engine.base_layer import Layer, _accepts


class StackedRNNCells(Layer):
    """Wrapper allowing a stack of RNN cells to behave as a single cell."""

    def __init__(self, cells, **kwargs):
        for cell in cells:
            if "call" not in dir(cell):
                raise ValueError("All cells must have a `call` method. "
                                 f"Received cell without a `call` method: {cell}")
            if "state_size" not in dir(cell):
                raise ValueError("All cells must have a `state_size` attribute. "
                                 f"Received cell without a `state_size`: {cell}")
        kwargs.pop("reverse_state_order", None)
        super().__init__(**kwargs)
        self.cells = list(cells)

    @property
    def state_size(self):
        return tuple(c.state_size for c in self.cells)

    @property
    def output_size(self):
        last = self.cells[-1]
        return getattr(last, "output_size", None) or _first(last.state_size)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        from simdist.keras.layers.rnn.base_rnn import zero_state

        states = []
        for cell in self.cells:
            fn = getattr(cell, "get_initial_state", None)
            states.append(fn(inputs=inputs, batch_size=batch_size, dtype=dtype) if fn else
                          zero_state(cell, inputs, batch_size, dtype))
        return tuple(states)

    def call(self, inputs, states, training=None):
        nested = nest.pack_sequence_as(self.state_size, nest.flatten(states))
        new_nested = []
        for cell, cell_states in zip(self.cells, nested):
            cell_states = list(cell_states) if isinstance(cell_states, (list, tuple)) \
                else [cell_states]
            takes = _accepts(cell.call, "training", var_keyword=False)   # TF's has_arg
            kwargs = {"training": training} if takes else {}
            inputs, cell_states = cell.call(inputs, cell_states, **kwargs)
            new_nested.append(cell_states)
        return inputs, nest.pack_sequence_as(self.state_size, nest.flatten(new_nested))

    def build(self, input_shape):
        from simdist.keras.layers.rnn.base_rnn import _dims

        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                with name_scope(cell.name, graph=False):
                    cell.build(input_shape)
                cell.built = True
            out = getattr(cell, "output_size", None) or _first(cell.state_size)
            input_shape = tuple(input_shape[:1]) + tuple(_dims(out))
        self.built = True

    def get_config(self):
        from simdist.keras.layers import serialization

        cfg = super().get_config()
        cfg["cells"] = [serialization.serialize(c) for c in self.cells]
        return cfg


def _first(state_size):
    return state_size[0] if hasattr(state_size, "__len__") else state_size
