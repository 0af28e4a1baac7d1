"""``KerasTensor``: a symbolic tensor of the functional API (a shape and a dtype, no values).

Glossary:
  KerasTensor   -- what ``tf.keras.Input`` returns and what a layer called on KerasTensors
                   returns: the batch dimension is usually None.
  name          -- an Input's layer name, else the graph tensor's name in the scratch graph
                   the layer's call ran in ('dense/BiasAdd:0'); ``str`` shows it, ``repr``
                   the shape, dtype and layer (tf-keras's two forms).
  keras_history -- ``(layer, node_index, tensor_index)``: the call (node) of the layer that
                   made this tensor, and which of its outputs it is; a Functional model
                   walks these back from its outputs to its inputs.
  SparseKerasTensor -- an ``Input(sparse=True)``'s: a SparseTensor of that dense shape,
                   printed by its SparseTensorSpec.
  RaggedKerasTensor -- an ``Input(ragged=True)``'s, or a layer's RaggedTensor output:
                   printed by its RaggedTensorSpec (``ragged_rank`` outer ragged dims).
  operators     -- ``x + 1``, ``x[:, 0]`` ... make op layers (layers/tf_op_layer.py installs
                   them); a TF API that does not dispatch refuses a KerasTensor (TypeError).

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
        """TF's name: an Input's layer name ('input_1'), else the name of the graph tensor
        its layer's call made ('dense/BiasAdd:0'), found when first asked
        (scratch_graph.output_names)."""
        if self._name is None and self._keras_history is not None:
            from simdist.keras.engine import scratch_graph

            scratch_graph.name_outputs(self.node)
        return self._name

    @property
    def ndim(self) -> int:
        return self._shape.rank

    @property
    def node(self):
        """The node (layer call) that made this tensor."""
        layer, node_index, _ = self._keras_history
        return layer._inbound_nodes[node_index]

    def __str__(self):
        # tf-keras's str: the TensorSpec (named after an Input's layer), the graph name and
        # the layer that made it; a tensor of no layer (a mask) has no description.
        layer = self._keras_history[0] if self._keras_history else None
        spec_name = self.name if layer is not None and not layer._inbound_nodes[
            self._keras_history[1]].keras_inputs else None
        described = "" if layer is None else f", description=\"created by layer '{layer.name}'\""
        return (f"KerasTensor(type_spec=TensorSpec(shape={self._shape}, "
                f"dtype=tf.{self._dtype.name}, name={spec_name!r}), name={self.name!r}"
                f"{described})")

    def __repr__(self):
        layer = self._keras_history[0] if self._keras_history else None
        described = "" if layer is None else f" (created by layer '{layer.name}')"
        return f"<KerasTensor: shape={self._shape} dtype={self._dtype.name}{described}>"

    def __len__(self):
        raise TypeError("Keras symbolic inputs/outputs do not implement `__len__`. You may be "
                        "trying to pass Keras symbolic inputs/outputs to a TF API that does "
                        "not register dispatching, preventing Keras from automatically "
                        "converting the API call to a lambda layer in the Functional Model.")

    # NumPy defers to a KerasTensor's reflected operators (``np_array + x``), as to a Tensor.
    __array_priority__ = 100

    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            f"You are passing {self}, an intermediate TF-Keras symbolic input/output, to a TF "
            "API that does not allow registering custom dispatchers, such as `tf.cond`, "
            "`tf.function`, gradient tapes, or `tf.map_fn`. TF-Keras Functional model "
            "construction only supports TF API calls that *do* support dispatching, such as "
            "`tf.math.add` or `tf.reshape`. Other APIs cannot be called directly on symbolic "
            "Kerasinputs/outputs. You can work around this limitation by putting the operation "
            "in a custom TF-Keras layer `call` and calling that layer on this symbolic "
            "input/output.")

    __hash__ = object.__hash__


class _CompositeKerasTensor(KerasTensor):
    """A symbolic composite tensor, printed by its type spec."""

    def _type_spec(self) -> str:
        raise NotImplementedError

    def __str__(self):
        layer = self._keras_history[0] if self._keras_history else None
        described = "" if layer is None else f", description=\"created by layer '{layer.name}'\""
        return f"KerasTensor(type_spec={self._type_spec()}, name={self.name!r}{described})"

    def __repr__(self):
        layer = self._keras_history[0] if self._keras_history else None
        described = "" if layer is None else f" (created by layer '{layer.name}')"
        return f"<KerasTensor: type_spec={self._type_spec()}{described}>"


class SparseKerasTensor(_CompositeKerasTensor):
    """A symbolic SparseTensor (``tf.keras.Input(sparse=True)``)."""

    def _type_spec(self) -> str:
        return f"SparseTensorSpec({self._shape!r}, tf.{self._dtype.name})"


class RaggedKerasTensor(_CompositeKerasTensor):
    """A symbolic RaggedTensor (``tf.keras.Input(ragged=True)``, a layer's ragged output)."""

    def __init__(self, shape, dtype="float32", name=None, ragged_rank=None):
        super().__init__(shape, dtype, name)
        self.ragged_rank = self._shape.rank - 1 if ragged_rank is None else ragged_rank

    def _type_spec(self) -> str:
        return (f"RaggedTensorSpec({self._shape!r}, tf.{self._dtype.name}, "
                f"{self.ragged_rank}, tf.int64)")


def is_keras_tensor(x) -> bool:
    """Whether ``x`` is a symbolic tensor of the functional API."""
    return isinstance(x, KerasTensor)
