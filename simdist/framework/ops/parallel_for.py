"""``tf.vectorized_map``: ``fn`` applied to every element along the first dimension, all
at once (TF's pfor), the results stacked.

Glossary:
  elems        -- a tensor or nested structure of tensors (variables are read, Python
                  values converted); each one's first dimension is the batch size B or 1
                  (broadcast: every element gets its only row). B is the largest first
                  dimension (a static one, else the largest at run time).
  loop_fn      -- ``fn`` of the elements gathered at the iteration index: TF calls it
                  once, with a symbolic index, in a graph (eagerly, in a tf.function made
                  for the call: ``pfor.<locals>.f``), so ``fn``'s Python runs once per call
                  and ``.numpy()`` / a tensor as a Python bool raise as in any graph.
                  AutoGraph does not convert ``fn`` (it is called from TF's own code).
  pfor         -- TF rewrites the traced body into batched ops; simdist runs the traced
                  body once per index at each execution and stacks each output (a value
                  that does not depend on the index is repeated B times, as TF tiles it).
                  Results are the same values; TF's listing of the rewritten graph is not
                  reproduced.
  fallback     -- ``fallback_to_while_loop``: TF runs an op it cannot vectorize in a
                  while_loop (warning "Using a while_loop for converting <Op> cause there
                  is no registered converter for this op." unless ``warn=False``); without
                  it, such an op is TF's ValueError "No pfor vectorization defined for <Op>".
                  An op depends on the element when one of its inputs does; the op types
                  TF 2.21 has no converter for are ``NO_CONVERTER`` (those simdist runs;
                  test_vectorized_map checks them against TF's registry). simdist runs
                  every op per element either way (the same values).

Mirrors tensorflow/python/ops/parallel_for/control_flow_ops.py (vectorized_map, pfor,
_pfor_impl, _broadcasting_gather).
"""

from __future__ import annotations

import threading

import numpy as np

from simdist.framework import dtypes, errors, func_graph, nest
from simdist.framework import graph_control_flow as gcf
from simdist.framework import tape as tape_lib
from simdist.framework.name_scope import name_scope
from simdist.framework.tensor_shape import TensorShape


def _as_tensor(x):
    from simdist.framework.ops import array_ops

    if hasattr(x, "assign") and hasattr(x, "read_value"):   # a variable: its value
        return x.read_value()
    return array_ops.convert_to_tensor(x)


def _first_dimension(t):
    """The static first dimension of ``t`` (None when unknown); a scalar is TF's
    IndexError (``x.shape.as_list()[0]``)."""
    if t.shape.rank is None:
        return None
    return t.shape.as_list()[0]


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """``fn`` of each element of ``elems`` along dimension 0, stacked
    (``tf.vectorized_map``).

    Raises:
      IndexError: a scalar element (TF's "list index out of range").
      InvalidArgumentError: a first dimension neither 1 nor the batch size (at run time,
        TF's gather text).
      ValueError: an op without a vectorization and ``fallback_to_while_loop=False``.
    """
    from simdist.framework.ops import array_ops, math_ops

    elems = nest.map_structure(_as_tensor, elems)
    flat = nest.flatten(elems)
    static = [_first_dimension(t) for t in flat]
    if any(s is None for s in static):
        batch_size = math_ops.reduce_max([array_ops.shape(t)[0] for t in flat])
    else:
        batch_size = max(static)

    def loop_fn(i):
        return fn(nest.map_structure(lambda x: _broadcasting_gather(x, i), elems))

    return pfor(loop_fn, batch_size, fallback_to_while_loop=fallback_to_while_loop,
                warn=warn, elems=flat)


def _broadcasting_gather(x, i):
    """Row ``i`` of ``x``, or its only row (a first dimension of 1)."""
    from simdist.framework.ops import array_ops

    first = _first_dimension(x)
    if first == 0:   # no row is ever gathered: fn is traced on an element of zeros
        rest = x.shape[1:]
        return array_ops.zeros(rest if rest.is_fully_defined() else array_ops.shape(x)[1:],
                               x.dtype)
    if first == 1:
        i = 0
    elif first is None:
        i = array_ops.where(array_ops.shape(x)[0] > 1, i, 0)
    # a strided slice, not TF's gather: pfor turns the gather of every row into the
    # tensor itself, so a gradient to ``x`` is dense, as a StridedSlice's is
    return x[i]


def pfor(loop_fn, iters, fallback_to_while_loop=True, parallel_iterations=None, warn=False,
         elems=()):
    """``loop_fn(i)`` for i in range(iters), stacked (TF's ``pfor``): traced in the graph
    being built, else in a tf.function made for this call (as TF, which overrides
    ``run_functions_eagerly``)."""
    from simdist.autograph.impl import error_utils
    from simdist.framework import eager_function_run
    from simdist.framework.function import function

    if func_graph.current() is not None:
        return _pfor_impl(loop_fn, iters, elems, fallback_to_while_loop, warn)

    def f():
        try:
            return _pfor_impl(loop_fn, iters, elems, fallback_to_while_loop, warn)
        except func_graph.NotTraceable:
            raise
        except Exception as e:   # noqa: BLE001 - raised again as TF's function raises it
            wrapped = error_utils.in_user_code(e, unconverted=True)
            if wrapped is None:
                raise
            raise wrapped from None

    eagerly = eager_function_run.functions_run_eagerly()
    if eagerly:
        from simdist.platform.tf_logging import get_logger

        get_logger().warning(
            "It looks like tf.function behavior was disabled, perhaps using "
            "tf.config.run_functions_eagerly. Vectorization primitives (e.g. "
            "tf.vectorized_map) require tf.function to work. These primitives will "
            "override the disable.")
        eager_function_run.run_functions_eagerly(False)
    try:
        return function(f)()
    finally:
        if eagerly:
            eager_function_run.run_functions_eagerly(True)


class PForNode:
    """A recorded pfor: the index placeholder, the body's nodes and results, the stacked
    outputs; each execution runs the body for every index."""

    __slots__ = ("index", "iters", "body", "results", "specs", "outputs", "elem_ids",
                 "elem_values", "name", "randomness")

    def __init__(self, **kw):
        self.randomness = None   # the body's random state (graph_control_flow)
        for k, v in kw.items():
            setattr(self, k, v)

    def _check_rows(self, env, n: int) -> None:
        """TF gathers rows 0 .. n-1 of every element at once: the first one past an
        element's rows fails (an element of one row is broadcast)."""
        for x in [env[i] for i in self.elem_ids] + self.elem_values:
            rows = int(np.shape(x)[0])
            if rows != 1 and rows < n:
                raise errors.InvalidArgumentError(
                    None, None, f"indices[{rows}] = {rows} is not in [0, {rows})")

    def run(self, env: dict) -> None:
        from simdist.framework import execute
        from simdist.framework.ops import array_ops

        n = self.iters if isinstance(self.iters, int) else int(env[self.iters._id])
        self._check_rows(env, n)
        runs = min(n, 1) if func_graph.in_dry_run() else n
        values: list = [[] for _ in self.results]
        for i in range(runs):
            env[self.index] = execute.convert_to_tensor(np.int32(i))
            with gcf._subgraph_randomness(self, 0):
                for node in self.body:
                    node.run(env)
            for k, r in enumerate(self.results):
                values[k].append(env[r])
        for out, (dtype, shape), vals in zip(self.outputs, self.specs, values):
            if not vals:   # no element: the results' shape after a first dimension of 0
                env[out] = array_ops.zeros([0] + [d or 0 for d in shape.as_list()], dtype)
            else:   # a dry run ran the body once: its result stands for every row
                env[out] = array_ops.stack(vals if len(vals) == n else vals * n)


# TF op types simdist runs that TF 2.21's pfor has no converter for (pfor.py's
# _pfor_converter_registry; recorded by record_tf_pfor_converters.py)
NO_CONVERTER = frozenset({
    "AsString", "CumulativeLogsumexp", "DecodeRaw", "DenseBincount", "EagerPyFunc", "L2Loss",
    "LookupTableFindV2", "MatrixDeterminant", "MatrixSolveLs", "MirrorPad", "PyFunc", "Qr",
    "RaggedTensorToTensor", "RandomShuffle", "Range", "ReduceJoin", "RegexFullMatch",
    "ScatterNd", "SparseToDense", "StatefulRandomBinomial", "StatelessRandomGetKeyCounter",
    "StatelessRandomNormalV2", "StatelessRandomUniformIntV2", "StatelessRandomUniformV2",
    "StatelessTruncatedNormalV2", "StaticRegexReplace", "StringJoin", "StringLength",
    "StringLower", "StringSplitV2", "StringStrip", "StringToHashBucketFast", "StringToNumber",
    "StringUpper", "Substr", "Svd", "TensorScatterAdd", "TensorScatterMax", "TensorScatterMin",
    "TensorScatterSub", "UnicodeDecodeWithOffsets", "Unique", "Where"})


class _OpTypes:
    """The op types each node of a body being traced runs (execute.observers): by the
    node's position in the body's list."""

    def __init__(self, graph):
        self.graph, self.nodes, self.thread = graph, None, threading.get_ident()
        self.by_node: dict = {}

    def __call__(self, op_type, *_):
        if threading.get_ident() == self.thread and self.graph.nodes is self.nodes:
            self.by_node.setdefault(len(self.nodes), set()).add(op_type)


def _unconverted(body, by_node, index) -> list:
    """[(node, op type)] of the body's ops that depend on the index and that TF cannot
    vectorize, in order."""
    variant = {index._id}
    found = []
    for k, node in enumerate(body):
        slots = getattr(node, "slots", None)
        if slots is None:   # a cond or loop: its outputs are taken to depend on it
            variant.update(getattr(node, "outputs", ()))
            continue
        if not any(sid in variant for _, sid in slots):
            continue
        variant.update(sid for _, sid in node.out_slots)
        named = node.name.rsplit("/", 1)[-1].split("_")[0]   # a spec op's (Unique)
        for op_type in sorted(by_node.get(k, set()) | {named}):
            if op_type in NO_CONVERTER:
                found.append((node, op_type))
    return found


def _convert(unconverted, fallback_to_while_loop, warn) -> None:
    """TF's PFor.convert for the ops it has no converter for: the while_loop fallback's
    warning, or its ValueError."""
    from simdist.platform.tf_logging import get_logger

    for node, op_type in unconverted:
        if not fallback_to_while_loop:
            raise ValueError(
                f"No pfor vectorization defined for {op_type}\nname: \"{node.name}\"\n"
                f"op: \"{op_type}\"\nConsider enabling the fallback_to_while_loop option to "
                "pfor, which may run slower.")
        if warn:
            get_logger().warning(f"Using a while_loop for converting {op_type} cause there "
                                 "is no registered converter for this op.")


def _pfor_impl(loop_fn, iters, elems, fallback_to_while_loop, warn):
    from simdist.framework import execute

    graph = func_graph.current()
    with name_scope("loop_body"):
        index = graph.symbolic_like(TensorShape([]), dtypes.int32, None,
                                    "PlaceholderWithDefault")
    watch = _OpTypes(graph)

    def watched(i):
        watch.nodes = graph.nodes   # the body's list (_trace_into's)
        return loop_fn(i)

    execute.observers.append(watch)
    try:
        body, out = gcf._trace_into(graph, watched, (index,), kind="loop_body",
                                    closes=(index,))
    finally:
        execute.observers.remove(watch)
    _convert(_unconverted(body, watch.by_node, index), fallback_to_while_loop, warn)
    n_static = iters if isinstance(iters, int) else None
    outputs, results, specs = [], [], []
    for r in nest.flatten(out):
        if r is None:
            outputs.append(None)
            continue
        o = graph.symbolic_like(TensorShape([n_static]).concatenate(r.shape), r.dtype,
                                r._device, "loop_body/pfor/stack")
        outputs.append(o)
        if tape_lib.active():   # a traced gradient reaches the body: each row's sum
            tape_lib.record("BroadcastTo", (r,), (o,))
        results.append(r._id)
        specs.append((r.dtype, r.shape))
    graph.nodes.append(PForNode(
        index=index._id, iters=iters, body=body,
        results=results, specs=specs, outputs=[o._id for o in outputs if o is not None],
        elem_ids=[t._id for t in elems if func_graph.is_symbolic(t)],
        elem_values=[t for t in elems if not func_graph.is_symbolic(t)], name="pfor"))
    return nest.pack_sequence_as(out, outputs)


__all__ = ["vectorized_map"]
