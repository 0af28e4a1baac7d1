"""``model.summary()``: Keras's table of layers, output shapes and parameter counts.

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
    line_length = line_length or 65
    positions = positions or [0.45, 0.85, 1.0]
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    print_fn(f'Model: "{model.name}"')
    print_fn("_" * line_length)
    _print_row(["Layer (type)", "Output Shape", "Param #"], positions, print_fn)
    print_fn("=" * line_length)
    layers = model.layers
    sequential = getattr(model, "_is_sequential", False)
    for layer in layers:
        if sequential and layer._node_shapes is not None:
            shape = str(tuple(layer._node_shapes[1])).replace(",)", ")")
        else:
            shape = "multiple"
        _print_row([f"{layer.name} ({type(layer).__name__})", shape, layer.count_params()],
                   positions, print_fn)
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
