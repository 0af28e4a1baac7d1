"""TF's text of an error raised while a traced graph executes ("Graph execution error:").

Glossary:
  defining frames -- the Python frames at a node's creation (while its function traced),
                    outermost first, without the framework's own files (TF drops
                    tensorflow's; simdist drops its own). TF keeps tf-keras's frames
                    (``tf_keras/src/engine/training.py``, in ``fit``); simdist's Keras is
                    its own code, so a node a Keras call made shows the user's frames only.
                    A frame of converted code shows the user's function (an ``if`` body
                    AutoGraph made shows the function around it), at the source line.
                    A tf.data function's nodes keep none (TF: "<stack traces
                    unavailable>").
  node mark       -- what a failing node adds to its kernel's error: the kernel's text
                    without its eager ``[Op:...]`` and ``name:``, then
                    ``\\n\\t [[{{node MatMul}}]]``; the innermost node marks (a node of a
                    cond branch, a loop body or a nested function, not the op around it).
                    A node recorded whole (a Keras loss) is named as TF names the op
                    inside it that failed (``register_inner_node_name``).
  graph execution error -- the text the outermost call of a tf.function raises::

                        Graph execution error:

                        Detected at node MatMul defined at (most recent call last):
                          File "prog.py", line 17, in <module>

                          File "prog.py", line 15, in g

                        <kernel text>
                        \\t [[{{node MatMul}}]] [Op:__inference_g_23]

                    then, on lines of their own, what simdist adds to say what to do
                    (after TF's whole text, which stays a prefix of simdist's).
  root errors     -- a function on several devices (a MirroredStrategy step) whose node
                    failed on the function's own device while the others' parts had not
                    started lists ``2 root error(s) found.``: the node's error as ``(0)
                    INVALID_ARGUMENT:  <kernel text>``, then ``(1) CANCELLED:  Function
                    was cancelled before it was started``, ``0 successful operations.``
                    and ``0 derived errors ignored.`` (``root_errors``).
  inference name  -- ``__inference_<function>_<n>``, ``n`` a number counted over the
                    process's traces (TF's counter also counts ops: the numbers differ).
                    A function named ``<lambda>`` gets TF's bare runtime text instead:
                    ``{{function_node __inference_<lambda>_6}} <kernel text>
                    \\n\\t [[{{node add}}]] [Op:__inference_<lambda>_6]``.

Mirrors tensorflow/python/framework/error_interpolation.py (interpolate_graph,
_build_node_error_message, _is_framework_filename), python/util/tf_stack.py (the frames a
node keeps) and python/eager/execute.py (quick_execute: the ``[Op:...]`` suffix).
"""

from __future__ import annotations

import itertools
import os
import re
import sys

_SIMDIST = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_uids = itertools.count(1)
# op function name -> rule(args, kwargs) -> None or text(kernel text), where TF's graph
# kernel differs from its eager one (BatchMatMulV3 adds its adjoint flags: " 0 0")
_GRAPH_KERNEL_TEXT: dict = {}
_WRAPPED = "{{function_node __wrapped__"   # an eager kernel error's start (eager_errors)


def inference_name(function_name: str) -> str:
    """A new trace's concrete function name (TF's ``__inference_f_23``)."""
    return f"__inference_{function_name}_{next(_uids)}"


def defining_frames(skip: int = 2) -> tuple:
    """The frames calling the recorder, innermost first, without simdist's own files:
    (code object, last instruction offset, ...) flat (the line is found only if an error
    shows it: ``_line``)."""
    out = []
    own = _own_files
    f = sys._getframe(skip)
    while f is not None:
        code = f.f_code
        mine = own.get(code.co_filename)
        if mine is None:
            mine = own[code.co_filename] = code.co_filename.startswith(_SIMDIST)
        if not mine:
            out.append(code)
            out.append(f.f_lasti)
        f = f.f_back
    return tuple(out)


_own_files: dict = {}   # filename -> whether it is simdist's


def _line(code, offset: int) -> int:
    """The source line of the instruction at ``offset`` in ``code`` (``frame.f_lineno``)."""
    line = code.co_firstlineno
    for start, end, lineno in code.co_lines():
        if start <= offset < end:
            return line if lineno is None else lineno
    return line


def _frame_lines(frames) -> list:
    from simdist.autograph.impl import error_utils

    lines = []
    pairs = [(frames[i], frames[i + 1]) for i in range(len(frames) - 2, -1, -2)]
    for code, offset in pairs:
        filename, lineno = code.co_filename, _line(code, offset)
        converted = error_utils.converted_name(code)
        # a converted lambda's frame has no name in TF's source map (recorded from TF 2.21)
        shown = code.co_name if converted is None else "" if converted == "None" else converted
        lineno = error_utils.converted_line(code, lineno)
        lines.append(f'  File "{filename}", line {lineno}, in {shown}')
        lines.append("")
    return lines


def at_node(error, node):
    """``error`` (an OpError a node raised) marked with ``node`` (see the module docstring):
    a new error of its type; the same one when a node already marked it (but for a
    nested function's call op around a rewritten node: ``_rewritten``)."""
    marked = getattr(error, "_graph_node", None)
    if marked is not None:
        return _rewritten(error, node, marked)
    text = error.message
    if "[[{{node " in text:   # the runtime's text of a node already (a collective's)
        return error
    if text.startswith(_WRAPPED):   # an op inside a node's composite: its eager wrapping off
        text = text[text.find("}} ") + 3:]
    start = text.find(" [Op:")
    end = text.find("]", start)
    if start < 0 or end < 0:   # an error of the node's own (an empty optional's)
        start = end = len(text)
    advice = re.sub(r"^ name: \S*", "", text[end + 1:]).lstrip(". \n").strip()
    kernel = text[:start]
    graph_text = getattr(node, "graph_text", None)
    if graph_text is not None:
        kernel = graph_text(kernel)
    fn_name = getattr(getattr(node, "fn", None), "__name__", None)
    name = getattr(node, "name", type(node).__name__)
    inner = _INNER_NAMES.get(getattr(node, "fn", None))
    if inner is not None and 0 <= start < end:
        name = inner(name, text[start + len(" [Op:"):end]) or name
    return _marked(error, (name,
                           getattr(node, "frames", ()), kernel, advice,
                           fn_name in _REWRITTEN))


def at_step(error, node):
    """``at_node`` for a graph's step (graph_plan): only an error no node marked yet (a
    node step's Node.run marked its own)."""
    return error if getattr(error, "_graph_node", None) is not None else at_node(error, node)


def _marked(error, marked):
    """A new error of ``error``'s type with the node's text (``marked``: name, frames,
    kernel text, advice, whether oneDNN rewrites its op)."""
    name, _, kernel, advice, _ = marked
    core = f"{kernel}\n\t [[{{{{node {name}}}}}]]"
    out = type(error)(error.node_def, error.op, core + (f"\n{advice}" if advice else ""))
    out.__traceback__ = error.__traceback__
    out._graph_node = marked
    return out


# op functions whose node TF's CPU runtime (oneDNN) rewrites after inlining a nested
# function: their error names the node under the call op, without its stack trace
# (recorded from TF 2.21: "PartitionedCall/MatMul", "<stack traces unavailable>"; a
# GatherV2 keeps its name and frames)
_REWRITTEN = {"matmul", "__matmul__"}


def _rewritten(error, node, marked):
    """A marked error passing a nested function's call op: a rewritten node's name goes
    under the call op's (``PartitionedCall/MatMul``) and loses its frames."""
    if not marked[4] or not getattr(getattr(node, "fn", None), "__nested_call__", False):
        return error
    name, _, kernel, advice, _ = marked
    return _marked(error, (f"{node.name}/{name}", (), kernel, advice, True))


def end_of_sequence(node):
    """TF's OutOfRangeError of a graph's ``next`` past the end, marked with ``node``."""
    from simdist import errors

    return at_node(errors.OutOfRangeError(None, None, "End of sequence [Op:IteratorGetNext]"),
                   node)


def execution_error(error, inference: str, after=(), cancelled=False):
    """The error the outermost call of a tf.function raises for ``error`` (marked by a
    node, see ``at_node``): TF's "Graph execution error:" text; ``error`` itself when no
    node marked it (raised outside the graph's kernels). ``after``: the ops the error
    passed on its way out, each marked after the node (``[[IteratorGetNext]]``: a
    tf.data function's node failing under the function's iterator). ``cancelled``: the
    function's other devices had work left when the node failed (``root_errors``)."""
    marked = getattr(error, "_graph_node", None)
    if marked is None or getattr(error, "_graph_wrapped", False):
        return error
    name, frames, kernel, advice, _ = marked
    core = f"{kernel}\n\t [[{{{{node {name}}}}}]]" + "".join(f"\n\t [[{op}]]" for op in after)
    if cancelled and "<" not in inference:
        core = root_errors(type(error), core)
    if "<" in inference:
        # a function named "<lambda>": TF finds no stack traces under that name and leaves
        # the runtime's text as it is (recorded from TF 2.21)
        text = f"{{{{function_node {inference}}}}} {core} [Op:{inference}]"
    else:
        lines = ["Graph execution error:", "",
                 f"Detected at node {name} defined at (most recent call last):"]
        lines.extend(_frame_lines(frames) if frames else ["<stack traces unavailable>"])
        text = "\n".join(lines) + "\n" + f"{core} [Op:{inference}]"
    out = type(error)(error.node_def, error.op, text + (f"\n{advice}" if advice else ""))
    out.__traceback__ = error.__traceback__
    out._graph_node = marked
    out._graph_wrapped = True
    return out


def root_errors(kind, core: str) -> str:
    """TF's text of a multi-device function whose node failed on the function's device
    while another device's part had not started (a MirroredStrategy step in a
    tf.function, replica 0's node failing: recorded from TF 2.21, the same on 2 to 4
    replicas): the node's error, then the part cancelled. Other multi-device failures
    (a node on another device feeding this one: its error twice, once at the Recv
    ``[[GatherV2/_6]]``; replicas failing differently) depend on TF's partitioning and
    scheduling, and keep the single error's text."""
    code = re.sub(r"(?<!^)(?=[A-Z])", "_", kind.__name__.removesuffix("Error")).upper()
    return (f"2 root error(s) found.\n  (0) {code}:  {core}\n  (1) CANCELLED:  Function "
            "was cancelled before it was started\n0 successful operations.\n0 derived "
            "errors ignored.")


# a library entry point recorded whole -> rule(node name, kernel op type) -> the name of
# the op inside it that TF's graph holds and its error names (None: the node's own)
_INNER_NAMES: dict = {}


def register_inner_node_name(fn, rule) -> None:
    """A node of ``fn`` (recorded whole: a Keras loss) whose kernel fails is named as TF
    names the failing op inside it: ``rule(node name, op type)``."""
    _INNER_NAMES[fn] = rule


def register_graph_kernel_text(op_function_name: str, fn) -> None:
    """``fn(args, kwargs)`` (an op's traced arguments) gives None, or ``text(kernel text)``
    that gives TF's graph kernel's text for that node."""
    _GRAPH_KERNEL_TEXT[op_function_name] = fn


def graph_kernel_text(fn, args, kwargs):
    """What a node of ``fn`` keeps to give TF's graph kernel text (None: the eager one)."""
    rule = _GRAPH_KERNEL_TEXT.get(getattr(fn, "__name__", None))
    return None if rule is None else rule(args, kwargs)


def _matmul_text(args, kwargs):
    """A ``tf.matmul`` of an input whose static rank is not 2 is TF's BatchMatMulV3, whose
    shape error ends with its adjoint flags (recorded from TF 2.21: "... In[1]: [4,5] 0 0";
    not with two rank-2 inputs, nor in eager mode)."""
    a = args[0] if args else kwargs.get("a")
    b = args[1] if len(args) > 1 else kwargs.get("b")
    if all(getattr(getattr(t, "shape", None), "rank", 2) == 2 for t in (a, b)):
        return None
    flags = []
    for i, (t, adj) in enumerate((("transpose_a", "adjoint_a"), ("transpose_b", "adjoint_b"))):
        flags.append(int(bool(kwargs.get(t, args[2 + i] if len(args) > 2 + i else False)
                              or kwargs.get(adj, False))))
    suffix = f" {flags[0]} {flags[1]}"

    def text(kernel):
        return kernel + suffix if kernel.startswith("Matrix size-incompatible") else kernel

    return text


def _ensure_shape_text(args, kwargs):
    """TF's EnsureShape names the tensor it checks after its op in the graph (``Shape of
    tensor x [4] ...`` for an argument ``x``, ``mul`` for a product; recorded from TF
    2.21); eagerly it says ``input``."""
    x = args[0] if args else kwargs.get("x")
    name = getattr(x, "_name", None)
    if not isinstance(name, str):
        return None
    op = name.rpartition(":")[0] or name

    def text(kernel):
        return kernel.replace("Shape of tensor input ", f"Shape of tensor {op} ", 1)

    return text


register_graph_kernel_text("matmul", _matmul_text)
register_graph_kernel_text("ensure_shape", _ensure_shape_text)
