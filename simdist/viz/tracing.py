"""A small ``tf.function`` program run N times, and what simdist's tracing did at each call.

Glossary:
  program     -- Python source that defines ``step``, a ``tf.function`` (a preset or the
                 learner's own), run as a notebook cell: its source registered in linecache
                 so that AutoGraph can read it.
  call        -- one Python expression in ``i`` (0, 1, ...) that calls ``step``; it runs
                 ``n`` times.
  CallRecord  -- one call: whether it traced (the tracing count grew), whether the graph
                 ran or the Python ran eagerly (a fallback), the device trace's "function"
                 events it added, what ``print`` wrote (stdout) and ``tf.print`` wrote
                 (stderr), TF's log messages (the retracing warning), the result.
  TraceRecord -- one trace of ``step`` (a concrete function): the arguments it was traced
                 for and the nodes its FuncGraph recorded (cond / while_loop with their
                 branches' nodes).
A run is stopped after TIME_LIMIT seconds (ProgramTimeout). Everything comes from running
simdist: the events from the machine's trace, the count from
``experimental_get_tracing_count``, the converted code from ``tf.autograph.to_code``.

Mirrors what tensorflow/python/eager/polymorphic_function/polymorphic_function.py shows a
user of tf.function (tracing count, retracing warning), nothing more.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import linecache
import logging
import threading
import traceback
from dataclasses import dataclass, field

from simdist.testing.log_capture import LogCapture
from simdist.viz import world

FILENAME = "<tf.function page>"
MACHINE = "gpus=2,kind=V100"   # two GPUs: enough for the distributed preset
TIME_LIMIT = 20.0              # seconds of wall time for one run of a program
RETRACING = "triggered tf.function retracing"   # in TF's retracing warning


@dataclass(frozen=True)
class Preset:
    """A program, the call it is run with, and what it is meant to show."""

    title: str
    source: str
    call: str
    shows: str


PRESETS = {
    "print_vs_tf_print": Preset(
        "print vs tf.print",
        '''@tf.function
def step(x):
    print("print: tracing with", x)   # Python: at a trace
    tf.print("tf.print: x =", x)       # an op: every call
    return x * 2.0 + 1.0
''',
        "step(tf.constant(float(i)))",
        "`print` runs once, while tracing, and shows a symbolic tensor; `tf.print` is an "
        "op in the graph and prints the value at every call."),
    "python_scalar": Preset(
        "Python scalar argument (retraces)",
        '''@tf.function
def step(x, learning_rate):
    print("tracing for learning_rate =", learning_rate)
    return x * learning_rate
''',
        "step(tf.constant(1.0), 0.1 * (i + 1))",
        "A Python number is part of the signature by value: every new value traces "
        "again, and after 5 traces in the last calls TF logs its retracing warning. Pass "
        "`tf.constant(...)` instead."),
    "new_shapes": Preset(
        "new shapes (retraces)",
        '''@tf.function
def step(x):
    print("tracing for shape", x.shape)
    return tf.reduce_sum(x * x)
''',
        "step(tf.ones([i % 3 + 1]))",
        "A tensor is part of the signature by shape and dtype: each new shape traces, a "
        "shape seen before reuses its graph."),
    "reduce_retracing": Preset(
        "new shapes, reduce_retracing=True",
        '''@tf.function(reduce_retracing=True)
def step(x):
    print("tracing for shape", x.shape)
    return tf.reduce_sum(x * x)
''',
        "step(tf.ones([i + 1]))",
        "With `reduce_retracing=True` the second shape traces once more with the differing "
        "dimension relaxed to `None`; that graph then serves every later length."),
    "tensor_if": Preset(
        "a tensor if (AutoGraph: tf.cond)",
        '''@tf.function
def step(x):
    if x > 0:                  # a tensor: AutoGraph makes tf.cond
        print("tracing the positive branch")
        y = x * 2.0
    else:
        print("tracing the negative branch")
        y = -x
    tf.print("x =", x, "-> y =", y)
    return y
''',
        "step(tf.constant(float(i - 2)))",
        "AutoGraph rewrites the `if` on a tensor into `tf.cond`: both branches are traced "
        "(both prints run once), and the graph picks the branch at every call."),
    "python_state": Preset(
        "state on a Python object (self.best)",
        '''class Tracker(tf.Module):
    def __init__(self):
        self.best = tf.constant(100.0)  # not a tf.Variable

    @tf.function
    def update(self, loss):
        if loss < self.best:   # a tensor if: tf.cond
            print("tracing: best is a cond output")
            self.best = loss
        tf.print("loss", loss, "-> best", self.best)
        return self.best

tracker = Tracker()
step = tracker.update   # the bound tf.function
''',
        "step(tf.constant([3.0, 5.0, 1.0, 4.0][i % 4]))",
        "`self.best = loss` in a tensor `if` is an output of the `tf.cond` (AutoGraph carries "
        "attributes and dict entries as it carries local names), but the graph keeps the "
        "`100.0` it read while tracing: every call compares with `100.0`, so `best` is "
        "just the loss. State that must last between calls belongs in a `tf.Variable`."),
    "training_step": Preset(
        "a training step (variables, tape, optimizer)",
        '''w = tf.Variable(2.0)
optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

@tf.function
def step(x, y):
    print("tracing the training step")
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(w * x - y))
    grads = tape.gradient(loss, [w])
    optimizer.apply_gradients(zip(grads, [w]))
    tf.print("loss", loss, "w", w)
    return loss
''',
        "step(tf.constant([1.0, 2.0]), tf.constant([3.0, 6.0]))",
        "The first call traces twice, as in TF: the first trace creates the optimizer's "
        "variables, the second traces without creating them. Later calls only run the "
        "graph: the loss and the variable change at every call."),
    "distributed": Preset(
        "distributed: strategy.run inside tf.function",
        '''strategy = tf.distribute.MirroredStrategy(["GPU:0", "GPU:1"])
with strategy.scope():
    w = tf.Variable(1.0)

@tf.function
def step(x):
    def replica_fn(x):
        ctx = tf.distribute.get_replica_context()
        print("tracing replica", ctx.replica_id_in_sync_group)
        return x * w
    per_replica = strategy.run(replica_fn, args=(x,))
    return strategy.reduce("SUM", per_replica, axis=None)
''',
        "step(tf.constant(float(i)))",
        "TF traces the replica function once per replica inside the graph."),
}


@dataclass
class CallRecord:
    """What one call of ``step`` did."""

    index: int                 # 0-based (the value of i)
    traced: bool               # the tracing count grew at this call
    graph: bool                # the recorded graph ran (False: the Python ran eagerly)
    count: int                 # experimental_get_tracing_count() after the call
    events: list               # the trace's "function" events of this call (name, args)
    printed: str               # stdout: print (and anything else the Python wrote)
    tf_printed: str            # stderr: tf.print's default stream
    logs: list                 # messages logged on the "tensorflow" logger
    result: str                # repr of the result, or "" after an error
    error: str = ""            # "ExceptionType: message" if the call raised
    start: float = 0.0         # simulated seconds on the device clock
    end: float = 0.0


@dataclass
class TraceRecord:
    """One trace (concrete function) of ``step``."""

    number: int                # 1-based, in the order of the calls that made it
    first_call: int            # the call (i) that made it
    signature: str             # the arguments it was traced for
    nodes: list                # [(depth, name)]: the graph's nodes, branches indented
    eager: bool                # no graph: the function runs eagerly (fallback)
    operations: list = field(default_factory=list)   # [(name, type)]: get_operations()


@dataclass
class TracingRun:
    """A program run ``n`` times."""

    source: str
    call: str
    calls: list = field(default_factory=list)
    traces: list = field(default_factory=list)
    count: int = 0
    code: str = ""             # tf.autograph.to_code(step), or why it is missing
    error: str = ""            # a program that did not define a tf.function step, ...
    events: list = field(default_factory=list)    # every "function" event, in order

    @property
    def warnings(self) -> list:
        """Each logged message once, in order (the retracing warning, the fallback)."""
        seen = []
        for c in self.calls:
            seen += [m for m in c.logs if m not in seen]
        return seen

    @property
    def retracing_warnings(self) -> list:
        """TF's "N out of the last M calls ... triggered tf.function retracing" messages."""
        return [m for m in self.warnings if RETRACING in m]

    @property
    def retracing_calls(self) -> list:
        """The calls (i) at which the retracing warning was logged."""
        return [c.index for c in self.calls if any(RETRACING in m for m in c.logs)]


def run_program(source: str, call: str, n: int) -> TracingRun:
    """Run ``source`` (defines ``step``), then ``call`` for i = 0..n-1, on a fresh world."""
    from simdist.testing import reset_world

    run = TracingRun(source, call)
    with world.held():   # the world, stdout and the TF logger are process-global
        try:
            with _time_limit(TIME_LIMIT):
                reset_world(MACHINE)
                _impl(run, n)
        except ProgramTimeout:
            run.error = (f"ProgramTimeout: the program ran longer than {TIME_LIMIT:g} s "
                         "and was stopped (an endless loop?)")
    return run


class ProgramTimeout(BaseException):
    """The learner's program ran past TIME_LIMIT and was stopped (a BaseException, as
    KeyboardInterrupt is: ``except Exception`` in the program does not swallow it)."""


@contextlib.contextmanager
def _time_limit(seconds: float):
    """Stop this thread's Python once ``seconds`` have passed: a watchdog raises
    ProgramTimeout in it (``PyThreadState_SetAsyncExc``), again every 0.2 s should the
    program catch it (a bare ``except:`` in a loop could still outlast it), so that a
    learner's endless loop ends with an error on the page instead of holding the page (and
    its lock) forever."""
    target, done, lock = threading.get_ident(), threading.Event(), threading.Lock()
    set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc

    def watchdog():
        if done.wait(seconds):
            return
        while True:
            with lock:
                if done.is_set():
                    return
                set_async_exc(ctypes.c_ulong(target), ctypes.py_object(ProgramTimeout))
            if done.wait(0.2):
                return

    threading.Thread(target=watchdog, name="tf.function page watchdog", daemon=True).start()
    try:
        yield
    finally:
        with lock:
            done.set()
            # NULL: drop a ProgramTimeout raised too late to matter
            set_async_exc(ctypes.c_ulong(target), ctypes.c_void_p(0))


def _error_text(exc: BaseException) -> str:
    """The exception's type and message, and the program's line it came from."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == FILENAME]
    where = f" (program line {frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


def _impl(run: TracingRun, n: int) -> None:
    import simdist as tf
    from simdist.framework.function import Function
    from simdist.hardware.machine import get_machine

    logger = logging.getLogger("tensorflow")
    handler = LogCapture()
    logger.addHandler(handler)
    namespace = {"tf": tf, "__name__": "tf_function_page"}
    seen_args: list = []
    try:
        out, err = io.StringIO(), io.StringIO()
        try:
            linecache.cache[FILENAME] = (len(run.source), None,
                                         run.source.splitlines(True), FILENAME)
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                exec(compile(run.source, FILENAME, "exec"), namespace)
            expr = compile(run.call, "<call>", "eval")
        except Exception as e:  # noqa: BLE001 - the learner's program: shown, not raised
            run.error = _error_text(e)
            return
        step = namespace.get("step")
        if not isinstance(step, Function):
            what = "no step" if step is None else f"step as a {type(step).__name__}"
            run.error = ("The program must define `step` as a tf.function (decorate it with "
                         f"@tf.function); it defined {what}.")
            return

        def recorder(*args, **kwargs):       # the call's `step`: keeps its arguments
            seen_args.append((args, kwargs))
            return step(*args, **kwargs)

        trace = get_machine().trace
        for i in range(n):
            _one_call(run, step, recorder, expr, namespace, i, handler, trace, seen_args)
            if run.calls[-1].error:
                break
        run.count = step.experimental_get_tracing_count()
        run.traces = _traces(step, run.calls, seen_args)
        run.events = [(e.name, e.device, e.start, e.end, dict(e.args))
                      for e in trace.filter(cat="function")]
        try:
            run.code = tf.autograph.to_code(step.python_function)
        except Exception as e:  # noqa: BLE001
            run.code = f"# tf.autograph.to_code could not convert step: {_error_text(e)}"
    finally:
        logger.removeHandler(handler)


def _one_call(run, step, recorder, expr, namespace, i, handler, trace, seen_args):
    from simdist.framework import context

    before, first_event = step.experimental_get_tracing_count(), len(trace.events)
    handler.messages = []
    out, err = io.StringIO(), io.StringIO()
    dev = context.current_device()
    start = dev.clock
    result, error = "", ""
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            value = eval(expr, {**namespace, "step": recorder, "i": i})
            result = _short(value)
        except Exception as e:  # noqa: BLE001 - shown on the page
            error = _error_text(e)
    events = [(e.name, dict(e.args)) for e in trace.events[first_event:]
              if e.cat == "function"]
    count = step.experimental_get_tracing_count()
    run.calls.append(CallRecord(
        index=i, traced=count > before,
        graph=any(name.endswith("(graph)") for name, _ in events), count=count,
        events=events, printed=out.getvalue(), tf_printed=err.getvalue(),
        logs=list(handler.messages), result=result, error=error, start=start,
        end=dev.clock))


def _short(value) -> str:
    """A call's result as the learner would print it: tensors by their values."""
    from simdist.framework import nest

    try:
        shown = nest.map_structure(
            lambda v: v.numpy() if hasattr(v, "numpy") else v, value)
        text = str(shown) if not isinstance(shown, str) else repr(shown)
    except Exception:  # noqa: BLE001 - whatever the program returned
        text = repr(value)
    return text if len(text) <= 200 else text[:197] + "..."


def _traces(step, calls, seen_args) -> list:
    """One TraceRecord per concrete function, in the order the calls made them."""
    out, graphs = [], []
    for c, (args, kwargs) in zip(calls, seen_args):
        if not c.traced:
            continue
        try:
            concrete = step.get_concrete_function(*args, **kwargs)
        except Exception:  # noqa: BLE001 - a call that failed has no concrete function
            continue
        graph = concrete.graph
        if graph is not None and any(graph is g for g in graphs):
            continue
        graphs.append(graph)
        out.append(TraceRecord(len(out) + 1, c.index, _signature(concrete),
                               [] if graph is None else list(nodes(graph.nodes)),
                               graph is None, operations(graph)))
    return out


def operations(graph) -> list:
    """(name, type) of each operation TF's ``graph.get_operations()`` lists, in order."""
    if graph is None:
        return []
    try:
        return [(op.name, op.type) for op in graph.get_operations()]
    except Exception as e:  # noqa: BLE001 - an extra view: the page still shows the rest
        return [(f"(get_operations failed: {_error_text(e)})", "")]


def _signature(concrete) -> str:
    key = concrete._trace.key   # the trace key (its Python values by value)
    leaves = key[1] if isinstance(key, tuple) and len(key) == 2 else key
    return ", ".join(_leaf(x) for x in (leaves if isinstance(leaves, tuple) else (leaves,)))


def _leaf(x) -> str:
    if isinstance(x, tuple) and len(x) == 2 and x[0] == "literal":
        return f"Python value {x[1]!r}"
    return repr(x)


def nodes(node_list, depth: int = 0):
    """(depth, name) of each recorded node; a cond's / while_loop's branches below it."""
    from simdist.framework.graph_control_flow import CondNode, WhileNode

    for node in node_list:
        yield depth, node.name
        if isinstance(node, CondNode):
            for label, (branch, _) in zip(("true branch", "false branch"), node.branches):
                yield depth + 1, label
                yield from nodes(branch, depth + 2)
        elif isinstance(node, WhileNode):
            for label, branch in (("condition", node.cond), ("body", node.body)):
                yield depth + 1, label
                yield from nodes(branch, depth + 2)
