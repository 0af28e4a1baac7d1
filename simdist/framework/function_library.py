"""The function ``library`` of a traced graph's GraphDef: the functions its ops call, as
TF's ``as_graph_def()`` lists them.

Glossary:
  FunctionDef  -- one function: its ``signature`` (an OpDef: name, ``input_arg`` and
                  ``output_arg`` with their types; function_signature), its
                  ``node_def`` (the body's NodeDefs, arguments left out), ``ret``
                  (each output arg: ``<Identity>:output:0``), the
                  ``_construction_context`` attr and ``arg_attr`` (each argument's
                  ``_user_specified_name`` and ``_output_shapes``).
  body input   -- inside a function an input names an argument as it is (``x``), an op's
                  output as ``<op>:<output arg>:<index>`` (``mul:z:0``; its op
                  definition's output name), a control input as ``^<op>``.
  nested call  -- a tf.function called while tracing: ``PartitionedCall`` (or
                  ``StatefulPartitionedCall``) with ``f`` naming ``__inference_<fn>_<uid>``
                  and TF's call attrs (``Tin``, ``Tout``, ``config_proto`` ...); its
                  arguments, then the handles of the variables it captures (the caller's
                  resource Placeholder, named from the uid counter where it had none).
  stateful     -- a body with a stateful op (a read): ``is_stateful``, its ``NoOp`` and
                  ``control_output`` / ``control_ret`` (the ops that must run).
  cond         -- ``If`` / ``StatelessIf``: the predicate, then each tensor a branch
                  captures; ``then_branch`` / ``else_branch`` name ``cond_true_<uid>`` /
                  ``cond_false_<uid>``, each taking every capture (an argument named
                  ``<consumer op>_<captured op>``, normalized: lower case, ``/`` to
                  ``_``; one its branch does not use ``cond_placeholder``) and returning
                  ``cond/Identity`` of each output.
  while loop   -- ``While`` / ``StatelessWhile``: the loop counter, maximum_iterations,
                  the loop vars, then every capture (the cond's, then the body's new
                  ones); ``cond`` / ``body`` name ``while_cond_<uid>`` /
                  ``while_body_<uid>`` (loop_functions). A variable it reads: its handle
                  a loop var too (``while/input_<k>``), only read: in
                  ``_read_only_resource_inputs``; a body reading it is stateful (its
                  ``NoOp``).
  nested       -- a cond or a loop in a branch or a body: its If / While there, its
                  functions in the library too; a branch's captured tensor is a
                  Placeholder named as the tensor (``x``), a body's loop var
                  ``while/Placeholder_<k>``, which the nested function's arguments are
                  named after; a handle first used by the nested op: ``input_<k>``; a
                  loop's counters in a body: ``while/while/loop_counter_1`` (the body's
                  own counters' placeholders have those names).
  library order -- TF lists the functions in its function map's order (it follows the
                  uids); simdist by name.
  not listed   -- a vectorized_map's pfor in a branch or body: the caller's node prints
                  without them.

Mirrors tensorflow/core/framework/function.proto, python/framework/graph_to_function_def
(the body's input names), core/framework/graph_to_functiondef.cc (NormalizeName,
Uniquify), python/ops/cond_v2.py (_build_cond, the branches' inputs), while_v2.py and
python/eager/polymorphic_function/atomic_function.py (the call op's attrs).
"""

from __future__ import annotations

import functools
import itertools
import re

import numpy as np

from simdist.framework import dtypes, op_def_table, proto_text

_uids = itertools.count(1)


def uid() -> int:
    """The next of TF's unique ids (ops.uid): a library function's name, a captured
    handle's Placeholder, a custom gradient's ``CustomGradient-<uid>``."""
    return next(_uids)
# the rest of TF 2.21's serialized ConfigProto of the eager context after its device_count:
# gpu_options { experimental {} }, allow_soft_placement, experimental and a tail
_CONFIG_TAIL = b"2\002J\0008\001\202\001\000\222\001\002J\000"


def _config_proto() -> bytes:
    """The eager context's ConfigProto as TF serializes it: device_count (the logical CPUs
    and GPUs, a map of entries ``key`` / ``value``), then the fixed rest."""
    from simdist.framework import config

    out = b""
    for kind in ("CPU", "GPU"):
        n = len(config.list_logical_devices(kind))
        entry = b"\n" + bytes([len(kind)]) + kind.encode() + b"\020" + bytes([n])
        out += b"\n" + bytes([len(entry)]) + entry
    return out + _CONFIG_TAIL


def normalize(name: str) -> str:
    """graph_to_functiondef's NormalizeName: lower case, other characters ``_``, from the
    first letter on (``unknown`` with none: a captured handle's ``"16"``)."""
    name = re.sub(r"[^a-z0-9]", "_", name.lower())
    start = re.search(r"[a-z]", name)
    return name[start.start():] if start else "unknown"


class FunctionDef:
    """One function of a GraphDef's library (see the module docstring)."""

    def __init__(self, name, args, nodes, outputs, control=(), stateful=False):
        self.name = name
        self.args = args          # [(arg name, dtype name, user name or None, dims)]
        self.nodes = nodes        # NodeDefs, their inputs in the body's form
        self.outputs = outputs    # [(output arg name, dtype name, returned tensor)]
        self.control = sorted(control)   # the control outputs: the ops that must run
        self.stateful = stateful  # a stateful op in the body
        self.printer = None       # graph_def's (NodeDef fields, AttrValue fields)

    def __str__(self):
        return proto_text.message(self.fields(*self.printer))

    @property
    def signature(self):
        """Its OpDef: name, input and output args, statefulness (function_signature)."""
        from simdist.framework.function_signature import OpDef

        return OpDef(self.name, [(a, d) for a, d, _, _ in self.args],
                     [(a, d) for a, d, _ in self.outputs], self.stateful, self.control)

    def fields(self, node_fields, attr_fields) -> list:
        from simdist.framework.graph_def import AttrValue

        out = [("signature", self.signature.fields())]
        out += [("node_def", node_fields(n)) for n in self.nodes]
        rets = sorted(self.outputs, key=functools.cmp_to_key(
            lambda x, y: proto_text.map_order(x[0], y[0])))   # a map: upb's order
        out += [("ret", [("key", proto_text.quoted(a)), ("value", proto_text.quoted(r))])
                for a, _, r in rets]
        out.append(("attr", [("key", proto_text.quoted("_construction_context")),
                             ("value", attr_fields(AttrValue("s", "kEagerRuntime")))]))
        controls = sorted(self.control, key=functools.cmp_to_key(proto_text.map_order))
        out += [("control_ret", [("key", proto_text.quoted(c)), ("value", proto_text.quoted(c))])
                for c in controls]
        for i, (_, dtype, user, dims) in enumerate(self.args):
            attrs = [] if user is None else [("_user_specified_name", AttrValue("s", user))]
            if dtype != "resource":   # a resource argument has no shapes
                attrs.append(("_output_shapes", _shapes([dims])))
            if not attrs:
                continue
            out.append(("arg_attr", [("key", str(i)), ("value", [
                ("attr", [("key", proto_text.quoted(k)), ("value", attr_fields(v))])
                for k, v in attrs])]))
        return out


def _read_only(op):
    """The ``_read_only_resource_inputs`` attr: the positions among the op's inputs of the
    resources its functions only read."""
    from simdist.framework.graph_def import AttrValue

    return AttrValue("list", [("i", str(i)) for i in getattr(op, "_read_only", ())])


def _shapes(shapes):
    from simdist.framework.graph_def import AttrValue, _shape_fields

    return AttrValue("list", [("shape", _shape_fields(d)) for d in shapes])


def _types(tensors, lister):
    """A ``list(type)`` attr of the tensors' dtypes."""
    from simdist.framework.graph_def import AttrValue

    return AttrValue("list", [("type", dtypes.datatype_name(lister.dtype(t)))
                              for t in tensors])


def _static(t):
    """A tensor's static shape as a tuple (None: unknown rank)."""
    return tuple(t.shape.as_list()) if t.shape is not None and t.shape.rank is not None \
        else None


def _dims(t):
    if t.shape is None or t.shape.rank is None:
        return None
    return [-1 if d is None else d for d in t.shape.as_list()]


def _body_input(name: str, types: dict, args: dict) -> str:
    """A NodeDef input in a function body's form (see the module docstring)."""
    if name.startswith("^") or name in args:
        return args.get(name, name)
    op, _, index = name.partition(":")
    opdef = op_def_table.get(types.get(op, ""))
    out = opdef.outputs[0][0] if opdef is not None and opdef.outputs else "output"
    return f"{op}:{out}:{index or 0}"


def function_def(name, ops, arg_ops, returned, users, passed=(),
                 library=None) -> FunctionDef | None:
    """The FunctionDef ``name`` of a body's Operations ``ops`` (its argument Placeholders
    ``arg_ops`` among them, each named as its argument, ``returned`` its output Identity
    ops, then ``passed``: (output name, argument op) returned as they are); ``users``: an
    argument's ``_user_specified_name`` by op name. The functions its ops call are added
    to ``library``. None where an argument's dtype is not known (not listed)."""
    from simdist.framework.graph_def import NodeDef, _Lister, node_defs

    lister = _Lister(ops, {op.name for op in returned})
    args = {}
    arg_rows = []
    for op, arg in arg_ops:
        dtype = lister.dtype(op.outputs[0])
        if dtype is None:
            return None
        args[op.name] = arg
        arg_rows.append((arg, dtype, users.get(op.name), _dims(op.outputs[0])))
    types = {op.name: op.type for op in ops}
    arg_names = {op.name for op, _ in arg_ops}
    nodes = [NodeDef(n.name, n.op, [_body_input(i, types, args) for i in n.input], n.attr,
                     n.device)
             for n in node_defs(lister, [] if library is None else library, arg_names)]
    outputs = [(normalize(op.name), lister.dtype(op.outputs[0]), f"{op.name}:output:0")
               for op in returned]
    outputs += [(out, lister.dtype(op.outputs[0]), args[op.name]) for out, op in passed]
    no_op = next((n for n in nodes if n.op == "NoOp"), None)
    control = [] if no_op is None else [i[1:] for i in no_op.input]
    stateful = any(is_stateful(op) for op in ops)
    return FunctionDef(name, arg_rows, nodes, outputs, control, stateful)


def is_stateful(op) -> bool:
    """Whether TF's op definition of ``op`` is stateful (a call op: as its type says)."""
    from simdist.framework.graph_def import _STATEFUL_CALLS

    opdef = op_def_table.get(op.type)
    return opdef.is_stateful if opdef is not None else op.type in _STATEFUL_CALLS


def library_name(fn_graph) -> str:
    """A nested tf.function's name in the library: ``__inference_<fn>_<uid>`` (its uid
    taken at its first call's listing, before its captures' names)."""
    if getattr(fn_graph, "_library_name", None) is None:
        fn_graph._library_name = f"__inference_{fn_graph.name}_{next(_uids)}"
    return fn_graph._library_name


def called_function(op, fn_graph, library=None) -> FunctionDef | None:
    """The FunctionDef of the nested tf.function ``fn_graph`` a call op runs: its
    arguments' Placeholders, then its captured resources' (``readvariableop_resource``,
    its user name the Placeholder's last part: ``resource``)."""
    from simdist.framework import graph_operations

    ops = graph_operations.operations(fn_graph)
    outputs = {n[:-2] for n in fn_graph.output_names()}
    placeholders = [o for o in ops if o.type == "Placeholder"]
    users = {o.name: o.name if o.outputs[0].dtype is not None else o.name.rsplit("/", 1)[-1]
             for o in placeholders}
    return function_def(library_name(fn_graph), ops,
                        [(o, normalize(o.name)) for o in placeholders],
                        [o for o in ops if o.name in outputs], users, library=library)


def call_attrs(op, fn, lister) -> dict:
    """A nested call op's attrs (atomic_function's PartitionedCall)."""
    from simdist.framework.graph_def import AttrValue

    return {"f": AttrValue("func", fn.name), "executor_type": AttrValue("s", ""),
            "config": AttrValue("s", ""), "config_proto": AttrValue("s", _config_proto()),
            "_read_only_resource_inputs": _read_only(op),
            "_collective_manager_ids": AttrValue("list", []),
            "Tout": _types(op.outputs, lister), "Tin": _types(op.inputs, lister)}


def branch_functions(op, builder_type, graph, node, captured, library=None) -> list | None:
    """The two FunctionDefs of a cond node's branches (see the module docstring)."""
    from simdist.framework import func_graph

    base = normalize(node.name)
    uid = next(_uids)
    made = []
    for (nodes, results), part in zip(node.branches, ("true", "false")):
        if not all(_listable(n, func_graph) for n in nodes):
            return None
        b = builder_type(graph)
        # the graph's names: its nodes', and the counters' placeholders (named as the
        # tensors they enter as: while/while/loop_counter; a loop in it: loop_counter_1)
        b.taken = {n.name.lower() for n in nodes} | {
            f"{node.name}/{t.op.name}".lower() for t in op.inputs[:2]}
        holders = []
        for i, tid in enumerate(captured):
            outer = op.inputs[1 + i]   # the If's input: its dtype and shape
            # named as the tensor it captures (func_graph's capture: a cond or loop in the
            # branch names its own arguments after it)
            ph = b.add(b.unique(outer.op.name), "Placeholder", (),
                       [(outer.dtype, outer.shape)])
            if hasattr(tid, "variable"):   # a variable: the resource its first read makes
                b.resources[b.resource_key(tid.variable)] = ph.outputs[0]
                del b.ops[-1]
            b.by_id[tid] = ph.outputs[0]
            holders.append(ph)
        for n in nodes:
            b.node(n)
        returned = []
        for tid in results:
            src = b.by_id.get(tid)
            if src is None:
                return None
            returned.append(b.add(b.unique(f"{node.name}/Identity"), "Identity", [src],
                                  [(src.dtype, _static(src))]))
        if any(is_stateful(o) for o in b.ops):   # a read: the NoOp the outputs wait for
            b.add(b.unique(f"{node.name}/NoOp"), "NoOp", (), ())
        names, users, unused = [], {}, 0
        for ph, tid in zip(holders, captured):
            consumer = next((o for o in b.ops if ph.outputs[0] in o.inputs), None)
            outer = op.inputs[1 + captured.index(tid)]
            if hasattr(tid, "variable") and consumer is not None:   # its first user's
                user = _handle_name(consumer, ph)
                ph.name = f"{consumer.name}/{user}"
                names.append(normalize(ph.name))
                users[ph.name] = user
                continue
            if consumer is None:
                arg = normalize(f"{node.name}/Placeholder" + (f"_{unused}" if unused else ""))
                unused += 1
            else:
                arg = normalize(f"{consumer.name}/{outer.op.name}")
                if outer.op.type == "Placeholder":
                    users[ph.name] = outer.op.name
            names.append(arg)
        fn = function_def(f"{base}_{part}_{uid if part == 'true' else uid + 1}", b.ops,
                          list(zip(holders, names)), returned, users, library=library)
        if fn is None:
            return None
        made.append(fn)
    next(_uids)
    return made


def _handle_name(consumer, ph) -> str:
    """The name a variable's handle takes in a function from the op first using it: a
    read's ``resource``, a cond's or a loop's list input ``input_<k>``."""
    if consumer.type in ("If", "StatelessIf", "While", "StatelessWhile"):
        first = 1 if consumer.type.endswith("If") else 0   # (an If's predicate is apart)
        return f"input_{consumer.inputs.index(ph.outputs[0]) - first}"
    return "resource"


def _listable(node, func_graph) -> bool:
    """Whether a branch's or body's node is listed in its function: an op, a cond or a
    while loop (a vectorized_map's pfor is not)."""
    return isinstance(node, func_graph.Node) or hasattr(node, "branches") or \
        hasattr(node, "max_iters")


def cond_attrs(op, functions, lister) -> dict:
    """An If / StatelessIf op's attrs (cond_v2's _build_cond)."""
    from simdist.framework.graph_def import AttrValue

    return {"then_branch": AttrValue("func", functions[0].name),
            "else_branch": AttrValue("func", functions[1].name),
            "output_shapes": _shapes([_dims(t) for t in op.outputs]),
            "_read_only_resource_inputs": _read_only(op),
            "_lower_using_switch_merge": AttrValue("b", True),
            "Tout": _types(op.outputs, lister), "Tin": _types(op.inputs[1:], lister),
            "Tcond": AttrValue("type", lister.dtype(op.inputs[0]))}


def _unique(name: str, used: dict) -> str:
    """NodeNameMapping's Uniquify: a name taken gets ``_0``, ``_1`` ... appended."""
    if name not in used:
        used[name] = 0
        return name
    while True:
        candidate = f"{name}_{used[name]}"
        used[name] += 1
        if candidate not in used:
            used[candidate] = 0
            return candidate


def loop_functions(op, builder_type, graph, node, captured, n_cond,
                   library=None) -> list | None:
    """The cond and body FunctionDefs of a while loop node (while_v2): each takes the loop
    counter, maximum_iterations, a ``Placeholder`` per loop var and every capture (the
    cond's ``n_cond`` first: the body captures them before it runs, named
    ``while/<op>``; one the cond does not use ``__redundant_placeholder<k>``); the
    cond returns ``Identity`` of its predicate, the body the counter plus one, the
    maximum, its results (each through ``Identity``) and the captures as they are."""
    from simdist.framework import func_graph

    if not all(_listable(n, func_graph) for n in node.cond + node.body):
        return None
    base, uid = normalize(node.name), next(_uids)
    next(_uids)
    n_vars = len(node.places)
    outer = op.inputs[2 + n_vars:]   # the captures' tensors
    made = []
    for part, nodes in (("cond", node.cond), ("body", node.body)):
        b = builder_type(graph)
        # the graph's names: its nodes', and the counters' placeholders (named as the
        # tensors they enter as: while/while/loop_counter; a loop in it: loop_counter_1)
        b.taken = {n.name.lower() for n in nodes} | {
            f"{node.name}/{t.op.name}".lower() for t in op.inputs[:2]}
        counter_ops = [b.add(f"{node.name}/{c}_arg", "Placeholder", (),
                             [(op.inputs[i].dtype, ())])
                       for i, c in enumerate(("loop_counter", "maximum_iterations"))]
        var_ops = []
        for i, tid in enumerate(node.places):
            t = op.inputs[2 + i]
            var_ops.append(b.add(b.unique(f"{node.name}/Placeholder"), "Placeholder", (),
                                 [(t.dtype, _static(t))]))   # the body graph's names
            b.by_id[tid] = var_ops[-1].outputs[0]
        cap_ops = []
        for i, (tid, t) in enumerate(zip(captured, outer)):
            # named as the tensor it captures (a loop in the body names its counters'
            # arguments after it: maximum_iterations=n's while_while_n)
            cap_ops.append(b.add(f"{node.name}/capture_{i}" if hasattr(tid, "variable")
                                 else b.unique(t.op.name), "Placeholder", (),
                                 [(t.dtype, _static(t))]))
            if hasattr(tid, "variable"):   # a variable: the handle its reads use
                b.resources[b.resource_key(tid.variable)] = cap_ops[-1].outputs[0]
                del b.ops[-1]
            b.by_id[tid] = cap_ops[-1].outputs[0]
        for n in nodes:
            b.node(n)
        if part == "cond":
            pred = b.by_id.get(node.pred)
            if pred is None:
                return None
            if node.max_iters is not None:   # while_v2's wrapped_cond: the counter first
                below = b.add(b.unique(f"{node.name}/Less"), "Less",
                              [o.outputs[0] for o in counter_ops], [(dtypes.bool_, ())])
                pred = b.add(b.unique(f"{node.name}/LogicalAnd"), "LogicalAnd",
                             [below.outputs[0], pred], [(dtypes.bool_, ())]).outputs[0]
            returned = [b.add(b.unique(f"{node.name}/Identity"), "Identity", [pred],
                              [(pred.dtype, ())])]
        else:
            step = _counter_step(b, node.name, counter_ops[0].outputs[0])
            values = [step, counter_ops[1].outputs[0]] + [b.by_id.get(t) for t in node.results]
            if any(v is None for v in values):
                return None
            returned = [b.add(b.unique(f"{node.name}/Identity"), "Identity", [v],
                              [(v.dtype, v.shape)]) for v in values]
        if any(is_stateful(o) for o in b.ops):   # a read: the NoOp the outputs wait for
            b.add(b.unique(f"{node.name}/NoOp"), "NoOp", (), ())
        fn_name = f"{base}_{part}_{uid if part == 'cond' else uid + 1}"
        names = []   # each capture's placeholder in the graph of this function
        for i, (ph, t) in enumerate(zip(cap_ops, outer)):
            consumer = next((o for o in b.ops if ph.outputs[0] in o.inputs), None)
            if part == "cond" and i >= n_cond:
                names.append(f"{node.name}/{fn_name}/__redundant_placeholder{i - n_cond}")
                ph.outputs[0].shape = None   # made of no tensor: an unknown shape
            elif hasattr(captured[i], "variable") and consumer is not None:
                names.append(f"{consumer.name}/{_handle_name(consumer, ph)}")
            elif consumer is None or part == "body" and i < n_cond:
                names.append(f"{node.name}/{t.op.name}")
            else:
                names.append(f"{consumer.name}/{t.op.name}")
        used = {}
        for r in returned:
            _unique(normalize(r.name), used)
        passed = []
        if part == "body":   # the captures go round as they are: outputs named first
            passed = [(_unique(normalize(n), used), ph) for n, ph in zip(names, cap_ops)]
        # the counters named after the tensors they enter as (TensorSpec.from_tensor):
        # while/loop_counter, while/maximum_iterations or the tensor given (n, Const_1)
        args = [(c, _unique(normalize(f"{node.name}/{t.op.name}"), used))
                for c, t in zip(counter_ops, op.inputs[:2])]
        args += [(ph, _unique(normalize(f"{node.name}/Placeholder" + (f"_{i}" if i else "")),
                              used)) for i, ph in enumerate(var_ops)]   # the graph's names
        args += [(ph, _unique(normalize(n), used)) for n, ph in zip(names, cap_ops)]
        users = {c.name: t.op.name for c, t in zip(counter_ops, op.inputs[:2])}
        users.update((ph.name, n.rsplit("/", 1)[-1] if hasattr(c, "variable") else t.op.name)
                     for ph, t, n, c in zip(cap_ops, outer, names, captured)
                     if t.op.type == "Placeholder" and "/__redundant_placeholder" not in n)
        fn = function_def(fn_name, b.ops, args, returned, users, passed, library)
        if fn is None:
            return None
        made.append(fn)
    return made


def _counter_step(b, scope, counter):
    """The body's ``loop_counter + 1`` (made after the body's ops: ``while/add_1``)."""
    name = b.unique(f"{scope}/add")
    one = b.const(f"{name}/y", None)
    one.value = one.op._value = np.asarray(1, np.int32)
    return b.add(name, "AddV2", [counter, one], [(counter.dtype, ())]).outputs[0]


def loop_attrs(op, functions, lister) -> dict:
    """A While / StatelessWhile op's attrs (while_v2)."""
    from simdist.framework.graph_def import AttrValue

    return {"cond": AttrValue("func", functions[0].name),
            "body": AttrValue("func", functions[1].name),
            "output_shapes": _shapes([_dims(t) for t in op.outputs]),
            "parallel_iterations": AttrValue("i", 10),
            "_read_only_resource_inputs": _read_only(op),
            "_num_original_outputs": AttrValue("i", len(op.outputs)),
            "_lower_using_switch_merge": AttrValue("b", True),
            "T": _types(op.inputs, lister)}
