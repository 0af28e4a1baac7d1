"""``Node``: one call of a layer on KerasTensors, the edges of a functional model's graph.

Glossary:
  node           -- (layer, the call's arguments with their KerasTensors, the outputs). A
                    layer called on symbolic inputs twice (a shared layer) has two nodes.
  symbolic call  -- building the layer for the inputs' shapes (batch dimension None), then
                    running it once: a user's layer in a scratch graph on symbolic tensors
                    (scratch_graph.py, as Keras does), simdist's own layers (or a call the
                    graph cannot record) on zeros of those shapes (batch 1) for its
                    outputs' dtypes and shapes, under ``shape_inference`` (no device time,
                    no trace).
  two sizes      -- an op layer or a lookup layer finds its outputs by running on zeros
                    with the unknown dimensions 1, then 2 (``outputs_from_two_sizes``):
                    the dimensions that changed are unknown.
  iterate_inbound -- the (layer, node index, tensor index, tensor) of each symbolic input:
                    the summary's "Connected to" column and the graph walk.

Mirrors tf_keras/src/engine/node.py and base_layer.py (``_functional_construction_call``).
"""

from __future__ import annotations

import contextlib
import io

import numpy as np

from simdist.framework import errors, execute, nest, ragged_tensor, sparse_tensor
from simdist.framework.ops import array_ops as A
from simdist.keras import backend
from simdist.keras.engine import scratch_graph
from simdist.keras.engine.keras_tensor import (
    KerasTensor,
    RaggedKerasTensor,
    SparseKerasTensor,
)


class Node:
    """One symbolic call of ``layer``."""

    def __init__(self, layer, call_args=(), call_kwargs=None, outputs=None):
        self.layer = layer
        self.call_args = call_args
        self.call_kwargs = dict(call_kwargs or {})
        self.outputs = outputs
        self.keras_inputs = [t for t in nest.flatten((call_args, self.call_kwargs))
                             if isinstance(t, KerasTensor)]
        self.is_input = not self.keras_inputs
        layer._inbound_nodes.append(self)
        index = len(layer._inbound_nodes) - 1
        for i, t in enumerate(nest.flatten(outputs)):
            t._keras_history = (layer, index, i)

    @property
    def parent_nodes(self) -> list:
        """The nodes that made this node's inputs."""
        return [t.node for t in self.keras_inputs]

    def iterate_inbound(self):
        for t in self.keras_inputs:
            layer, node_index, tensor_index = t._keras_history
            yield layer, node_index, tensor_index, t

    @property
    def output_shapes(self):
        """The outputs' shapes as tuples; an input layer's as a one-element list (Keras's)."""
        shapes = nest.map_structure(lambda t: tuple(t.shape.as_list()), self.outputs)
        if self.is_input and not isinstance(shapes, list):
            return [shapes]
        return shapes

    @property
    def input_shapes(self):
        shapes = [tuple(t.shape.as_list()) for t in self.keras_inputs]
        return shapes[0] if len(shapes) == 1 else shapes


def _placeholder(t, n=1):
    """Zeros shaped like ``t`` with each unknown dimension ``n`` (a masked ``t``'s mask:
    every step unmasked)."""
    if not isinstance(t, KerasTensor):
        return t
    if isinstance(t, SparseKerasTensor):   # a SparseTensor with no entries
        return sparse_tensor.SparseTensor(
            np.zeros((0, t.ndim), np.int64), np.zeros(0, t.dtype.as_numpy_dtype),
            [n if d is None else d for d in t.shape.as_list()])
    if isinstance(t, RaggedKerasTensor):   # n rows of n values each, per ragged dim
        dims = t.shape.as_list()
        inner = [n if d is None else d for d in dims[t.ragged_rank + 1:]]
        rows = n if dims[0] is None else dims[0]
        values = A.zeros([rows * n ** t.ragged_rank] + inner, dtype=t.dtype)
        splits = [np.arange(0, rows * n ** (k + 1) + 1, n, dtype=np.int64)
                  for k in range(t.ragged_rank)]
        return ragged_tensor.RaggedTensor.from_nested_row_splits(values, splits)
    zeros = A.zeros([n if d is None else d for d in t.shape.as_list()], dtype=t.dtype)
    mask = getattr(t, "_keras_mask", None)
    if mask is not None:
        backend.set_keras_mask(zeros, A.ones([n if d is None else d
                                              for d in mask.shape.as_list()], dtype="bool"))
    return zeros


def _run_on_placeholders(layer, inputs, args, kwargs, n=1):
    """``layer`` called on zeros standing for its KerasTensors (unknown dimensions ``n``):
    (its output, its concrete inputs)."""
    with execute.shape_inference():
        concrete_in = nest.map_structure(lambda t: _placeholder(t, n), inputs)
        concrete_args = nest.map_structure(lambda t: _placeholder(t, n), list(args))
        concrete_kwargs = nest.map_structure(lambda t: _placeholder(t, n), dict(kwargs))
        concrete_kwargs.setdefault("training", False)
        return layer(concrete_in, *concrete_args, **concrete_kwargs), concrete_in


def _zeros(t, n):
    """Zeros shaped like ``t`` with each unknown dimension ``n``."""
    if not isinstance(t, KerasTensor):
        return t
    return A.zeros([n if d is None else d for d in t.shape.as_list()], dtype=t.dtype)


def outputs_from_two_sizes(layer, fn, args, kwargs):
    """``layer``'s KerasTensor outputs found by running ``fn`` on zeros twice, each unknown
    dimension 1 and then 2: a dimension that follows them is unknown (None), one that does
    not (a reduced batch axis, a rank-1 input taken as one sample) keeps its size, as TF's
    symbolic shapes.

    Raises:
      ValueError: ``fn`` refuses the inputs (Keras's "Exception encountered when calling
        layer" with its message, as TF's graph-mode call gives).
    """
    try:
        with execute.shape_inference():
            small, large = (fn(*nest.map_structure(lambda t, n=n: _zeros(t, n), list(args)),
                               **nest.map_structure(lambda t, n=n: _zeros(t, n), kwargs))
                            for n in (1, 2))
    except (errors.InvalidArgumentError, ValueError) as e:
        message = e.message if isinstance(e, errors.InvalidArgumentError) else str(e)
        raise ValueError(f'Exception encountered when calling layer "{layer.name}" (type '
                         f"{type(layer).__name__}).\n\n{message}") from e

    def make(a, b):
        dims = [d if d == e else None for d, e in zip(a.shape, b.shape)]
        return KerasTensor(dims, a.dtype)   # named when asked (scratch_graph.name_outputs)

    return nest.map_structure(make, small, large)


def _input_mask_names(concrete_in, inputs, args, kwargs) -> dict:
    """{id of an input's concrete mask: the name TF's scratch graph gives its placeholder}:
    the inputs, args and kwargs are placeholders 'Placeholder', 'Placeholder_1' ... in
    order, the inputs' masks after them (a mask a layer passes on is named so)."""
    keras_tensors = [t for t in nest.flatten([inputs, list(args), dict(kwargs)])
                     if isinstance(t, KerasTensor)]
    names, k = {}, len(keras_tensors)
    for c in nest.flatten(concrete_in):
        mask = backend.get_keras_mask(c) if hasattr(c, "shape") else None
        if mask is not None:
            names[id(mask)] = f"Placeholder_{k}:0" if k else "Placeholder:0"
            k += 1
    return names


def _second_size(layer, inputs, args, kwargs):
    """A user's layer (not one of simdist's, which declare their shapes) with unknown
    dimensions besides the batch and no ``compute_output_shape``: its output with those
    dimensions 2 (a dimension that follows them is unknown, as in TF's graph), else None."""
    if type(layer).__module__.startswith("simdist.") or \
            type(layer).compute_output_shape is not _base_compute_output_shape():
        return None
    if not any(d is None for t in nest.flatten([inputs, list(args), dict(kwargs)])
               if isinstance(t, KerasTensor) for d in t.shape.as_list()[1:]):
        return None
    # TF calls the layer once: what this probe's call prints is not shown again
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return _run_on_placeholders(layer, inputs, args, kwargs, n=2)[0]


def _symbolic_outputs(layer, concrete, inputs, args, kwargs):
    """KerasTensors shaped like ``concrete`` with the batch dimension the inputs' (None);
    a layer's ``_symbolic_output_shapes(inputs, args, kwargs)`` (its call's KerasTensors:
    one shape per output, as TF's graph infers them) where it has one."""
    first = nest.flatten(inputs)[0]
    batch = first.shape.as_list()[0] if isinstance(first, KerasTensor) and first.ndim else None
    unknown = any(d is None for t in nest.flatten(inputs) if isinstance(t, KerasTensor)
                  for d in t.shape.as_list()[1:])
    declared = None
    shapes = [tuple(t.shape.as_list()) for t in nest.flatten(inputs)
              if isinstance(t, KerasTensor)]
    if hasattr(layer, "_symbolic_output_shapes"):
        declared = layer._symbolic_output_shapes(inputs, args, kwargs)
    elif unknown and type(layer).compute_output_shape is not _base_compute_output_shape():
        declared = layer.compute_output_shape(shapes[0] if len(shapes) == 1 else shapes)

    def make(c, shape=None):
        dims = list(shape) if shape is not None else [batch] + list(c.shape)[1:]
        if isinstance(c, ragged_tensor.RaggedTensor):   # its ragged dims unknown
            rank = c.ragged_rank
            dims = [batch] + [None] * rank + list(c.shape)[rank + 1:]
            return RaggedKerasTensor(dims, c.dtype, ragged_rank=rank)
        return KerasTensor(dims, c.dtype)   # named when asked (scratch_graph.name_outputs)

    second = _second_size(layer, inputs, args, kwargs) if declared is None else None
    if second is not None:
        return nest.map_structure(lambda c, e: make(c, [batch] + [
            d if d == f else None for d, f in zip(list(c.shape)[1:], list(e.shape)[1:])]),
            concrete, second)

    if declared is not None and not nest.is_nested(concrete):
        return make(concrete, declared)
    flat = nest.flatten(concrete)
    if isinstance(declared, list) and len(declared) == len(flat) and \
            all(isinstance(d, tuple) for d in declared):   # one shape per output (an RNN's)
        return nest.pack_sequence_as(concrete, [make(c, d) for c, d in zip(flat, declared)])
    return nest.map_structure(make, concrete)


def _base_compute_output_shape():
    from simdist.keras.engine.base_layer import Layer

    return Layer.compute_output_shape


def symbolic_call_hook(layer, training=None) -> None:
    """Tell ``layer`` Keras called it on symbolic inputs (``training`` as passed): a layer
    with Python-side state that such a call changes (Dropout's legacy seed) updates it."""
    hook = getattr(layer, "_on_symbolic_call", None)
    if hook is not None:
        hook(training)


def symbolic_call(layer, inputs, args, kwargs):
    """Call ``layer`` on KerasTensors: build it, find its outputs, record the node."""
    from simdist.keras.engine.base_layer import name_scope

    with name_scope(layer.name):
        layer._maybe_build(inputs)
    if hasattr(layer, "_infer_outputs"):  # an op layer (tf_op_layer.py) finds its own
        outputs = layer._infer_outputs((inputs, *args), kwargs)
        node = Node(layer, (inputs, *args), kwargs, outputs)
        layer._record_node_shapes(node)
        return outputs
    if scratch_graph.is_scratch_traced(layer):
        outputs = scratch_graph.traced_call(layer, inputs, args, kwargs)
        if outputs is not None:
            symbolic_call_hook(layer, training=kwargs.get("training"))
            node = Node(layer, (inputs, *args), kwargs, outputs)
            layer._record_node_shapes(node)
            return outputs
    out, concrete_in = _run_on_placeholders(layer, inputs, args, kwargs)
    symbolic_call_hook(layer, training=kwargs.get("training"))
    outputs = _symbolic_outputs(layer, out, inputs, args, kwargs)
    passed = _input_mask_names(concrete_in, inputs, args, kwargs)
    for c, t in zip(nest.flatten(out), nest.flatten(outputs)):
        mask = backend.get_keras_mask(c)   # the output's mask as a KerasTensor (Keras's)
        if mask is not None:
            t._keras_mask = KerasTensor(t.shape.as_list()[:len(mask.shape)], mask.dtype,
                                        name=passed.get(id(mask), layer.name))
    node = Node(layer, (inputs, *args), kwargs, outputs)
    layer._record_node_shapes(node)
    return outputs
