"""Eigen's float32 triangular matrix products on a CPU (TRMM, TRMV), in the order TF's
x86 build adds their terms, in NumPy.

Glossary:
  gebp       -- Eigen's GEBP kernel: ``res += alpha * a @ b`` for one packed block. Each
                result element's sum over the depth ``k`` starts from 0 and goes in order
                of ``k``, then is added to ``res`` once (``res + acc * alpha``), except:
                rows past the last whole group of 16 (groups of 8, then 4, each 4 columns
                at a time) add even and odd ``k`` into two accumulators and join them
                before the last ``depth % 8`` terms; the last ``rows % 4`` rows (4 columns
                at a time) run Eigen's "swapped" kernel: 8 lanes of (2 ``k`` x 4 columns)
                in 4 accumulators, joined, halves added, the odd last term added last.
                Columns past the last whole group of 4 are plain in-order sums.
  trmm       -- a triangular matrix times a dense one: the depth is cut into blocks of
                ``kc``; the triangle's diagonal block is cut into panels (32 wide when the
                triangle is on the left, 16 on the right), each a GEBP of its own whose
                sum is added to ``res`` separately; the rest is one GEBP per ``kc`` block.
  blocking   -- ``kc`` (and ``mc``) come from computeProductBlockingSizes, which reads the
                CPU's cache sizes: this module models the caches TF's Eigen read on the
                machine the fixtures were recorded on (``CACHES``: L1 32 KiB, L2 512 KiB;
                ``kc`` is at most 96 for a TRMM there). A CPU with another L1 size (48 KiB
                on recent Intel cores) cuts the depth elsewhere and rounds differently.
  trmv       -- a unit-triangular matrix times a vector (TriangularMatrixVector.h): panels
                of 8 columns as scaled column updates, the columns above a panel and past
                the triangle as column-major GEMVs (blocks of 16 columns from 128 on).
TF's x86 pip build has AVX without FMA: each multiply and add rounds once, as NumPy does.

Mirrors Eigen's Core/products/GeneralBlockPanelKernel.h (gebp_kernel,
evaluateProductBlockingSizesHeuristic), TriangularMatrixMatrix.h,
TriangularMatrixVector.h and GeneralMatrixVector.h.
"""

from __future__ import annotations

import numpy as np

_F = np.float32
CACHES = {"l1": 32 * 1024, "l2": 512 * 1024, "l3": 256 * 1024 * 1024}  # as Eigen read them
_MR, _NR = 16, 4            # gebp's register block for float without FMA: 2 packets x 4
_ACTUAL_L2 = 1572864        # Eigen's fixed 1.5 MB for the second level of blocking
_BAND = 32768               # _dot's running sums per pass (128 KiB: in a 512 KiB L2 cache)


def blocking(k: int, m: int, n: int, kc_factor: int = 4, threads: int = 1):
    """(kc, mc, nc) of Eigen's evaluateProductBlockingSizesHeuristic (``threads``: the
    num_threads it is given)."""
    if threads > 1:
        return _shared_blocking(k, m, n, kc_factor, threads)
    if max(k, m, n) < 48:
        return k, m, n
    l1, l2, l3 = CACHES["l1"], CACHES["l2"], CACHES["l3"]
    k_sub = _MR * _NR * 4
    max_kc = max(((l1 - k_sub) // (kc_factor * (_MR + _NR) * 4)) & ~7, 1)
    old_k = k
    if k > max_kc:
        k = max_kc if k % max_kc == 0 else \
            max_kc - 8 * ((max_kc - 1 - k % max_kc) // (8 * (k // max_kc + 1)))
    remaining_l1 = l1 - k_sub - m * k * 4
    if remaining_l1 >= _NR * 4 * k:
        max_nc = remaining_l1 // (k * 4)
    else:
        max_nc = (3 * _ACTUAL_L2) // (2 * 2 * max_kc * 4)
    nc = min(_ACTUAL_L2 // (2 * k * 4), max_nc) & ~(_NR - 1)
    if n > nc:
        n = nc if n % nc == 0 else nc - _NR * ((nc - n % nc) // (_NR * (n // nc + 1)))
    elif old_k == k:
        problem, lm, max_mc = k * n * 4, _ACTUAL_L2, m
        if problem <= 1024:
            lm = l1
        elif l3 != 0 and problem <= 32768:
            lm, max_mc = l2, min(576, max_mc)
        mc = min(lm // (3 * k * 4), max_mc)
        if mc > _MR:
            mc -= mc % _MR
        elif mc == 0:
            return k, m, n
        m = mc if m % mc == 0 else mc - _MR * ((mc - m % mc) // (_MR * (m // mc + 1)))
    return k, m, n


def _shared_blocking(k, m, n, kc_factor, threads):
    """evaluateProductBlockingSizesHeuristic's branch for more than one thread: the depth
    in blocks of up to 320 that fit L1 with a register block, the columns a thread's share
    that fits L2, the rows a thread's share of L3."""
    l1, l2, l3 = CACHES["l1"], CACHES["l2"], CACHES["l3"]
    k_cache = max(8, min((l1 - _MR * _NR * 4) // (kc_factor * (_MR + _NR) * 4), 320))
    if k_cache < k:
        k = k_cache - k_cache % 8
    n_cache = (l2 - l1) // (_NR * 4 * k)
    n_per_thread = -(-n // threads)
    if n_cache <= n_per_thread:
        n = n_cache - n_cache % _NR
    else:
        n = min(n, n_per_thread + _NR - 1 - (n_per_thread + _NR - 1) % _NR)
    if l3 > l2:
        m_cache = (l3 - l2) // (4 * k * threads)
        m_per_thread = -(-m // threads)
        if _MR <= m_cache < m_per_thread:
            m = m_cache - m_cache % _MR
        else:
            m = min(m, m_per_thread + _MR - 1 - (m_per_thread + _MR - 1) % _MR)
    return k, m, n


def _sum(start, terms):
    """``start + terms[0] + terms[1] + ...`` in order, rounding after each addition."""
    return np.add.accumulate(np.concatenate([start[None], terms]), axis=0)[-1]


def _products(a, b):
    """The terms ``a[:, k] * b[k]`` with ``k`` first: (depth, rows, cols)."""
    return a.T[:, :, None] * b[:, None, :]


def _dot(start, a, b):
    """``start + a[:, 0] * b[0] + a[:, 1] * b[1] + ...`` in order (one rounding per
    operation): the terms all at once for small results, else one ``k`` at a time over
    bands of rows whose sums stay in the cache (``_BAND`` values each)."""
    rows, cols = start.shape
    if rows * cols < 2048:
        return _sum(start, _products(a, b))
    acc = start.copy()
    band = max(1, _BAND // cols)
    term = np.empty((min(band, rows), cols), _F)
    a_t, b = np.ascontiguousarray(a.T), np.ascontiguousarray(b)   # rows of k read in order
    for r in range(0, rows, band):
        sums, t = acc[r:r + band], term[:min(band, rows - r)]
        for k in range(a_t.shape[0]):
            np.multiply(a_t[k, r:r + band, None], b[k], out=t)
            sums += t
    return acc


def gebp(res, a, b, alpha):
    """``res += alpha * a @ b`` in place, as one gebp_kernel call adds it."""
    rows, depth = a.shape
    cols = b.shape[1]
    if rows == 0 or cols == 0:
        return
    zeros = np.zeros((rows, cols), _F)
    if depth == 0:
        res += zeros * alpha
        return
    acc = _dot(zeros, a, b)
    r2 = rows // 16 * 16
    r4 = r2 + (rows - r2) // 4 * 4
    c4 = cols // 4 * 4
    peeled = depth & ~7
    if r4 > r2 and c4:      # one packet (or half) of rows, 4 columns: even and odd k apart
        terms = _products(a[r2:r4], b[:, :c4])
        z = zeros[r2:r4, :c4]
        joined = _sum(z, terms[0:peeled:2]) + _sum(z, terms[1:peeled:2])
        acc[r2:r4, :c4] = _sum(joined, terms[peeled:])
    if rows > r4 and c4:    # the last rows: the swapped kernel
        acc[r4:, :c4] = _swapped(a[r4:], b[:, :c4])
    res[...] = res + acc * _F(alpha)


def _swapped(a, b):
    """gebp's last rows, 4 columns at a time: lanes of 2 k x 4 columns, 4 accumulators."""
    depth = a.shape[1]
    terms = _products(a, b)
    z = np.zeros(terms.shape[1:], _F)
    end4, end2 = depth // 8 * 8, depth // 2 * 2
    halves = []
    for parity in (0, 1):
        q = [_sum(z, terms[2 * j + parity:end4:8]) for j in range(4)]
        halves.append(_sum((q[0] + q[1]) + (q[2] + q[3]), terms[end4 + parity:end2:2]))
    total = halves[0] + halves[1]
    if depth > end2:
        total = total + terms[end2]
    return total


def _triangle(block, lower, unit):
    """The micro panel Eigen packs from a triangle: the other side zero, the diagonal 1
    where the triangle is unit."""
    t = np.tril(block, -1) if lower else np.triu(block, 1)
    np.fill_diagonal(t, _F(1) if unit else np.diagonal(block))
    return t


def trmm_left(res, lhs, rhs, alpha, lower, unit, kc, mc):
    """``res += alpha * tri(lhs) @ rhs`` (column-major ``res``), Eigen's
    product_triangular_matrix_matrix with the triangle on the left."""
    rows0, depth0 = lhs.shape
    diag = min(rows0, depth0)
    rows, depth = (rows0, diag) if lower else (diag, depth0)
    mc = min(rows, mc)
    width = min(32, kc, mc)
    k2 = depth if lower else 0
    while (k2 > 0) if lower else (k2 < depth):
        akc = min(k2 if lower else depth - k2, kc)
        ak2 = k2 - akc if lower else k2
        if not lower and k2 < rows < k2 + akc:   # align with the end of the triangle
            akc = rows - k2
            k2 = k2 + akc - kc
        b = rhs[ak2:ak2 + akc]
        if lower or ak2 < rows:
            for k1 in range(0, akc, width):
                w = min(akc - k1, width)
                start = ak2 + k1
                gebp(res[start:start + w], _triangle(lhs[start:start + w, start:start + w],
                                                     lower, unit), b[k1:k1 + w], alpha)
                length = akc - k1 - w if lower else k1
                if length > 0:
                    target = start + w if lower else ak2
                    gebp(res[target:target + length],
                         lhs[target:target + length, start:start + w], b[k1:k1 + w], alpha)
        end = rows if lower else min(ak2, rows)
        for i2 in range(k2 if lower else 0, end, mc):
            i3 = min(i2 + mc, end)
            gebp(res[i2:i3], lhs[i2:i3, ak2:ak2 + akc], b, alpha)
        k2 = k2 - kc if lower else k2 + kc


def trmm_right_upper(res, lhs, rhs, alpha, unit, kc, mc):
    """``res += alpha * lhs @ tri(rhs)`` (column-major ``res``, ``rhs`` upper-triangular),
    Eigen's product_triangular_matrix_matrix with the triangle on the right."""
    rows = lhs.shape[0]
    depth0, cols = rhs.shape
    depth = min(cols, depth0)
    mc = min(rows, mc)
    k2 = depth
    while k2 > 0:
        akc = min(k2, kc)
        ak2 = k2 - akc
        panels = []
        for j2 in range(0, akc, 16):
            w = min(akc - j2, 16)
            c = ak2 + j2
            panel = rhs[ak2:c + w, c:c + w].copy()   # the rows above, then the triangle
            panel[j2:] = _triangle(rhs[c:c + w, c:c + w], False, unit)
            panels.append((j2, w, panel))
        for i2 in range(0, rows, mc):
            i3 = min(i2 + mc, rows)
            a = lhs[i2:i3, ak2:ak2 + akc]
            for j2, w, panel in panels:
                gebp(res[i2:i3, ak2 + j2:ak2 + j2 + w], a[:, :j2 + w], panel, alpha)
            gebp(res[i2:i3, k2:], a, rhs[ak2:ak2 + akc, k2:], alpha)
        k2 -= kc


def _row_sums(p, width):
    """In-order sums from 0 of ``p``'s columns in consecutive groups of ``width`` (the last
    one may be shorter): (rows, groups)."""
    rows, cols = p.shape
    whole = cols // width * width
    # The summation axis first: accumulate's inner loop then runs over all the sums at once.
    groups = p[:, :whole].reshape(rows, -1, width).transpose(2, 0, 1)
    sums = [_sum(np.zeros(groups.shape[1:], _F), groups)]
    if whole < cols:
        sums.append(_sum(np.zeros(rows, _F), p[:, whole:].T)[:, None])
    return np.concatenate(sums, axis=1)


def gemv_col_major(res, a, x, alpha, stride):
    """``res + alpha * a @ x`` as Eigen's column-major GEMV adds it: per block of columns
    (all of them under 128, else 16, or 4 for a stride of 8000 floats or more) an in-order
    sum from 0, then ``res + sum * alpha``, block after block."""
    cols = a.shape[1]
    block = cols if cols < 128 else (16 if stride * 4 < 32000 else 4)
    return _sum(res, _row_sums(a * x, block).T * _F(alpha))


def trmv_unit_upper(lhs, x, alpha, stride):
    """``alpha * tri(lhs) @ x`` for a unit upper-triangular column-major ``lhs`` (rt, rs),
    Eigen's triangular_matrix_vector_product: panels of 8 columns (``res[:i] += (alpha
    x_i) lhs[:i, i]`` within the panel, then ``res[i] += alpha x_i``), a GEMV for the rows
    above each panel, then one for the columns past the triangle."""
    rt, rs = lhs.shape
    alpha = _F(alpha)
    panels = -(-rt // 8)
    # Each element's own panel first (its operations come before any GEMV touching it):
    # every panel at once, one column offset k at a time.
    square = np.zeros((panels * 8, panels * 8), _F)
    square[:rt, :rt] = lhs[:, :rt]
    scaled = np.zeros(panels * 8, _F)
    scaled[:rt] = alpha * x[:rt]
    diag = square.reshape(panels, 8, panels, 8)[np.arange(panels), :, np.arange(panels), :]
    res = np.zeros((panels, 8), _F)
    for k in range(8):
        c = scaled[k::8]
        res[:, :k] += c[:, None] * diag[:, :k, k]
        res[:, k] += c
    res = res.reshape(-1)[:rt]
    sums = _row_sums(lhs[:, :rt] * x[:rt], 8)     # panel p's GEMV sum for every row
    for p in range(1, panels):
        res[:8 * p] = res[:8 * p] + sums[:8 * p, p] * alpha
    if rs > rt:
        res = gemv_col_major(res, lhs[:, rt:], x[rt:], alpha, stride)
    return res
