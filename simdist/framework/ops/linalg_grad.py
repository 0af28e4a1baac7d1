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
