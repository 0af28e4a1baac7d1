"""``tf.linalg``'s factorisations and triangular solve: svd, qr, eigh, eigvalsh, slogdet,
matrix_triangular_solve (TF's kernel ops Svd, Qr, SelfAdjointEigV2, LogMatrixDeterminant,
MatrixTriangularSolve; gradient rules in ``linalg_grad``).

Glossary:
  float64 work -- every factorisation runs in float64 (LAPACK through NumPy) and is rounded
                  once to the input's type: within rounding of TF's float32 results (TF's
                  Eigen kernels round at every step), not bit-equal; except float32 QR of
                  up to 2048x512 (or as much work), which follows Eigen's loops and blocked
                  products step by step (eigen_householder_qr): TF's bits.
  signs        -- a singular vector or eigenvector is defined up to its sign; TF's Eigen
                  (BDCSVD, SelfAdjointEigenSolver) and LAPACK choose differently, and TF's
                  CPU and GPU kernels differ too. Everything a sign does not change (singular
                  values, eigenvalues, ``u @ diag(s) @ v^T``, ``abs(u)``, projections) is
                  TF's; the signs themselves are LAPACK's. QR's are fixed by Householder's
                  convention in both (R's diagonal as TF gives it).
  kernel texts -- rank < 2, non-square, unsupported dtype: TF's InvalidArgumentError texts.
  specs        -- traced, the outputs' static shapes are TF's shape functions' (``min(m,
                  n)`` unknown when m or n is), not what placeholders would give.
  matrix_triangular_solve -- the kernel op; TF's composites (cholesky_solve, lstsq) call it
                  directly, ``tf.linalg.triangular_solve`` (linalg_impl) in its name scope.

Mirrors tensorflow/python/ops/linalg_ops.py (svd, qr, self_adjoint_eig ...) and the
kernels in tensorflow/core/kernels/linalg/.
"""

from __future__ import annotations

import collections

import numpy as np

from simdist.framework import context, dtypes, errors, execute, func_graph, op_recording
from simdist.framework.ops import eigen_householder_qr, op_types
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api, backend

Qr = collections.namedtuple("Qr", ["q", "r"])
LogMatrixDeterminant = collections.namedtuple("LogMatrixDeterminant",
                                              ["sign", "log_abs_determinant"])
_DECOMP_T = "double, float, half, complex64, complex128"


def _input(tensor, op_type: str, square: bool = False, square_text="Input matrix must be "
           "square.") -> tuple[Tensor, np.ndarray]:
    """The checked input tensor and its value in float64 (complex128 for complex).

    Raises:
      InvalidArgumentError: a dtype the kernel lacks, rank < 2, a non-square matrix.
    """
    x = execute.convert_to_tensor(tensor)
    if not (x.dtype.is_floating or x.dtype.is_complex) or x.dtype == dtypes.bfloat16:
        op_types.refuse_dtype(op_type, x, _DECOMP_T)
    if x.ndim < 2:
        raise errors.InvalidArgumentError(
            None, None, f"Input tensor 0 must have rank >= 2, got {x.ndim} [Op:{op_type}]")
    if square and x.shape[-1] != x.shape[-2]:
        raise errors.InvalidArgumentError(None, None, f"{square_text} [Op:{op_type}]")
    v = backend.to_host(x._value)
    return x, v.astype(np.complex128 if x.dtype.is_complex else np.float64)


def _out(value, like: Tensor):
    return array_api.from_host(np.array(value, dtype=like.dtype.as_numpy_dtype))


def _matrix_dims(tensor):
    """(batch dims, rows, columns) of a traced input, or None (unknown rank, or rank < 2:
    run on placeholders, whose kernel gives TF's error)."""
    if func_graph.is_symbolic(tensor):
        shape = tensor.shape   # its placeholders' shapes are one example of it
    else:
        with func_graph.recorded_op_scope(0):
            shape = execute.convert_to_tensor(tensor).shape
    if shape.rank is None or shape.rank < 2:
        return None
    dims = list(shape)
    return dims[:-2], dims[-2], dims[-1]


def _smaller(m, n):
    return None if m is None or n is None else min(m, n)


def _outputs(graph, tensor, op_type, shapes):
    """Symbolic outputs of ``shapes`` with ``tensor``'s dtype."""
    with func_graph.recorded_op_scope(0):
        dtype = execute.convert_to_tensor(tensor).dtype
    device = context.current_device()
    return [graph.symbolic_like(s, dtype, device, op_type) for s in shapes]


def svd_spec(graph, tensor, full_matrices=False, compute_uv=True, name=None):
    """TF's Svd shape function: s [..., p], u [..., m, m or p], v [..., n, n or p]."""
    dims = _matrix_dims(tensor)
    if dims is None:
        return NotImplemented
    batch, m, n = dims
    p = _smaller(m, n)
    if not compute_uv:
        return _outputs(graph, tensor, "Svd", [batch + [p]])[0]
    return tuple(_outputs(graph, tensor, "Svd", [
        batch + [p], batch + [m, m if full_matrices else p],
        batch + [n, n if full_matrices else p]]))


def qr_spec(graph, input, full_matrices=False, name=None):  # noqa: A002 - TF's name
    """TF's Qr shape function: q [..., m, m or p], r [..., m or p, n]."""
    dims = _matrix_dims(input)
    if dims is None:
        return NotImplemented
    batch, m, n = dims
    p = m if full_matrices else _smaller(m, n)
    return Qr(*_outputs(graph, input, "Qr", [batch + [m, p], batch + [p, n]]))


def eigh_spec(graph, tensor, name=None, compute_v=True):
    """TF's SelfAdjointEigV2 shape function: e [..., n], v [..., n, n]."""
    dims = _matrix_dims(tensor)
    if dims is None or None not in dims[1:] and dims[1] != dims[2]:
        return NotImplemented
    batch, m, n = dims
    n = m if n is None else n
    if not compute_v:
        return _outputs(graph, tensor, "SelfAdjointEigV2", [batch + [n]])[0]
    return tuple(_outputs(graph, tensor, "SelfAdjointEigV2", [batch + [n], batch + [n, n]]))


def eigvalsh_spec(graph, tensor, name=None):
    return eigh_spec(graph, tensor, compute_v=False)


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """The singular values ``s`` (descending) and, with ``compute_uv``, the singular vectors
    ``u`` and ``v`` with ``tensor = u @ diag(s) @ adjoint(v)`` (``tf.linalg.svd``; signs:
    see the module's glossary). A matrix with a NaN or inf gets NaN everywhere, as TF's.

    Raises:
      InvalidArgumentError: rank < 2, an integer or bfloat16 dtype (TF's texts).
    """
    x, v = _input(tensor, "Svd")
    m, n = v.shape[-2:]
    k = min(m, n)
    batch = v.shape[:-2]
    s = np.full(batch + (k,), np.nan)
    u = np.full(batch + (m, m if full_matrices else k), np.nan)
    vt = np.full(batch + (n if full_matrices else k, n), np.nan)
    finite = np.isfinite(v).all(axis=(-2, -1))   # the other matrices stay NaN
    if k and finite.any():
        u[finite], s[finite], vt[finite] = np.linalg.svd(v[finite],
                                                         full_matrices=full_matrices)
    attrs = {"compute_uv": bool(compute_uv), "full_matrices": bool(full_matrices)}
    if not compute_uv:
        return execute.execute("Svd", [x], _out(s, x), attrs=attrs)
    vh = np.conj(np.swapaxes(vt, -1, -2))
    return execute.execute_multi("Svd", [x], [_out(s, x), _out(u, x), _out(vh, x)],
                                 attrs=attrs)


def qr(input, full_matrices=False, name=None):  # noqa: A002 - TF's name
    """``q`` with orthonormal columns and upper-triangular ``r``, ``input = q @ r``
    (``tf.linalg.qr``: Householder's, R's diagonal signs as TF's).

    Raises:
      InvalidArgumentError: rank < 2, an integer or bfloat16 dtype (TF's texts).
    """
    x, v = _input(input, "Qr")
    q, r = qr_values(v, bool(full_matrices), x.dtype == dtypes.float32)
    return Qr(*execute.execute_multi("Qr", [x], [_out(q, x), _out(r, x)],
                                     attrs={"full_matrices": bool(full_matrices)}))


def qr_values(v: np.ndarray, full_matrices: bool, float32: bool):
    """(q, r) of the matrices ``v`` (..., m, n): TF's float32 bits where Eigen's QR is
    modelled (eigen_householder_qr), else float64 LAPACK (run only when a matrix
    needs it: an Orthogonal initializer's matrix is factorised once, not twice)."""
    m, n = v.shape[-2:]
    bits = {}
    if float32 and v.size and eigen_householder_qr.modelled(m, n, full_matrices):
        bits = {i: eigen_householder_qr.qr(v[i].astype(np.float32), full_matrices)
                for i in np.ndindex(v.shape[:-2])}
    if bits and all(b is not None for b in bits.values()):
        p = m if full_matrices else min(m, n)
        q, r = np.empty(v.shape[:-2] + (m, p), np.float32), \
            np.empty(v.shape[:-2] + (p, n), np.float32)
    else:
        q, r = np.linalg.qr(v.astype(np.complex128 if np.iscomplexobj(v) else np.float64),
                            mode="complete" if full_matrices else "reduced")
        q = q + 0.0   # LAPACK's -0.0 where TF's kernel writes 0.0
        if bits:
            q, r = q.astype(np.float32), r.astype(np.float32)
    for i, b in bits.items():
        if b is not None:
            q[i], r[i] = b
    return q, r


def _eigh(tensor, compute_v: bool):
    x, v = _input(tensor, "SelfAdjointEigV2", square=True)
    lower = np.tril(v)   # TF's solver reads the lower triangle only
    sym = lower + np.conj(np.swapaxes(np.tril(v, -1), -1, -2))
    e, vec = np.linalg.eigh(sym) if v.size else (np.zeros(v.shape[:-1]), v)
    attrs = {"compute_v": compute_v}
    if not compute_v:
        return execute.execute("SelfAdjointEigV2", [x], _out(e.real, x), attrs=attrs)
    return tuple(execute.execute_multi("SelfAdjointEigV2", [x], [_out(e.real, x),
                                                                 _out(vec, x)], attrs=attrs))


def eigh(tensor, name=None):
    """The eigenvalues (ascending) and eigenvectors of each self-adjoint matrix
    (``tf.linalg.eigh``; only the lower triangle is read, as TF's kernel does).

    Raises:
      InvalidArgumentError: a non-square matrix, rank < 2, an integer dtype (TF's texts).
    """
    return _eigh(tensor, True)


def eigvalsh(tensor, name=None):
    """The eigenvalues (ascending) of each self-adjoint matrix (``tf.linalg.eigvalsh``)."""
    return _eigh(tensor, False)


def slogdet(input, name=None):  # noqa: A002 - TF's name
    """The sign and the log of the absolute determinant of each square matrix
    (``tf.linalg.slogdet``: a singular matrix gives sign 0 and -inf).

    Raises:
      InvalidArgumentError: a non-square matrix (TF's text).
    """
    x, v = _input(input, "LogMatrixDeterminant", square=True)
    sign, logdet = np.linalg.slogdet(v) if v.shape[-1] else (
        np.ones(v.shape[:-2]), np.zeros(v.shape[:-2]))
    return LogMatrixDeterminant(*execute.execute_multi(
        "LogMatrixDeterminant", [x], [_out(sign, x), _out(logdet.real, x)]))


def _substitute(a, b, lower: bool):
    """``x`` with ``tri(a) @ x = b`` by forward (or back) substitution, IEEE throughout: a
    zero on the diagonal gives inf or NaN, as TF's kernel does, where LAPACK would raise."""
    n = a.shape[-1]
    x = np.zeros(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:],
                 dtype=np.result_type(a, b))
    order = range(n) if lower else range(n - 1, -1, -1)
    with np.errstate(all="ignore"):
        for i in order:
            done = slice(0, i) if lower else slice(i + 1, n)
            acc = b[..., i, :] - np.einsum("...j,...jk->...k", a[..., i, done], x[..., done, :])
            x[..., i, :] = acc / a[..., i, i][..., None]
    return x


def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """``x`` with ``matrix @ x = rhs`` for triangular ``matrix`` (only its ``lower`` or
    upper triangle is read; ``adjoint`` solves with its adjoint), batch dimensions
    broadcast: TF's kernel op (``tf.linalg.triangular_solve`` is it in a name scope).

    Raises:
      InvalidArgumentError: rank < 2, a non-square matrix, mismatched rows or batch
        dimensions, different dtypes (TF's texts).
    """
    op = "MatrixTriangularSolve"
    a, b = execute.convert_to_tensor(matrix), execute.convert_to_tensor(rhs)
    execute.check_same_dtype(op, a, b)
    for i, t in enumerate((a, b)):
        if t.ndim < 2:
            raise errors.InvalidArgumentError(
                None, None, f"In[{i}] ndims must be >= 2: {t.ndim} [Op:{op}]")
    if a.shape[-1] != a.shape[-2]:
        raise errors.InvalidArgumentError(
            None, None, f"In[0] matrices in the last dimensions must be square "
                        f"({a.shape[-1]} =/= {a.shape[-2]}) [Op:{op}]")
    try:
        np.broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
        rows_ok = a.shape[-1] == b.shape[-2]
    except ValueError:
        rows_ok = False
    if not rows_ok:
        dims = ",".join
        raise errors.InvalidArgumentError(
            None, None, f"In[0] mismatch In[1] shape: {a.shape[-1]} vs. {b.shape[-2]}: "
                        f"[{dims(str(d) for d in a.shape)}] [{dims(str(d) for d in b.shape)}] "
                        f"{int(bool(lower))} {int(bool(adjoint))} [Op:{op}]")
    av, bv = (backend.to_host(t._value).astype(np.complex128 if t.dtype.is_complex
                                               else np.float64) for t in (a, b))
    tri = np.tril(av) if lower else np.triu(av)
    solve_lower = bool(lower)
    if adjoint:   # the adjoint of a lower triangle is an upper one
        tri, solve_lower = np.conj(np.swapaxes(tri, -1, -2)), not solve_lower
    x = _substitute(tri, bv, solve_lower)
    return execute.execute(op, [a, b], _out(x, b),
                           attrs={"lower": bool(lower), "adjoint": bool(adjoint)})


__all__ = ["svd", "qr", "eigh", "eigvalsh", "slogdet"]


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
svd = op_recording.recorded(svd, kind="spec", spec=svd_spec)
qr = op_recording.recorded(qr, kind="spec", spec=qr_spec)
eigh = op_recording.recorded(eigh, kind="spec", spec=eigh_spec)
eigvalsh = op_recording.recorded(eigvalsh, kind="spec", spec=eigvalsh_spec)
op_recording.record_here(__name__, exclude=("svd_spec", "qr_spec", "eigh_spec", "eigvalsh_spec"))
