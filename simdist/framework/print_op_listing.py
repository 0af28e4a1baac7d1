"""The operations TF's graph lists for a ``tf.print`` recorded whole (``get_operations``).

Glossary:
  StringFormat -- the text to print: a template of the printed values with a placeholder
                  (``{}``) for each tensor, formatted with the tensors (its inputs); attrs
                  ``template``, ``placeholder``, ``summarize`` and ``T`` (their dtypes).
                  A single scalar string tensor is printed as it is, with no StringFormat.
  PrintV2      -- prints the text: attrs ``output_stream`` (``stderr``, ``stdout``,
                  ``log(info)``, ``file://...``) and ``end``. Stateful: the function's NoOp
                  runs after it, and each PrintV2 after the one before.
Both are named in the scope around the call (``StringFormat_1``, ``PrintV2_1``).

Mirrors tensorflow/python/ops/logging_ops.py (print_v2) and string_ops.py (string_format).
"""

from __future__ import annotations

import os
import sys

from simdist.framework import held_output, nest

_LEVELS = {20: "log(info)", 30: "log(warning)", 40: "log(error)"}


def _stream(output_stream) -> str:
    """TF's ``output_stream`` attr of a stream tf.print was given."""
    if held_output.unwrapped(output_stream) is held_output.unwrapped(sys.stdout):
        return "stdout"
    if isinstance(output_stream, str):
        return output_stream
    if isinstance(output_stream, int):
        return _LEVELS.get(output_stream, "stderr")
    name = getattr(output_stream, "__name__", "")
    return f"log({name})" if name in ("info", "warning", "error") else "stderr"


def list_print(builder, name, args, kwargs):
    """Add the ops of the ``tf.print`` node ``name`` to ``builder``
    (graph_operations._Builder); returns the PrintV2 op."""
    from simdist.framework import graph_operations
    from simdist.framework.ops import logging_ops

    def is_tensor(x):   # (a variable is read inside the StringFormat, as TF converts it)
        return isinstance(x, graph_operations._Ref) or graph_operations._is_variable(x)

    scope = name.rsplit("/", 1)[0] + "/" if "/" in name else ""
    refs = [leaf for item in args for leaf in nest.flatten(item) if is_tensor(leaf)]
    spec = builder.specs.get(refs[0].tid) if len(args) == 1 and refs and \
        isinstance(refs[0], graph_operations._Ref) else None
    if spec is not None and getattr(spec[1], "name", None) == "string" and \
            spec[2] is not None and len(spec[2]) == 0 and args[0] is refs[0]:
        formatted = builder.converted(name, None, refs[0])[0]
    else:
        fmt_name = builder.unique(scope + "StringFormat")
        tensors = [t for r in refs for t in builder.converted(fmt_name, None, r)]
        template, placeholder = logging_ops.template(args, kwargs.get("sep", " "), is_tensor)
        fmt = builder.add(fmt_name, "StringFormat", tensors,
                          [("string", ())])
        fmt._given = {"template": template, "placeholder": placeholder,
                      "summarize": kwargs.get("summarize", 3)}
        formatted = fmt.outputs[0]
    op = builder.add(builder.unique(scope + "PrintV2"), "PrintV2", [formatted], ())
    op._given = {"output_stream": _stream(kwargs.get("output_stream", sys.stderr)),
                 "end": kwargs.get("end", os.linesep)}
    return op
