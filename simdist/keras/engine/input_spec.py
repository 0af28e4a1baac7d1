"""``InputSpec``: what a layer accepts (rank, sizes of given axes), checked on every call.

Glossary:
  ndim / min_ndim / max_ndim -- the exact, least or greatest rank allowed.
  axes                       -- ``{axis: size}`` that must match (Dense's last axis, BN's
                                channel axis), set once the layer is built.
  assert_input_compatibility -- raises Keras's ValueError, naming the layer and the shape
                                (or the number of inputs, when it is not the specs').

Mirrors keras/src/engine/input_spec.py.
"""

from __future__ import annotations

from simdist.framework import nest


class InputSpec:
    """The rank and axis sizes a layer's input must have."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None):
        self.dtype, self.shape = dtype, shape
        self.ndim = len(shape) if shape is not None else ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.axes = dict(axes or {})

    def __repr__(self):
        spec = [f"{k}={v}" for k, v in (("dtype", self.dtype), ("shape", self.shape),
                                         ("ndim", self.ndim), ("max_ndim", self.max_ndim),
                                         ("min_ndim", self.min_ndim))
                if v is not None and not (k == "ndim" and self.shape is not None)]
        if self.axes:
            spec.append(f"axes={self.axes}")
        return f"InputSpec({', '.join(spec)})"


def assert_input_compatibility(input_spec, inputs, layer_name):
    """Raise Keras's ValueError when ``inputs`` do not fit ``input_spec``."""
    if input_spec is None:
        return
    specs = nest.flatten(input_spec)
    flat = nest.flatten(inputs)
    for x in flat:
        if not hasattr(x, "shape"):
            raise TypeError(f"Inputs to a layer should be tensors. Got '{x}' (of type "
                            f"{type(x)}) as input for layer '{layer_name}'.")
    if isinstance(inputs, dict) and len(specs) == 1:
        # Keras fails here too (a TypeError building from the dict's shapes), less clearly.
        raise TypeError(f"Layer '{layer_name}' takes one tensor, not a dict (keys "
                        f"{sorted(inputs)}): pass the tensor itself.")
    if len(flat) != len(specs):
        # e.g. a list of two arrays given to a Dense: pass one tensor (concatenate first).
        raise ValueError(f'Layer "{layer_name}" expects {len(specs)} input(s), but it received '
                         f"{len(flat)} input tensors. Inputs received: {flat}")
    for index, (x, spec) in enumerate(zip(flat, specs)):
        if spec is None:
            continue
        shape = tuple(x.shape)
        ndim = len(shape)
        head = f'Input {index} of layer "{layer_name}" is incompatible with the layer: '
        if spec.ndim is not None and ndim != spec.ndim:
            raise ValueError(f"{head}expected ndim={spec.ndim}, found ndim={ndim}. Full shape "
                             f"received: {shape}")
        if spec.max_ndim is not None and ndim > spec.max_ndim:
            raise ValueError(f"{head}expected max_ndim={spec.max_ndim}, found ndim={ndim}")
        if spec.min_ndim is not None and ndim < spec.min_ndim:
            raise ValueError(f"{head}expected min_ndim={spec.min_ndim}, found ndim={ndim}. "
                             f"Full shape received: {shape}")
        for axis, value in spec.axes.items():
            if value is not None and shape[int(axis)] not in (value, None):
                raise ValueError(f"{head}expected axis {axis} of input shape to have value "
                                 f"{value}, but received input with shape {shape}")
        if spec.shape is not None and any(
                want is not None and have is not None and want != have
                for want, have in zip(spec.shape, shape)):
            raise ValueError(f"{head}expected shape={spec.shape}, found shape={shape}")
