"""``FuncGraph.as_graph_def()``: a trace's graph as TF's GraphDef lists and prints it.

Glossary:
  NodeDef   -- one node: ``name``, ``op``, ``input`` (the tensors it reads: ``add`` for an
               op's first output, ``add:1`` for its second; then ``^name`` for each op it
               must run after, sorted by name) and ``attr`` (AttrValues by name).
  AttrValue -- an attr's value: a dtype (``type: DT_FLOAT``), a bool, int, float, bytes,
               a shape, a TensorProto (a Const's ``value``) or a list.
  attrs     -- what TF's op definition (op_def_table) gives the op: each type attr the dtype
               of a tensor its argument is, a list's length, the other attrs the value the
               call gave (``transpose_b``, ``keep_dims``, ``alpha``) or their default; a
               Placeholder its dtype, shape and ``_user_specified_name``.
  control   -- TF's automatic control dependencies: an op using a variable's resource runs
               after the last write to it (a write after the reads since); a stateful op
               without a resource after the previous one; the ``NoOp`` after every stateful
               op that must run (a read whose value is used too), each returned Identity
               after the ``NoOp``.
  text      -- ``str(graph_def)``: protobuf's text format as TF's Python protobuf prints
               it (proto_text), ending ``versions { producer: 2474 }`` (TF 2.21's GraphDef
               version).

  library   -- the functions its ops call (a nested tf.function's body, a cond's
               branches): function_library; with one, ``versions`` adds
               ``min_consumer: 12``.

Mirrors tensorflow/core/framework/graph.proto, node_def.proto, attr_value.proto,
tensor.proto, tensor_shape.proto; python/framework/auto_control_deps.py (the control
inputs), python/framework/tensor_util.py (make_tensor_proto: a Const's value),
core/graph/graph.cc (ToGraphDef: control inputs sorted by name).
"""

from __future__ import annotations

import functools

import numpy as np

from simdist.framework import dtypes, op_def_table, proto_text
from simdist.framework.slice_spec import MASKS, slice_spec

PRODUCER = 2474   # TF 2.21's TF_GRAPH_DEF_VERSION
_READ_OPS = {"ReadVariableOp"}   # auto_control_deps' RESOURCE_READ_OPS that simdist lists
# stateful ops calling functions (their op definitions are not in op_def_table)
_STATEFUL_CALLS = {"StatefulPartitionedCall", "If", "While"}


class AttrValue:
    """One attr's value: ``kind`` (``type``, ``b``, ``i``, ``f``, ``s``, ``shape``,
    ``tensor``, ``list``) and ``value``."""

    def __init__(self, kind: str, value):
        self.kind = kind
        self.value = value

    def __repr__(self):
        return f"AttrValue({self.kind}={self.value!r})"


class NodeDef:
    """One node of a GraphDef."""

    def __init__(self, name: str, op: str, inputs=(), attr=None, device: str = ""):
        self.name = name
        self.op = op
        self.input = list(inputs)
        self.device = device   # the op's tf.device scopes ('' for none: not printed)
        self.attr = dict(attr or {})

    def __repr__(self):
        return f"NodeDef(name={self.name!r}, op={self.op!r}, input={self.input!r})"

    def __str__(self):
        return proto_text.message(_node_fields(self))


class GraphDef:
    """A graph's nodes (``.node``) and its version (``producer``); ``str()`` is TF's text."""

    def __init__(self, nodes, producer: int = PRODUCER, library=()):
        self.node = list(nodes)
        self.producer = producer
        self.library = FunctionDefLibrary(library)

    def __str__(self):
        versions = [("producer", str(self.producer))]
        fields = [("node", _node_fields(n)) for n in self.node]
        if self.library.function:
            fields.append(("library", [("function", f.fields(_node_fields, _attr_fields))
                                       for f in self.library.function]))
            versions.append(("min_consumer", "12"))   # a graph with functions (TF's)
        return proto_text.message(fields + [("versions", versions)])


class FunctionDefLibrary:
    """A GraphDef's ``library``: its FunctionDefs (``.function``), by name (TF lists them
    in its function map's order, which follows their uids)."""

    def __init__(self, functions):
        self.function = sorted(functions, key=lambda f: f.name)
        for f in self.function:
            f.printer = (_node_fields, _attr_fields)


def _node_fields(node: NodeDef) -> list:
    fields = [("name", proto_text.quoted(node.name)), ("op", proto_text.quoted(node.op))]
    fields += [("input", proto_text.quoted(i)) for i in node.input]
    if node.device:
        fields.append(("device", proto_text.quoted(node.device)))
    for key in sorted(node.attr, key=functools.cmp_to_key(proto_text.map_order)):
        fields.append(("attr", [("key", proto_text.quoted(key)),
                                ("value", _attr_fields(node.attr[key]))]))
    return fields


def _shape_fields(dims) -> list:
    if dims is None:
        return [("unknown_rank", "true")]
    return [("dim", [("size", str(d))] if d else []) for d in dims]


def _attr_fields(attr: AttrValue) -> list:
    kind, value = attr.kind, attr.value
    if kind == "type":
        return [("type", dtypes.datatype_name(value))]
    if kind == "b":
        return [("b", "true" if value else "false")]
    if kind == "i":
        return [("i", str(int(value)))]
    if kind == "f":
        return [("f", proto_text.float32(value))]
    if kind == "s":
        return [("s", proto_text.quoted(value))]
    if kind == "shape":
        return [("shape", _shape_fields(value))]
    if kind == "func":
        return [("func", [("name", proto_text.quoted(value))])]
    if kind == "tensor":
        return [("tensor", _tensor_fields(*value))]
    return [("list", [(k, v) for k, v in value])]   # list: [(field, text)]


# tensor_util's field of a scalar's value, by dtype (make_tensor_proto's append functions)
_VALUE_FIELDS = {"float32": "float_val", "float64": "double_val", "int32": "int_val",
                 "int16": "int_val", "int8": "int_val", "uint8": "int_val",
                 "int64": "int64_val", "bool": "bool_val", "float16": "half_val",
                 "bfloat16": "half_val", "string": "string_val", "uint32": "uint32_val",
                 "uint64": "uint64_val"}
_NO_CONTENT = {"bool", "string"}   # never tensor_content (not in _TENSOR_CONTENT_TYPES)


def _tensor_fields(array, dtype: str, shape=None) -> list:
    """A Const's TensorProto as make_tensor_proto writes it: a value of more than one
    element as ``tensor_content`` (its bytes), else a ``*_val`` field per element; one
    value given for a larger ``shape``: that value alone."""
    dims = list(array.shape) if shape is None else [int(d) for d in np.ravel(shape)]
    fields = [("dtype", dtypes.datatype_name(dtype)), ("tensor_shape", _shape_fields(dims))]
    if array.size > 1 and dtype not in _NO_CONTENT:
        return fields + [("tensor_content", proto_text.quoted(array.tobytes()))]
    field = _VALUE_FIELDS.get(dtype, "int_val")
    for v in array.reshape(-1):
        if dtype == "bool":
            text = "true" if v else "false"
        elif dtype in ("float32",):
            text = proto_text.float32(v)
        elif dtype == "float64":
            text = proto_text.float64(v)
        elif dtype in ("float16", "bfloat16"):
            text = str(int(np.asarray(v).view(np.uint16)))
        elif dtype == "string":
            text = proto_text.quoted(v if isinstance(v, bytes) else str(v))
        else:
            text = str(int(v))
        fields.append((field, text))
    return fields


# --- a traced graph's NodeDefs ---------------------------------------------------------
def _input_name(t) -> str:
    """A NodeDef's name of the tensor it reads: ``add`` for an op's first output."""
    return t.op.name if t.value_index == 0 else t.name


def _dtype_name(dtype):
    return None if dtype is None else getattr(dtype, "name", dtype)


class _Lister:
    """The NodeDefs of a graph's operations (see the module docstring)."""

    def __init__(self, ops, returned):
        self.ops = ops
        self.returned = returned   # the names of the returned Identities
        self.consumers: dict = {}
        for op in ops:
            for i, t in enumerate(op.inputs):
                self.consumers.setdefault(id(t), []).append((op, i))
        self.dtypes: dict = {}

    def dtype(self, t):
        """A tensor's dtype name; a Const's that simdist left open: that of the tensor its
        consumer's argument shares a type attr with, else the attr's fixed type or
        default, else its value's (a Python float: float32). A Const of a NumPy value
        takes the type it shares too (TF converts it with that dtype: ``x * 1.0``)."""
        known = _dtype_name(t.dtype)
        numpy_const = t.op.type == "Const" and isinstance(t.dtype, np.dtype)
        if known is not None and not numpy_const:
            return known
        if t.op.type == "Placeholder":   # a variable's resource
            return "resource"
        if id(t) in self.dtypes:
            return self.dtypes[id(t)]
        self.dtypes[id(t)] = known   # no cycle
        found = self._from_consumers(t, shared=True) or known if numpy_const else \
            self._from_consumers(t) or _value_dtype(getattr(t.op, "_value", None))
        self.dtypes[id(t)] = found
        return found

    def _from_consumers(self, t, shared=False):
        for op, position in self.consumers.get(id(t), ()):
            opdef = op_def_table.get(op.type)
            if opdef is None:
                continue
            args = _arguments(opdef, op.inputs)
            kind = args[position][1]
            for j, (other, other_kind) in enumerate(args):
                if other_kind != kind or j == position:
                    continue
                found = self.dtype(other) if shared else _dtype_name(other.dtype)
                if found is not None:
                    return found
            if shared:
                continue
            attrs = {a[0]: a[2] for a in opdef.attrs}
            if kind not in attrs:   # a fixed type (``int32``)
                return kind
            if attrs[kind] is not None:
                return _default("type", attrs[kind])
            if opdef.outputs and opdef.outputs[0][1] == kind and op.outputs:
                return _dtype_name(op.outputs[0].dtype)
        return None

    def attrs(self, op) -> dict:
        if op.type == "Placeholder":
            return self._placeholder(op)
        if op.type == "Const":
            return self._const(op)
        opdef = op_def_table.get(op.type)
        if opdef is None:
            return {}
        given = _call_attrs(op)
        types = {}
        for (t, kind) in _arguments(opdef, op.inputs):
            types.setdefault(kind, self.dtype(t))
            types.setdefault(kind + "[]", []).append(self.dtype(t))
        for (_, kind, _), t in zip(opdef.outputs, op.outputs):
            types.setdefault(kind, _dtype_name(t.dtype))
        n_listed = len(op.inputs) - len(opdef.inputs) + 1
        out = {}
        for name, kind, default in opdef.attrs:
            if name in given:
                value = given[name]
            elif kind == "type":
                value = types.get(name) or default
            elif kind == "list(type)":
                value = AttrValue("list", [("type", dtypes.datatype_name(d))
                                           for d in types.get(name + "[]", ())])
            elif any(a[2] == name for a in opdef.inputs):
                value = n_listed
            elif any(a[2] == name for a in opdef.outputs):   # Unpack's num: its outputs
                value = len(op.outputs)
            else:
                value = _default(kind, default)
            if value is None:
                continue
            out[name] = value if isinstance(value, AttrValue) else _attr(kind, value)
        out.update((k, v) for k, v in given.items() if k.startswith("_"))   # not the op's
        return out

    def _placeholder(self, op) -> dict:
        t = op.outputs[0]
        dtype = _dtype_name(t.dtype)
        if dtype is None:   # a variable's resource: a scalar
            dims, dtype, user = [], "resource", op.name.rsplit("/", 1)[-1]
        else:
            dims, user = t.shape.as_list() if t.shape.rank is not None else None, op.name
            dims = None if dims is None else [-1 if d is None else d for d in dims]
        return {"dtype": AttrValue("type", dtype), "shape": AttrValue("shape", dims),
                "_user_specified_name": AttrValue("s", user)}

    def _const(self, op) -> dict:
        t = op.outputs[0]
        dtype = self.dtype(t)
        out = {"dtype": AttrValue("type", dtype)} if dtype is not None else {}
        value, shape = getattr(op, "_value", None), None
        fn_name, args, kwargs = getattr(op, "_call", (None, (), {}))
        if value is None and fn_name == "constant":   # tf.constant(value, dtype, shape)
            value, shape = _first(args, kwargs, 0, "value"), _first(args, kwargs, 2, "shape")
        elif value is None and fn_name in _FILLED and t.shape.is_fully_defined():
            # tf.zeros / tf.ones of a small known shape: TF's _constant_if_small
            value, shape = _FILLED[fn_name], t.shape.as_list()
        if value is not None and dtype is not None:
            array = np.asarray(value.numpy() if hasattr(value, "numpy") else value)
            if dtype != "string":
                array = array.astype(dtypes.as_dtype(dtype).as_numpy_dtype)
            out["value"] = AttrValue("tensor", (array, dtype, shape))
        return out

    def control_inputs(self) -> dict:
        """Op name -> the names of the ops it runs after (auto_control_deps)."""
        control: dict = {op.name: set() for op in self.ops}
        last_write, reads, must_run = {}, {}, set()
        for op in self.ops:
            opdef = op_def_table.get(op.type)
            if op.type == "NoOp" or not (opdef.is_stateful if opdef is not None
                                         else op.type in _STATEFUL_CALLS):
                continue
            used = any(id(t) in self.consumers for t in op.outputs)
            if op.type not in _READ_OPS or used:
                must_run.add(op.name)
            read_only = getattr(op, "_read_only", ())   # a call's inputs it only reads
            resources = [(t, op.type in _READ_OPS or i in read_only)
                         for i, t in enumerate(op.inputs)
                         if t.op.type == "Placeholder" and _dtype_name(t.dtype) is None]
            for r, is_read in resources:
                if id(r) in last_write:
                    control[op.name].add(last_write[id(r)])
                if is_read:
                    reads.setdefault(id(r), []).append(op.name)
                else:
                    control[op.name].update(reads.pop(id(r), []))
                    last_write[id(r)] = op.name
            if not resources:
                if None in last_write:
                    control[op.name].add(last_write[None])
                last_write[None] = op.name
        for op in self.ops:
            if op.type == "NoOp":
                control[op.name] = must_run
                for name in self.returned:
                    control[name] = {op.name}
        return control


def _arguments(opdef, inputs) -> list:
    """Each input tensor with the type (attr name or fixed dtype) of its argument (a list
    argument, ``N*T`` or of a ``list(type)`` attr, takes what the others leave)."""
    out, extra = [], len(inputs) - len(opdef.inputs) + 1
    lists = {name for name, kind, _ in opdef.attrs if kind == "list(type)"}
    args = iter(inputs)
    for _, kind, number in opdef.inputs:
        for _ in range(extra if number or kind in lists else 1):
            t = next(args, None)
            if t is not None:
                out.append((t, kind))
    return out


def _value_dtype(value):
    """The dtype TF converts a value to without a hint: a tensor's or array's own, a Python
    float float32, an int int32."""
    if value is None:
        return None
    if hasattr(value, "dtype"):
        return _dtype_name(value.dtype) if not isinstance(value, np.ndarray) \
            else str(value.dtype)
    kind = np.asarray(value).dtype.kind
    return {"f": "float32", "i": "int32", "u": "int32", "b": "bool"}.get(kind, "string")


_FILLED = {"zeros": 0, "ones": 1}   # Consts of one value over a shape


def _first(args, kwargs, position, keyword):
    """A call's argument by keyword or position (None when not given)."""
    if keyword in kwargs:
        return kwargs[keyword]
    return args[position] if position is not None and len(args) > position else None


# Python function name -> (TF attr, its argument's position and keyword, convert)
_CALL_ATTRS = {
    "matmul": [("transpose_a", 2, "transpose_a", bool), ("transpose_b", 3, "transpose_b",
                                                          bool)],
    **{f"reduce_{r}": [("keep_dims", 2, "keepdims", bool)]
       for r in ("sum", "mean", "max", "min", "prod", "any", "all")},
    "leaky_relu": [("alpha", 1, "alpha", float)],
    "squeeze": [("squeeze_dims", 1, "axis", lambda a: [a] if isinstance(a, int) else a)],
    "stack": [("axis", 1, "axis", int)], "one_hot": [("axis", 4, "axis", int)],
    "unstack": [("axis", 2, "axis", int)], "top_k": [("sorted", 2, "sorted", bool)],
    "gather": [("batch_dims", 4, "batch_dims", int)],
    # conv2d / max_pool2d / avg_pool2d: the window attrs as the gen op takes them (NHWC)
    "conv2d": [("strides", 2, "strides", lambda v: _nhwc(v)),
               ("padding", 3, "padding", lambda v: v if isinstance(v, str) else "EXPLICIT"),
               ("data_format", 4, "data_format", str),
               ("dilations", 5, "dilations", lambda v: _nhwc(v))],
    **{pool: [("ksize", 1, "ksize", lambda v: _nhwc(v)),
              ("strides", 2, "strides", lambda v: _nhwc(v)), ("padding", 3, "padding", str),
              ("data_format", 4, "data_format", str)]
       for pool in ("max_pool2d", "avg_pool2d", "max_pool", "avg_pool")},
    "fused_batch_norm_v3": [("epsilon", 5, "epsilon", float),
                            ("data_format", 6, "data_format", str),
                            ("is_training", 7, "is_training", bool)],
    # tensor[key]: its masks (slice_spec)
    "_getitem": [(mask, 1, None, lambda key, m=mask: (slice_spec(key) or (0, 0, 0, {}))[3]
                  .get(m)) for mask in MASKS],
    # a custom gradient's IdentityN: its gradient override (custom_gradient)
    "_identity_n": [("_gradient_op_type", None, "gradient_op_type",
                     lambda s: AttrValue("s", s))],
}


def _nhwc(value) -> list:
    """A window attr as nn_ops passes it: an int or 2 values -> [1, h, w, 1]."""
    values = [int(v) for v in np.ravel(value)]
    if len(values) == 1:
        values = values * 2
    return [1, *values, 1] if len(values) == 2 else values


def _call_attrs(op) -> dict:
    """The attrs the call that made ``op`` gave (``tf.matmul(..., transpose_b=True)``)."""
    fn_name, args, kwargs = getattr(op, "_call", (None, (), {}))
    out = dict(getattr(op, "_given", {}))   # what a listing set (print_op_listing)
    for attr, position, keyword, convert in _CALL_ATTRS.get(fn_name, ()):
        value = _first(args, kwargs, position, keyword)
        if value is not None:
            out[attr] = convert(value)
    return out


def _default(kind, text):
    if text is None:
        return None
    if kind == "bool":
        return text == "true"
    if kind == "int":
        return int(text)
    if kind == "float":
        return float(text)
    if kind == "string":
        return text[1:-1].encode().decode("unicode_escape")
    if kind == "type":
        return "float32" if text == "float" else text
    if kind == "shape":
        return None if text == "?" else []
    return AttrValue("list", [])


def _attr(kind, value) -> AttrValue:
    if kind == "list(int)":
        return AttrValue("list", [("i", str(int(v))) for v in value])
    return AttrValue({"bool": "b", "int": "i", "float": "f", "string": "s", "type": "type",
                      "shape": "shape"}.get(kind, kind), value)


def as_graph_def(graph) -> GraphDef:
    """The GraphDef of a traced FuncGraph: its operations (graph_operations), each a
    NodeDef of its name, type, inputs (control inputs last) and attrs."""
    from simdist.framework import graph_operations

    ops = graph_operations.operations(graph)
    returned = {n[:-2] for n in graph.output_names()} if graph.outputs is not None else set()
    library = []
    nodes = node_defs(_Lister(ops, returned), library)
    return GraphDef(nodes, library=library)


def node_defs(lister, library, skip=()) -> list:
    """The NodeDefs of a lister's operations but those named in ``skip`` (control inputs
    last, sorted), the functions they call added to ``library`` (a function's body lists
    its nested calls too)."""
    control = lister.control_inputs()
    nodes = []
    for op in lister.ops:
        if op.name in skip:
            continue
        attrs = lister.attrs(op)
        attrs.update(_library_entry(op, op.graph, lister, library))
        nodes.append(NodeDef(op.name, op.type, [_input_name(t) for t in op.inputs]
                             + ["^" + c for c in sorted(control.get(op.name, ()))],
                             attrs, op.device))
    return nodes


def _library_entry(op, graph, lister, library) -> dict:
    """The attrs of an op calling functions (function_library), its functions added to
    ``library``; {} for another op or functions not listed."""
    from simdist.framework import function_library as fl
    from simdist.framework import graph_operations

    called = getattr(op, "_called", None)
    if called is not None:
        fn = fl.called_function(op, called(), library)
        fns = None if fn is None else [fn]
        attrs = fl.call_attrs
    else:   # a cond's branches or a while loop's cond and body
        kind = next(((k, v) for k, v in (("_cond", fl.branch_functions),
                                          ("_loop", fl.loop_functions))
                     if getattr(op, k, None) is not None), None)
        if kind is None:
            return {}
        fns = kind[1](op, graph_operations._Builder, graph, *getattr(op, kind[0]),
                      library=library)
        attrs = fl.cond_attrs if kind[0] == "_cond" else fl.loop_attrs
    if fns is None:
        return {}
    library.extend(f for f in fns if all(f.name != g.name for g in library))
    return attrs(op, fns if called is None else fns[0], lister)
