"""``tf.print``: print tensors as TF's PrintV2 kernel does, to stderr by default.

Glossary:
  template      -- each input that is not a string is laid out by ``pprint.pformat`` with
                   a placeholder in place of each tensor (so lists, dicts and tuples print as
                   Python does); a string input is printed as it is; ``sep`` joins them.
  tensor text   -- TF's ``SummarizeValue``: nested brackets, elements separated by a space,
                   rows by a newline and an indent (one more blank line per extra
                   dimension); a dimension longer than ``2 * summarize`` shows its first and
                   last ``summarize`` entries around ``...`` (``summarize=-1``: all).
  element text  -- floats in ``%g`` with 6 significant digits, or 9 when 6 do not read back
                   to the same float32 (15 / 17 for float64); half as float; bools 1 / 0.
  output_stream -- ``sys.stderr`` (default), ``sys.stdout``, a logging function or level,
                   or ``'file://<path>'`` (appended to).
  strings       -- a string tensor's elements are quoted and C-escaped (``"a\\n"``; bytes
                   of UTF-8 text stay as they are, other control bytes are octal ``\\001``,
                   TF's Utf8SafeCEscape); a lone scalar string tensor prints bare.

Mirrors tensorflow/python/ops/logging_ops.py and the PrintV2 / StringFormat kernels
(tensorflow/core/framework/tensor.cc ``SummarizeValue``).
"""

from __future__ import annotations

import os
import sys

import numpy as np

from simdist.framework import execute, held_output, nest, op_recording
from simdist.framework.tensor import Tensor
from simdist.framework.variables import Variable

_FILE_PREFIX = "file://"


def _is_tensor(x) -> bool:
    """TF's is_tf_type: tensors and variables (a PerReplica prints as its repr)."""
    return isinstance(x, (Tensor, Variable))


_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"',
            ord("'"): "\\'", ord("\\"): "\\\\"}


def _utf8_safe_c_escape(b: bytes) -> str:
    """TF's Utf8SafeCEscape: C escapes, octal for control bytes, bytes >= 0x80 kept."""
    out = bytearray()
    for c in b:
        if c in _ESCAPES:
            out += _ESCAPES[c].encode()
        elif c < 0x20 or c == 0x7F:
            out += f"\\{c:03o}".encode()
        else:
            out.append(c)
    return out.decode("utf-8", errors="replace")


def _element_text(x, dtype) -> str:
    if dtype.kind == "O":
        return '"' + _utf8_safe_c_escape(x) + '"'
    if dtype.kind == "f":
        if np.isnan(x):
            return "nan"
        if np.isinf(x):
            return "inf" if x > 0 else "-inf"
        wide = dtype == np.float64
        narrow, full, kind = (15, 17, np.float64) if wide else (6, 9, np.float32)
        text = f"{x:.{narrow}g}"
        return text if kind(float(text)) == kind(x) else f"{x:.{full}g}"
    if dtype.kind == "b":
        return "1" if x else "0"
    return str(x)


def summarize_value(value, summarize: int = 3) -> str:
    """TF's text of a tensor's value (see the module glossary)."""
    # numpy() gives a scalar string as bytes, which NumPy would read as its 'S' kind.
    value = np.asarray(value, dtype=object if isinstance(value, bytes) else None)
    ends = value.size if summarize < 0 else min(summarize, value.size)
    out: list[str] = []
    _dim_text(value, (), ends, out)
    return "".join(out)


def _spacing(dim: int, ndim: int) -> str:
    """What separates two entries of dimension ``dim`` (TF's PrintDimSpacing)."""
    if dim == ndim - 1:
        return " "
    return "\n" * (ndim - dim - 1) + " " * (dim + 1)


def _dim_text(value, index: tuple, ends: int, out: list) -> None:
    dim = len(index)
    if dim == value.ndim:
        out.append(_element_text(value[index], value.dtype))
        return
    count = value.shape[dim]
    out.append("[")
    for i in range(min(ends, count)):
        if i > 0:
            out.append(_spacing(dim, value.ndim))
        _dim_text(value, index + (i,), ends, out)
    if count > 2 * ends:
        out.append(_spacing(dim, value.ndim) + "...")
    for i in range(max(ends, count - ends), count):
        out.append(_spacing(dim, value.ndim))
        _dim_text(value, index + (i,), ends, out)
    out.append("]")


def _placeholder(template: str) -> str:
    """A placeholder that does not occur in the template (TF's rule)."""
    placeholder = "{}"
    while placeholder in template:
        placeholder = "{" + placeholder + "}"
    return placeholder


def _stream_writer(output_stream):
    """The function that writes a printed line to ``output_stream``.

    Raises:
      ValueError: for anything else than the streams TF accepts.
    """
    if isinstance(output_stream, str) and output_stream.startswith(_FILE_PREFIX):
        path = output_stream[len(_FILE_PREFIX):]

        def to_file(text):
            with open(path, "a") as f:
                f.write(text)

        return to_file
    if held_output.is_std_stream(output_stream):
        def to_stream(text):
            with held_output.passed():   # an op: printed per element of a dataset too
                held_output.op_write(output_stream, text)

        return to_stream
    level = _log_levels().get(_hashable(output_stream))
    if level is None:
        raise ValueError(
            "Unsupported output stream, logging level, or file." + str(output_stream)
            + ". Supported streams are sys.stdout, sys.stderr, tf.logging.info, "
            "tf.logging.warning, tf.logging.error. File needs to be in the form of "
            "'file://<filepath>'.")
    return lambda text: _logger().log(level, text.rstrip("\n"))


def _hashable(x):
    try:
        hash(x)
    except TypeError:
        return None
    return x


# (info, warning, error) functions accepted as output streams besides the logging module's
# own; the table of levels is built at the first logging stream (``import logging`` is
# left out of ``import simdist``).
_LOG_FUNCTIONS: list = []


def _logger():
    from simdist.platform.tf_logging import get_logger

    return get_logger()


def _log_levels() -> dict:
    """Output stream (a logging level or a logging function) -> logging level."""
    import logging

    levels = {logging.INFO: logging.INFO, logging.info: logging.INFO,
              logging.WARNING: logging.WARNING, logging.warning: logging.WARNING,
              logging.ERROR: logging.ERROR, logging.error: logging.ERROR}
    for info, warning, error in _LOG_FUNCTIONS:
        levels.update({info: logging.INFO, warning: logging.WARNING, error: logging.ERROR})
    return levels


def register_log_functions(info, warning, error) -> None:
    """Accept ``tf.compat.v1.logging``'s functions as output streams too."""
    _LOG_FUNCTIONS.append((info, warning, error))


def print_v2(*inputs, **kwargs):
    """Print ``inputs`` (tensors, Python values, structures) as TF does (``tf.print``).

    Raises:
      ValueError: an unknown keyword argument or output stream.
    """
    output_stream = kwargs.pop("output_stream", sys.stderr)
    kwargs.pop("name", None)
    summarize = kwargs.pop("summarize", 3)
    sep = kwargs.pop("sep", " ")
    end = kwargs.pop("end", os.linesep)
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments for tf.print: {kwargs}")
    write = _stream_writer(output_stream)
    if len(inputs) == 1 and _is_tensor(inputs[0]):
        value = _value_of(inputs[0])
        if np.ndim(value) == 0 and isinstance(value, bytes):  # TF prints it as it is
            write(value.decode("utf-8", errors="replace") + end)
            return
    write(_format(inputs, summarize, sep) + end)


def template(inputs, sep, is_tensor=None):
    """TF's StringFormat template of ``tf.print``'s inputs and its placeholder: the Python
    values as ``pprint`` writes them, each tensor the placeholder (``{}``, or ``{{}}`` where
    the values hold ``{}``), joined by ``sep`` (logging_ops.print_v2)."""
    import pprint  # on first use, not with import simdist

    is_tensor = is_tensor or _is_tensor
    free = nest.map_structure(lambda x: "" if is_tensor(x) else x, list(inputs))
    placeholder = _placeholder(" ".join(pprint.pformat(x) for x in free))
    templates = []
    for item in inputs:
        parts = [placeholder if is_tensor(leaf) else leaf for leaf in nest.flatten(item)]
        if isinstance(item, str):
            templates.append(item)
        else:
            templates.append(pprint.pformat(nest.pack_sequence_as(item, parts)))
    return sep.join(templates).replace("'" + placeholder + "'", placeholder), placeholder


def _format(inputs, summarize, sep) -> str:
    texts = [summarize_value(_value_of(leaf), summarize)
             for item in inputs for leaf in nest.flatten(item) if _is_tensor(leaf)]
    text, placeholder = template(inputs, sep)
    return filled(text, placeholder, texts)


def filled(text: str, placeholder: str, texts) -> str:
    """``text`` with its ``placeholder``s replaced by ``texts`` in turn (TF's print and
    StringFormat kernels)."""
    pieces = text.split(placeholder)
    out = [pieces[0]]
    for value, piece in zip(texts, pieces[1:]):
        out += [value, piece]
    return "".join(out)


def _value_of(x):
    return execute.convert_to_tensor(x).numpy()


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
print_v2 = op_recording.recorded(print_v2, kind="stateful")
