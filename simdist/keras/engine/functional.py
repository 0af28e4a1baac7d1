"""``Functional``: the model ``tf.keras.Model(inputs, outputs)`` builds from a graph of layer
calls on KerasTensors.

Glossary:
  inputs / outputs -- KerasTensors, alone or in a list or dict; a call takes (and returns)
                      the same structure. A dict of inputs can also be matched by the input
                      layers' names.
  graph            -- the nodes reachable backwards from the outputs; every path must end at
                      one of the inputs ("Graph disconnected" otherwise).
  layers           -- the graph's layers, input layers first, then in the order a forward
                      pass runs them (a shared layer once; its weights counted once).
  call             -- run the nodes in order on real tensors; each layer gets the call's
                      ``training`` unless its node fixed one.
  conformed inputs -- inputs are cast to their Input's dtype (float64 NumPy -> float32), and a
                      last axis of 1 is dropped or added to meet the Input's rank, as
                      Keras's ``_conform_to_reference_input``.

Mirrors tf_keras/src/engine/functional.py.
"""

from __future__ import annotations

from simdist.framework import execute, nest
from simdist.framework.ops import array_ops as A
from simdist.framework.ragged_tensor import RaggedTensor
from simdist.framework.sparse_tensor import SparseTensor
from simdist.framework.tensor import Tensor
from simdist.keras import backend
from simdist.keras.engine import functional_config
from simdist.keras.engine.input_layer import InputLayer
from simdist.keras.engine.keras_tensor import KerasTensor
from simdist.keras.engine.training import Model, layer_children
from simdist.keras.utils import tf_utils


def is_functional_init(args, kwargs) -> bool:
    """Whether ``Model(...)`` was given inputs and outputs (Keras's check)."""
    return (len(args) == 2 or (len(args) == 1 and "outputs" in kwargs)
            or ("inputs" in kwargs and "outputs" in kwargs))


def inject_functional_model_class(cls) -> type:
    """``cls`` with ``Model`` replaced by ``Functional`` among its ancestors' bases (Keras's
    ``inject_functional_model_class``), so a subclass of Model made with inputs and outputs
    is a graph network (a class not derived from Model is left as it is).
    """
    if cls is Model:
        return Functional
    if issubclass(cls, Functional):
        return cls
    if not issubclass(cls, Model):
        return cls
    cls.__bases__ = tuple(inject_functional_model_class(base) for base in cls.__bases__)
    return cls


def conform_rank(t, ref_shape):
    """``t`` squeezed or expanded to the rank of its Input's shape ``ref_shape``: (batch, ...,
    1) for (batch, ...), or (batch, ...) for (batch, ..., 1), as Keras's
    ``_conform_to_reference_input`` (a Sequential with a graph too)."""
    if t.ndim == len(ref_shape) + 1 and t.shape[-1] == 1:
        return A.squeeze(t, axis=-1)
    if t.ndim == len(ref_shape) - 1 and ref_shape[-1] == 1:
        return A.expand_dims(t, -1)
    return t


class Functional(Model):
    """A model defined by its inputs and outputs (``tf.keras.Model(inputs, outputs)``)."""

    _compute_output_and_mask_jointly = True   # its layers mask its outputs as they run

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        from simdist.keras import backend

        # Keras names it after the class the user called: 'model', 'model_1' ... for
        # tf.keras.Model, 'custom_model' for a subclass CustomModel.
        generic = ("model" if type(self) is Functional
                   else tf_utils.snake_case(type(self).__name__))
        super().__init__(name=name or backend.unique_name(generic), trainable=trainable,
                         **kwargs)
        if isinstance(inputs, (list, tuple)) and len(inputs) == 1:
            inputs = inputs[0]  # Keras unwraps a one-element list of inputs
        self._nested_inputs, self._nested_outputs = inputs, outputs
        self.inputs, self.outputs = nest.flatten(inputs), nest.flatten(outputs)
        self._validate_graph_inputs_and_outputs()
        self._nodes, layers = self._graph_nodes()
        object.__setattr__(self, "_layers", layers)
        self.input_names = [t.node.layer.name for t in self.inputs]
        self.output_names = (sorted(outputs) if isinstance(outputs, dict)
                             else _unique_names(t.node.layer.name for t in self.outputs))
        self.built = True
        self._autocast = False  # its layers cast their own inputs (Keras's graph network)
        from simdist.distribute import distribution_strategy_context as ds_context

        self._built_strategy = ds_context.get_strategy() if ds_context.has_strategy() else None

    _is_graph_network = True

    def _trackable_children(self) -> dict:
        return {**layer_children(self._layers), **super()._trackable_children()}

    def _validate_graph_inputs_and_outputs(self):
        for t in self.inputs:
            if not isinstance(t, KerasTensor) or not isinstance(t.node.layer, InputLayer):
                raise ValueError("Input tensors to a Functional must come from "
                                 f"`tf.keras.Input`. Received: {t} (missing previous layer "
                                 "metadata).")
        if len({id(t) for t in self.inputs}) != len(self.inputs):
            raise ValueError("The list of inputs passed to the model contains the same input "
                             "multiple times. All inputs should only appear once. Received "
                             f"inputs={self.inputs}")
        for t in self.outputs:
            if not isinstance(t, KerasTensor):
                raise ValueError("Output tensors of a Functional model must be the output of a "
                                 f"TensorFlow `Layer` (thus holding past layer metadata). "
                                 f"Found: {t}")

    # --- losses and metrics of KerasTensors (add_loss_layers) -----------------------------
    def add_loss(self, loss):
        """A KerasTensor added outside a call is a loss of every call (an AddLoss layer)."""
        from simdist.keras.engine import add_loss_layers
        from simdist.keras.engine.base_layer import _training_stack

        if isinstance(loss, KerasTensor) and not _training_stack():
            add_loss_layers.add_loss(self, loss)
        else:
            super().add_loss(loss)

    def _insert_endpoint(self, layer, value: KerasTensor) -> None:
        """Call ``layer`` on ``value`` and run it in every call of the model."""
        self._add_endpoints([layer(value)])

    def _add_endpoints(self, tensors, layers=None) -> None:
        """Run the nodes that make ``tensors`` in every call of the model; the layers new to
        the model are listed after its own, in the order of ``layers`` (else the graph's),
        as tf-keras's ``_insert_layers`` appends them."""
        self._endpoints = [*getattr(self, "_endpoints", []), *tensors]
        self._nodes, graph_layers = self._graph_nodes()
        known = {id(lay) for lay in self._layers}
        for lay in graph_layers if layers is None else layers:
            if id(lay) not in known:
                known.add(id(lay))
                self._layers.append(lay)

    def _graph_nodes(self) -> tuple[list, list]:
        """The graph's nodes in the order a call runs them, and its layers in Keras's order.

        As Keras's ``_map_graph_network``: a node's depth is its longest path to an output;
        nodes run from the deepest, and layers are listed by decreasing depth, then in the
        order a walk back from the outputs first met them.

        Raises:
          ValueError: an output depends on an Input that is not among the model's inputs.
        """
        order, layer_index, finished = [], {}, set()

        def visit(node):
            if id(node) in finished:
                return
            layer_index.setdefault(id(node.layer), (len(layer_index), node.layer))
            for parent in ([] if node.is_input else node.parent_nodes):
                visit(parent)
            finished.add(id(node))
            order.append(node)

        for t in self.outputs + getattr(self, "_endpoints", []):
            visit(t.node)
        node_depth, layer_depth = {}, {}
        for node in reversed(order):
            depth = max(node_depth.setdefault(id(node), 0), layer_depth.get(id(node.layer), 0))
            layer_depth[id(node.layer)] = node_depth[id(node)] = depth
            for parent in node.parent_nodes:
                node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
        for t in self.inputs:  # an input no output depends on still belongs to the model
            if id(t.node.layer) not in layer_depth:
                layer_depth[id(t.node.layer)] = node_depth[id(t.node)] = 0
                layer_index[id(t.node.layer)] = (-1, t.node.layer)
                order.append(t.node)
        nodes = sorted(order, key=lambda n: -node_depth[id(n)])  # stable: walk order kept
        layers = [layer for _, layer in sorted(
            layer_index.values(), key=lambda il: (-layer_depth[id(il[1])], il[0]))]
        self._check_connected(nodes)
        return nodes, layers

    def _check_connected(self, nodes):
        computable = {id(t) for t in self.inputs}
        done = []
        for node in nodes:
            if node.is_input:
                continue
            for t in node.keras_inputs:
                if id(t) not in computable:
                    raise ValueError(
                        f"Graph disconnected: cannot obtain value for tensor {t} at layer "
                        f'"{node.layer.name}". The following previous layers were accessed '
                        f"without issue: {done}")
            computable.update(id(t) for t in nest.flatten(node.outputs))
            done.append(node.layer.name)

    # --- calling ------------------------------------------------------------------------
    def _check_call_inputs(self, inputs) -> None:
        self._flat_inputs(inputs)   # tf-keras: the input_spec its Inputs name

    def _flat_inputs(self, inputs) -> list:
        """The call's tensors in the order of ``self.inputs``.

        Raises:
          ValueError: the wrong number of inputs, or a missing key of a dict.
        """
        if isinstance(inputs, dict):
            names = (list(self._nested_inputs) if isinstance(self._nested_inputs, dict)
                     else self.input_names)
            missing = [n for n in names if n not in inputs]
            if missing:
                raise ValueError(f"Missing data for input \"{missing[0]}\". You passed a data "
                                 f"dictionary with keys {list(inputs)}. Expected the following "
                                 f"keys: {names}")
            if isinstance(self._nested_inputs, dict):
                return [inputs[k] for k in nest.flatten(
                    {k: k for k in self._nested_inputs})]
            return [inputs[n] for n in names]
        flat = nest.flatten(inputs)
        if len(flat) != len(self.inputs):
            raise ValueError(f'Layer "{self.name}" expects {len(self.inputs)} input(s), but it '
                             f"received {len(flat)} input tensors. Inputs received: {flat}")
        return flat

    def _conform(self, value, ref: KerasTensor):
        if isinstance(value, SparseTensor):   # Keras casts a SparseTensor's values
            return value if value.dtype == ref.dtype else SparseTensor(
                value.indices, A.cast(value.values, ref.dtype), value.dense_shape)
        if isinstance(value, RaggedTensor):   # and a RaggedTensor's flat values
            return value if value.dtype == ref.dtype else value.with_flat_values(
                A.cast(value.flat_values, ref.dtype))
        t = value if isinstance(value, Tensor) else execute.convert_to_tensor(
            value, dtype_hint=ref.dtype)
        t = conform_rank(t, ref.shape.as_list())
        return A.cast(t, ref.dtype) if t.dtype != ref.dtype else t

    def call(self, inputs, training=None, mask=None):
        values = {id(ref): self._conform(v, ref)
                  for ref, v in zip(self.inputs, self._flat_inputs(inputs))}
        if mask is not None:   # Keras's _run_internal_graph: the inputs carry the masks
            for ref, m in zip(self.inputs, nest.flatten(mask)):
                backend.set_keras_mask(values[id(ref)], m)
        for node in self._nodes:
            if node.is_input:
                continue
            args, kwargs = nest.map_structure(
                lambda v: values[id(v)] if isinstance(v, KerasTensor) else v,
                (list(node.call_args), node.call_kwargs))
            if "training" not in kwargs and training is not None:
                kwargs["training"] = training
            out = node.layer(*args, **kwargs)
            for ref, v in zip(nest.flatten(node.outputs), nest.flatten(out)):
                values[id(ref)] = v
        return nest.map_structure(lambda ref: values[id(ref)], self._nested_outputs)

    def compute_mask(self, inputs, mask):
        """The outputs' masks, found by running the model (Keras's)."""
        outputs = self.call(inputs, mask=mask)
        return nest.map_structure(backend.get_keras_mask, outputs)

    def _maybe_build(self, inputs):
        self.built = True  # built when made

    def build(self, input_shape=None):
        self.built = True

    def compute_output_shape(self, input_shape):
        return self.output_shape

    # --- shapes -------------------------------------------------------------------------
    @property
    def input_shape(self):
        shapes = nest.map_structure(lambda t: tuple(t.shape.as_list()), self._nested_inputs)
        return list(shapes.values()) if isinstance(shapes, dict) else shapes

    @property
    def output_shape(self):
        return nest.map_structure(lambda t: tuple(t.shape.as_list()), self._nested_outputs)

    @property
    def input(self):
        """The model's Input tensor(s), as given to ``Model(inputs, outputs)``."""
        return self._nested_inputs

    @property
    def output(self):
        """The model's output tensor(s), as given to ``Model(inputs, outputs)``."""
        return self._nested_outputs

    @property
    def _nodes_by_depth(self) -> list:
        return self._nodes

    # --- config (model.save / load_model) -----------------------------------------------
    def get_config(self) -> dict:
        """tf-keras's functional config: every layer with the calls (nodes) it makes in this
        model as nested ``[layer, node, tensor, kwargs]`` lists, and the ``[layer, node,
        tensor]`` of the inputs and outputs (functional_config)."""
        return functional_config.network_config(self)

    @classmethod
    def _from_config_with(cls, config, custom_objects=None):
        """Rebuild the layers, then replay their calls once the tensors they read exist.

        Raises:
          ValueError: a call reads a tensor no call makes.
        """
        from simdist.keras.layers import serialization

        # Tensors are keyed by the saved layer names, as Keras's reconstruct_from_config: a
        # custom layer whose get_config leaves out its name is rebuilt under a new one.
        tensors, pending, calls, made = {}, [], {}, []
        for entry in config["layers"]:
            layer = serialization.deserialize(entry, custom_objects)
            name = entry.get("name", layer.name)
            if isinstance(layer, InputLayer):
                tensors[(name, 0)] = layer._inbound_nodes[0].outputs
            calls[name] = int(functional_config.skips_first_node(layer))
            preserved = functional_config.preserves_input_structure(layer)
            pending += [(layer, name, _saved_call(node, preserved))
                        for node in entry.get("inbound_nodes", [])]

        def resolve(key):
            return nest.flatten(tensors[key[:2]])[key[2]]

        while pending:
            ready = [p for p in pending if all(k[:2] in tensors for k in _refs(p[2]))]
            if not ready:
                raise ValueError(f"Cannot rebuild model {config.get('name')!r}: the calls of "
                                 f"{[p[1] for p in pending]} read tensors no call makes.")
            layer, name, (args, kwargs) = ready[0]
            pending.remove(ready[0])
            out = layer(*_map_refs(args, resolve), **_map_refs(kwargs, resolve))
            tensors[(name, calls[name])] = out
            calls[name] += 1
            made.append((layer, out))
        model = cls(_map_refs(_saved_coordinates(config["input_layers"]), resolve),
                    _map_refs(_saved_coordinates(config["output_layers"]), resolve),
                    name=config.get("name"))
        # Layers no output reads (add_loss's): the model runs them too (tf-keras's
        # connect_ancillary_layers)
        known = {id(layer) for layer in model._layers}
        ancillary = [(layer, out) for layer, out in made if id(layer) not in known]
        if ancillary:
            model._add_endpoints(nest.flatten([out for _, out in ancillary]),
                                 [layer for layer, _ in ancillary])
        if config.get("trainable") is False:
            model.trainable = False
        return model

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls._from_config_with(config, custom_objects)


class _Ref(tuple):
    """A saved reference to a tensor: ``(layer name, node index, tensor index)``."""


def _saved_call(node, preserved=False):
    """(args, kwargs) of a saved call, its tensors as ``_Ref``: tf-keras's nested lists,
    or the ``{"args", "kwargs"}`` form with ``{"keras_tensor": [...]}`` references."""
    if isinstance(node, dict):
        def convert(value):
            if isinstance(value, dict) and set(value) == {"keras_tensor"}:
                return _Ref(value["keras_tensor"][:3])
            if isinstance(value, dict):
                return {k: convert(v) for k, v in value.items()}
            if isinstance(value, list):
                return [convert(v) for v in value]
            return value
        return convert(node["args"]), convert(node["kwargs"])
    args, kwargs = functional_config.legacy_node_call(node, preserved)
    return _from_marks(args), _from_marks(kwargs)


def _saved_coordinates(structure):
    if isinstance(structure, list) and structure and isinstance(structure[0], dict):
        return _saved_call({"args": structure, "kwargs": {}})[0]   # keras-3 references
    if isinstance(structure, dict) and set(structure) == {"keras_tensor"}:
        return _Ref(structure["keras_tensor"][:3])
    return _from_marks(functional_config.legacy_coordinates(structure))


def _from_marks(structure):
    """``("ref", key)`` marks (functional_config) as ``_Ref``."""
    if isinstance(structure, tuple) and len(structure) == 2 and structure[0] == "ref":
        return _Ref(structure[1])
    if isinstance(structure, dict):
        return {k: _from_marks(v) for k, v in structure.items()}
    if isinstance(structure, list):
        return [_from_marks(v) for v in structure]
    return structure


def _refs(call) -> list:
    """The tensor references a saved call reads."""
    out = []
    _map_refs(call, out.append)
    return out


def _map_refs(structure, fn):
    """Map ``fn`` over the ``_Ref`` of a structure of lists and dicts."""
    if isinstance(structure, _Ref):
        return fn(tuple(structure))
    if isinstance(structure, dict):
        return {k: _map_refs(v, fn) for k, v in structure.items()}
    if isinstance(structure, (list, tuple)):
        return [_map_refs(v, fn) for v in structure]
    return structure


def _unique_names(names) -> list:
    """Output names, a layer's second output 'name_1' and on (Functional._set_output_names:
    a layer of several outputs, a nested RNN's)."""
    out, counts = [], {}
    for name in names:
        proposal = name
        while proposal in out:
            count = counts.get(name, 1)
            proposal, counts[name] = f"{name}_{count}", count + 1
        out.append(proposal)
    return out
