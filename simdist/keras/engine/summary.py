"""``model.summary()``: Keras's table of layers, output shapes and parameter counts.

Glossary:
  sequential-like -- a Sequential, a subclassed model, or a functional model whose graph is
                     a chain (one node per depth, one input per node, each layer called
                     once): three columns, 65 characters wide.
  Connected to    -- the fourth column of any other functional model (98 characters): each
                     input of the layer's call as ``layer_name[node_index][tensor_index]``.
  multiple        -- the output shape of a layer with no single one (called eagerly only,
                     or shared with different shapes).

Mirrors keras/src/utils/layer_utils.py (``print_summary``).
"""

from __future__ import annotations

import math


def _readable_memory(n_bytes: float) -> str:
    units = ["Byte", "KB", "MB", "GB", "TB", "PB"]
    scale = 1024
    for unit in units:
        if n_bytes / scale < 1:
            return f"{n_bytes:.2f} {unit}"
        n_bytes /= scale
    return f"{n_bytes:.2f} {units[-1]}"


def _weight_bytes(weights) -> int:
    return sum(math.prod(w.shape) * w.dtype.size for w in weights)


def _sequential_like(model) -> bool:
    """Keras's test for printing without the "Connected to" column."""
    if not getattr(model, "_is_graph_network", False):
        return True
    nodes = model._nodes_by_depth
    if any(len(n.keras_inputs) > 1 for n in nodes):
        return False
    depths = {}
    for n in nodes:  # a node's depth: its longest path from an input
        depths[id(n)] = max((depths[id(p)] + 1 for p in n.parent_nodes), default=0)
    if len(set(depths.values())) != len(nodes):
        return False
    ids = {id(n) for n in nodes}
    return all(sum(id(n) in ids for n in layer._inbound_nodes) <= 1 for layer in model.layers)


def _output_shape(layer):
    try:
        return layer.output_shape
    except AttributeError:
        return "multiple"


def _connections(model, layer) -> list:
    ids = {id(n) for n in model._nodes_by_depth}
    return [f"{lay.name}[{node_index}][{tensor_index}]"
            for node in layer._inbound_nodes if id(node) in ids
            for lay, node_index, tensor_index, _ in node.iterate_inbound()]


def _shape_text(shape) -> str:
    # A one-dimensional shape prints as "(None)" (Keras's int_shape text of it).
    return str(shape).replace(",)", ")") if isinstance(shape, tuple) else str(shape)


def _print_row(fields, positions, print_fn):
    """One table row; long cells wrap onto further lines, as Keras prints them."""
    left = [str(x) for x in fields]
    while any(left):
        line = ""
        for col in range(len(left)):
            start = positions[col - 1] if col else 0
            space = 2 if col != len(positions) - 1 else 0
            cutoff = positions[col] - start - space - (1 if col == 0 else 0)
            fit = left[col][:cutoff]
            cuts = [fit.find(x) + len(x) for x in ("),", "},", "],", "',") if fit.find(x) >= 0]
            if cuts:
                cutoff = min(cuts)
                fit = fit[:cutoff]
            if col == 0:
                line += " "
            line += fit + " " * space
            left[col] = left[col][cutoff:]
            line += " " * (positions[col] - len(line))
        print_fn(line)


def print_summary(model, line_length=None, positions=None, print_fn=None):
    """Print the summary table of ``model``."""
    print_fn = print_fn or print
    sequential_like = _sequential_like(model)
    header = ["Layer (type)", "Output Shape", "Param #"]
    if sequential_like:
        line_length = line_length or 65
        positions = positions or [0.45, 0.85, 1.0]
    else:
        line_length = line_length or 98
        positions = positions or [0.3, 0.6, 0.70, 1.0]
        header.append("Connected to")
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    print_fn(f'Model: "{model.name}"')
    print_fn("_" * line_length)
    _print_row(header, positions, print_fn)
    print_fn("=" * line_length)
    layers = model.layers
    for layer in layers:
        fields = [f"{layer.name} ({type(layer).__name__})", _shape_text(_output_shape(layer)),
                  layer.count_params()]
        if not sequential_like:
            fields.append(_connections(model, layer))
        _print_row(fields, positions, print_fn)
        print_fn(" " * line_length)
    print_fn("=" * line_length)
    trainable = sum(math.prod(w.shape) for w in model.trainable_weights)
    non_trainable = sum(math.prod(w.shape) for w in model.non_trainable_weights)
    tb = _weight_bytes(model.trainable_weights)
    nb = _weight_bytes(model.non_trainable_weights)
    print_fn(f"Total params: {trainable + non_trainable} ({_readable_memory(tb + nb)})")
    print_fn(f"Trainable params: {trainable} ({_readable_memory(tb)})")
    print_fn(f"Non-trainable params: {non_trainable} ({_readable_memory(nb)})")
    print_fn("_" * line_length)
