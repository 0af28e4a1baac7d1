"""``Sequential``: a plain stack of layers, each called on the previous one's output.

Glossary:
  input shape    -- given by the first layer's ``input_shape=`` (or an ``Input``): the model
                    is built at once, its weights created in the current (strategy) scope,
                    and ``summary()`` shows each layer's output shape.
  deferred       -- without an input shape the model builds on its first call, or on
                    ``build(input_shape)``.
  inferred shape -- a deferred model's input shape: the first call's shape, batch size
                    included (``output_shape`` (4, 2) after a call on 4 rows), relaxed to
                    None in each dimension a later call differs in (Keras's
                    ``relax_input_shape``).
  graph          -- what Keras's graph network records: each layer's input and output
                    shape (``layer.output_shape``, the summary's column) and the model's.
                    Layers are built outside every name scope (Keras's ``init_scope``), so
                    their weights are 'dense/kernel' wherever the model is called.
  inputs/outputs -- the graph's KerasTensors, made when first asked for by calling each
                    layer on the previous one's (Keras makes them as layers are added):
                    then each layer has its ``output`` (a feature extractor's outputs).

Mirrors keras/src/engine/sequential.py.
"""

from __future__ import annotations

import contextlib

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import func_graph, nest
from simdist.framework import name_scope as name_scope_lib
from simdist.framework.tensor import Tensor
from simdist.keras import backend
from simdist.keras.engine.base_layer import Layer, init_scope, name_scope
from simdist.keras.engine.functional import conform_rank
from simdist.keras.engine.input_layer import Input, InputLayer
from simdist.keras.engine.keras_tensor import KerasTensor
from simdist.keras.engine.node import symbolic_call_hook
from simdist.keras.engine.training import Model, layer_children


class Sequential(Model):
    """A linear stack of layers (``tf.keras.Sequential``)."""

    _compute_output_and_mask_jointly = True   # its layers mask its outputs as they run

    _is_sequential = True

    def __init__(self, layers=None, name=None):
        super().__init__(name=name or None)  # '' too is named 'sequential...' (as Functional)
        object.__setattr__(self, "_layers", [])
        self._input_shape = None  # given: an Input, or the first layer's input_shape
        self._inferred_input_shape = None
        self._graph_shapes = None  # (input shape, output shape) of the model's graph
        self._use_legacy_deferred_behavior = False  # a layer the graph could not take
        self._input_tensor = None   # the Input given to it
        self._symbolic = None   # ([input], [output]) KerasTensors, made when first asked for
        for layer in layers or []:
            self.add(layer)

    def add(self, layer):
        """Append ``layer``; the first layer's ``input_shape`` builds the model."""
        if isinstance(layer, KerasTensor):  # tf.keras.Input(...)
            self._input_shape = tuple(layer.shape.as_list())
            self._input_tensor = layer
            return
        if isinstance(layer, InputLayer):
            self._input_shape = layer._batch_input_shape
            self._input_tensor = layer._inbound_nodes[0].outputs
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
            self._build_graph(self._input_shape, called=[layer])

    @property
    def inputs(self) -> list:
        """The graph's input KerasTensors: its ``Input``, or one for its first layer's
        ``input_shape`` ('<layer>_input'), as Keras's graph network has them.

        Raises:
          AttributeError: the model has no input shape (given or inferred).
        """
        return self._symbolic_graph()[0]

    @property
    def outputs(self) -> list:
        """The graph's output KerasTensors (its last layer's); each layer's ``output`` is its
        own. Raises as ``inputs``."""
        return self._symbolic_graph()[1]

    def _symbolic_graph(self):
        """Each layer called on the previous one's KerasTensor from the model's input, once
        (Keras does it as the layers are added): the layers' inbound nodes, ``output``s."""
        shape = self._input_shape or self._inferred_input_shape
        if shape is None or not self._layers:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute 'inputs': "
                                 "the model has no input shape yet (give its first layer an "
                                 "input_shape, an Input, or call it).")
        if self._symbolic is None or self._symbolic[2] != [id(la) for la in self._layers]:
            x = self._input_tensor if self._input_tensor is not None else Input(
                batch_shape=tuple(shape), dtype=self._layers[0].dtype,
                name=f"{self._layers[0].name}_input")
            y = x
            for layer in self._layers:
                y = layer(y)
            self._symbolic = ([x], [y], [id(la) for la in self._layers])
        return self._symbolic[0], self._symbolic[1]

    def _trackable_children(self) -> dict:
        return {**layer_children(self._layers), **super()._trackable_children()}

    def pop(self):
        """Remove the last layer; the model's output becomes the new last layer's."""
        if not self._layers:
            raise TypeError("There are no layers in the model.")
        self._layers.pop()
        if not self._layers:
            self.built = False
            self._input_shape = self._inferred_input_shape = self._graph_shapes = None
        elif self._graph_shapes is not None:
            self._graph_shapes = (self._graph_shapes[0], self._layers[-1].output_shape)

    def _build_graph(self, input_shape, called=None):
        """Build each layer for the shape reaching it and record every shape on the way.
        Keras calls the ``called`` layers (all by default; the new one when a layer is
        added) on symbolic inputs: ``symbolic_call_hook`` lets a layer see that."""
        shape = tuple(input_shape)
        if not self.built:
            self._built_strategy = ds_context.get_strategy() if ds_context.has_strategy() else None
        with init_scope():
            for layer in self._layers:
                if not layer.built:
                    with name_scope(layer.name):
                        layer.build(shape)
                    layer.built = True
                    layer._build_input_shape = shape
                # what its call on a symbolic input gives (Keras builds the graph by calls)
                out = tuple(getattr(layer, "_symbolic_output_shape",
                                    layer.compute_output_shape)(shape))
                layer._node_shapes = (shape, out)
                shape = out
        for layer in self._layers if called is None else called:
            symbolic_call_hook(layer, training=None)
        self._graph_shapes = (tuple(input_shape), shape)
        self.built = True

    def _infer_input_shape(self, input_shape):
        """Rebuild the graph for a deferred model when ``input_shape`` is new to it (Keras's
        ``_build_graph_network_for_inferred_shape``)."""
        if self._input_shape is not None or self._use_legacy_deferred_behavior \
                or not self._layers:
            return
        new = tuple(input_shape) if self._inferred_input_shape is None else \
            _relax_input_shape(self._inferred_input_shape, tuple(input_shape))
        if new is None or new == self._inferred_input_shape:
            return
        try:
            self._build_graph(new)
        except Exception:  # noqa: BLE001 - as Keras: the eager call then builds the layers
            self._use_legacy_deferred_behavior = True
            return
        self._inferred_input_shape = new

    def _maybe_build(self, inputs):
        """Build on the first call for its input shape, batch size included."""
        if self.built:
            return
        first = nest.flatten(inputs)[0] if nest.flatten(inputs) else None
        if isinstance(first, Tensor) and len(nest.flatten(inputs)) == 1:
            # while a tf.function traces: in tf.init_scope, as Layer._maybe_build
            # (tf_utils.maybe_init_scope), so the layers' weights are made eagerly
            with name_scope_lib.init_scope() if func_graph.current() is not None else \
                    contextlib.nullcontext():
                self.build(tuple(first.shape))
        if not self.built:  # several inputs or a layer the graph could not take
            self._built_strategy = ds_context.get_strategy() if ds_context.has_strategy() else None
            self.built = True

    def build(self, input_shape=None):
        """Build the layers for ``input_shape`` (ignored when the model was given one).

        Raises:
          ValueError: no input shape, given or here.
        """
        if self._input_shape is None:
            if input_shape is None:
                raise ValueError("You must provide an `input_shape` argument.")
            self._infer_input_shape(input_shape)
            if self._use_legacy_deferred_behavior:
                return
        self.built = True

    @property
    def input_shape(self):
        """The model's input shape (given, or inferred from build or the calls).

        Raises:
          AttributeError: the model is not built.
        """
        if self._graph_shapes is None:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute "
                                 "'_nested_inputs'\nThe model has no input shape yet: give "
                                 "its first layer an input_shape, call it, or build() it.")
        return self._graph_shapes[0]

    @property
    def output_shape(self):
        """The model's output shape (the last layer's in the graph).

        Raises:
          AttributeError: the model is not built.
        """
        if self._graph_shapes is None:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute "
                                 "'_nested_outputs'\nThe model has no output shape yet: give "
                                 "its first layer an input_shape, call it, or build() it.")
        return self._graph_shapes[1]

    # --- config (model.save / load_model) -----------------------------------------------
    def get_config(self) -> dict:
        """Keras's Sequential config: its name, an InputLayer entry when it has a given
        input shape, then each layer's ``{class_name, config}``."""
        from simdist.keras.layers import serialization

        layers = [serialization.serialize(layer) for layer in self._layers]
        if self._input_shape is not None:
            layers.insert(0, {"class_name": "InputLayer", "config": {
                "batch_input_shape": tuple(self._input_shape), "dtype": self.dtype,
                "sparse": False, "ragged": False, "name": f"{self._layers[0].name}_input"
                if self._layers else "input"}})
        cfg = {"name": self.name, "layers": layers}
        if self._input_shape is None and self._inferred_input_shape is not None:
            cfg["build_input_shape"] = tuple(self._inferred_input_shape)
        return cfg

    @classmethod
    def _from_config_with(cls, config, custom_objects=None):
        from simdist.keras.layers import serialization

        model = cls(name=config.get("name"))
        for layer_config in config["layers"]:
            if layer_config["class_name"] == "InputLayer":
                shape = layer_config["config"]["batch_input_shape"]
                model.add(InputLayer(batch_input_shape=tuple(shape),
                                     dtype=layer_config["config"].get("dtype")))
                continue
            model.add(serialization.deserialize(layer_config, custom_objects))
        if not model.built and config.get("build_input_shape") is not None:
            model.build(tuple(config["build_input_shape"]))
        return model

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls._from_config_with(config, custom_objects)

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape)
        for layer in self._layers:
            shape = tuple(layer.compute_output_shape(shape))
        return shape

    def call(self, inputs, training=None, mask=None):
        if isinstance(inputs, Tensor):
            self._infer_input_shape(tuple(inputs.shape))
        x = inputs
        if isinstance(x, Tensor) and self._graph_shapes is not None and \
                not self._use_legacy_deferred_behavior:   # Keras runs its graph: Functional's
            x = conform_rank(x, self._graph_shapes[0])   # call, its inputs conformed
        if mask is not None:
            backend.set_keras_mask(x, mask)
        for layer in self._layers:
            x = layer(x, training=training)
        return x

    def compute_mask(self, inputs, mask):
        """The output's mask, found by running the model (Keras's)."""
        return backend.get_keras_mask(self.call(inputs, mask=mask))


def _relax_input_shape(shape_1, shape_2):
    """None where the two shapes differ; None for shapes of different ranks."""
    if len(shape_1) != len(shape_2):
        return None
    return tuple(None if d1 != d2 else d1 for d1, d2 in zip(shape_1, shape_2))


def _batch_input_shape(layer):
    """The input shape a first layer declares; a nested Sequential's first layer's (Keras's
    ``get_input_shape_and_dtype``)."""
    while getattr(layer, "_is_sequential", False) and layer._layers:
        if layer._input_shape is not None:
            return layer._input_shape
        layer = layer._layers[0]
    return layer._batch_input_shape
