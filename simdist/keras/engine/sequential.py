"""``Sequential``: a plain stack of layers, each called on the previous one's output.

Glossary:
  input shape -- given by the first layer's ``input_shape=`` (or an ``Input``): the model
                 is built at once, its weights created in the current (strategy) scope,
                 and ``summary()`` shows each layer's output shape.
  deferred    -- without an input shape the model builds on its first call.

Mirrors keras/src/engine/sequential.py.
"""

from __future__ import annotations

from simdist.distribute import distribution_strategy_context as ds
from simdist.keras.engine.base_layer import Layer
from simdist.keras.engine.input_layer import KerasInput
from simdist.keras.engine.training import Model


class Sequential(Model):
    """A linear stack of layers (``tf.keras.Sequential``)."""

    _is_sequential = True

    def __init__(self, layers=None, name=None):
        super().__init__(name=name)
        object.__setattr__(self, "_layers", [])
        self._input_shape = None
        for layer in layers or []:
            self.add(layer)

    def _is_model_like(self) -> bool:
        return False

    def add(self, layer):
        """Append ``layer``; the first layer's ``input_shape`` builds the model."""
        if isinstance(layer, KerasInput):
            self._input_shape = layer.shape
            return
        if not isinstance(layer, Layer):
            raise TypeError("The added layer must be an instance of class Layer. Received: "
                            f"layer={layer} of type {type(layer)}.")
        if any(lay.name == layer.name for lay in self._layers):
            raise ValueError(f"All layers added to a Sequential model should have unique "
                             f'names. Name "{layer.name}" is already the name of a layer in '
                             "this model. Update the `name` argument to pass a unique name.")
        if not self._layers and self._input_shape is None:
            self._input_shape = _batch_input_shape(layer)
        self._layers.append(layer)
        if self._input_shape is not None:
            self._build_from_shape()

    def _trackable_children(self) -> dict:
        """Keras's names for a Sequential's layers: ``layer_with_weights-i`` counts the
        layers that hold weights (the names a checkpoint's values get), ``layer-i`` all of
        them (so a model restored before it is built finds its layers)."""
        weighted = [layer for layer in self._layers if layer.weights]
        out = {f"layer_with_weights-{i}": layer for i, layer in enumerate(weighted)}
        out.update({f"layer-{i}": layer for i, layer in enumerate(self._layers)})
        out.update(super()._trackable_children())
        return out

    def pop(self):
        if not self._layers:
            raise TypeError("There are no layers in the model.")
        self._layers.pop()

    def _build_from_shape(self):
        shape = tuple(self._input_shape)
        if not self.built:
            self._built_strategy = ds.get_strategy() if ds.has_strategy() else None
        for layer in self._layers:
            if not layer.built:
                layer.build(shape)
                layer.built = True
                layer._build_input_shape = shape
            shape = tuple(layer.compute_output_shape(shape))
            layer._output_shape = shape
        self.built = True

    def build(self, input_shape=None):
        if input_shape is not None:
            self._input_shape = tuple(input_shape)
        if self._input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        self._build_from_shape()

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape)
        for layer in self._layers:
            shape = tuple(layer.compute_output_shape(shape))
        return shape

    def call(self, inputs, training=None, mask=None):
        x = inputs
        for layer in self._layers:
            x = layer(x, training=training)
        return x


def _batch_input_shape(layer):
    """The input shape a first layer declares; a nested Sequential's first layer's (Keras's
    ``get_input_shape_and_dtype``)."""
    while getattr(layer, "_is_sequential", False) and layer._layers:
        if layer._input_shape is not None:
            return layer._input_shape
        layer = layer._layers[0]
    return layer._batch_input_shape
