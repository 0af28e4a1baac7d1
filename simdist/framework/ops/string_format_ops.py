"""``tf.strings.format``: a scalar string, a template's placeholders replaced by tensors.

Glossary:
  template     -- text with one ``placeholder`` (``{}`` by default) per input.
  inputs       -- a list of tensors (Python values are converted), or one tensor alone.
  summarize    -- each dimension longer than ``2 * summarize`` shows its first and last
                  ``summarize`` entries around ``...`` (-1: all), as ``tf.print`` writes
                  tensors (logging_ops.summarize_value: strings quoted, bools 1 and 0).

Mirrors tensorflow/python/ops/string_ops.py (string_format) and the StringFormat kernel of
tensorflow/core/kernels/string_format_op.cc. StringFormat has no gradient.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import context, dtypes, execute, op_recording
from simdist.framework.ops import logging_ops
from simdist.framework.tensor import Tensor
from simdist.framework.variables import Variable


def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
    """``template`` with its placeholders replaced by the texts of ``inputs``.

    Raises:
      ValueError: the template's placeholders are not as many as the inputs (TF's text).
    """
    if isinstance(inputs, (Tensor, Variable)):
        inputs = [inputs]
    inputs = list(inputs)
    if template.count(placeholder) != len(inputs):
        raise ValueError(f"The template expects {template.count(placeholder)} tensors, but "
                         f"the inputs only has {len(inputs)}. Please ensure the number of "
                         "placeholders in template matches inputs length.")
    tensors = [execute.convert_to_tensor(x) for x in inputs]
    text = logging_ops.filled(template, placeholder, [
        logging_ops.summarize_value(t.numpy(), summarize) for t in tensors]).encode("utf-8")
    return execute.execute("StringFormat", tensors, np.array(text, dtype=object),
                           attrs={"template": template, "placeholder": placeholder,
                                  "summarize": summarize})


def string_format_spec(graph, template, inputs, placeholder="{}", summarize=3, name=None):
    """While tracing: a scalar string (its text depends on the values)."""
    return graph.symbolic_like([], dtypes.string, context.current_device(), "StringFormat")


string_format = op_recording.recorded(string_format, kind="spec", spec=string_format_spec,
                                      name="StringFormat")

__all__ = ["string_format"]
