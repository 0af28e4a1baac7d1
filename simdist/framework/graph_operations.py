"""``FuncGraph.get_operations()``: a trace's graph as TF lists its operations.

Glossary:
  Operation      -- one op of the graph: ``name``, ``type`` (TF's op type: ``AddV2`` for
                    ``+``), ``inputs`` and ``outputs`` (GraphTensors), ``graph``.
  GraphTensor    -- an op's output as listed: ``name`` (``add:0``), ``dtype``, ``shape``,
                    ``op``, ``graph``.
  Placeholder    -- one per argument (named after it; a variable's is its resource), first;
                    one per variable the graph captures (``<its first read>/resource``),
                    made where it is first read.
  Const          -- what an op converts: a Python number, a list of them, a constant tensor
                    made outside, named after the op's input (``add/y``, ``Reshape/shape``,
                    ``2.0 * x``: ``mul/x``); a reduction's default axes: ``Const`` in the
                    scope around it (a scalar's: ``Rank`` and a ``range``); ``tf.shape``,
                    ``tf.size``, ``tf.rank``, ``zeros_like`` of a fully known shape: folded
                    to a ``Const`` of their own name, as TF's constant folding at trace does.
  ReadVariableOp -- a variable an op reads: ``<op>/ReadVariableOp``, made just before the op
                    (TF converts it inside the op's name scope); a variable's own operator
                    (``v * 2.0``) reads it first, in the scope around: ``ReadVariableOp``.
  Identity       -- one per output of the function (``Identity``, ``Identity_1``); one
                    after each ``read_value()``'s ``Read/ReadVariableOp`` (its result).
  NoOp           -- last, when an op is stateful (a variable read or write, a print, a
                    StatefulPartitionedCall): the function's control output.
  recorded whole -- an op simdist records as one node where TF has several (a loss, a
                    metric update, an optimizer step, a tf.cond, a vectorized_map's
                    ``pfor``): listed as one operation of the node's name; its type is its
                    name's op part. A node with a
                    listing of its own (``graph.node_listings``: a MirroredStrategy's
                    all-reduce, distribute/collective_listing.py) lists TF's ops.

Mirrors tensorflow/python/framework/ops.py (Graph.get_operations, Operation, Tensor.op)
and the input names of TF's op definitions (tensorflow/core/ops/*_ops.cc).
"""

from __future__ import annotations

import re

import numpy as np

from simdist.framework import (
    dtypes,
    gradient_listing,
    nest,
    op_def_table,
    print_op_listing,
    random_op_listing,
    slice_spec,
)
from simdist.framework.op_recording import (  # noqa: F401 - the one table, re-exported
    LISTINGS,
    RESERVED_WHEN_TRACED,
    register_listing,
)
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_shape import TensorShape

_BINARY = ("x", "y")
_UNARY = ("x",)
_FEATURES = ("features",)
_REDUCTIONS = {"reduce_sum": "Sum", "reduce_mean": "Mean", "reduce_max": "Max",
               "reduce_min": "Min", "reduce_prod": "Prod", "reduce_any": "Any",
               "reduce_all": "All"}
# Python function name -> (TF op type, TF input names of its positional arguments)
_OP_DEFS = {
    "add": ("AddV2", _BINARY), "__add__": ("AddV2", _BINARY),
    "subtract": ("Sub", _BINARY), "__sub__": ("Sub", _BINARY),
    "multiply": ("Mul", _BINARY), "__mul__": ("Mul", _BINARY),
    "truediv": ("RealDiv", _BINARY), "divide": ("RealDiv", _BINARY),
    "__truediv__": ("RealDiv", _BINARY), "__floordiv__": ("FloorDiv", _BINARY),
    "floordiv": ("FloorDiv", _BINARY), "floormod": ("FloorMod", _BINARY),
    "mod": ("FloorMod", _BINARY), "__mod__": ("FloorMod", _BINARY),
    "pow": ("Pow", _BINARY), "__pow__": ("Pow", _BINARY),
    "matmul": ("MatMul", ("a", "b")), "__matmul__": ("MatMul", ("a", "b")),
    "maximum": ("Maximum", _BINARY), "minimum": ("Minimum", _BINARY),
    "squared_difference": ("SquaredDifference", _BINARY),
    "divide_no_nan": ("DivNoNan", _BINARY),
    "greater": ("Greater", _BINARY), "__gt__": ("Greater", _BINARY),
    "less": ("Less", _BINARY), "__lt__": ("Less", _BINARY),
    "greater_equal": ("GreaterEqual", _BINARY), "__ge__": ("GreaterEqual", _BINARY),
    "less_equal": ("LessEqual", _BINARY), "__le__": ("LessEqual", _BINARY),
    "equal": ("Equal", _BINARY), "not_equal": ("NotEqual", _BINARY),
    "logical_and": ("LogicalAnd", _BINARY), "logical_or": ("LogicalOr", _BINARY),
    "logical_not": ("LogicalNot", _UNARY),
    "negative": ("Neg", _UNARY), "abs": ("Abs", _UNARY), "square": ("Square", _UNARY),
    "sqrt": ("Sqrt", _UNARY), "rsqrt": ("Rsqrt", _UNARY), "exp": ("Exp", _UNARY),
    "log": ("Log", _UNARY), "log1p": ("Log1p", _UNARY), "sigmoid": ("Sigmoid", _UNARY),
    "tanh": ("Tanh", _UNARY), "softplus": ("Softplus", _FEATURES),
    "reciprocal": ("Reciprocal", _UNARY), "floor": ("Floor", _UNARY),
    "round": ("Round", _UNARY), "sign": ("Sign", _UNARY), "is_nan": ("IsNan", _UNARY),
    "cast": ("Cast", _UNARY), "identity": ("Identity", ("input",)),
    "relu": ("Relu", _FEATURES), "relu6": ("Relu6", _FEATURES), "elu": ("Elu", _FEATURES),
    "leaky_relu": ("LeakyRelu", _FEATURES), "softmax": ("Softmax", ("logits",)),
    "log_softmax": ("LogSoftmax", ("logits",)), "bias_add": ("BiasAdd", ("value", "bias")),
    "l2_loss": ("L2Loss", ("t",)),
    "reshape": ("Reshape", ("tensor", "shape")), "transpose": ("Transpose", ("x", "perm")),
    "expand_dims": ("ExpandDims", ("input", "dim")), "tile": ("Tile", ("input", "multiples")),
    "reverse": ("ReverseV2", ("tensor", "axis")), "unstack": ("Unpack", ("value",)),
    "conv2d": ("Conv2D", ("input", "filter")), "max_pool2d": ("MaxPool", ("input",)),
    "avg_pool2d": ("AvgPool", ("value",)), "max_pool": ("MaxPool", ("input",)),
    "avg_pool": ("AvgPool", ("value",)),
    "fused_batch_norm_v3": ("FusedBatchNormV3", ("x", "scale", "offset", "mean", "variance")),
    "stop_gradient": ("StopGradient", ("input",)),
    "squeeze": ("Squeeze", ("input",)), "argmax": ("ArgMax", ("input", "dimension")),
    "argmin": ("ArgMin", ("input", "dimension")),
    "gather": ("GatherV2", ("params", "indices", "axis")),
    "_read": ("ReadVariableOp", ("resource",)), "constant": ("Const", ()),
    **{fn: (op, ("input", "reduction_indices")) for fn, op in _REDUCTIONS.items()},
}


def _one_hot(indices, depth, on_value=None, off_value=None, *_, **__):
    return [("on_value", 1 if on_value is None else on_value),
            ("off_value", 0 if off_value is None else off_value),
            ("indices", indices), ("depth", depth)]


def _range(start, limit=None, delta=1, *_, **__):
    start, limit = (0, start) if limit is None else (start, limit)
    return [("start", start), ("limit", limit), ("delta", delta)]


def _where(condition, x=None, y=None, *_, **__):
    return [("input", condition)] if x is None else \
        [("condition", condition), ("t", x), ("e", y)]


def _gather(params, indices, validate_indices=None, axis=None, *_, **__):
    return [("params", params), ("indices", indices), ("axis", 0 if axis is None else axis)]


def _strided_slice(x, key, *_, **__):
    spec = slice_spec.slice_spec(key)   # packed begin, end, strides (None: not modelled)
    return [("input", x)] + [(name, 0 if spec is None else part) for name, part in
                             zip(("stack", "stack_1", "stack_2"), spec or (0, 0, 0))]


def _transpose(a, perm=None, *_, **__):
    return [("x", a), ("perm", perm)]   # None: the axes reversed (arranged_inputs)


def _split(value, num_or_size_splits, axis=0, *_, **__):
    if np.ndim(num_or_size_splits) == 0 and not isinstance(num_or_size_splits, (list, tuple)):
        return [("split_dim", axis), ("value", value)]   # Split: the axis converted first
    return [("value", value), ("size_splits", num_or_size_splits), ("split_dim", axis)]


def _top_k(input, k=1, *_, **__):  # noqa: A002 - TF's name
    return [("input", input), ("k", k)]


def _values_axis(values, axis=0, *_, **__):
    return [("values", values), ("axis", axis)]


# Python function name -> (TF op type, its inputs [(TF input name, argument)] from the
# call's arguments), where they are not the positional arguments in order
_ARRANGED = {"one_hot": ("OneHot", _one_hot), "range": ("Range", _range),
             "where": (None, _where), "gather": ("GatherV2", _gather),
             "_getitem": ("StridedSlice", _strided_slice),
             "transpose": ("Transpose", _transpose), "concat": ("ConcatV2", _values_axis),
             "stack": ("Pack", lambda values, *_, **__: [("values", values)]),
             "split": (None, _split), "top_k": ("TopKV2", _top_k),
             "fill": ("Fill", lambda dims, value, *_, **__: [("dims", dims),
                                                               ("value", value)])}
_KEYWORDS = {"axis": {"transpose": "perm", "expand_dims": "dim", "argmax": "dimension",
                      "argmin": "dimension", "gather": "axis"},
             "perm": {"transpose": "perm"}}
_FOLDED = {"shape": "Shape", "size": "Size", "rank": "Rank", "zeros_like": "ZerosLike",
           "ones_like": "OnesLike"}   # a Const when the input's shape is fully known
_STATEFUL = {"ReadVariableOp", "StatefulPartitionedCall", "AssignVariableOp", "If", "While",
             "AssignAddVariableOp", "AssignSubVariableOp", "PrintV2", "CrossReplicaSum",
             "CollectiveReduceV2"}
_SUFFIX = re.compile(r"_\d+$")
# a variable's update -> TF's op (resource_variable_ops: the value converted first, in the
# scope around: 'Const'; the op's resource named after the first op using it)
_ASSIGNS = {"assign": "AssignVariableOp", "assign_add": "AssignAddVariableOp",
            "assign_sub": "AssignSubVariableOp"}
# Python functions whose TF wrapper makes the op inside a name scope of its own name (x + y:
# binary_op_wrapper's 'add/'; tf.matmul's 'MatMul/'): its gradient is named under it
_OWN_SCOPE = {"__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__truediv__", "__rtruediv__", "__matmul__", "matmul", "bias_add", "cast",
              "divide_no_nan", "truediv", "divide", "add", "abs", "sigmoid"}


def reserve_names(graph, fn, name, args, kwargs, replica) -> None:
    """While ``fn(*args, **kwargs)`` is recorded as the node ``name``: take in ``graph``
    the names its lister (one of RESERVED_WHEN_TRACED) will give its ops, so ops traced
    after it are named as TF's (``Sum_1`` after a metric's ``Sum``); none where the lister
    would list the node whole."""
    lister = LISTINGS.get(fn)
    if lister not in RESERVED_WHEN_TRACED:
        return
    saved = dict(graph._names)
    builder = _DryBuilder(graph, replica)
    try:
        done = lister(builder, name, args, kwargs, [(None, None)]) is not None
    except Exception:   # noqa: BLE001 - a lister that cannot run on symbolic values
        done = False
    if not done:
        graph._names.clear()
        graph._names.update(saved)


class GraphTensor:
    """An output of an Operation as ``get_operations()`` lists it."""

    def __init__(self, op, index, dtype=None, shape=None):
        self.op = op
        self.value_index = index
        self.dtype = dtype
        self.shape = TensorShape(shape) if shape is not None else TensorShape(None)

    @property
    def name(self) -> str:
        return f"{self.op.name}:{self.value_index}"

    @property
    def graph(self):
        return self.op.graph

    def __repr__(self):
        dtype = getattr(self.dtype, "name", self.dtype)
        return f"<tf.Tensor '{self.name}' shape={self.shape} dtype={dtype}>"


class Operation:
    """One op of a traced graph (TF's ``tf.Operation``)."""

    def __init__(self, graph, name: str, op_type: str, inputs=()):
        self.graph = graph
        self.name = name
        self.type = op_type
        self.inputs = list(inputs)
        self.outputs: list = []
        self.attrs: dict = {}   # the attributes a gradient listing reads (transpose_a ...)
        # the name scope it was made in (gradient_listing): the one around it, or its own
        # name where TF's wrapper opens a scope of the op's name (_OWN_SCOPE)
        self.forward_scope = name.rsplit("/", 1)[0] + "/" if "/" in name else ""
        # TF's ``device``: the tf.device scopes it was made under (its node's), '' for none
        self._device = None

    @property
    def device(self) -> str:
        return self._device or ""

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"


class _Ref:
    """A symbolic argument of a node: the id of the tensor it reads."""

    __slots__ = ("tid",)

    def __init__(self, tid):
        self.tid = tid


def _is_variable(x) -> bool:
    return hasattr(x, "assign") and hasattr(x, "_as_tensor")


def _is_constant(x) -> bool:
    if isinstance(x, bool) or isinstance(x, (int, float)):
        return True
    if isinstance(x, (list, tuple)) and x and all(_is_constant(v) for v in x):
        return True
    return isinstance(x, Tensor) and not _is_variable(x) or type(x).__name__ == "ndarray"


class _Builder:
    """Lists a graph's operations in TF's order (see the module docstring)."""

    def __init__(self, graph):
        self.graph = graph
        self.ops: list = []
        self.by_id: dict = {}        # tensor id -> GraphTensor
        self.resources: dict = {}    # (id(variable), replica) -> its resource Placeholder
        self.replica = None          # the replica context the node being listed ran in
        self.arguments_read: dict = {}   # a variable argument's slot id -> the variable
        # the names of the nodes and of the reductions' default axes (named when traced)
        self.taken = {n.name.lower() for n in graph.nodes} | {
            n.lower() for names in graph.reduction_axes.values() for n in names}
        self.tapes: dict = {}   # id(tape) -> [first op listed in it, end, watched tensors]
        self.used = {tid for n in graph.nodes for _, tid in getattr(n, "slots", ())}
        self.reduced_shapes: dict = {}   # TF's graph._reduced_shape_cache (gradient_listing)
        self.specs = dict(graph.tensor_specs)   # tensor id -> (name, dtype, shape)
        self.shared: dict = {}   # what a node's own listing keeps for the next ones

    def unique(self, name: str) -> str:
        base, n = name, 0
        while name.lower() in self.taken:
            n += 1
            name = f"{base}_{n}"
        self.taken.add(name.lower())
        return name

    def add(self, name, op_type, inputs=(), outputs=((None, None),)) -> Operation:
        op = Operation(self.graph, name, op_type, inputs)
        op.outputs = [GraphTensor(op, i, d, s) for i, (d, s) in enumerate(outputs)]
        self.ops.append(op)
        return op

    def const(self, name, value) -> GraphTensor:
        shape = getattr(value, "shape", None)
        op = self.add(name, "Const", (), [(getattr(value, "dtype", None),
                                           tuple(shape) if shape is not None else None)])
        op._value = value   # its TensorProto in as_graph_def (graph_def)
        return op.outputs[0]

    def read(self, op_name, variable, named=False) -> GraphTensor:
        """``variable`` read by the op ``op_name``: its resource placeholder (the first
        time), then ``<op>/ReadVariableOp`` (``named``: the read op is ``op_name``)."""
        # (an op reading two variables: ReadVariableOp, ReadVariableOp_1)
        read_name = op_name if named else self.unique(f"{op_name}/ReadVariableOp")
        # a distributed variable read in a replica reads that replica's component: a
        # resource of its own (replica_1/mul/ReadVariableOp/resource)
        resource = self.resource(read_name, variable)
        out = self.add(read_name, "ReadVariableOp", [resource],
                       [(variable.dtype, tuple(variable.shape))]).outputs[0]
        out.variable = variable   # a tape watches a trainable variable's reads
        return out

    def resource(self, op_name, variable) -> GraphTensor:
        """``variable``'s resource Placeholder: the first op using it names it
        (``<op>/resource``)."""
        key = self.resource_key(variable)
        found = self.resources.get(key)
        if found is None:
            found = self.resources[key] = self.add(f"{op_name}/resource",
                                                   "Placeholder").outputs[0]
            found.variable = variable   # what a caller captures for it (call_captures)
        return found

    def call_captures(self, fn_graph) -> tuple:
        """The resources a nested function's call passes after its arguments: for each
        variable its graph captures (its resource Placeholders, in their order), the
        caller's Placeholder of it, made before the call where the caller has none yet
        (TF captures the eager handle under a name from its uid counter, ``"16"``); and
        the positions among them of those the function only reads."""
        from simdist.framework import function_library

        function_library.library_name(fn_graph)
        inner = operations(fn_graph)
        names = self.graph.__dict__.setdefault("_capture_names", {})
        out, read_only = [], []
        for ph in inner:
            variable = getattr(ph.outputs[0], "variable", None) if ph.type == "Placeholder" \
                else None
            if variable is None:
                continue
            key = self.resource_key(variable)
            if key not in self.resources:
                names.setdefault(key, str(function_library.uid()))
            if all(o.type == "ReadVariableOp" or i in getattr(o, "_read_only", ())
                   for o in inner for i, t in enumerate(o.inputs) if t is ph.outputs[0]):
                read_only.append(len(out))
            out.append(self.captured_resource(names.get(key), variable))
        return out, read_only

    def captured_resource(self, name, variable) -> GraphTensor:
        """The caller's resource Placeholder of a variable a function or a branch captures:
        the one it has, else a new one named ``name`` (made here, before the op)."""
        key = self.resource_key(variable)
        if key not in self.resources:
            self.resources[key] = self.add(name, "Placeholder").outputs[0]
            self.resources[key].variable = variable
        return self.resources[key]

    def resource_key(self, variable):
        return (id(variable), getattr(self.replica, "_replica_index", None)
                if hasattr(variable, "_read_local") else None)

    # --- the parts of the graph --------------------------------------------------------
    def arguments(self) -> None:
        from simdist.framework.func_graph import SymbolicTensor

        args, kwargs = self.graph.structured_inputs
        names = self.graph.argument_names
        for i, t in enumerate(nest.flatten((args, kwargs))):
            if isinstance(t, SymbolicTensor):
                name = t.name[:-2] if t.name.endswith(":0") else t.name
                self.by_id[t._id] = self.add(name, "Placeholder", (),
                                             [(t.dtype, t._static_shape)]).outputs[0]
                self.specs.setdefault(t._id, (t.name, t.dtype, t._static_shape))
            elif _is_variable(t) and id(t) in self.graph.substitutes:   # its resource
                name = names[i] if i < len(names) else f"args_{i}"
                self.resources[(id(t), None)] = self.add(name, "Placeholder").outputs[0]
                self.arguments_read[self.graph.substitutes[id(t)]] = t

    def node(self, node) -> None:
        start = len(self.ops)
        listing = self.graph.node_listings.get(id(node))
        if listing is not None:   # listed as the ops TF has in its place
            listing.list_operations(self, node)
        else:
            self.recorded_node(node)
        device = self.graph.requested_devices.get(id(node))
        for op in self.ops[start:] if device else ():   # those a listing placed keep theirs
            if op._device is None:
                op._device = device

    def recorded_node(self, node) -> None:
        """List ``node``'s own operation(s)."""
        if not hasattr(node, "leaves"):   # a cond or a while loop, recorded whole
            self.control_flow(node)
            return
        fn_name = getattr(node.fn, "__name__", "")
        self.replica = getattr(node.mode, "replica_context", None)
        if fn_name.startswith("_replay_"):   # a tape's enter or exit: no op of TF's
            self.tape_event(fn_name, node)
            return
        leaves = list(node.leaves)
        for pos, tid in node.slots:
            leaves[pos] = self.arguments_read.get(tid) or _Ref(tid)
        if fn_name == "_read" and leaves and _is_variable(leaves[0]):
            for _, tid in node.out_slots[:1]:
                out = self.read(node.name, leaves[0], named=True)
                identity = self.graph.read_identities.get(tid)
                if identity is not None:   # read_value(): TF's Identity of the read
                    out = self.add(identity[1], "Identity", [out],
                                   [(leaves[0].dtype, tuple(leaves[0].shape))]).outputs[0]
                self.by_id[tid] = out
            return
        try:
            args, kwargs = nest.pack_sequence_as(node.structure, leaves)
        except (TypeError, ValueError):
            args, kwargs = (), {}
        read_first = self.graph.reads_before.get(node.name)
        if read_first is not None and args and _is_variable(args[0]):   # v * 2.0
            args = (self.read(read_first, args[0], named=True),) + tuple(args[1:])
        if getattr(node.fn, "__tape_gradient__", False) and self.gradient(node, args):
            return
        if fn_name in _ASSIGNS and self.assignment(node, fn_name, args, kwargs):
            return
        if fn_name == "fused_batch_norm_v3":
            args = self.converted_first(node.name, args, (1, 2))
        specs = self.specs
        outputs = [specs.get(tid, (None, None, None))[1:] for _, tid in node.out_slots]
        op_type, names = _OP_DEFS.get(fn_name, (None, None))
        op = None
        if fn_name in random_op_listing.SCOPES:   # its ops, TF's names (random_op_listing)
            op = random_op_listing.list_random_op(self, fn_name, node.name, args, kwargs,
                                                  outputs or [(None, None)])
        elif fn_name == "print_v2":   # StringFormat and PrintV2 (print_op_listing)
            op = print_op_listing.list_print(self, node.name, args, kwargs)
        lister = LISTINGS.get(node.fn)
        if lister is not None:
            op = self.listed(lister, node.name, args, kwargs, outputs or [(None, None)])
        if op is not None:
            pass
        elif fn_name == "clip_by_value" and len(args) >= 3:   # TF: Minimum, then Maximum
            low = self.add(f"{node.name}/Minimum", "Minimum",
                           self.converted(f"{node.name}/Minimum", "x", args[0])
                           + self.converted(f"{node.name}/Minimum", "y", args[2]),
                           outputs or [(None, None)]).outputs[0]
            op = self.add(node.name, "Maximum",
                          [low] + self.converted(node.name, "y", args[1]),
                          outputs or [(None, None)])
            low.op.forward_scope = op.forward_scope = node.name + "/"   # clip_by_value's
        elif fn_name in _FOLDED and args and (isinstance(args[0], _Ref) and _known(
                specs.get(args[0].tid)) or _is_variable(args[0]) and all(
                d is not None for d in args[0].shape)):   # (a variable's shape is known)
            op = self.add(node.name, "Const", (), outputs or [(None, None)])
        elif fn_name in ("ones", "zeros") and args and _python_shape(args[0]):
            op = self.filled(node.name, args[0], outputs or [(None, None)],
                             1 if fn_name == "ones" else 0)
        else:
            if fn_name.startswith("__r") and fn_name != "__round__":   # 2.0 * x: Mul(x=2.0, y=x)
                fn_name = "__" + fn_name[3:]
                op_type, names = _OP_DEFS.get(fn_name, (None, None))
                args = tuple(reversed(args[:2])) + tuple(args[2:])
            arranged = _ARRANGED.get(fn_name)
            if arranged is not None:
                try:
                    pairs = arranged[1](*args, **{k: v for k, v in kwargs.items()
                                                  if k != "name"})
                except TypeError:
                    pairs = None
                if pairs is not None:
                    op_type = arranged[0] or (
                        ("Split" if pairs[0][0] == "split_dim" else "SplitV")
                        if fn_name == "split" else
                        "Where" if len(pairs) == 1 else "SelectV2")
                    if op_type == "SplitV":
                        pairs = self.split_sizes(node.name, pairs)
                    inputs = self.arranged_inputs(node.name, op_type, pairs)
            if op_type is None:
                op_type = _SUFFIX.sub("", node.name.rsplit("/", 1)[-1])
                names = ()
            if arranged is None or pairs is None:
                inputs = self.inputs(node.name, fn_name, names, args, kwargs)
            called = getattr(node.fn, "__nested_graph__", None)   # (function_library)
            read_only = []
            if called is not None:
                captured, read_only = self.call_captures(called())
                read_only = [len(inputs) + i for i in read_only]
                inputs = inputs + captured
            op = self.add(node.name, op_type, inputs, outputs or [(None, None)])
            op._called, op._read_only = called, read_only
            if fn_name in _OWN_SCOPE:
                op.forward_scope = node.name + "/"
            op.attrs = {k: v for k, v in kwargs.items() if k.startswith("transpose_")}
        op._call = (fn_name, args, kwargs)   # the attrs it gave (graph_def)
        for (_, tid), out in zip(node.out_slots, op.outputs):
            self.by_id[tid] = out

    def converted_first(self, op_name, args, positions) -> tuple:
        """The variables at ``positions`` read before the op, in the scope around it
        (tf.compat.v1.nn.fused_batch_norm converts scale and offset first: 'ReadVariableOp',
        'ReadVariableOp_1'; the mean and variance it passes are read in the op's scope)."""
        scope = op_name.rsplit("/", 1)[0] + "/" if "/" in op_name else ""
        args = list(args)
        for i in positions:
            if i < len(args) and _is_variable(args[i]):
                args[i] = self.read(self.unique(scope + "ReadVariableOp"), args[i], named=True)
        return tuple(args)

    def listed(self, lister, name, args, kwargs, outputs):
        """A registered lister's ops (``LISTINGS``), none of them kept if it gives None."""
        mark = (len(self.ops), set(self.taken))
        op = lister(self, name, args, kwargs, outputs)
        if op is None:
            del self.ops[mark[0]:]
            self.taken = mark[1]
        return op

    def assignment(self, node, fn_name, args, kwargs) -> bool:
        """A plain variable's assign / assign_add / assign_sub as TF lists it; False for a
        distributed variable's (listed otherwise) or one read back (``read_value``'s
        result used: TF reads it lazily)."""
        if len(args) < 2 or not _is_variable(args[0]) or hasattr(args[0], "_read_local") \
                or self.replica is not None or any(
                    tid in self.used for _, tid in node.out_slots):
            return False
        scope = node.name.rsplit("/", 1)[0] + "/" if "/" in node.name else ""
        value = self.converted(node.name, None, args[1])
        if not value and _is_constant(args[1]):   # converted to the variable's dtype
            value = [self.const(self.unique(scope + "Const"), args[1])]
            value[0].dtype = args[0].dtype
        if len(value) != 1:
            return False
        # a name given (Keras's name=scope: 'AssignMovingAvg') is the op's, as traced
        name = node.name if kwargs.get("name") else self.unique(scope + _ASSIGNS[fn_name])
        self.add(name, _ASSIGNS[fn_name], [self.resource(name, args[0]), value[0]], ())
        return True

    def tape_event(self, fn_name, node) -> None:
        """Where a tape starts and ends recording among the listed ops, what it watches."""
        key = id(node.leaves[0]) if node.leaves else None
        entry = self.tapes.setdefault(key, [len(self.ops), None, []])
        if fn_name == "_replay_tape_enter":
            entry[1] = None   # entered again: it goes on recording
        elif fn_name == "_replay_tape_exit":
            entry[1] = len(self.ops)
        elif fn_name == "_replay_watch":
            leaves = list(node.leaves)
            for pos, tid in node.slots:
                leaves[pos] = _Ref(tid)
            for x in nest.flatten(leaves[1:]):
                entry[2] += self.converted(node.name, None, x) if not _is_variable(x) else \
                    [self.resources[k] for k in [self.resource_key(x)] if k in self.resources]

    def gradient(self, node, args) -> bool:
        """``tape.gradient``'s ops as TF lists them (gradient_listing); False where it is
        listed as one node (what it cannot list: output_gradients, a shape not known)."""
        if len(args) < 3 or (len(args) > 3 and args[3] is not None):
            return False
        tape, target, sources = args[:3]
        flat = nest.flatten(sources)
        found = []
        for x in flat:
            if _is_variable(x):
                found.append(self.resources.get(self.resource_key(x)) or object())
            elif isinstance(x, _Ref):
                found.append(self.by_id.get(x.tid) or object())
            else:
                return False
        target = self.by_id.get(target.tid) if isinstance(target, _Ref) else None
        scope = node.name.rsplit("/", 1)[0] + "/" if "/" in node.name else ""
        mark = (len(self.ops), set(self.taken), dict(self.reduced_shapes))
        try:
            grads = gradient_listing.list_gradient(self, id(tape), target, found, scope)
        except gradient_listing.NotListed:
            del self.ops[mark[0]:]
            self.taken, self.reduced_shapes = mark[1], mark[2]
            return False
        for pos, tid in node.out_slots:
            if pos < len(grads) and grads[pos] is not None:
                self.by_id[tid] = grads[pos]
        return True

    def filled(self, name, shape, outputs, value) -> Operation:
        """tf.ones / tf.zeros (``value`` 1 or 0) of a Python shape (TF's
        array_ops._constant_if_small): a Const under 1000 elements, else the shape's
        Const, the value's and a Fill."""
        if int(np.prod(shape)) < 1000:
            return self.add(name, "Const", (), outputs)
        dims = self.const(f"{name}/shape_as_tensor", np.asarray(shape, np.int32))
        dtype = outputs[0][0]
        fill = self.const(f"{name}/Const", np.asarray(value, np.float32 if dtype is None
                                                      else dtype.as_numpy_dtype))
        return self.add(name, "Fill", [dims, fill], outputs)

    def control_flow(self, node) -> None:
        """A cond: its If op (the predicate in), then an Identity per output
        (``cond/Identity``); a while loop: its ``maximum_iterations`` and ``loop_counter``
        Consts, then its While op, whose outputs after those two are the loop vars'."""
        if hasattr(node, "branches"):
            taken = []   # cond_v2: the true branch's captures, then the false one's new ones
            for nodes, results in node.branches:
                _captured(nodes, results, set(), taken, variables=True)
            inputs = [self.by_id.get(node.pred)] + [
                self.captured_resource(f"{node.name}/input_{i}", c.variable)
                if isinstance(c, VariableCapture) else self.by_id.get(c)
                for i, c in enumerate(taken)]   # (op_def_library's names of list inputs)
            outs = [self.specs.get(tid, (None, None, None))[1:] for tid in node.branches[0][1]]
            op = self.add(node.name, _whole_type(node, self.graph),
                          [t for t in inputs if t is not None], outs or [(None, None)])
            op._cond = (node, taken) if None not in inputs else None   # its library entry
            op._read_only = [1 + i for i, c in enumerate(taken) if isinstance(
                c, VariableCapture) and not _written(node, c.variable)]
            for i, (tid, out) in enumerate(zip(node.outputs, op.outputs)):
                ident = self.add(f"{node.name}/Identity{'' if i == 0 else f'_{i}'}",
                                 "Identity", [out], [(out.dtype, _shape_of(out))])
                self.by_id[tid] = ident.outputs[0]
            return
        if not hasattr(node, "max_iters"):   # a pfor (vectorized_map): recorded whole
            outs = [self.specs.get(tid, (None, None, None))[1:] for tid in node.outputs]
            op = self.add(node.name, "pfor", [self.by_id[t] for t in node.elem_ids
                                             if t in self.by_id], outs or [(None, None)])
            for tid, out in zip(node.outputs, op.outputs):
                self.by_id[tid] = out
            return
        limit = -1 if node.max_iters is None else node.max_iters
        traced = self.by_id.get(getattr(limit, "_id", None))   # a traced tensor: itself
        counters = [self.const(self.unique(f"{node.name}/{c}"), np.asarray(v, np.int32)
                               if isinstance(v, int) else None)
                    for c, v in (("maximum_iterations", limit), ("loop_counter", 0))
                    if c != "maximum_iterations" or traced is None]
        for c in counters:
            c.dtype, c.shape = dtypes.int32, TensorShape([])
        if traced is not None:
            counters.insert(0, traced)
        entering = [self.by_id[tid] for tid in node.inputs if tid in self.by_id]
        taken = []   # while_v2: the cond's captures, then the body's new ones, as loop vars
        _captured(node.cond, [node.pred], set(node.places), taken, variables=True)
        n_cond = len(taken)
        _captured(node.body, node.results, set(node.places), taken, variables=True)
        first = 2 + len(entering)   # a variable's handle: the While's input there on
        captures = [self.captured_resource(f"{node.name}/input_{first + i}", c.variable)
                    if isinstance(c, VariableCapture) else self.by_id.get(c)
                    for i, c in enumerate(taken)]
        outs = [(dtypes.int32, ()), (dtypes.int32, ())] + [
            (t.dtype, () if t.dtype is None and t.op.type == "Placeholder" else _shape_of(t))
            for t in entering + captures if t is not None]   # (a handle: a scalar)
        op = self.add(node.name, _whole_type(node, self.graph),
                      counters[::-1] + entering + [t for t in captures if t is not None],
                      outs if len(entering) == len(node.inputs) else
                      [(None, None)] * (2 + len(node.outputs)))
        op._loop = (node, taken, n_cond) if None not in captures and \
            len(entering) == len(node.inputs) else None   # its library entry
        op._read_only = [first + i for i, c in enumerate(taken) if isinstance(
            c, VariableCapture) and not _written(node, c.variable)]
        for i, tid in enumerate(node.outputs):
            self.by_id[tid] = op.outputs[2 + i]

    def split_sizes(self, op_name, pairs) -> list:
        """tf.split's Python sizes: array_ops.split converts them before its op, an int32
        ``Const`` in the scope around (the op's ``split_dim`` is its own)."""
        out = []
        for key, value in pairs:
            if key == "size_splits" and _is_constant(value) and not isinstance(value, Tensor):
                scope = op_name.rsplit("/", 1)[0] + "/" if "/" in op_name else ""
                value = self.const(self.unique(scope + "Const"), np.asarray(value, np.int32))
                value.value = np.asarray(value.op._value)
            out.append((key, value))
        return out

    def arranged_inputs(self, op_name, op_type, pairs) -> list:
        """The inputs of an arranged op: converted in the pairs' order (its Consts made in
        TF's order), then in its op definition's order (OneHot: indices, depth, on_value,
        off_value); a transpose's default ``perm``: the axes reversed."""
        converted = []
        for key, value in pairs:
            if key == "perm" and value is None and isinstance(pairs[0][1], _Ref):
                spec = self.specs.get(pairs[0][1].tid)
                rank = None if spec is None or spec[2] is None else len(spec[2])
                value = list(range(rank - 1, -1, -1)) if rank is not None else None
            converted.append((key, self.converted(op_name, key, value)))
        opdef = op_def_table.get(op_type)
        order = [a[0] for a in opdef.inputs] if opdef is not None else []
        if all(key in order for key, _ in converted):
            converted.sort(key=lambda pair: order.index(pair[0]))
        return [t for _, tensors in converted for t in tensors]

    def inputs(self, op_name, fn_name, names, args, kwargs) -> list:
        """The op's inputs, making the Consts and reads its conversions make."""
        values = list(args)
        for key, by_fn in _KEYWORDS.items():
            if key in kwargs and fn_name in by_fn and by_fn[fn_name] in names:
                index = names.index(by_fn[fn_name])
                values += [None] * (index + 1 - len(values))
                values[index] = kwargs[key]
        if fn_name in _REDUCTIONS:
            values = self.reduction_axes(op_name, values, kwargs)
        out = []
        opdef = op_def_table.get(_OP_DEFS.get(fn_name, ("",))[0])
        listed = {a[0] for a in opdef.inputs if a[2]} if opdef is not None else set()
        for i, value in enumerate(values):
            name = names[i] if i < len(names) else None
            if name is not None and name not in listed and _mixed(value):
                out.append(self.autopacked(f"{op_name}/{name}", value))
                continue
            out += self.converted(op_name, name, value)
        return out

    def autopacked(self, name, value) -> GraphTensor:
        """A list holding tensors given for a tensor argument: TF's auto-packing
        (array_ops._autopacking_helper): each Python element a Const ``<name>/<i>``,
        then their ``Pack`` named ``name``."""
        parts = []
        dtype = next((t.dtype for v in value if isinstance(v, (_Ref, GraphTensor))
                      for t in self.converted(name, None, v)), None)
        for i, v in enumerate(value):
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                const = self.const(f"{name}/{i}", np.asarray(v, dtype.as_numpy_dtype
                                                             if dtype is not None else None))
                const.dtype, const.shape = dtype, TensorShape([])
                parts.append(const)
            else:
                parts += self.converted(name, None, v)
        return self.add(name, "Pack", parts, [(dtype, (len(parts),))]).outputs[0]

    def reduction_axes(self, op_name, values, kwargs) -> list:
        """A reduction's axes: given, a Const ``<op>/reduction_indices``; by default, made
        before the op in the scope around it: ``Const`` (a known rank above 0), or for a
        scalar ``Rank`` and ``range`` (TF's _ReductionDims)."""
        values = values[:2] + [None] * (2 - len(values[:2]))
        if kwargs.get("axis") is not None:
            values[1] = kwargs["axis"]
        if values[1] is not None or not isinstance(values[0], _Ref):
            return values
        scope = op_name.rsplit("/", 1)[0] + "/" if "/" in op_name else ""
        spec = self.specs.get(values[0].tid)
        rank = None if spec is None or spec[2] is None else TensorShape(spec[2]).rank
        named = self.graph.reduction_axes.get(op_name)   # (named when traced)
        if rank:
            values[1] = self.const(named[0] if named else self.unique(scope + "Const"),
                                   list(range(rank)))
            values[1].value = np.arange(rank)   # what a gradient's listing reads
            return values
        rank_t = self.const(named[0] if named else self.unique(scope + "Rank"),
                            None if rank is None else np.int32(rank))   # folded when known
        rank_t.dtype, rank_t.shape = dtypes.int32, TensorShape([])
        base = named[1] if named else self.unique(scope + "range")
        start = self.const(f"{base}/start", np.int32(0))
        delta = self.const(f"{base}/delta", np.int32(1))
        values[1] = self.add(base, "Range", [start, rank_t, delta],
                             [(dtypes.int32, (0,) if rank == 0 else None)]).outputs[0]
        if rank == 0:
            values[1].value = np.arange(0)
        return values

    def converted(self, op_name, input_name, value) -> list:
        if isinstance(value, GraphTensor):
            return [value]
        if isinstance(value, _Ref):
            found = self.by_id.get(value.tid)
            return [found] if found is not None else []
        if _is_variable(value):
            return [self.read(op_name, value)]
        if isinstance(value, (list, tuple)) and any(
                isinstance(v, (_Ref, GraphTensor)) or _is_variable(v) for v in value):
            return [t for v in value for t in self.converted(op_name, input_name, v)]
        if input_name is not None and _is_constant(value):
            const = self.const(f"{op_name}/{input_name}", value)
            if not isinstance(value, Tensor):   # what a gradient's listing reads
                const.value = np.asarray(value)
                const.shape = TensorShape(const.value.shape)
            return [const]
        if input_name is not None and isinstance(value, (list, tuple)) and not value:
            # op_def_library converts [] twice (float32 first, refused): the second is in
            self.const(self.unique(f"{op_name}/{input_name}"), np.zeros(0, np.float32))
            const = self.const(self.unique(f"{op_name}/{input_name}"), np.zeros(0, np.int32))
            const.value = np.zeros(0, np.int32)
            return [const]
        return []

    def outputs(self) -> None:
        from simdist.framework.func_graph import SymbolicTensor

        outs = self.graph.output_leaves()
        names = self.graph.output_names()
        sources = [self.by_id.get(t._id) if isinstance(t, SymbolicTensor) else
                   self.read(self.graph.output_reads[id(t)], t, named=True) for t in outs]
        for name, t, source in zip(names, outs, sources):
            shape = t._static_shape if isinstance(t, SymbolicTensor) else tuple(t.shape)
            self.add(name[:-2], "Identity", [source] if source is not None else [],
                     [(t.dtype, shape)])
        if self.graph.outputs is None:   # still tracing: no outputs and no NoOp yet
            return
        if any(op.type in _STATEFUL for op in self.ops) or any(
                getattr(n, "dry", None) is not None for n in self.graph.nodes):
            self.add(self.unique("NoOp"), "NoOp", (), ())


class _DryBuilder(_Builder):
    """A lister run while tracing (reserve_names): names taken in the graph itself, a
    symbolic argument standing for the GraphTensor it will be."""

    def __init__(self, graph, replica):   # noqa: D107 - none of _Builder's listing state
        self.graph, self.replica = graph, replica
        self.ops, self.by_id, self.resources, self.shared = [], {}, {}, {}
        self.specs, self.tapes, self.reduced_shapes, self.arguments_read = {}, {}, {}, {}
        self.used, self.taken = set(), set()

    def unique(self, name: str) -> str:
        return self.graph.unique_name(name)

    def converted(self, op_name, input_name, value) -> list:
        from simdist.framework.func_graph import SymbolicTensor

        if isinstance(value, SymbolicTensor):
            return [GraphTensor(Operation(self.graph, value.name, "Placeholder"), 0,
                                value.dtype, value._static_shape)]
        return super().converted(op_name, input_name, value)


def _mixed(value) -> bool:
    """Whether ``value`` is a list or tuple holding a traced tensor (TF packs it)."""
    return isinstance(value, (list, tuple)) and any(isinstance(v, (_Ref, GraphTensor))
                                                    for v in value)


def _python_shape(shape) -> bool:
    """Whether ``shape`` is a list or tuple of Python ints (a shape TF folds)."""
    return isinstance(shape, (list, tuple)) and all(
        isinstance(d, int) and not isinstance(d, bool) for d in shape)


def _known(spec) -> bool:
    return spec is not None and spec[2] is not None and \
        TensorShape(spec[2]).is_fully_defined()


def _shape_of(t):
    return tuple(t.shape.as_list()) if t.shape is not None and t.shape.rank is not None \
        else None


class VariableCapture:
    """A variable a branch reads, among the tensors it captures (its resource handle)."""

    __slots__ = ("variable",)

    def __init__(self, variable):
        self.variable = variable

    def __eq__(self, other):
        return isinstance(other, VariableCapture) and other.variable is self.variable

    def __hash__(self):
        return id(self.variable)


def _captured(nodes, results, made: set, taken: list, variables=False) -> None:
    """Add to ``taken`` the tensors a branch or body (``nodes`` and its ``results``) uses
    from outside it, in the order its ops first use them (TF's external captures);
    ``variables``: the variables it reads too (a VariableCapture each), each where it is
    first read: a read captures the handle through every graph around it at once, before
    the op reading it (or the cond or loop around that) captures its tensors."""
    def use(tid):
        if tid not in made and tid not in taken:
            taken.append(tid)

    for node in nodes:
        if variables:
            for c in _variables_read(node):
                use(c)
        if hasattr(node, "branches"):
            use(node.pred)
            for inner, inner_results in node.branches:
                _captured(inner, inner_results, set(made), taken, variables)
            made.update(node.outputs)
        elif hasattr(node, "body"):
            limit = getattr(getattr(node, "max_iters", None), "_id", None)
            for tid in ([limit] if limit is not None else []) + list(node.inputs):
                use(tid)   # a traced maximum_iterations first (the While's second input)
            inner = set(made) | set(node.places)
            _captured(node.cond + node.body, node.results, inner, taken, variables)
            made.update(node.outputs)
        else:
            for _, tid in getattr(node, "slots", ()):
                use(tid)
            made.update(tid for _, tid in getattr(node, "out_slots", ()))
    for tid in results:
        use(tid)


def _variables_read(node) -> list:
    """The variables the ops of ``node`` (those of a cond's branches and a loop's too)
    read, in order (a VariableCapture each)."""
    from simdist.framework.func_graph import _walk

    found = []
    for n in _walk([node]):
        for leaf in getattr(n, "leaves", ()):
            if _is_variable(leaf):
                while hasattr(leaf, "_parent"):   # an assign's _UnreadVariable: its own
                    leaf = leaf._parent
                if VariableCapture(leaf) not in found:
                    found.append(VariableCapture(leaf))
    return found


def _written(node, variable) -> bool:
    """Whether a node of the cond's branches (a loop's cond and body) updates
    ``variable``."""
    from simdist.framework.func_graph import _walk

    return any(getattr(n.fn, "__name__", "") in _ASSIGNS and n.leaves and
               n.leaves[0] is variable for n in _walk([node]))


def _whole_type(node, graph) -> str:
    """A cond's or a while loop's TF type: If / While (Stateless* without stateful ops)."""
    from simdist.framework.func_graph import _walk, is_stateful

    kind = "If" if hasattr(node, "branches") else "While"
    inner = list(_walk([node]))
    stateful = any(is_stateful(graph, n) or any(_is_variable(x) for x in n.leaves)
                   for n in inner)   # (a variable read: TF's ReadVariableOp is stateful)
    return kind if stateful else "Stateless" + kind


def operations(graph) -> list:
    """The Operations of a traced FuncGraph, in TF's order (see the module docstring)."""
    builder = _Builder(graph)
    builder.arguments()
    nodes = graph.nodes
    # TPU replicated computations (tpu_program), dataset folds (data.traced_reduce)
    programs = {p.start: p for p in (*getattr(graph, "replicated_programs", ()),
                                     *getattr(graph, "listed_ranges", ()))}
    i = 0
    while i < len(nodes):
        program = programs.pop(i, None)   # nodes listed as the ops TF has in their place
        if program is not None:
            program.list_operations(builder, nodes[program.start:program.end])
            i = program.end
            continue
        builder.node(nodes[i])
        i += 1
    for program in programs.values():   # one that ended with no node
        program.list_operations(builder, ())
    builder.outputs()
    return builder.ops


def _register_framework_listings() -> None:
    """The listers of the framework's own ops recorded whole, registered as the graph
    machinery loads (an eager program loads neither; a library registers its own)."""
    from simdist.framework import linspace_listing, tensordot_listing, xent_listing
    from simdist.framework.ops import linspace_ops, nn_ops, tensordot_ops

    register_listing(linspace_ops.linspace_of_a_tensor_num, linspace_listing.list_linspace)
    register_listing(nn_ops.sparse_softmax_cross_entropy_with_logits,
                     xent_listing.list_sparse_xent)
    register_listing(nn_ops.sigmoid_cross_entropy_with_logits, xent_listing.list_logistic_loss)
    register_listing(nn_ops.softmax_cross_entropy_with_logits, xent_listing.list_softmax_xent)
    register_listing(tensordot_ops.tensordot_node, tensordot_listing.list_tensordot)


_register_framework_listings()
