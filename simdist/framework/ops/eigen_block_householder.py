"""Eigen's block Householder update in float32 (TF's QR with 48 or more reflectors), in NumPy.

Glossary:
  block      -- ``nb`` reflectors at once: ``H_0 ... H_{nb-1} = I - V T V^T``, with ``V``
                their unit lower-trapezoidal vectors (the packed QR's columns below the
                diagonal, 1 on it) and ``T`` upper-triangular.
  T factor   -- make_block_householder_triangular_factor, last row first: row ``i`` right
                of the diagonal is ``-tau_i v_i^T V`` (a unit-triangular TRMV), then
                updated by the rows below it, column by column from the right
                (``z = T[i, j]; T[i, j] = z T[j, j]; T[i, j+1:] += z T[j, j+1:]``); the
                diagonal is ``tau``.
  apply      -- apply_block_householder_on_the_left: ``tmp = V^T M``, ``tmp = T tmp`` (or
                ``T^T tmp`` backward: the factorisation's ``Q^T``), ``M -= V tmp``: three
                TRMMs (eigen_gebp), whose blocking comes from their own sizes. ``M``
                stored row-major (the factorisation, the full Q) makes the last one a
                product with the triangle on the right, as Eigen transposes it.

Mirrors Eigen's Householder/BlockHouseholder.h.
"""

from __future__ import annotations

import numpy as np

from simdist.framework.ops import eigen_gebp as G

_F = np.float32


def triangular_factor(vectors, tau, stride):
    """``T`` (nb, nb) of the reflectors in ``vectors`` (rows, nb); ``stride`` is the row
    length of the packed matrix they live in (it picks the GEMV's column blocks)."""
    nb = vectors.shape[1]
    t = np.zeros((nb, nb), _F)
    for i in range(nb - 1, -1, -1):
        if i < nb - 1:
            t[i, i + 1:] = G.trmv_unit_upper(vectors[i + 1:, i + 1:].T, vectors[i + 1:, i],
                                             -tau[i], stride)
        t[i, i] = tau[i]
    # Row i's update reads rows j > i once they are final: column j from the right for
    # every row above it at once is the same sequence of operations for each element.
    for j in range(nb - 1, 0, -1):
        z = t[:j, j].copy()
        t[:j, j] = z * t[j, j]
        t[:j, j + 1:] += z[:, None] * t[j, j + 1:][None, :]
    return t


def apply_on_the_left(mat, vectors, tau, forward, row_major, stride):
    """``mat = (I - V T V^T) mat`` in place (``T^T`` when not ``forward``)."""
    rows, nb = vectors.shape
    cols = mat.shape[1]
    t = triangular_factor(vectors, tau, stride)
    v_t = vectors.T
    tmp = np.zeros((nb, cols), _F)
    kc, mc, _ = G.blocking(rows, nb, cols)
    G.trmm_left(tmp, v_t, mat, 1.0, lower=False, unit=True, kc=kc, mc=mc)
    tmp2 = np.zeros((nb, cols), _F)
    kc, mc, _ = G.blocking(nb, nb, cols)
    G.trmm_left(tmp2, t if forward else t.T, tmp, 1.0, lower=not forward, unit=False,
                kc=kc, mc=mc)
    if row_major:   # Eigen transposes: mat^T -= tmp^T V^T, the triangle on the right
        kc, mc, _ = G.blocking(nb, cols, rows)
        res = np.ascontiguousarray(mat.T)
        G.trmm_right_upper(res, tmp2.T, v_t, -1.0, unit=True, kc=kc, mc=mc)
        mat[...] = res.T
    else:
        kc, mc, _ = G.blocking(nb, rows, cols)
        G.trmm_left(mat, vectors, tmp2, -1.0, lower=True, unit=True, kc=kc, mc=mc)
