"""Control flow: ``tf.debugging.Assert``, ``tf.control_dependencies``, ``tf.group``, and
(from their own files, as in TF) ``tf.cond``, ``tf.while_loop``, ``tf.case``, ``tf.switch_case``.

Glossary:
  Assert               -- raises InvalidArgumentError when the condition is false, with each
                          data item summarized on its own line (its first ``summarize``
                          elements, then "..."); returns None when it holds. On a symbolic
                          condition in a traced function: a graph node checked at each
                          execution, with the graph kernel's text ("assertion failed:
                          [item] [item]").
  control_dependencies -- eagerly every op runs when it is called, so the block needs no
                          ordering; callables among the inputs are called, as in TF.
  group                -- eagerly nothing to group: None.

Mirrors tensorflow/python/ops/control_flow_assert.py and control_flow_ops.py (eager paths),
and tensorflow/core/kernels/logging_ops.cc (AssertOp's message in a graph).
"""

from __future__ import annotations

import contextlib

import numpy as np

from simdist.framework import dtypes, errors, execute, func_graph


def _summarize_eager(item, summarize=None) -> str:
    """TF's _summarize_eager: the first ``summarize`` elements, then '...' if cut.

    A Python string is a string tensor in TF, whose element prints as bytes (b'...').
    """
    if isinstance(item, (str, bytes)):
        return str(item.encode() if isinstance(item, str) else item) if summarize != 0 else ""
    value = execute.convert_to_tensor(item).numpy()
    summarize = 3 if summarize is None else (value.size if summarize < 0 else summarize)
    if np.ndim(value):
        flat = value.reshape(-1)
        parts = [str(x) for x in flat[:summarize]]
        if len(parts) < flat.size:
            parts.append("...")
    else:
        parts = [str(value)] if summarize != 0 else []
    return ", ".join(parts)


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 - TF's name
    """Raise unless ``condition`` holds (``tf.debugging.Assert``); eagerly returns None.

    Raises:
      InvalidArgumentError: ``condition`` is false; the message lists ``data``.
    """
    graph = func_graph.current()
    if graph is not None:   # a graph Assert, whatever the condition (a Python bool too)
        # TF's names: data all strings / int32 (on the host) assert directly, as
        # "Assert/Assert"; other data under a cond guard, "Assert/AssertGuard/Assert"
        host = all(_on_host(x) for x in data)
        scope = graph.scope_name(name or "Assert")
        graph.record(_assert_kernel, "stateful", None, (condition, list(data), summarize), {},
                     scope + ("Assert/" if host else "AssertGuard/Assert/"))
        return None
    if bool(condition.numpy() if hasattr(condition, "numpy") else condition):
        return None
    lines = "\n".join(_summarize_eager(x, summarize) for x in data)
    raise errors.InvalidArgumentError(
        None, None, f"Expected '{condition!s}' to be true. Summarized data: {lines}")


def _on_host(x) -> bool:
    """Whether an Assert's data item is a string or int32 tensor (as TF converts it: a
    Python int is an int32)."""
    if hasattr(x, "dtype") and not isinstance(x, np.ndarray):
        return dtypes.as_dtype(x.dtype) in (dtypes.string, dtypes.int32)
    a = np.asarray(x)
    return a.dtype.kind in "SUO" or a.dtype == np.int32 or (
        a.dtype.kind == "i" and not isinstance(x, (np.ndarray, np.generic)))


def _summarize_graph(item, summarize=None) -> str:
    """A data item as TF's graph Assert kernel prints it (Tensor::SummarizeValue): a string
    as it is; a tensor's first ``summarize`` (3) elements separated by spaces, nested in
    brackets by dimension, "..." where elements were left out."""
    if isinstance(item, (str, bytes)):
        return item.decode() if isinstance(item, bytes) else item
    value = np.asarray(execute.convert_to_tensor(item).numpy())
    flat = [_element_text(x) for x in value.reshape(-1)]
    limit = len(flat) if summarize is not None and summarize < 0 else min(summarize or 3,
                                                                          len(flat))
    if not flat:
        return ""
    if value.ndim == 0:
        text = " ".join(flat[:limit])
    else:
        out, index = [], [0]
        _print_one_dim(0, value.shape, limit, flat, index, out)
        text = "".join(out)
    return text + ("..." if len(flat) > limit else "")


def _element_text(x) -> str:
    """One element as TF's StrCat writes it (recorded from TF 2.21): a float in 6 (float32)
    or 15 (float64) significant digits where they read back the same, else 9 / 17
    (``0.333333343``, ``1e+10``); a bool as 1 / 0."""
    if isinstance(x, bytes):
        return x.decode()
    if isinstance(x, np.bool_):
        return str(int(x))
    if isinstance(x, np.floating):
        short, full = (15, 17) if x.dtype == np.float64 else (6, 9)
        text = f"{float(x):.{short}g}"
        return text if type(x)(text) == x or np.isnan(x) else f"{float(x):.{full}g}"
    return str(x)


def _print_one_dim(dim, shape, limit, flat, index, out) -> None:
    """TF's PrintOneDim (tensor.cc): one dimension's elements, sub-dimensions in brackets,
    stopping at ``limit`` elements ("..." inside any but the outermost dimension)."""
    if index[0] >= limit:
        return
    if dim == len(shape) - 1:
        for i in range(shape[dim]):
            if index[0] >= limit:
                if dim != 0:
                    out.append("...")
                return
            out.append((" " if i else "") + flat[index[0]])
            index[0] += 1
        return
    for _ in range(shape[dim]):
        opened = index[0] < limit
        if opened:
            out.append("[")
        _print_one_dim(dim + 1, shape, limit, flat, index, out)
        if index[0] < limit or opened:
            out.append("]")


def _assert_kernel(condition, data, summarize):
    """The Assert node of a graph, at execution."""
    if bool(condition.numpy() if hasattr(condition, "numpy") else condition):
        return
    raise errors.InvalidArgumentError(None, None, "assertion failed: " + " ".join(
        f"[{_summarize_graph(x, summarize)}]" for x in data))


def control_dependencies(control_inputs):
    """A block whose ops wait for ``control_inputs`` -- eagerly they already ran."""
    for control in control_inputs or ():
        if callable(control):
            control()
    return contextlib.nullcontext()


def group(*inputs, **kwargs):
    """Group ops (``tf.group``): eagerly every op already ran, so None."""
    name = kwargs.pop("name", None)
    del name
    if kwargs:
        raise ValueError("Unknown keyword arguments: " + str(list(kwargs)))
    return None


# tf.cond, tf.while_loop, tf.case, tf.switch_case live in files of their own, as in TF.
from simdist.framework.ops.cond import cond, cond_for_tf_v2  # noqa: E402, F401
from simdist.framework.ops.control_flow_case import case  # noqa: E402, F401
from simdist.framework.ops.control_flow_switch_case import switch_case  # noqa: E402, F401
from simdist.framework.ops.while_loop import while_loop, while_loop_v2  # noqa: E402, F401
