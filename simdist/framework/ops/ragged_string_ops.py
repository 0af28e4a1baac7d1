"""String ops whose rows have different lengths: split text into parts, bytes or characters.

Glossary:
  split          -- each string split at ``sep`` (at runs of whitespace when None), at most
                    ``maxsplit`` times; a scalar gives a vector, a vector a RaggedTensor of
                    one row per string (a matrix: its second dimension uniform, (2, 2, None)).
  bytes_split    -- each string as its single bytes.
  unicode_split  -- each string as its characters (each one's encoded bytes);
  unicode_decode -- as their code points (int32). Undecodable bytes become
                    ``replacement_char`` (U+FFFD) with ``errors='replace'``, TF's default.
Every input must be a string tensor (TF's dtype error otherwise). None has a gradient.

Mirrors tensorflow/python/ops/ragged/ragged_string_ops.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, errors, execute
from simdist.framework.ops.string_ops import _bytes, _strings
from simdist.framework.ragged_tensor import RaggedTensor

for _op in ("StringSplitV2", "StringBytesSplit", "UnicodeDecodeWithOffsets"):
    execute.NotDifferentiable(_op)

_CODECS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}


def _rows(op_type, t, parts_of, otype=object):
    """A scalar's parts as a vector, else a RaggedTensor of each string's parts (one
    ragged dimension per dimension of the input)."""
    arr = t._value
    if arr.ndim == 0:
        parts = parts_of(arr.item() if arr.dtype != object else arr[()])
        return execute.execute(op_type, [t], np.array(parts, dtype=otype).reshape(-1))
    rows = [parts_of(v) for v in arr.reshape(-1)]
    flat = np.array([p for row in rows for p in row], dtype=otype).reshape(-1)
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    out = RaggedTensor.from_row_splits(execute.execute(op_type, [t], flat), splits,
                                       validate=False)
    for dim in reversed(arr.shape[1:]):   # the input's inner dimensions, uniform
        out = RaggedTensor.from_uniform_row_length(out, dim)
    return out


def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002 - TF's name
    """Each string split at ``sep`` (whitespace when None or empty)."""
    t = _strings("StringSplitV2", input)
    sep_b = _bytes(sep.numpy() if hasattr(sep, "numpy") else sep) if sep else None
    n = int(maxsplit)

    def parts(b):
        return b.split(sep_b, n) if sep_b else b.split(None, n)

    return _rows("StringSplitV2", t, parts)


def bytes_split(input, name=None):  # noqa: A002 - TF's name
    """Each string as its single bytes."""
    t = _strings("StringBytesSplit", input)
    return _rows("StringBytesSplit", t, lambda b: [b[i:i + 1] for i in range(len(b))])


def _codec(input_encoding) -> str:
    """Python's codec for TF's encoding name.

    Raises:
      InvalidArgumentError: an encoding TF does not know.
    """
    try:
        return _CODECS[str(input_encoding).upper()]
    except KeyError:
        raise errors.InvalidArgumentError(
            None, None, f"Could not create converter for input encoding: {input_encoding} "
                        f"(simdist decodes {', '.join(_CODECS)})") from None


def _chars(b: bytes, codec: str, errors_mode: str, replacement_char: int) -> list:
    """The characters of ``b``: (code point, its bytes) each."""
    if errors_mode == "strict":
        try:
            text = b.decode(codec)
        except UnicodeDecodeError as e:
            raise errors.InvalidArgumentError(
                None, None, f"Invalid formatting on input string: {e}") from None
    else:
        text = b.decode(codec, errors="replace" if errors_mode == "replace" else "ignore")
        if errors_mode == "replace":
            text = text.replace("\ufffd", chr(replacement_char))
    return [(ord(c), c.encode(codec)) for c in text]


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                  name=None):
    """Each string as its characters, each encoded as bytes."""
    t = _strings("UnicodeDecodeWithOffsets", input)
    codec = _codec(input_encoding)
    return _rows("UnicodeDecodeWithOffsets", t,
                 lambda b: [c for _, c in _chars(b, codec, errors, replacement_char)])


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """Each string as its characters' code points (int32)."""
    t = _strings("UnicodeDecodeWithOffsets", input)
    codec = _codec(input_encoding)
    return _rows("UnicodeDecodeWithOffsets", t,
                 lambda b: [p for p, _ in _chars(b, codec, errors, replacement_char)],
                 np.int32)


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """Each string's bytes read as numbers of ``out_type`` (``tf.io.decode_raw``): a scalar
    gives a vector; strings of one length give one more dimension.

    Raises:
      InvalidArgumentError: a length that is not a multiple of the type's size, or strings
        of different lengths (TF's texts).
    """
    t = _strings("DecodeRaw", input_bytes)
    dt = dtypes.as_dtype(out_type)
    npd = np.dtype(dt.as_numpy_dtype).newbyteorder("<" if little_endian else ">")
    raw = [v if isinstance(v, bytes) else _bytes(v) for v in t._value.reshape(-1)]
    if fixed_length is not None:
        raw = [r[:int(fixed_length)].ljust(int(fixed_length), b"\0") for r in raw]
    for r in raw:
        if len(r) % npd.itemsize:
            raise errors.InvalidArgumentError(
                None, None, f"Input to DecodeRaw has length {len(r)} that is not a multiple of "
                            f"{npd.itemsize}, the size of {dt.name} [Op:DecodeRaw]")
    if len({len(r) for r in raw}) > 1:
        raise errors.InvalidArgumentError(
            None, None, "DecodeRaw requires input strings to all be the same size, but "
                        f"element 1 has size {len(raw[1])} != {len(raw[0])} [Op:DecodeRaw]")
    n = len(raw[0]) // npd.itemsize if raw else 0
    out = np.array([np.frombuffer(r, dtype=npd) for r in raw], dtype=npd).reshape(
        t._value.shape + (n,)).astype(dt.as_numpy_dtype)
    return execute.execute("DecodeRaw", [t], out)
