"""Units in the last place: how far apart two float arrays are, bit by bit.

Glossary:
  ULP distance -- how many representable floats lie between a and b: the floats' bit
                  patterns mapped to ordered integers, then subtracted (0 = identical bits).
  ULP bins     -- 0, 1, 2, then doubling ranges (3-4, 5-8, 9-16 ...), so one far outlier
                  (a sum that cancelled to almost zero) does not stretch the axis.
"""

from __future__ import annotations

import numpy as np

_INT = {2: np.int16, 4: np.int32, 8: np.int64}


def ulp_distance(a, b) -> np.ndarray:
    """Elementwise ULP distance between two float arrays of one dtype."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.dtype.kind != "f":
        raise ValueError(f"ulp_distance needs two float arrays of one dtype, got {a.dtype}, "
                         f"{b.dtype}.")
    it = _INT[a.dtype.itemsize]

    def ordered(x):
        i = x.view(it).astype(np.int64)
        # Negative floats count down from the sign bit: flip them so order matches value.
        return np.where(i < 0, np.iinfo(it).min - i, i)

    return np.abs(ordered(a) - ordered(b))


def ulp_summary(a, b) -> dict:
    """Max and mean ULP distance, how many elements differ, and the largest relative error."""
    d = ulp_distance(a, b)
    a64, b64 = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    rel = np.abs(a64 - b64) / np.maximum(np.abs(b64), np.finfo(np.float64).tiny)
    return {"elements": int(d.size), "differing": int((d > 0).sum()),
            "max_ulp": int(d.max()) if d.size else 0,
            "mean_ulp": float(d.mean()) if d.size else 0.0,
            "max_rel_error": float(rel.max()) if d.size else 0.0}


def ulp_bins(distances) -> tuple[list[str], list[int]]:
    """Labels and element counts of the ULP bins (``0``, ``1``, ``2``, ``3-4``, ``5-8`` ...),
    up to the bin of the largest distance; empty bins in between are kept (count 0)."""
    d = np.asarray(distances, dtype=np.int64).reshape(-1)
    top = int(d.max()) if d.size else 0
    labels, counts, lo, hi = [], [], 0, 0
    while lo <= top or not labels:
        labels.append(str(lo) if lo == hi else f"{lo}-{hi}")
        counts.append(int(((d >= lo) & (d <= hi)).sum()))
        lo, hi = hi + 1, max(2 * hi, hi + 1)
    return labels, counts
