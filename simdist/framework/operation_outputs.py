"""The dtypes and static shapes ``get_operations()`` shows for the outputs simdist lists
without them.

Glossary:
  listed op   -- an Operation of graph_operations: its outputs carry what the trace knew
                 (a recorded op's dtype and shape); those TF's conversions make (a
                 ``mul/y`` or a reduction's ``Const``, a captured variable's resource
                 Placeholder) and some of a listing's ops have none.
  Const       -- its dtype as the GraphDef's ``dtype`` attr gives it (graph_def's
                 _Lister: the type its consumer's argument shares, else its value's), its
                 shape its value's (a listing's, or its TensorProto's: the shape
                 ``tf.constant`` was given).
  resource    -- a variable's handle Placeholder: ``resource``, a scalar.
  IdentityN   -- one output per input (``IdentityN:1`` ...), each its input's.
  other ops   -- the dtype its op definition's output argument has: a fixed type
                 (``Shape``: int32), or its type attr's (``T`` from its inputs'); a
                 ``While``'s outputs are its inputs' (``T``). Their shapes stay as listed.

Mirrors tensorflow/python/framework/ops.py (Operation.outputs: each Tensor's dtype from
the op definition's output arg, its shape from C++ shape inference), constant_op.py (a
Const's shape is its value's).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, op_def_table, shape_inference
from simdist.framework.tensor_shape import TensorShape


def complete(ops) -> list:
    """Give each output of ``ops`` that has none the dtype TF lists (and a Const or a
    resource its static shape); returns ``ops``."""
    from simdist.framework.graph_def import _Lister

    lister = _Lister(ops, set())
    values: dict = {}   # id(tensor) -> its value where small and known (shape_inference)
    for op in ops:
        if op.type == "IdentityN":   # one output per input (its dtype and shape)
            _identity_n(op)
        elif op.type in _ALL_OUTPUTS:   # FusedBatchNormV3's reserve spaces
            _all_outputs(op)
        if op.type == "Const" and op.outputs:
            _const(lister, op)
        elif op.type == "Placeholder" and op.outputs and op.outputs[0].dtype is None:
            op.outputs[0].dtype, op.outputs[0].shape = dtypes.resource, TensorShape([])
        elif any(t.dtype is None for t in op.outputs):
            _from_op_def(lister, op)
        for t in op.outputs:   # a listing's 'string' or NumPy dtype: TF's DType
            if t.dtype is not None and not isinstance(t.dtype, dtypes.DType):
                t.dtype = dtypes.as_dtype(t.dtype)
        _infer(lister, op, values)
    return ops


def _identity_n(op) -> None:
    """An IdentityN simdist recorded with its first outputs only (a custom gradient's
    node returns the results, not the arguments' copies): the others, its inputs'."""
    from simdist.framework.graph_operations import GraphTensor

    for i, t in enumerate(op.inputs[len(op.outputs):], start=len(op.outputs)):
        op.outputs.append(GraphTensor(op, i, t.dtype, t.shape.as_list()
                                      if t.shape.rank is not None else None))


_ALL_OUTPUTS = {"FusedBatchNormV3"}   # simdist's node gives the first outputs only


def _all_outputs(op) -> None:
    """The outputs of its op definition simdist's node does not give (their dtypes from
    the definition; shapes from shape_inference)."""
    from simdist.framework.graph_operations import GraphTensor

    opdef = op_def_table.get(op.type)
    for i in range(len(op.outputs), len(opdef.outputs)):
        op.outputs.append(GraphTensor(op, i))


def _call_attrs(op) -> dict:
    from simdist.framework.graph_def import _call_attrs

    return _call_attrs(op)


def _infer(lister, op, values) -> None:
    """Give ``op``'s outputs the shapes TF's shape function gives them (shape_inference)
    and keep the small integer values known for the ops after it."""
    if op.type in ("Const", "Placeholder") or not op.outputs:
        if op.type == "Const" and op.outputs:
            values[id(op.outputs[0])] = _const_value(lister, op)
        return
    shapes = [t.shape.as_list() if t.shape.rank is not None else None for t in op.inputs]
    known = [values.get(id(t)) for t in op.inputs]
    attrs = {k: v.value for k, v in lister.attrs(op).items()} \
        if op.type in shape_inference.ATTRIBUTED else {}
    listed = [t.shape.as_list() if t.shape.rank is not None else None for t in op.outputs]
    if op.type in shape_inference.REDUCTIONS and "keep_dims" not in _call_attrs(op) \
            and listed[0] is not None and shapes[0] is not None:   # as its listing kept
        attrs["keep_dims"] = len(listed[0]) == len(shapes[0]) != 0
    inferred = shape_inference.infer(op.type, attrs, shapes, known)
    for t, was, shape in zip(op.outputs, listed, inferred or ()):
        shape = shape_inference.merged(op.type, was, shape)
        if shape is not None:
            t.shape = TensorShape(shape)
    if len(op.outputs) == 1:
        value = shape_inference.evaluate(op.type, attrs, known, shapes)
        if value is not None:
            values[id(op.outputs[0])] = value


def _const_value(lister, op):
    t = op.outputs[0]
    value = getattr(t, "value", None)
    if value is None:
        given = lister.attrs(op).get("value")
        if given is None:
            return None
        array, _, shape = given.value
        dims = None if shape is None else [int(d) for d in _flat(shape)]
        if dims is not None and np.size(array) not in (1, int(np.prod(dims))):
            return None
        value = array if dims is None else np.broadcast_to(np.reshape(array, -1), dims) \
            if np.size(array) == 1 else np.reshape(array, dims)
    value = np.asarray(value)
    if value.size == 0:   # an empty list's: TF's int32
        return value.astype(np.int32)
    return value if value.dtype.kind in "iub" and value.size <= 1024 else None


def _const(lister, op) -> None:
    t = op.outputs[0]
    name = lister.dtype(t)
    known = getattr(t, "value", None)   # what a listing gave its gradient (graph_operations)
    if name is None and known is not None:   # a Python value's: TF's int32 / float32
        name = {"f": "float32", "i": "int32", "u": "int32", "b": "bool"}.get(
            np.asarray(known).dtype.kind)
    if name is not None:
        t.dtype = dtypes.as_dtype(name)
    if t.shape.rank is not None:
        return
    if known is not None:
        t.shape = TensorShape(list(known.shape))
        return
    value = lister.attrs(op).get("value")
    if value is not None:   # its TensorProto: (array, dtype, the shape given)
        array, _, shape = value.value
        t.shape = TensorShape(list(array.shape) if shape is None
                              else [int(d) for d in _flat(shape)])


def _flat(shape):
    return np.ravel(shape.numpy() if hasattr(shape, "numpy") else shape)


def _from_op_def(lister, op) -> None:
    if op.type in ("While", "StatelessWhile"):   # each output is its input's type
        for out, t in zip(op.outputs, op.inputs):
            if out.dtype is None and t.dtype is not None:
                out.dtype = t.dtype
        return
    from simdist.framework.graph_def import _arguments, _default

    opdef = op_def_table.get(op.type)
    if opdef is None:
        return
    types = {}   # each type attr: its first input's dtype known
    for t, kind in _arguments(opdef, op.inputs):
        types[kind] = types.get(kind) or lister.dtype(t)
    defaults = {name: _default("type", text) for name, kind, text in opdef.attrs
                if kind == "type"}
    for (_, kind, _), out in zip(opdef.outputs, op.outputs):
        name = kind if kind in dtypes.DTYPES else types.get(kind) or defaults.get(kind)
        if out.dtype is None and name is not None:
            out.dtype = dtypes.as_dtype(name)
