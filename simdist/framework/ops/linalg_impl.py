"""``tf.linalg``'s functions that TF builds from other ops: triangular_solve, logdet, pinv,
matrix_rank, cholesky_solve, lstsq (``matrix_solve_ls``), each under TF's name scope, so
their values, gradients and traced ops are those of the ops TF uses.

Glossary:
  logdet         -- ``2 * sum(log(diag(cholesky(m))))``: NaN for a matrix that is not
                    positive definite, as TF's.
  pinv           -- the SVD's singular values below ``rcond * max(s)`` (default
                    ``10 * max(rows, cols) * eps``) taken as infinite, so they drop out.
  matrix_rank    -- the singular values above ``eps * max(rows, cols) * max(s)``.
  cholesky_solve -- two triangular solves with the Cholesky factor.
  lstsq          -- ``fast=True``: TF's composite, the regularised normal equations solved
                    by Cholesky (``(A^H A + l2 I)^-1 A^H b``, or ``A^H (A A^H + l2 I)^-1 b``
                    for wide matrices); ``fast=False``: the kernel MatrixSolveLs's
                    minimum-norm least-squares solution (l2_regularizer ignored, as TF's).

Mirrors tensorflow/python/ops/linalg/linalg_impl.py and linalg_ops.py (matrix_solve_ls,
cholesky_solve).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, execute
from simdist.framework.name_scope import name_scope
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import linalg_decompositions as D
from simdist.framework.ops import linalg_ops as L
from simdist.framework.ops import math_ops as M
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api, backend


def _float_matrix(a):
    """TF's _maybe_validate_matrix.

    Raises:
      TypeError: a dtype that is not floating.
      ValueError: rank < 2.
    """
    if not a.dtype.is_floating:
        raise TypeError(f"Input `a` must have `float`-like `dtype` (saw {a.dtype.name}).")
    if a.ndim < 2:
        raise ValueError(f"Input `a` must have at least 2 dimensions (saw: {a.ndim}).")
    return a


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """``x`` with ``matrix @ x = rhs`` for triangular ``matrix`` (only its ``lower`` or
    upper triangle is read; ``adjoint`` solves with its adjoint), batch dimensions
    broadcast (``tf.linalg.triangular_solve``).

    Raises:
      InvalidArgumentError: rank < 2, a non-square matrix, mismatched rows or batch
        dimensions, different dtypes (TF's kernel texts).
    """
    with name_scope(name or "triangular_solve"):
        return D.matrix_triangular_solve(matrix, rhs, lower=lower, adjoint=adjoint)


def logdet(matrix, name=None):
    """The log of the determinant of each Hermitian positive-definite matrix
    (``tf.linalg.logdet``)."""
    with name_scope(name or "logdet"):
        chol = L.cholesky(matrix)
        return 2.0 * M.reduce_sum(M.log(L.diag_part(chol)), axis=[-1])


def _largest_dimension(a):
    """max(rows, columns): a Python number, or a tensor where a trace does not know them."""
    rows, cols = a.shape[-2], a.shape[-1]
    if rows is not None and cols is not None:
        return float(max(rows, cols))
    return A.cast(M.maximum(A.shape(a)[-2], A.shape(a)[-1]), a.dtype)


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse of each matrix (``tf.linalg.pinv``).

    Raises:
      TypeError: a non-float matrix. ValueError: rank < 2 (TF's texts).
    """
    with name_scope(name or "pinv"):
        a = _float_matrix(execute.convert_to_tensor(a))
        dtype = a.dtype.as_numpy_dtype
        if rcond is None:
            rcond = 10.0 * _largest_dimension(a) * np.finfo(dtype).eps
        rcond = A.convert_to_tensor(rcond, dtype=a.dtype, name="rcond")
        s, u, v = D.svd(a, full_matrices=False, compute_uv=True)
        cutoff = rcond * M.reduce_max(s, axis=-1)
        s = A.where(s > A.expand_dims(cutoff, -1), s, np.array(np.inf, dtype))
        return M.matmul(v / A.expand_dims(s, -2), u, adjoint_b=True)


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values above ``tol`` in each matrix
    (``tf.linalg.matrix_rank``; int32).

    Raises:
      TypeError: a non-float matrix. ValueError: rank < 2 (TF's texts).
    """
    with name_scope(name or "matrix_rank"):
        a = _float_matrix(execute.convert_to_tensor(a, dtype_hint=dtypes.float32))
        s = D.svd(a, compute_uv=False)
        if tol is None:
            eps = np.finfo(a.dtype.as_numpy_dtype).eps
            tol = eps * A.cast(_largest_dimension(a), a.dtype) * M.reduce_max(
                s, axis=-1, keepdims=True)
        return M.reduce_sum(A.cast(s > tol, dtypes.int32), axis=-1)


def cholesky_solve(chol, rhs, name=None):
    """``x`` with ``chol @ adjoint(chol) @ x = rhs``, ``chol`` a Cholesky factor
    (``tf.linalg.cholesky_solve``)."""
    with name_scope(name or "cholesky_solve"):
        y = D.matrix_triangular_solve(chol, rhs, lower=True, adjoint=False)
        return D.matrix_triangular_solve(chol, y, lower=True, adjoint=True)


def _gramian_cholesky(matrix, l2_regularizer, first_kind: bool):
    gramian = M.matmul(matrix, matrix, adjoint_a=first_kind, adjoint_b=not first_kind)
    if isinstance(l2_regularizer, Tensor) or l2_regularizer != 0:
        small = matrix.shape[-1 if first_kind else -2]
        identity = L.eye(small, batch_shape=list(matrix.shape[:-2]), dtype=matrix.dtype)
        gramian = M.add(gramian, M.multiply(l2_regularizer, identity))
    return L.cholesky(gramian)


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The least-squares solution of ``matrix @ x = rhs`` per matrix (``tf.linalg.lstsq``,
    see the module's glossary for ``fast``).

    Raises:
      NotImplementedError: complex128 with an ``l2_regularizer`` (TF's refusal).
    """
    matrix = execute.convert_to_tensor(matrix)
    if matrix.dtype == dtypes.complex128 and l2_regularizer != 0:
        raise NotImplementedError("matrix_solve_ls is currently disabled for complex128 and "
                                  "l2_regularizer != 0 due to poor accuracy.")
    if not fast:
        return _solve_ls_kernel(matrix, execute.convert_to_tensor(rhs))
    with name_scope(name or "matrix_solve_ls"):
        def overdetermined():
            chol = _gramian_cholesky(matrix, l2_regularizer, first_kind=True)
            return cholesky_solve(chol, M.matmul(matrix, rhs, adjoint_a=True))

        def underdetermined():
            chol = _gramian_cholesky(matrix, l2_regularizer, first_kind=False)
            return M.matmul(matrix, cholesky_solve(chol, rhs), adjoint_a=True)

        rows, cols = matrix.shape[-2], matrix.shape[-1]
        if rows is not None and cols is not None:
            return overdetermined() if rows >= cols else underdetermined()
        from simdist.framework.ops.control_flow_ops import cond_for_tf_v2

        shape = A.shape(matrix)
        return cond_for_tf_v2(shape[-2] >= shape[-1], overdetermined, underdetermined)


def _solve_ls_kernel(a, b):
    """TF's MatrixSolveLs kernel (fast=False): the minimum-norm least-squares solution."""
    av, bv = (backend.to_host(t._value).astype(np.float64) for t in (a, b))
    flat_a = av.reshape((-1,) + av.shape[-2:])
    flat_b = np.broadcast_to(bv, av.shape[:-2] + bv.shape[-2:]).reshape(
        (-1,) + bv.shape[-2:])
    x = np.stack([np.linalg.lstsq(m, r, rcond=None)[0] for m, r in zip(flat_a, flat_b)])
    x = x.reshape(av.shape[:-2] + (av.shape[-1], bv.shape[-1]))
    return execute.execute("MatrixSolveLs", [a, b],
                           array_api.from_host(x.astype(b.dtype.as_numpy_dtype)),
                           attrs={"fast": False})


__all__ = ["triangular_solve", "logdet", "pinv", "matrix_rank", "cholesky_solve", "lstsq"]
