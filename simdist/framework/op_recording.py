"""What makes a public function a recorded op, kept apart from the graph that records it.

Glossary:
  recorded op  -- a public op wrapped by ``recorded``: eagerly it calls the function (its
                  errors get TF's eager context); while a ``tf.function`` traces, the graph
                  being traced (func_graph.FuncGraph) records the call as a node.
  tables       -- what libraries register at their import for the graph to read later: the
                  composites (``register_composite``), the listers of TF's ops for nodes
                  recorded whole (``register_listing``), the inline conditions, the
                  distribution hooks (``register_mode_hooks``, ``register_replica_group``,
                  ``register_call_context``: tf.distribute's, without loading the graph).
  state        -- what a library asks of the trace now (``current``, ``inlined_calls``,
                  ``on_placeholders``, ``recorded_op_variant``, ``bodies``,
                  ``note_merge_call``): before the graph machinery loads nothing is
                  traced, and the answer needs none of it.
  light        -- nothing here imports the graph machinery (func_graph, graph_plan, the
                  listings): an eager program never loads it. func_graph and
                  graph_operations re-export these names, the one table each.

Mirrors the decorator half of tensorflow/python/framework/func_graph.py and
python/util/dispatch.py's ``add_dispatch_support`` (where an op call enters the graph).
"""

from __future__ import annotations

import contextlib
import functools
import sys

from simdist.framework import eager_errors, errors
from simdist.framework.tensor import NotTraceable, active, tracing
from simdist.framework.thread_local import ThreadLocalValue

_in_node = ThreadLocalValue(0)     # > 0 while a recorded op computes on placeholders
_execution = ThreadLocalValue(None)  # the graph execution replaying on this thread


def execution_values() -> dict | None:
    """``{tensor id: tensor}`` of the graph execution running on this thread (None while
    tracing or eagerly): what ``bound_captures`` needs to run trace-time Python (a custom
    gradient's grad_fn) on this execution's tensors."""
    ex = _execution.value
    return None if ex is None else ex.env

def execution_graph():
    """The graph (func_graph.FuncGraph) whose execution runs on this thread, or None."""
    ex = _execution.value
    return None if ex is None else ex.graph


# TF's op names for the public functions whose graph op is named otherwise (the rest use
# the function's name): tf.constant makes "Const", x + y "add", tf.add "Add" ...
_OP_NAMES = {"constant": "Const", "top_k": "TopKV2", "conv2d": "Conv2D",
             "max_pool2d": "MaxPool2d", "avg_pool2d": "AvgPool2D", "max_pool": "MaxPool2d",
             "avg_pool": "AvgPool",
             "cumsum": "Cumsum", "cumprod": "Cumprod",
             "cumulative_logsumexp": "CumulativeLogsumexp", "svd": "Svd", "qr": "Qr",
             "eigh": "SelfAdjointEigV2", "eigvalsh": "SelfAdjointEigV2",
             "slogdet": "LogMatrixDeterminant", "cholesky": "Cholesky",
             "matrix_triangular_solve": "MatrixTriangularSolve",
             "matmul": "MatMul", "reduce_sum": "Sum",
             "reduce_mean": "Mean", "reduce_max": "Max", "reduce_min": "Min",
             "reduce_prod": "Prod", "add": "Add", "multiply": "Mul", "subtract": "Sub",
             "identity": "Identity", "identity_n": "IdentityN", "reshape": "Reshape",
             "cast": "Cast", "square": "Square", "sqrt": "Sqrt", "exp": "Exp",
             "relu": "Relu", "negative": "Neg", "bias_add": "BiasAdd",
             "sigmoid": "Sigmoid", "tanh": "Tanh", "softmax": "Softmax", "softplus": "Softplus",
             "log_softmax": "LogSoftmax", "relu6": "Relu6", "elu": "Elu", "l2_loss": "L2Loss",
             "leaky_relu": "LeakyRelu", "maximum": "Maximum", "minimum": "Minimum",
             "abs": "Abs", "log": "Log", "log1p": "Log1p", "rsqrt": "Rsqrt",
             "reciprocal": "Reciprocal",
             "floor": "Floor", "round": "Round", "sign": "Sign", "is_nan": "IsNan",
             "squared_difference": "SquaredDifference", "pow": "Pow", "add_n": "AddN",
             "floormod": "FloorMod", "divide_no_nan": "div_no_nan",
             "argmax": "ArgMax", "argmin": "ArgMin", "reduce_any": "Any", "reduce_all": "All",
             "equal": "Equal", "not_equal": "NotEqual", "less": "Less", "greater": "Greater",
             "less_equal": "LessEqual", "greater_equal": "GreaterEqual",
             "logical_not": "LogicalNot", "logical_and": "LogicalAnd",
             "logical_or": "LogicalOr", "gather": "GatherV2",
             "expand_dims": "ExpandDims", "squeeze": "Squeeze", "tile": "Tile",
             "reverse": "ReverseV2", "stop_gradient": "StopGradient",
             "shape": "Shape", "size": "Size", "rank": "Rank", "fill": "Fill",
             "broadcast_to": "BroadcastTo", "uniform": "random_uniform",
             "normal": "random_normal", "stateless_uniform": "stateless_random_uniform",
             "stateless_normal": "stateless_random_normal"}   # (random_op_listing.SCOPES)

_INLINE_CONDITIONS: list = []
_MODE_HOOKS: list = []   # [capture() -> mode or None, enter(mode), exit()]
_REPLICA_GROUP_HOOK: list = []   # [hook(graph, node) -> bool]
_CALL_CONTEXTS: list = []   # [fn() -> what of the call's context a trace depends on]
_inlined = ThreadLocalValue(0)     # tf.functions running their Python inside a trace here


def current():
    """The FuncGraph being traced on this thread, or None (eager execution)."""
    return tracing.value if active[0] else None


def inlined_calls() -> int:
    """How many nested tf.functions (func_graph.inlined_call) this thread is inside."""
    return _inlined.value


def on_placeholders() -> bool:
    """Whether this thread runs a recorded op on placeholders (a trace's zeros or ones):
    of what it computes only the outputs' shapes and dtypes are kept (the values feed
    the next placeholder runs alone)."""
    return bool(active[0] and _in_node.value)


def recorded_op_variant():
    """Which placeholders this thread's recorded op runs on (while tracing), or None."""
    if not _in_node.value:
        return None
    from simdist.framework import func_graph

    return func_graph.recorded_op_variant()


def note_merge_call() -> None:
    """A replica called merge_call (func_graph.note_merge_call: only inside a recorded op)."""
    if _in_node.value:
        from simdist.framework import func_graph

        func_graph.note_merge_call()


def bodies() -> int:
    """How many cond branches / loop bodies this thread traces inside
    (graph_control_flow.bodies)."""
    flow = sys.modules.get("simdist.framework.graph_control_flow")
    return 0 if flow is None else flow.bodies()


def register_mode_hooks(capture, enter, exit_) -> None:
    """How a node keeps the distribution mode it was traced in (a replica's context, a
    merge's cross-replica context): ``capture()`` at recording (None: the default mode),
    ``enter(mode)`` / ``exit_()`` around its execution."""
    _MODE_HOOKS[:] = [capture, enter, exit_]


def register_replica_group(hook):
    """Register ``hook(graph, node) -> bool``: given a cooperative node (one that called
    merge_call while it was traced), it may take the node into a group of replicas' nodes
    that runs them together at execution (then True: the node is not appended alone)."""
    _REPLICA_GROUP_HOOK[:] = [hook]
    return hook


def register_call_context(fn):
    """Register ``fn() -> hashable or None``: a part of the calling context that is part of
    every trace key (TF's FunctionContext: under a strategy that retraces for each device,
    the replica's device and whether the call is in cross-replica context)."""
    _CALL_CONTEXTS.append(fn)
    return fn

# --- composite values (TF's CompositeTensor + nest's expand_composites) -------------------
_COMPOSITES: dict = {}   # type -> (its components function, its parts type)
PARTS: dict = {}         # parts type name -> the type (func_graph gives them by name)


def is_symbolic(x) -> bool:
    """Whether ``x`` is a symbolic tensor (func_graph.is_symbolic): none exists before the
    graph machinery loads, so an eager program asks without loading it."""
    graph = sys.modules.get("simdist.framework.func_graph")
    return graph is not None and graph.is_symbolic(x)


def register_composite(cls, components, rebuild) -> None:
    """Record values of exactly ``cls`` as ``components(x)`` (a sequence) in graphs; at
    execution ``rebuild(list)`` makes the value again from its components."""
    name = f"_{cls.__name__}Parts"
    parts = type(name, (tuple,), {
        "__slots__": (), "rebuild": rebuild, "__module__": "simdist.framework.func_graph",
        "__repr__": lambda self: f"{cls.__name__}{tuple.__repr__(self)}"})
    PARTS[name] = parts   # a saved function's graph pickles its parts by name
    _COMPOSITES[cls] = (components, parts)


# --- the listers of TF's ops for nodes recorded whole (graph_operations reads them) -------
# a recorded-whole node's function -> the lister of TF's ops for it (a library registers
# its own: keras/loss_listing.py): lister(builder, node name, args, kwargs, outputs) -> the
# Operation whose outputs are the node's, or None to list the node whole
LISTINGS: dict = {}


# the listers whose names are taken while tracing (reserve_names), for ops TF names in
# the scope around the call (a metric's Sum, Cast ...), which a later op's name follows
RESERVED_WHEN_TRACED: set = set()


def register_listing(fn, lister, reserve=False) -> None:
    """List the nodes of the recorded function ``fn`` (its ``__recorded_op__``) as TF's
    ops with ``lister`` (see ``LISTINGS``); ``reserve``: take its names when traced."""
    LISTINGS[getattr(fn, "__recorded_op__", fn)] = lister
    if reserve:
        RESERVED_WHEN_TRACED.add(lister)


def _library_refuses(what: str, depth: int = 2) -> None:
    """Raise NotTraceable when the code ``depth`` frames up (by default: the caller of the
    method that calls this) is simdist's own, not the user's: simdist's library then needs
    a value the graph does not have, and the function runs eagerly instead. The user's own
    code gets TF's error (the caller raises it)."""
    name = sys._getframe(depth).f_globals.get("__name__", "")
    if name.startswith("simdist.") and not name.startswith("simdist.autograph"):
        raise NotTraceable(f"simdist's own code {what}")


def register_inline_condition(fn):
    """Register ``fn() -> bool``: while it is true, a library entry point (``record_methods``)
    is traced through, its inner ops recorded, rather than recorded whole (e.g. inside a
    distribution strategy, whose merge_calls and replica contexts a replay on one thread
    cannot enter again)."""
    _INLINE_CONDITIONS.append(fn)
    return fn


def recorded(fn=None, *, kind: str = "pure", spec=None, name=None, inline=False,
             shortcut=None):
    """Make ``fn`` a public op: while tracing, a call records a node (see ``record``)
    named ``name`` (by default the function's TF op name), or the call's ``name=``.
    ``name`` may be a function of the call's arguments giving TF's name scopes and the
    name of the op whose output the node's is (``("mean_squared_error",
    "weighted_loss", "value")``). ``shortcut(*args, **kwargs)``: a call it answers (not
    None) makes no op, as TF's Python returns the input itself (``tf.cast`` to its dtype)."""

    def wrap(f):
        op_name = name or _OP_NAMES.get(f.__name__, f.__name__)

        @functools.wraps(f)
        def op(*args, **kwargs):
            g = tracing.value if active[0] else None
            if g is not None and shortcut is not None:
                same = shortcut(*args, **kwargs)
                if same is not None:
                    return same
            if g is None or inline and _traced_through(inline, args, kwargs):
                try:
                    return f(*args, **kwargs)
                except errors.OpError as e:   # TF's eager text (its kernel's, wrapped)
                    eager_errors.add_context(e, f, args, kwargs)
                    raise
            given = kwargs.get("name")   # TF's ``name=`` names the op
            if isinstance(given, str) and given:
                return g.record(f, kind, spec, args, kwargs, given)
            if not callable(op_name):
                return g.record(f, kind, spec, args, kwargs, op_name)
            *scopes, last = op_name(*args, **kwargs)
            with contextlib.ExitStack() as stack:
                for scope in scopes:
                    stack.enter_context(g.name_scope(scope))
                return g.record(f, kind, spec, args, kwargs, last)

        op.__recorded_op__ = f
        op.__ag_do_not_convert__ = True   # AutoGraph calls an op as it is (never converts it)
        return op

    return wrap if fn is None else wrap(fn)


def _traced_through(inline, args, kwargs) -> bool:
    """Whether an entry point is traced through: an inline condition holds, and ``inline``
    (True, or a predicate of the call's arguments) says this call may be."""
    if inline is not True and not inline(*args, **kwargs):
        return False
    return any(c() for c in _INLINE_CONDITIONS)


def record_module_ops(module, exclude=()) -> None:
    """Make every public function defined in ``module`` a recorded op (but ``exclude``)."""
    for attr, obj in list(vars(module).items()):
        if (callable(obj) and getattr(obj, "__module__", None) == module.__name__
                and not attr.startswith("_") and attr not in exclude
                and not isinstance(obj, type) and not hasattr(obj, "__recorded_op__")
                and type(obj).__name__ == "function"):
            setattr(module, attr, recorded(obj))


def record_methods(cls, kinds: dict, names=None) -> None:
    """Make the methods ``cls`` itself defines among ``kinds`` (name -> kind, or (kind,
    spec), or (kind, spec, inline)) recorded ops: library entry points (a loss, a metric's
    update, an optimizer's apply_gradients) that run whole at execution, with their Python
    decisions on values. ``inline``: traced through instead while an inline condition
    holds (``register_inline_condition``: apply_gradients under a strategy merges); a
    predicate of the call's arguments limits that to the calls it accepts. ``names``:
    method name -> TF's name of its op (see ``recorded``), else ``<class>.<method>``."""
    for attr, kind in kinds.items():
        fn = cls.__dict__.get(attr)
        if fn is None or hasattr(fn, "__recorded_op__") or not callable(fn):
            continue
        k, spec, inline = (tuple(kind) + (False,))[:3] if isinstance(kind, tuple) \
            else (kind, None, False)
        name = (names or {}).get(attr) or f"{cls.__name__}.{attr}"
        setattr(cls, attr, recorded(fn, kind=k, spec=spec, name=name, inline=inline))


def relink_reexports(modules) -> None:
    """Point each module's re-exports (``from math_ops import sigmoid`` in nn_ops) at the
    recorded version its home module now holds."""
    for module in modules:
        for attr, obj in list(vars(module).items()):
            home = sys.modules.get(getattr(obj, "__module__", None) or "")
            if home is None or home is module or type(obj).__name__ != "function":
                continue
            wrapped = getattr(home, getattr(obj, "__name__", ""), None)
            if getattr(wrapped, "__recorded_op__", None) is obj:
                setattr(module, attr, wrapped)


def record_here(name: str, exclude=()) -> None:
    """The last line of an op module (``record_here(__name__)``): its public functions but
    ``exclude`` become recorded ops, and its re-exports the recorded versions."""
    module = sys.modules[name]
    record_module_ops(module, exclude)
    relink_reexports((module,))
