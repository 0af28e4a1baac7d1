"""String ops (``tf.strings``): element-wise text functions over ``tf.string`` tensors.

Glossary:
  join            -- element-wise concatenation of same-shape (or scalar) string tensors.
  reduce_join     -- concatenation along ``axis`` (all axes when None), ``separator`` between.
  length          -- bytes per element, or characters with ``unit='UTF8_CHAR'``.
  to_number       -- parse text as ``out_type`` (float32 by default); text that is not a
                     number of that type is TF's InvalidArgumentError.
  as_string       -- numbers and bools as text (floats ``%f``, or ``precision`` digits).
  regex_*         -- RE2 patterns, read here by Python's ``re`` (the common subset).
  to_hash_bucket_fast -- FarmHash Fingerprint64 of each string modulo ``num_buckets``
                     (int64), the numbers TF gives (simdist/framework/farmhash.py).
Every input must already be a string tensor: a numeric one is TF's "cannot compute ... as
input #i(zero-based) was expected to be a string tensor" error. None has a gradient.

Mirrors tensorflow/python/ops/string_ops.py and core/kernels/string_*.cc.
"""

from __future__ import annotations

import re

import numpy as np

from simdist.framework import dtypes, errors, execute, farmhash, op_recording
from simdist.framework.tensor import Tensor

_OPS = ("StringJoin", "ReduceJoin", "StringLength", "StringLower", "StringUpper",
        "StringStrip", "StringToNumber", "AsString", "RegexFullMatch", "StaticRegexReplace",
        "Substr", "StringToHashBucketFast")
for _op in _OPS:
    execute.NotDifferentiable(_op)


def _strings(op_type: str, x, index: int = 0) -> Tensor:
    """``x`` as a string tensor, or TF's error naming the input that is not one."""
    t = execute.convert_to_tensor(x, dtype_hint=dtypes.string)
    if not t.dtype.is_string:
        raise execute.input_dtype_error(op_type, index, "string", t.dtype)
    return t


def _map(op_type: str, t: Tensor, fn, otype=object, inputs=None) -> Tensor:
    """Apply ``fn`` to each element of ``t``'s bytes; the result's NumPy type is ``otype``."""
    out = np.empty(t._value.shape, dtype=otype)
    for i, v in enumerate(t._value.flat):
        out.flat[i] = fn(v)
    return execute.execute(op_type, inputs or [t], out)


def join(inputs, separator="", name=None) -> Tensor:
    """Element-wise ``separator.join`` of the tensors ``inputs`` (scalars broadcast).

    Raises:
      InvalidArgumentError: a numeric input, or non-scalar inputs of different shapes.
    """
    ts = [_strings("StringJoin", x, i) for i, x in enumerate(inputs)]
    shapes = [t._value.shape for t in ts if t.ndim]
    for s in shapes[1:]:
        if s != shapes[0]:
            raise errors.InvalidArgumentError(
                None, None, f"Input shapes do not match: {list(shapes[0])} vs. {list(s)} "
                            "[Op:StringJoin]".replace(", ", ","))
    shape = shapes[0] if shapes else ()
    sep = _bytes(separator)
    parts = [np.broadcast_to(t._value, shape) for t in ts]
    out = np.empty(shape, dtype=object)
    for idx in np.ndindex(*shape):
        out[idx] = sep.join(p[idx] for p in parts)
    return execute.execute("StringJoin", ts, out)


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None) -> Tensor:
    """Join the strings of ``inputs`` along ``axis`` (every axis when None)."""
    t = _strings("ReduceJoin", inputs)
    value = t._value
    axes = range(value.ndim) if axis is None else [
        int(a) % max(value.ndim, 1) for a in np.atleast_1d(axis)]
    sep = _bytes(separator)
    for a in sorted(set(axes), reverse=True):
        rows = np.moveaxis(value, a, -1)
        value = np.empty(rows.shape[:-1], dtype=object)
        for idx in np.ndindex(*value.shape):
            value[idx] = sep.join(rows[idx])
        if keepdims:
            value = np.expand_dims(value, a)
    return execute.execute("ReduceJoin", [t], value)


_UNITS = {"BYTE": len, "UTF8_CHAR": lambda b: len(b.decode("utf-8", errors="replace"))}


def length(input, unit="BYTE", name=None) -> Tensor:  # noqa: A002 - TF's name
    """The length of each string in bytes (``unit='BYTE'``) or characters ('UTF8_CHAR').

    Raises:
      ValueError: another ``unit``.
    """
    if unit not in _UNITS:
        raise ValueError(f"Attr 'unit' of {unit!r} is not in the list of allowed values: "
                         f"{', '.join(repr(u) for u in _UNITS)}")
    return _map("StringLength", _strings("StringLength", input), _UNITS[unit], np.int32)


def lower(input, encoding="", name=None) -> Tensor:  # noqa: A002 - TF's name
    """ASCII letters lower-cased (``encoding='utf-8'``: every letter)."""
    fn = (lambda b: b.decode("utf-8").lower().encode("utf-8")) if encoding else bytes.lower
    return _map("StringLower", _strings("StringLower", input), fn)


def upper(input, encoding="", name=None) -> Tensor:  # noqa: A002 - TF's name
    """ASCII letters upper-cased (``encoding='utf-8'``: every letter)."""
    fn = (lambda b: b.decode("utf-8").upper().encode("utf-8")) if encoding else bytes.upper
    return _map("StringUpper", _strings("StringUpper", input), fn)


def strip(input, name=None) -> Tensor:  # noqa: A002 - TF's name
    """Leading and trailing whitespace removed."""
    return _map("StringStrip", _strings("StringStrip", input), bytes.strip)


def to_number(input, out_type=dtypes.float32, name=None) -> Tensor:  # noqa: A002
    """Each string parsed as a number of ``out_type`` (float32, float64, int32, int64).

    Raises:
      InvalidArgumentError: a string that is not a number of that type.
    """
    t = _strings("StringToNumber", input)
    dt = dtypes.as_dtype(out_type)
    parse = int if dt.is_integer else float

    def convert(b):
        try:
            return parse(b.decode("utf-8").strip())
        except ValueError:
            raise errors.InvalidArgumentError(
                None, None, f"StringToNumberOp could not correctly convert string: "
                            f"{b.decode('utf-8', errors='replace')} [Op:StringToNumber]"
                            ) from None

    return _map("StringToNumber", t, convert, dt.as_numpy_dtype)


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="",
              name=None) -> Tensor:  # noqa: A002 - TF's name
    """Numbers as text: integers in decimal, floats with ``precision`` digits (6 when -1),
    bools 'true' / 'false'."""
    t = execute.convert_to_tensor(input)
    if t.dtype.is_string:
        raise errors.InvalidArgumentError(
            None, None, "Value for attr 'T' of string is not in the list of allowed values "
                        "[Op:AsString]")
    if t.dtype.is_bool:
        def fmt(v):
            return "true" if v else "false"
    elif t.dtype.is_floating:
        spec = ("e" if scientific else "g" if shortest else "f")
        digits = 6 if precision < 0 else int(precision)

        def fmt(v):
            return f"{float(v):.{digits}{spec}}"
    else:
        fmt = str
    width_spec = f"{fill or ' '}>{width}" if width > 0 else ""
    return _map("AsString", t, lambda v: format(fmt(v), width_spec).encode("utf-8"))


def regex_full_match(input, pattern, name=None) -> Tensor:  # noqa: A002 - TF's name
    """Whether each whole string matches ``pattern``."""
    rx = re.compile(_bytes(pattern))
    return _map("RegexFullMatch", _strings("RegexFullMatch", input),
                lambda b: rx.fullmatch(b) is not None, np.bool_)


def regex_replace(input, pattern, rewrite, replace_global=True, name=None) -> Tensor:  # noqa: A002
    """``pattern`` replaced by ``rewrite`` (every match, or the first one)."""
    rx = re.compile(_bytes(pattern))
    repl = re.sub(rb"\\(\d)", rb"\\g<\1>", _bytes(rewrite))
    count = 0 if replace_global else 1
    return _map("StaticRegexReplace", _strings("StaticRegexReplace", input),
                lambda b: rx.sub(repl, b, count=count))


def substr(input, pos, len, unit="BYTE", name=None) -> Tensor:  # noqa: A002 - TF's names
    """``len`` bytes of each string from ``pos``."""
    p, n = int(pos), int(len)
    return _map("Substr", _strings("Substr", input), lambda b: b[p:p + n])


def to_hash_bucket_fast(input, num_buckets, name=None) -> Tensor:  # noqa: A002 - TF's name
    """Each string's FarmHash Fingerprint64 modulo ``num_buckets``, as int64.

    Raises:
      InvalidArgumentError: a numeric input.
    """
    n = int(num_buckets)
    return _map("StringToHashBucketFast", _strings("StringToHashBucketFast", input),
                lambda b: farmhash.fingerprint64(b) % n, np.int64)


def _bytes(text) -> bytes:
    return text if isinstance(text, bytes) else str(text).encode("utf-8")


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__)
