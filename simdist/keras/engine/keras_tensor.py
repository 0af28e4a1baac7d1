"""``KerasTensor``: a symbolic tensor of the functional API (a shape and a dtype, no values).

Glossary:
  KerasTensor   -- what ``tf.keras.Input`` returns and what a layer called on KerasTensors
                   returns: the batch dimension is usually None.
  keras_history -- ``(layer, node_index, tensor_index)``: the call (node) of the layer that
                   made this tensor, and which of its outputs it is; a Functional model
                   walks these back from its outputs to its inputs.

Mirrors tf_keras/src/engine/keras_tensor.py.
"""

from __future__ import annotations

from simdist.framework import dtypes
from simdist.framework.tensor_shape import TensorShape


class KerasTensor:
    """A symbolic tensor: ``shape`` (a TensorShape, batch first) and ``dtype``."""

    def __init__(self, shape, dtype="float32", name=None):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._name = name
        self._keras_history = None  # set by the node that outputs it

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    @property
    def ndim(self) -> int:
        return self._shape.rank

    @property
    def node(self):
        """The node (layer call) that made this tensor."""
        layer, node_index, _ = self._keras_history
        return layer._inbound_nodes[node_index]

    def __repr__(self):
        # An Input's tensor carries its layer's name; another layer's output is named after
        # the graph op that made it in TF ('dense/BiasAdd:0'), which simdist has not got.
        layer = self._keras_history[0] if self._keras_history else None
        spec_name = self._name if layer is not None and not layer._inbound_nodes[
            self._keras_history[1]].keras_inputs else None
        return (f"KerasTensor(type_spec=TensorSpec(shape={self._shape}, "
                f"dtype=tf.{self._dtype.name}, name={spec_name!r}), name={self._name!r}, "
                f"description=\"created by layer '{getattr(layer, 'name', None)}'\")")

    def __len__(self):
        raise TypeError("Keras symbolic inputs/outputs do not implement `__len__`. You may be "
                        "trying to pass Keras symbolic inputs/outputs to a TF API that does "
                        "not register dispatching, preventing Keras from automatically "
                        "converting the API call to a lambda layer in the Functional Model.")

    __hash__ = object.__hash__


def is_keras_tensor(x) -> bool:
    """Whether ``x`` is a symbolic tensor of the functional API."""
    return isinstance(x, KerasTensor)
