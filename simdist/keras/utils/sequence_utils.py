"""``tf.keras.utils.pad_sequences`` (also ``tf.keras.preprocessing.sequence``): a list of
sequences of different lengths as one NumPy array.

Glossary:
  maxlen     -- the output's length (the longest sequence's by default).
  padding    -- where a short sequence gets its ``value``s: 'pre' (before it, the default)
                or 'post' (after it).
  truncating -- which end of a long sequence is cut: 'pre' (its beginning) or 'post'.
  sample     -- each step may be an array itself: its shape, the first non-empty sequence's
                step shape, must be every sequence's.

Mirrors tf_keras/src/utils/data_utils.py (pad_sequences).
"""

from __future__ import annotations

import numpy as np


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre",
                  value=0.0):
    """A ``(len(sequences), maxlen) + sample shape`` array of the sequences, padded with
    ``value`` and truncated to ``maxlen``.

    Raises:
      ValueError: ``sequences`` or one of them not iterable; a string ``value`` for a
        non-string ``dtype``; an unknown ``padding`` / ``truncating``; a sequence whose steps
        have another shape than the first non-empty one's.
    """
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, sample_shape = [], None
    for s in sequences:
        try:
            lengths.append(len(s))
        except TypeError as e:
            raise ValueError("`sequences` must be a list of iterables. "
                             f"Found non-iterable: {s}") from e
        if sample_shape is None and len(s):
            sample_shape = np.asarray(s).shape[1:]
    sample_shape = sample_shape or ()
    if maxlen is None:
        maxlen = np.max(lengths)
    if isinstance(value, str) and dtype is not object and not np.issubdtype(dtype, np.str_):
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: "
                         f"{type(value)}\nYou should set `dtype=object` for variable length "
                         "strings.")
    out = np.full((len(sequences), maxlen) + sample_shape, value, dtype=dtype)
    for i, s in enumerate(sequences):
        if len(s):
            out = _place(out, i, _truncated(s, i, maxlen, truncating, dtype, sample_shape),
                         padding)
    return out


def _truncated(s, i, maxlen, truncating, dtype, sample_shape) -> np.ndarray:
    if truncating not in ("pre", "post"):
        raise ValueError(f'Truncating type "{truncating}" not understood')
    kept = np.asarray(s[-maxlen:] if truncating == "pre" else s[:maxlen], dtype=dtype)
    if kept.shape[1:] != sample_shape:
        raise ValueError(f"Shape of sample {kept.shape[1:]} of sequence at position "
                         f"{i} is different from expected shape {sample_shape}")
    return kept


def _place(out, i, kept, padding) -> np.ndarray:
    if padding == "post":
        out[i, :len(kept)] = kept
    elif padding == "pre":
        out[i, -len(kept):] = kept
    else:
        raise ValueError(f'Padding type "{padding}" not understood')
    return out
