"""Protocol-buffer text format as TF's Python protobuf (upb) prints a message.

Glossary:
  fields   -- a message as [(field name, text or nested fields)], in field-number order.
  scalars  -- a bool ``true``/``false``; a float ``%.6g``, or ``%.9g`` where that does not
              round-trip (a double: ``%.15g`` / ``%.17g``); ``nan``; a string or bytes
              quoted, printable ASCII as it is, the rest escaped (``\\n``, octal ``\\377``).
  map      -- a map's entries (NodeDef's ``attr``) in upb's map sorter's order: the keys'
              common prefix compared byte by byte in descending order, then the shorter
              key first.

Mirrors upb/text/encode.c and upb/text/internal/encode.h (the encoder, escaping),
upb/lex/round_trip.c (floats) and upb/message/map_sorter.c (map order).
"""

from __future__ import annotations

import numpy as np


def message(fields, depth: int = 0) -> str:
    """``fields`` [(name, text or nested fields)] in protobuf's text format."""
    pad = "  " * depth
    out = []
    for name, value in fields:
        if isinstance(value, list):
            out.append(f"{pad}{name} {{\n{message(value, depth + 1)}{pad}}}\n")
        else:
            out.append(f"{pad}{name}: {value}\n")
    return "".join(out)


def quoted(data) -> str:
    """A string or bytes field: printable ASCII as it is, the rest escaped (octal)."""
    raw = data.encode() if isinstance(data, str) else bytes(data)
    special = {10: "\\n", 13: "\\r", 9: "\\t", 34: '\\"', 39: "\\'", 92: "\\\\"}
    return '"' + "".join(special.get(b) or (chr(b) if 32 <= b < 127 else f"\\{b:03o}")
                         for b in raw) + '"'


def float32(value) -> str:
    """A float field (upb's _upb_EncodeRoundTripFloat): ``%.6g``, else ``%.9g``."""
    v = np.float32(value)
    if np.isnan(v):
        return "nan"
    short = f"{float(v):.6g}"
    return short if np.float32(short) == v else f"{float(v):.9g}"


def float64(value) -> str:
    """A double field (upb's _upb_EncodeRoundTripDouble): ``%.15g``, else ``%.17g``."""
    v = float(value)
    if v != v:
        return "nan"
    short = f"{v:.15g}"
    return short if float(short) == v else f"{v:.17g}"


def map_order(a: str, b: str) -> int:
    """upb's map sorter for string keys: the common prefix's bytes in descending order,
    then the shorter key first (map_sorter.c _upb_mapsorter_cmpstr); for sorted's
    ``key=functools.cmp_to_key(map_order)``."""
    x, y = a.encode(), b.encode()
    n = min(len(x), len(y))
    if x[:n] != y[:n]:
        return -1 if x[:n] > y[:n] else 1
    return (len(x) > len(y)) - (len(x) < len(y))
