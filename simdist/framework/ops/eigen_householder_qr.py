"""TF's float32 QR on a CPU, as Eigen's HouseholderQR computes it (TF's Qr kernel), in NumPy.

Glossary:
  reflector  -- ``H = I - tau v v^T`` with ``v = [1, essential]``: ``beta = -sign(c0) *
                sqrt(c0^2 + |tail|^2)``, ``essential = tail / (c0 - beta)``, ``tau = (beta -
                c0) / beta`` (makeHouseholder), the tail's squared norm added in order.
  apply      -- ``H M`` (applyHouseholderOnTheLeft): ``tmp = essential^T M[1:] + M[0]``,
                ``M[0] -= tau * tmp``, ``M[1:] -= (tau * essential) tmp``.
  GEMV       -- ``essential^T M[1:]`` is a matrix-vector product whose order of additions
                depends on M's storage: row-major M (the factorisation, the full Q) adds
                the rows one after another, in blocks of 16 rows when there are 128 or
                more; column-major M (the temporary the thin Q is built in) adds packets of
                8 products into 8 lanes, then the lanes (``predux``), then the rest one by
                one. A product with one column is a plain dot product, in order.
  thin Q     -- TF's ``householderQ() * Identity(m, p)``: the reflectors applied, last to
                first, to a column-major identity (all its columns); the full Q applies
                each to the bottom-right corner of a row-major identity.
  blocked    -- the factorisation takes 48 columns at a time: their reflectors by the
                loops above within those columns, then the trailing columns at once by a
                block update (eigen_block_householder). Q is built by blocks too once it
                has 48 reflectors (the full Q: more than 48): half of them each under 96,
                else 48, the last block first. Under 48 columns of a wide matrix, the one
                block's update of its trailing columns is the only blocked step.
  modelled   -- float32 of any shape up to ``MAX_WORK`` (2048x512 and its thin Q): TF's
                bits on a CPU with the caches eigen_gebp models; larger matrices, and a
                column tail below float32's smallest normal, return None / are refused, and
                the caller factorises in float64 (within rounding of TF).
Every step is IEEE float32 arithmetic in NumPy (one rounding per operation; TF's x86 build
has AVX without FMA): TF's bits, including the Keras Orthogonal initializer's.

Mirrors tensorflow/core/kernels/linalg/qr_op_impl.h and Eigen's QR/HouseholderQR.h,
Householder/Householder.h, Householder/HouseholderSequence.h (evalTo, applyThisOnTheLeft)
and Core/products/GeneralMatrixVector.h.
"""

from __future__ import annotations

import numpy as np

from simdist.framework.ops import eigen_block_householder
from simdist.framework.ops.eigen_cpu import PACKET, _predux

_F = np.float32
BLOCK = 48          # Eigen's HouseholderSequence::BlockSize and HouseholderQR's block
_GEMV_ROWS = 128    # a row-major GEMV over this many rows or more adds them in blocks
_TINY = np.finfo(_F).tiny
MAX_WORK = 2048 * 512 * 512  # LSTM(512)'s recurrent kernel; more: float64 LAPACK (seconds)


def modelled(m: int, n: int, full_matrices: bool) -> bool:
    """Whether TF's Qr of an (m, n) float32 matrix is emulated here: any shape whose
    factorisation and Q take no more arithmetic (about ``rows * cols * reflectors``) than
    ``MAX_WORK``."""
    p = min(m, n)
    return max(m, n) * p * p <= MAX_WORK and (not full_matrices or m * m * p <= MAX_WORK)


def qr(a: np.ndarray, full_matrices: bool):
    """TF's (q, r) of one float32 matrix ``a`` (m, n) with ``modelled(m, n, ...)``, or None
    when a column's tail is below float32's smallest normal (Eigen's branch for it
    differs between versions, and TF flushes such values to zero)."""
    factors = _factor(a)
    if factors is None:
        return None
    packed, tau = factors
    p = min(a.shape)
    if full_matrices:
        return _full_q(packed, tau), np.triu(packed)
    return _thin_q(packed, tau), np.triu(packed[:p])


def _factor(a):
    """Eigen's householder_qr_inplace_blocked (blocks of 48 columns): R above the diagonal,
    the essential parts of the reflectors below it, and their taus."""
    packed = np.array(a, dtype=_F)
    m, n = packed.shape
    tau = np.zeros(min(m, n), _F)
    for k in range(0, tau.size, BLOCK):
        bs = min(tau.size - k, BLOCK)
        if not _factor_unblocked(packed[k:, k:k + bs], tau[k:k + bs], n):
            return None
        if k + bs < n:   # the trailing columns: H_{k+bs-1} ... H_k by blocks
            eigen_block_householder.apply_on_the_left(
                packed[k:, k + bs:], packed[k:, k:k + bs], tau[k:k + bs], forward=False,
                row_major=True, stride=n)
    return packed, tau


def _factor_unblocked(block, tau, stride):
    """Eigen's householder_qr_inplace_unblocked on ``block`` in place (a row-major matrix
    ``stride`` wide); False for a column tail below float32's smallest normal."""
    for k in range(block.shape[1]):
        reflector = _make_householder(block[k:, k])
        if reflector is None:
            return False
        block[k + 1:, k], tau[k], block[k, k] = reflector
        _apply_left(block[k:, k + 1:], block[k + 1:, k], tau[k], _gemv_row_major, stride=stride)
    return True


def _make_householder(x):
    """(essential, tau, beta) of the column ``x``, or None for a tail below ``tiny``."""
    tail = x[1:]
    tail_sq = np.add.accumulate(tail * tail)[-1] if tail.size else _F(0)
    c0 = x[0]
    if tail_sq <= _TINY:
        if np.any(tail):
            return None
        return np.zeros(tail.size, _F), _F(0), c0
    beta = np.sqrt(c0 * c0 + tail_sq)
    if c0 >= 0:
        beta = -beta
    return tail / (c0 - beta), (beta - c0) / beta, beta


def _apply_left(block, essential, tau, gemv, stride):
    """``block = H block`` in place, Eigen's applyHouseholderOnTheLeft."""
    if block.shape[0] == 1:
        block *= _F(1) - tau
        return
    if tau == 0 or block.shape[1] == 0:
        return
    bottom = block[1:]
    if block.shape[1] == 1:   # Eigen's GEMV of one output is a dot product, in order
        tmp = np.add.accumulate(essential * bottom[:, 0])[-1:]
    else:
        tmp = gemv(essential, bottom, stride)
    tmp = tmp + block[0]
    block[0] = block[0] - tau * tmp
    bottom -= (tau * essential)[:, None] * tmp[None, :]


def _gemv_row_major(essential, bottom, stride):
    """``essential^T bottom`` for a row-major ``bottom`` (r, c) of a matrix ``stride`` wide:
    Eigen's column-major GEMV over ``bottom^T``, each block of rows summed in order and
    the blocks added one after another."""
    products = essential[:, None] * bottom
    r, c = products.shape
    rows = r if r < _GEMV_ROWS else (16 if stride * 4 < 32000 else 4)
    whole = r // rows * rows   # the whole blocks at once, then the short last one
    blocks = np.add.accumulate(products[:whole].reshape(-1, rows, c), axis=1)[:, -1]
    if whole < r:
        blocks = np.concatenate([blocks, np.add.accumulate(products[whole:], axis=0)[-1:]])
    return np.add.accumulate(blocks, axis=0)[-1]


def _gemv_col_major(essential, bottom, stride=None):
    """``essential^T bottom`` for a column-major ``bottom`` (r, c): Eigen's row-major GEMV,
    each output a dot product in packets of 8 lanes, ``predux``, then the tail in order
    (the last output of an odd count takes a half packet of 4 first)."""
    r, c = bottom.shape
    whole = r - r % PACKET
    lanes = np.zeros((c, PACKET), _F)
    if whole:
        packets = (essential[:whole, None] * bottom[:whole]).T.reshape(c, whole // PACKET, PACKET)
        lanes = np.add.accumulate(packets, axis=1)[:, -1]
    out = _predux(lanes).astype(_F)
    paired = c - c % 2        # outputs in Eigen's blocks of 8, 4 and 2 rows
    tail = (essential[whole:, None] * bottom[whole:, :paired]).T
    out[:paired] = np.add.accumulate(np.concatenate([out[:paired, None], tail], axis=1),
                                     axis=1)[:, -1]
    if paired < c:
        acc, j = out[-1], whole
        if r - j >= PACKET // 2:
            half = essential[j:j + 4] * bottom[j:j + 4, -1]
            acc = acc + ((half[0] + half[2]) + (half[1] + half[3]))
            j += 4
        for i in range(j, r):
            acc = acc + essential[i] * bottom[i, -1]
        out[-1] = acc
    return out


def _thin_q(packed, tau):
    """``householderQ() * Identity(m, n)``, built column-major: one reflector at a time
    under 48 of them, else by blocks (half of them each under 96, else 48), last first."""
    m, n = packed.shape
    p = tau.size
    q = np.eye(m, p, dtype=_F)
    if p < BLOCK:
        for k in range(p - 1, -1, -1):
            _apply_left(q[k:], packed[k + 1:, k], tau[k], _gemv_col_major, stride=None)
        return q
    for k, bs in _blocks(p):
        eigen_block_householder.apply_on_the_left(q[k:], packed[k:, k:k + bs], tau[k:k + bs],
                                                  forward=True, row_major=False, stride=n)
    return q


def _full_q(packed, tau):
    """``householderQ()`` evaluated into a row-major (m, m) identity, corner by corner:
    one reflector at a time up to 48 of them, else by blocks."""
    m, n = packed.shape
    q = np.eye(m, dtype=_F)
    if tau.size <= BLOCK:
        for k in range(tau.size - 1, -1, -1):
            _apply_left(q[k:, k:], packed[k + 1:, k], tau[k], _gemv_row_major, stride=m)
        return q
    for k, bs in _blocks(tau.size):
        eigen_block_householder.apply_on_the_left(q[k:, k:], packed[k:, k:k + bs],
                                                  tau[k:k + bs], forward=True, row_major=True,
                                                  stride=n)
    return q


def _blocks(n):
    """(first reflector, count) of HouseholderSequence::applyThisOnTheLeft's blocks, last
    block first."""
    size = (n + 1) // 2 if n < 2 * BLOCK else BLOCK
    for i in range(0, n, size):
        end = n - i
        k = max(0, end - size)
        yield k, end - k
