"""String ops whose rows have different lengths: split text into parts, bytes or characters.

Glossary:
  split          -- each string split at ``sep`` (at runs of whitespace when None), at most
                    ``maxsplit`` times; a scalar gives a vector, a vector a RaggedTensor of
                    one row per string (a matrix: its second dimension uniform, (2, 2, None)).
  bytes_split    -- each string as its single bytes.
  unicode_split  -- each string as its characters (each one's encoded bytes);
  unicode_decode -- as their code points (int32). Undecodable bytes become
                    ``replacement_char`` (U+FFFD) with ``errors='replace'``, TF's default.
  ngrams         -- each row's runs of ``ngram_width`` strings joined by ``separator`` (for
                    each width in turn), padded with ``pad_values`` (``padding_width`` on
                    each side, ``width - 1`` by default); a row too short for any with
                    ``preserve_short_sequences`` gives itself, joined.
Every input must be a string tensor (TF's dtype error otherwise). None has a gradient.

Mirrors tensorflow/python/ops/ragged/ragged_string_ops.py (ngrams: core/kernels/
string_ngrams_op.cc).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, errors, execute
from simdist.framework.ops.string_ops import _bytes, _strings
from simdist.framework.ragged_tensor import RaggedTensor

for _op in ("StringSplitV2", "StringBytesSplit", "UnicodeDecodeWithOffsets", "StringNGrams"):
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


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
    """The n-grams of each row of ``data`` (its last dimension): a dense tensor gives a
    dense one (its last dimension the n-grams), a RaggedTensor a RaggedTensor.

    Raises:
      TypeError: pad_values neither a string nor a pair of them.
      ValueError: a width or padding_width below 1, padding without pad_values, or a
        scalar.
    """
    if pad_values is None:
        left = right = b""
    elif isinstance(pad_values, (list, tuple)):
        if not all(isinstance(p, (str, bytes)) for p in pad_values[:2]):
            raise TypeError("pad_values must be a string, tuple of strings, or None.")
        left, right = _bytes(pad_values[0]), _bytes(pad_values[1])
    elif isinstance(pad_values, (str, bytes)):
        left = right = _bytes(pad_values)
    else:
        raise TypeError("pad_values must be a string, tuple of strings, or None.")
    if padding_width is not None and padding_width < 1:
        raise ValueError("padding_width must be greater than 0.")
    if padding_width is not None and pad_values is None:
        raise ValueError("pad_values must be provided if padding_width is set.")
    widths = list(ngram_width) if isinstance(ngram_width, (list, tuple)) else [ngram_width]
    if any(w < 1 for w in widths):
        raise ValueError(f"All ngram_widths must be greater than 0. Got {ngram_width}")
    pad = 0 if pad_values is None else -1 if padding_width is None else int(padding_width)
    grams = _NGrams(widths, _bytes(separator), left, right, pad, preserve_short_sequences)
    if isinstance(data, RaggedTensor):
        inner = data.values
        if isinstance(inner, RaggedTensor):
            return data.with_values(ngrams(inner, ngram_width, separator, pad_values,
                                           padding_width, preserve_short_sequences))
        t = _strings("StringNGrams", inner)
        s = np.asarray(data.row_splits._value, np.int64)
        arr = np.asarray(t._value, dtype=object)
        rows = [grams(list(arr[s[i]:s[i + 1]])) for i in range(len(s) - 1)]
        flat = np.array([g for row in rows for g in row], dtype=object).reshape(-1)
        splits = np.cumsum([0] + [len(r) for r in rows]).astype(np.int64)
        return RaggedTensor.from_row_splits(execute.execute("StringNGrams", [t], flat),
                                            splits, validate=False)
    t = _strings("StringNGrams", data)
    if t.shape.rank == 0:
        raise ValueError("Data must have rank>0")
    arr = np.asarray(t._value, dtype=object)   # dense: each row of the last axis, dense
    rows = [grams(list(r)) for r in arr.reshape(-1, arr.shape[-1])]
    flat = np.array([g for row in rows for g in row], dtype=object)
    return execute.execute("StringNGrams", [t], flat.reshape(arr.shape[:-1] + (-1,)))


class _NGrams:
    """One row's n-grams as TF's StringNGrams kernel builds them."""

    def __init__(self, widths, separator, left, right, pad, preserve):
        self.widths, self.sep, self.left, self.right = widths, separator, left, right
        self.pad, self.preserve = pad, preserve

    def _pad_width(self, width):
        return min(width - 1 if self.pad < 0 else self.pad, width - 1)

    def __call__(self, row):
        out = []
        for width in self.widths:
            n = max(0, len(row) + 2 * self._pad_width(width) - width + 1)
            out += [self._gram(row, width, k, n) for k in range(n)]
        if self.preserve and not out and row:
            out.append(self._gram(row, len(row) + 2 * self.pad, 0, 1))
        return out

    def _gram(self, row, width, k, n):
        pad = self._pad_width(width)
        left, right = max(0, pad - k), max(0, pad - (n - (k + 1)))
        tokens = width - (left + right)
        start = 0 if left > 0 else k - pad
        parts = [self.left] * left + row[start:start + max(tokens, 0)] + [self.right] * right
        return self.sep.join(parts)
