"""``tf.linalg``: matrix ops over the last two dimensions (batched over the leading ones).

Glossary:
  kernel ops  -- inv (MatrixInverse), det (MatrixDeterminant), solve (MatrixSolve),
                 cholesky (Cholesky), diag (MatrixDiagV3), diag_part (MatrixDiagPartV3),
                 set_diag (MatrixSetDiagV3), band_part (MatrixBandPart): computed with
                 ``xp.linalg``, their gradient rules are in ``linalg_grad``.
  composites  -- trace, matvec, matrix_transpose / adjoint, eye, tensor_diag_part: built from
                 other ops, as TF builds them, so their gradients come for free.
  singular    -- inv and solve of a singular matrix raise InvalidArgumentError, as TF's
                 kernels do ("Input is not invertible."); cholesky of a matrix that is not
                 positive definite does not: its factor is NaN, as TF's CPU kernel gives.

Mirrors tensorflow/python/ops/linalg_ops.py and linalg/linalg_impl.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, errors, execute, op_recording
from simdist.framework.ops import array_ops, math_ops
from simdist.framework.ops.math_ops import matmul, norm  # noqa: F401 - tf.linalg's names too
from simdist.hardware import array_api, backend

_t = execute.convert_to_tensor


def _square(x, op_type):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise errors.InvalidArgumentError(
            None, None, f"Input must be a square matrix (or a batch of them); got shape "
                        f"{list(x.shape)} [Op:{op_type}]")


def _nonsingular(fn, op_type, *arrays):
    try:
        with array_api.raising_linalg_errors(array_api.namespace(*arrays)):
            return fn(*arrays)
    except np.linalg.LinAlgError:
        raise errors.InvalidArgumentError(
            None, None, f"Input is not invertible. [Op:{op_type}]") from None


def inv(input, adjoint=False, name=None):  # noqa: A002 - TF's name
    """The inverse of each square matrix (``tf.linalg.inv``).

    Raises:
      InvalidArgumentError: a matrix is not square or not invertible.
    """
    x = _t(input)
    _square(x, "MatrixInverse")
    value = _nonsingular(backend.xp.linalg.inv, "MatrixInverse", x._value)
    if adjoint:
        value = backend.xp.swapaxes(value, -1, -2)
    n = x.shape[-1] if x.ndim else 0
    return execute.execute("MatrixInverse", [x], value.astype(x._value.dtype),
                          attrs={"adjoint": bool(adjoint)}, flops=x._value.size * n)


def det(input, name=None):  # noqa: A002 - TF's name
    """The determinant of each square matrix (``tf.linalg.det``)."""
    x = _t(input)
    _square(x, "MatrixDeterminant")
    value = backend.xp.linalg.det(x._value).astype(x._value.dtype)
    return execute.execute("MatrixDeterminant", [x], value)


def solve(matrix, rhs, adjoint=False, name=None):
    """``X`` with ``matrix @ X = rhs`` (``tf.linalg.solve``).

    Raises:
      InvalidArgumentError: a matrix is not square or not invertible.
    """
    a, b = _t(matrix), _t(rhs)
    _square(a, "MatrixSolve")
    xp = backend.xp
    av = xp.swapaxes(a._value, -1, -2) if adjoint else a._value
    value = _nonsingular(xp.linalg.solve, "MatrixSolve", av, b._value)
    return execute.execute("MatrixSolve", [a, b], value.astype(b._value.dtype),
                          attrs={"adjoint": bool(adjoint)})


def _factors(xp, a):
    """The Cholesky factor of each matrix of ``a``; a matrix that is not positive definite
    gets NaNs in its lower triangle, diagonal included, as TF's CPU kernel fills it
    (tensorflow/core/kernels/linalg/cholesky_op.cc). TF leaves that factor's upper triangle
    unwritten (whatever its buffer held); here it is zero. Only the lower triangle is read."""
    ns = array_api.namespace(a)
    try:
        with array_api.raising_linalg_errors(ns):  # CuPy: raise instead of a partial factor
            return xp.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        pass
    n = a.shape[-1]
    failed = xp.tril(xp.full((n, n), np.nan, dtype=a.dtype))
    flat = xp.reshape(a, (-1, n, n))
    parts = []
    for i in range(flat.shape[0]):
        try:
            with array_api.raising_linalg_errors(ns):
                parts.append(xp.linalg.cholesky(flat[i, ...]))
        except np.linalg.LinAlgError:
            parts.append(failed)
    return xp.reshape(xp.stack(parts), a.shape)


def cholesky(input, name=None):  # noqa: A002 - TF's name
    """The lower-triangular Cholesky factor of each positive-definite matrix
    (``tf.linalg.cholesky``); a factor that does not exist is NaN (see ``_factors``).

    Raises:
      InvalidArgumentError: the input is not a square matrix (or a batch of them).
    """
    x = _t(input)
    _square(x, "Cholesky")
    value = _factors(backend.xp, x._value)
    return execute.execute("Cholesky", [x],
                           array_api.astype(value, array_api.numpy_dtype(x._value)))


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0,
         align="RIGHT_LEFT"):
    """Matrices with ``diagonal`` (its last dimension) on the main diagonal."""
    d = _t(diagonal)
    if k != 0 or num_rows != -1 or num_cols != -1 or padding_value != 0:
        raise NotImplementedError("simdist's tf.linalg.diag places the main diagonal only "
                                  "(k=0, square, zero padding).")
    xp = backend.xp
    n = d.shape[-1]
    value = d._value[..., :, None] * xp.eye(n, dtype=d._value.dtype)
    return execute.execute("MatrixDiagV3", [d], value, flops=0)


def diag_part(input, name="diag_part", k=0, padding_value=0,  # noqa: A002 - TF's name
              align="RIGHT_LEFT"):
    """The main diagonal of each matrix (``tf.linalg.diag_part``)."""
    x = _t(input)
    if k != 0:
        raise NotImplementedError("simdist's tf.linalg.diag_part reads the main diagonal "
                                  "only (k=0).")
    value = backend.xp.diagonal(x._value, axis1=-2, axis2=-1).copy()
    return execute.execute("MatrixDiagPartV3", [x], value, flops=0)


def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002
    """Each matrix with its main diagonal replaced by ``diagonal``."""
    x = _t(input)
    d = execute.convert_to_tensor(diagonal, dtype=x.dtype)
    if k != 0:
        raise NotImplementedError("simdist's tf.linalg.set_diag sets the main diagonal only.")
    xp = backend.xp
    value = x._value.copy()
    n = min(x.shape[-2], x.shape[-1])
    idx = xp.arange(n)
    value[..., idx, idx] = d._value
    return execute.execute("MatrixSetDiagV3", [x, d], value, flops=0)


def band_part(input, num_lower, num_upper, name=None):  # noqa: A002 - TF's name
    """Each matrix with everything outside a band around its diagonal set to 0."""
    x = _t(input)
    xp = backend.xp
    rows, cols = x.shape[-2], x.shape[-1]
    i = xp.arange(rows)[:, None]
    j = xp.arange(cols)[None, :]
    keep = ((num_lower < 0) | (i - j <= num_lower)) & ((num_upper < 0) | (j - i <= num_upper))
    value = xp.where(keep, x._value, xp.zeros((), dtype=x._value.dtype))
    return execute.execute("MatrixBandPart", [x], value,
                          attrs={"num_lower": int(num_lower), "num_upper": int(num_upper)},
                          flops=0)


# --- composites ---------------------------------------------------------------------------
def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Swap the last two dimensions (``tf.linalg.matrix_transpose``)."""
    x = _t(a)
    if x.ndim < 2:
        raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  "
                         f"Received `a` = {x} with shape: {x.shape}")
    perm = list(range(x.ndim - 2)) + [x.ndim - 1, x.ndim - 2]
    return array_ops.transpose(x, perm)


def adjoint(matrix, name=None):
    """The conjugate transpose of each matrix (the transpose, for real matrices)."""
    return matrix_transpose(matrix)


def trace(x, name=None):
    """The sum of each matrix's main diagonal (TF: reduce_sum of diag_part)."""
    return math_ops.reduce_sum(diag_part(x), axis=-1)


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
    """Matrix times vector (TF: matmul with ``b`` as a column, squeezed back)."""
    column = array_ops.expand_dims(_t(b), -1)
    return array_ops.squeeze(matmul(a, column, transpose_a=transpose_a, adjoint_a=adjoint_a),
                             axis=-1)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """Identity matrices: ``num_rows`` x ``num_columns``, stacked to ``batch_shape``."""
    cols = num_rows if num_columns is None else num_columns
    value = np.eye(int(num_rows), int(cols), dtype=dtypes.as_dtype(dtype).as_numpy_dtype)
    if batch_shape is not None:
        value = np.broadcast_to(value, (*[int(d) for d in batch_shape], *value.shape)).copy()
    return array_ops.constant(value)


def tensor_diag_part(input, name=None):  # noqa: A002 - TF's name
    """The diagonal of a square matrix (``tf.linalg.tensor_diag_part``, rank 2)."""
    x = _t(input)
    if x.ndim != 2:
        raise NotImplementedError("simdist's tf.linalg.tensor_diag_part takes matrices only.")
    return diag_part(x)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """``x`` divided by its L2 norm along ``axis`` (``tf.linalg.l2_normalize``)."""
    return math_ops.l2_normalize(x, axis=axis, epsilon=epsilon, dim=dim)


__all__ = ["adjoint", "band_part", "cholesky", "det", "diag", "diag_part", "eye", "inv",
           "l2_normalize", "matmul", "matrix_transpose", "matvec", "norm", "set_diag", "solve",
           "tensor_diag_part", "trace"]


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__)
