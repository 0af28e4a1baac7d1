"""Gradient rules of the ``tf.linalg`` kernel ops, written with simdist ops (so outer tapes
record them). The composites (trace, matvec, ...) need none.

Mirrors tensorflow/python/ops/linalg_grad.py.
"""

from __future__ import annotations

from simdist.framework import execute
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import linalg_ops as L
from simdist.framework.ops import math_ops as M


@execute.RegisterGradient("MatrixInverse")
def _matrix_inverse_grad(op, grad):
    ainv = op.outputs[0]
    adj = op.attrs["adjoint"]
    inner = M.matmul(grad, ainv, adjoint_a=adj, adjoint_b=not adj)
    return M.negative(M.matmul(ainv, inner, adjoint_a=not adj))


@execute.RegisterGradient("MatrixDeterminant")
def _matrix_determinant_grad(op, grad):
    c = op.outputs[0]
    multipliers = A.reshape(M.multiply(grad, c), list(c.shape) + [1, 1])
    return M.multiply(multipliers, L.matrix_transpose(L.inv(op.inputs[0])))


@execute.RegisterGradient("MatrixSolve")
def _matrix_solve_grad(op, grad):
    a, c = op.inputs[0], op.outputs[0]
    adj = op.attrs["adjoint"]
    grad_b = L.solve(a, grad, adjoint=not adj)
    grad_a = (M.matmul(c, grad_b, adjoint_b=True) if adj
              else M.matmul(grad_b, c, adjoint_b=True))
    return M.negative(grad_a), grad_b


@execute.RegisterGradient("Cholesky")
def _cholesky_grad(op, grad):
    chol = op.outputs[0]
    chol_inverse = L.inv(chol)
    middle = M.matmul(chol, grad, adjoint_a=True)
    middle = L.set_diag(middle, M.multiply(L.diag_part(middle), 0.5))
    middle = L.band_part(middle, -1, 0)
    grad_a = M.matmul(M.matmul(chol_inverse, middle, adjoint_a=True), chol_inverse)
    return M.multiply(M.add(grad_a, L.matrix_transpose(grad_a)), 0.5)


@execute.RegisterGradient("MatrixDiagV3")
def _matrix_diag_grad(op, grad):
    return L.diag_part(grad)


@execute.RegisterGradient("MatrixDiagPartV3")
def _matrix_diag_part_grad(op, grad):
    return L.set_diag(A.zeros_like(op.inputs[0]), grad)


@execute.RegisterGradient("MatrixSetDiagV3")
def _matrix_set_diag_grad(op, grad):
    diag = op.inputs[1]
    return L.set_diag(grad, A.zeros_like(diag)), L.diag_part(grad)


@execute.RegisterGradient("MatrixBandPart")
def _matrix_band_part_grad(op, grad):
    return L.band_part(grad, op.attrs["num_lower"], op.attrs["num_upper"])


# --- factorisations and triangular solve (linalg_decompositions) -------------------------
def _decomp():
    from simdist.framework.ops import linalg_decompositions

    return linalg_decompositions


@execute.RegisterGradient("LogMatrixDeterminant")
def _log_matrix_determinant_grad(op, _, grad_b):
    c = op.outputs[1]
    multipliers = A.reshape(grad_b, list(c.shape) + [1, 1])
    return M.multiply(multipliers, L.inv(op.inputs[0], adjoint=True))


@execute.RegisterGradient("MatrixTriangularSolve")
def _matrix_triangular_solve_grad(op, grad):
    a, b = op.inputs
    adj, lower = op.attrs["adjoint"], op.attrs["lower"]
    c = op.outputs[0]
    grad_b = _decomp().matrix_triangular_solve(a, grad, lower=lower, adjoint=not adj)
    grad_a = M.negative(M.matmul(c, grad_b, adjoint_b=True) if adj
                        else M.matmul(grad_b, c, adjoint_b=True))
    grad_a = L.band_part(grad_a, -1, 0) if lower else L.band_part(grad_a, 0, -1)
    if list(a.shape[:-2]) == list(b.shape[:-2]):
        return grad_a, grad_b
    # broadcast batch dimensions: summed back to each input's
    from simdist.framework.ops.math_grad import unbroadcast

    return unbroadcast(grad_a, a.shape), unbroadcast(grad_b, b.shape)


def _safe_reciprocal(x, epsilon=1e-20):
    return M.multiply(x, M.reciprocal(M.add(M.multiply(x, x), epsilon)))


def _reciprocal_gaps(values):
    """``1 / (values_j - values_i)`` off the diagonal, 0 on it (TF's ``f``)."""
    gaps = M.subtract(A.expand_dims(values, -2), A.expand_dims(values, -1))
    return L.set_diag(_safe_reciprocal(gaps), A.zeros_like(values))


def _symmetrised_lower(grad_a):
    grad_a = L.band_part(M.add(grad_a, L.adjoint(grad_a)), -1, 0)
    return L.set_diag(grad_a, M.multiply(0.5, L.diag_part(grad_a)))


@execute.RegisterGradient("SelfAdjointEigV2")
def _self_adjoint_eig_v2_grad(op, grad_e, grad_v=None):
    e = op.outputs[0]
    if op.attrs["compute_v"]:
        v = op.outputs[1]
        inner = M.add(L.diag(grad_e),
                      M.multiply(_reciprocal_gaps(e), M.matmul(v, grad_v, adjoint_a=True)))
    else:
        _, v = _decomp().eigh(op.inputs[0])
        inner = L.diag(grad_e)
    return _symmetrised_lower(M.matmul(v, M.matmul(inner, v, adjoint_b=True)))


@execute.RegisterGradient("Svd")
def _svd_grad(op, grad_s, grad_u=None, grad_v=None):
    a = op.inputs[0]
    grad_s_mat = L.diag(A.cast(grad_s, a.dtype))
    if not op.attrs["compute_uv"]:
        _, u, v = _decomp().svd(a, compute_uv=True)
        return M.matmul(u, M.matmul(grad_s_mat, v, adjoint_b=True))
    m, n = a.shape[-2], a.shape[-1]
    s, u, v = op.outputs
    use_adjoint = m > n
    if use_adjoint:
        m, n, u, v, grad_u, grad_v = n, m, v, u, grad_v, grad_u
    full_matrices = op.attrs["full_matrices"]
    if full_matrices and abs(m - n) > 1:
        raise NotImplementedError(
            "svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True. "
            f"Received: m={m} and n={n} from op input={a} with shape={a.shape}.")
    s_mat = L.diag(s)
    f = _reciprocal_gaps(M.square(s))
    s_inv_mat = L.diag(_safe_reciprocal(s))
    v1, grad_v1 = v[..., :, :m], grad_v[..., :, :m]
    f_u = M.multiply(f, M.matmul(u, grad_u, adjoint_a=True))
    f_v = M.multiply(f, M.matmul(v1, grad_v1, adjoint_a=True))
    term1_nouv = M.add(M.add(grad_s_mat, M.matmul(M.add(f_u, L.adjoint(f_u)), s_mat)),
                       M.matmul(s_mat, M.add(f_v, L.adjoint(f_v))))
    grad_a = M.matmul(u, M.matmul(term1_nouv, v1, adjoint_b=True))
    if m != n:
        gv1t = L.matrix_transpose(grad_v1, conjugate=True)
        term2_nous = M.subtract(gv1t, M.matmul(M.matmul(gv1t, v1), v1, adjoint_b=True))
        if full_matrices:
            v2, grad_v2 = v[..., :, m:n], grad_v[..., :, m:n]
            term2_nous = M.subtract(term2_nous, M.matmul(
                M.matmul(v1, grad_v2, adjoint_a=True), v2, adjoint_b=True))
        grad_a = M.add(grad_a, M.matmul(M.matmul(u, s_inv_mat), term2_nous))
    return L.matrix_transpose(grad_a, conjugate=True) if use_adjoint else grad_a


@execute.RegisterGradient("Qr")
def _qr_grad(op, dq, dr):
    q, r = op.outputs
    rows, cols = q.shape[-2], r.shape[-1]
    if r.shape[-2] > r.shape[-1] and q.shape[-2] == q.shape[-1]:
        raise NotImplementedError(
            "QrGrad not implemented when nrows > ncols and full_matrices is true. Received "
            f"r.shape={r.shape} with nrows={r.shape[-2]}and ncols={r.shape[-1]}.")
    if rows >= cols:
        return _qr_grad_deep(q, r, dq, dr)
    a = op.inputs[0]
    y, u = a[..., :, rows:], r[..., :, :rows]
    dv, du = dr[..., :, rows:], dr[..., :, :rows]
    dx = _qr_grad_deep(q, u, M.add(dq, M.matmul(y, dv, adjoint_b=True)), du)
    return A.concat([dx, M.matmul(q, dv)], axis=-1)


def _times_inverse_adjoint(x, r):
    """``x @ adjoint(inverse(r))`` for upper-triangular ``r``."""
    return L.adjoint(_decomp().matrix_triangular_solve(r, L.adjoint(x), lower=False,
                                                      adjoint=False))


def _qr_grad_deep(q, r, dq, dr):
    """TF's gradient for rows >= columns (full_matrices False)."""
    qdq = M.matmul(q, dq, adjoint_a=True)
    rdr = M.matmul(r, dr, adjoint_b=True)
    tril = L.band_part(M.add(M.subtract(qdq, L.adjoint(qdq)),
                             M.subtract(rdr, L.adjoint(rdr))), -1, 0)
    grad_a = M.matmul(q, M.add(dr, _times_inverse_adjoint(tril, r)))
    grad_b = _times_inverse_adjoint(M.subtract(dq, M.matmul(q, qdq)), r)
    return M.add(grad_a, grad_b)
