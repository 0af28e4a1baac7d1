"""A functional model's config in tf-keras's format, and the graph rebuilt from one.

Glossary:
  layer entry    -- ``{module, class_name, config, registered_name, build_config, name,
                    inbound_nodes}`` per layer (``build_config``: the input shape it was
                    built for; simdist's layers are ``keras.layers``, a nested model
                    ``Functional`` of tf-keras's module, a user's class its own module).
  inbound node   -- one call of the layer in this model: a list with one
                    ``[layer name, node index, tensor index, call kwargs]`` per tensor of
                    its first argument (the kwargs repeated on each; a tensor among them is
                    ``[name, node, tensor]``; a first argument that is no tensor,
                    ``2.0 - x``'s, is ``["_CONSTANT_VALUE", -1, 2.0, kwargs]``).
  node index     -- the call's rank among the layer's calls in this model; a nested
                    functional model's count from 1 (tf-keras keeps its node 0 for the
                    model's own construction, ``_should_skip_first_node``).
  input_layers / output_layers -- ``[name, node index, tensor index]`` of each, in a list
                    (or the dict / nested structure of the model's inputs and outputs).
  keras-3 form   -- ``{"args", "kwargs"}`` nodes with ``{"keras_tensor": [...]}``
                    references, which earlier simdist wrote: still read.

Mirrors tf_keras/src/engine/functional.py (``get_network_config``,
``reconstruct_from_config``) and node.py (``Node.serialize``).
"""

from __future__ import annotations

import inspect

import numpy as np

from simdist.framework import nest
from simdist.keras.engine.keras_tensor import KerasTensor

_FUNCTIONAL_MODULE = "tf_keras.src.engine.functional"
_OP_LAYER_MODULE = "tf_keras.src.layers.core.tf_op_layer"
_CONSTANT = "_CONSTANT_VALUE"   # a first argument that is no tensor: [_CONSTANT, -1, value]


def preserves_input_structure(layer) -> bool:
    """An op layer (TFOpLambda): its call's first argument is saved as it is, a single
    tensor not wrapped in a list (tf-keras's ``_preserve_input_structure_in_config``)."""
    return hasattr(layer, "_infer_outputs") and hasattr(layer, "function")


def skips_first_node(layer) -> bool:
    """Whether ``layer``'s node indices in a config count from 1 (a functional model)."""
    return getattr(layer, "_is_graph_network", False) and hasattr(layer, "_nodes")


def network_config(model) -> dict:
    """``model.get_config()`` of a functional model in tf-keras's format."""
    own = {id(n) for n in model._nodes}
    index = {}   # id(node) -> its index in the config
    for layer in model._layers:
        for i, node in enumerate((n for n in layer._inbound_nodes if id(n) in own),
                                 start=int(skips_first_node(layer))):
            index[id(node)] = i

    def ref(t) -> list:
        layer, node_index, tensor_index = t._keras_history
        return [layer.name, index[id(layer._inbound_nodes[node_index])], tensor_index]

    layers = []
    for layer in model._layers:
        entry = layer_entry(layer)
        entry["name"] = layer.name
        entry["inbound_nodes"] = [_serialize_node(n, ref) for n in layer._inbound_nodes
                                  if id(n) in own and not n.is_input]
        layers.append(entry)
    return {"name": model.name, "trainable": model.trainable, "layers": layers,
            "input_layers": _coordinates(model._nested_inputs, ref),
            "output_layers": _coordinates(model._nested_outputs, ref)}


def layer_entry(layer) -> dict:
    """tf-keras's ``serialize_keras_object`` of a layer (without its name and nodes)."""
    from simdist.keras.saving import object_registration

    cls = type(layer)
    if cls.__module__.startswith("simdist."):
        module, registered = "keras.layers", None
        if skips_first_node(layer):
            module, registered = _FUNCTIONAL_MODULE, "Functional"
        elif preserves_input_structure(layer):
            module, registered = _OP_LAYER_MODULE, cls.__name__
    else:
        module = None if cls.__module__ == "__main__" else cls.__module__
        registered = object_registration.get_registered_name(cls)
    entry = {"module": module, "class_name": cls.__name__, "config": layer.get_config(),
             "registered_name": registered}
    shape = _build_shape(layer)
    if shape is not None:
        entry["build_config"] = {"input_shape": shape}
    return entry


def _build_shape(layer):
    """The input shape ``layer`` was built for, as lists (tf-keras's get_build_config):
    an InputLayer has none, a functional model its inputs', an op layer on a constant
    that constant's."""
    if getattr(layer, "is_placeholder", False):
        return None
    shape = layer.input_shape if skips_first_node(layer) else layer._build_input_shape
    if shape is None and preserves_input_structure(layer) and layer._inbound_nodes:
        first = layer._inbound_nodes[0].call_args[0]   # a constant (``2.0 - x``): its shape
        shape = None if isinstance(first, KerasTensor) else list(np.shape(first))
    if shape is None:
        return None
    return _as_lists(shape)


def _as_lists(shape):
    if hasattr(shape, "as_list"):
        return shape.as_list()
    if isinstance(shape, (list, tuple)) and all(d is None or isinstance(d, int)
                                                for d in shape):
        return list(shape)
    if isinstance(shape, dict):
        return {k: _as_lists(v) for k, v in shape.items()}
    return [_as_lists(s) for s in shape]


def _serialize_node(node, ref) -> list:
    """tf-keras's ``Node.serialize``: the first argument's tensors, each with the call's
    keyword arguments (further positional arguments among them, by name)."""
    first, *rest = node.call_args
    layer = node.layer
    names = _call_arg_names(layer.function if preserves_input_structure(layer)
                            else layer.call)[1:]
    kwargs = dict(zip(names, rest))
    kwargs.update(node.call_kwargs)
    kwargs = nest.map_structure(lambda v: ref(v) if isinstance(v, KerasTensor) else v,
                                kwargs)
    data = nest.map_structure(lambda t: _Entry([*ref(t), kwargs] if isinstance(t, KerasTensor)
                                               else [_CONSTANT, -1, t, kwargs]), first)
    if isinstance(data, _Entry) and not preserves_input_structure(layer):
        data = [data]
    return _plain(data)


class _Entry(list):
    """One tensor's ``[name, node, tensor, kwargs]`` (a leaf while the node is built)."""


def _plain(structure):
    if isinstance(structure, dict):
        return {k: _plain(v) for k, v in structure.items()}
    if isinstance(structure, (list, tuple)):
        return [_plain(v) for v in structure]
    return structure


def _call_arg_names(fn) -> list:
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in parameters
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def _coordinates(structure, ref):
    """The inputs' or outputs' coordinates: a list of them, or the model's dict."""
    coords = nest.map_structure(ref, structure)
    return coords if nest.is_nested(structure) else [coords]


# --- from a config -------------------------------------------------------------------
def _is_legacy_ref(value) -> bool:
    return isinstance(value, (list, tuple)) and len(value) in (3, 4) and \
        isinstance(value[0], str) and isinstance(value[1], int) and \
        (isinstance(value[2], int) or value[0] == _CONSTANT)


def legacy_node_call(node, preserved: bool):
    """(args, kwargs) of a saved legacy node, its tensors as ``("ref", key)`` marks; a
    list of one tensor is the tensor alone unless ``preserved`` (an op layer's)."""
    if _is_legacy_ref(node):   # an op layer's single tensor, saved unwrapped
        node = [node]
        preserved = False
    found = []
    _map_legacy(node, found.append)
    first = found[0]
    kwargs = _map_legacy(first[3] if len(first) > 3 else {},
                         lambda r: ("ref", tuple(r[:3])))
    inputs = _map_legacy(node, lambda r: r[2] if r[0] == _CONSTANT else ("ref", tuple(r[:3])))
    if isinstance(inputs, list) and len(inputs) == 1 and not preserved:
        inputs = inputs[0]
    return [inputs], kwargs


def _map_legacy(structure, fn):
    if _is_legacy_ref(structure):
        return fn(structure)
    if isinstance(structure, dict):
        return {k: _map_legacy(v, fn) for k, v in structure.items()}
    if isinstance(structure, list):
        return [_map_legacy(v, fn) for v in structure]
    return structure


def legacy_coordinates(structure):
    """The saved inputs' or outputs' structure, each coordinate a ``("ref", key)``; a
    list of one stands for the tensor alone (tf-keras's single input)."""
    out = _map_legacy(structure, lambda r: ("ref", tuple(r[:3])))
    return out[0] if isinstance(out, list) and len(out) == 1 else out
