"""``InputLayer`` and ``Input``: where a functional model's (or a Sequential's) data enters.

Glossary:
  InputLayer -- a layer without weights whose only node outputs one KerasTensor of
                ``batch_input_shape``; named 'input_1', 'input_2' ... unless named.
  Input      -- ``Input(shape)`` makes an InputLayer and returns its KerasTensor; ``shape``
                excludes the batch dimension (``batch_size`` gives it).
  sparse     -- ``sparse=True``: the model takes a SparseTensor there (a dense tensor
                too); its KerasTensor is a SparseKerasTensor.
  ragged     -- ``ragged=True``: a RaggedTensor (its KerasTensor a RaggedKerasTensor of
                ragged_rank ``rank - 1``).

Mirrors tf_keras/src/engine/input_layer.py.
"""

from __future__ import annotations

from simdist.keras import backend
from simdist.keras.engine.base_layer import Layer
from simdist.keras.engine.keras_tensor import (
    KerasTensor,
    RaggedKerasTensor,
    SparseKerasTensor,
)
from simdist.keras.engine.node import Node


class InputLayer(Layer):
    """The entry point of a model (``tf.keras.layers.InputLayer``)."""

    def __init__(self, input_shape=None, batch_size=None, dtype=None, input_tensor=None,
                 sparse=None, name=None, ragged=None, type_spec=None, optional=False,
                 **kwargs):
        batch_input_shape = kwargs.pop("batch_input_shape", None)
        shape = kwargs.pop("shape", input_shape)
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {list(kwargs.keys())}")
        if sparse and ragged:
            raise ValueError("Cannot set both sparse and ragged to True in a TF-Keras input.")
        if input_tensor is not None or type_spec is not None or optional:
            raise NotImplementedError("simdist's InputLayer takes a shape, a dtype, sparse "
                                      "and ragged only (no optional, input_tensor or "
                                      "type_spec).")
        if batch_input_shape is not None and shape is not None:
            raise ValueError("Only provide the input_shape OR batch_input_shape argument to "
                             "InputLayer, not both at the same time.")
        if name is None:
            name = f"input_{backend.get_uid('input')}"
        if batch_input_shape is None:
            batch_input_shape = (batch_size,) + tuple(shape or ())
        super().__init__(name=name, dtype=dtype or backend.floatx())
        self.sparse = bool(sparse)
        self.ragged = bool(ragged)
        self._batch_input_shape = tuple(batch_input_shape)
        self.built = True
        self.is_placeholder = True
        kind = SparseKerasTensor if self.sparse else \
            RaggedKerasTensor if self.ragged else KerasTensor
        out = kind(self._batch_input_shape, self.dtype, name=self.name)
        self._record_node_shapes(Node(self, outputs=out))

    def get_config(self):
        return {"batch_input_shape": self._batch_input_shape, "dtype": self.dtype,
                "sparse": self.sparse, "ragged": self.ragged, "name": self.name,
                "optional": False}


def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=None,  # noqa: N802
          tensor=None, ragged=None, type_spec=None, **kwargs):
    """A symbolic input of ``shape`` (without the batch dimension): a KerasTensor.

    Raises:
      ValueError: no shape (nor ``batch_shape``), both sparse and ragged, or unknown
        keyword arguments.
    """
    batch_shape = kwargs.pop("batch_shape", None)
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments: {list(kwargs.keys())}")
    if shape is None and batch_shape is None and tensor is None and type_spec is None:
        raise ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` "
                         "argument. Note that `shape` does not include the batch dimension.")
    if shape is not None and batch_shape is not None:
        raise ValueError("Only provide the `shape` OR `batch_shape` argument to Input, not "
                         "both at the same time.")
    layer = InputLayer(input_shape=None if shape is None else tuple(shape),
                       batch_size=batch_size, dtype=dtype, name=name, sparse=sparse,
                       ragged=ragged, input_tensor=tensor, type_spec=type_spec,
                       **({"batch_input_shape": batch_shape} if batch_shape else {}))
    return layer._inbound_nodes[0].outputs
