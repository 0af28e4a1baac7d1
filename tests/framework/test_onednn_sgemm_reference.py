"""onednn_sgemm's vectorized chains (every output's chain stepped at once, double-rounding
ties redone per chain) give the bits of a slow scalar kernel: each output of each depth block
summed on its own, its fused multiply-adds rounded once from exact fractions.

The reference takes the kernel's plan (depth blocks, orders per rectangle of outputs) from
onednn_sgemm, so this checks the arithmetic, not the tiling (the TF recordings check that:
test_onednn_sgemm_tf_conformance.py). The data make many float64 sums fall exactly halfway
between two float32 values where the exact sums do not (double roundings)."""

from fractions import Fraction

import numpy as np
import pytest

from simdist.framework.ops import onednn_sgemm

_F = np.float32


def _round32(q):
    """``q`` rounded once to float32 (to nearest, ties to even; no overflow or subnormals)."""
    if q == 0:
        return _F(0)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    e -= abs(q) < Fraction(2) ** e                # 2**e <= |q| < 2**(e + 1)
    ulp = Fraction(2) ** (e - 23)
    return _F(float(round(q / ulp) * ulp))


def _fma(x, y, s):
    return _round32(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(s)))


def _element(order, x, y):
    """One output of one depth block: ``x`` and ``y`` its row and column."""
    depth = len(x)
    if depth == 1:
        return x[0] * y[0] + _F(0)
    if order == "chain":
        s = _F(0)
        for d in range(depth):
            s = _fma(x[d], y[d], s)
        return s
    lanes = [_F(0), _F(0)]
    for d in range(depth - depth % 2):
        lanes[d % 2] = (_fma(x[d], y[d], lanes[d % 2]) if order == "fused"
                        else lanes[d % 2] + x[d] * y[d])
    out = lanes[0] + lanes[1]
    if depth % 2:
        out = _fma(x[-1], y[-1], out) if order == "fused" else out + x[-1] * y[-1]
    return out


def _reference(a, b):
    (m, k), n = a.shape, b.shape[1]
    blocks, parts = onednn_sgemm._plan(m, k, n, True)
    orders = np.empty((m, n), object)
    for order, rects in parts:
        for rows, cols in rects:
            orders[(slice(None) if rows is None else rows)][
                :, slice(None) if cols is None else cols] = order
    out = None
    for k0, k1 in blocks:
        block = np.array([[_element(orders[i, j], a[i, k0:k1], b[k0:k1, j])
                           for j in range(n)] for i in range(m)], _F)
        out = block if out is None else out + block
    return out


def _operands(rng, m, k, n):
    """``a`` near +-1 (a few ulps above) and ``b`` of +-1, +-0.5 and +-half an ulp of 1
    (off by an ulp of its own): sums near 1 plus such products round to float64 exactly
    halfway between two float32 values, where the exact sum is not."""
    a = (1 + rng.integers(0, 4, (2, m, k)) * 2.0 ** -23) * rng.choice([-1.0, 1.0], (2, m, k))
    half = [2.0 ** -24 * (1 - 2.0 ** -23), 2.0 ** -24 * (1 + 2.0 ** -23)]
    b = rng.choice([1.0, 0.5] + half, (k, n)) * rng.choice([-1.0, 1.0], (k, n))
    return a.astype(_F), b.astype(_F)


@pytest.mark.parametrize("m, k, n", [(9, 5, 20), (8, 6, 17), (13, 5, 9), (7, 12, 3)])
def test_vectorized_chains_match_the_scalar_kernel(m, k, n):
    rng = np.random.default_rng(m * 10_000 + k * 100 + n)
    a, b = _operands(rng, m, k, n)
    got = onednn_sgemm.sgemm(a, b, chipped=True)
    want = np.stack([_reference(a[i], b) for i in range(2)])
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
