"""Control flow: ``tf.debugging.Assert``, ``tf.control_dependencies``, ``tf.group``, and
(from their own files, as in TF) ``tf.cond``, ``tf.while_loop``, ``tf.case``, ``tf.switch_case``.

Glossary:
  Assert               -- raises InvalidArgumentError when the condition is false, with each
                          data item summarized on its own line (its first ``summarize``
                          elements, then "..."); returns None when it holds.
  control_dependencies -- eagerly every op runs when it is called, so the block needs no
                          ordering; callables among the inputs are called, as in TF.
  group                -- eagerly nothing to group: None.

Mirrors tensorflow/python/ops/control_flow_assert.py and control_flow_ops.py (eager paths).
"""

from __future__ import annotations

import contextlib

import numpy as np

from simdist.framework import errors, execute


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
    if bool(condition.numpy() if hasattr(condition, "numpy") else condition):
        return None
    lines = "\n".join(_summarize_eager(x, summarize) for x in data)
    raise errors.InvalidArgumentError(
        None, None, f"Expected '{condition!s}' to be true. Summarized data: {lines}")


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
