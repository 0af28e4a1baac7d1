"""TF's float32 SoftmaxCrossEntropyWithLogits and its sparse twin on a CPU, in NumPy.

Glossary:
  shifted  -- ``logits - max(logits)`` along the classes (exact in float32).
  total    -- ``sum(exp(shifted))`` of each row as Eigen reduces ``shifted.exp()``: the exp
              is evaluated inside the row's reduction, so a row's whole packets of 8 take
              Eigen's packet exp and its last ``n % 8`` classes ``std::exp`` (per row, where
              an element-wise Exp packs the flattened tensor), summed in Eigen's order.
  sparse loss -- ``log(total) - shifted[label]``: the loss generator calls the scalar
              ``std::log`` (glibc's logf) for the label's class and the row's sum adds zeros.
  dense loss -- ``sum(labels * (log(total) - shifted))``: ``log(total)`` is an element-wise
              Log of the (batch, 1) sums (packets of 8, then logf), the product is evaluated
              and summed along the classes in Eigen's order.
  backprop -- ``exp(shifted) / total - labels``: this exp is element-wise over the whole
              tensor (packets of the flattened tensor), divided by the row totals above.
NumPy's exp / log / pairwise sum gave another loss in ~1 row in 8 and another backprop in
~1 value in 500 (10 classes, float32); this is bit-equal to TF 2.21 on the recorded cases
(tests/framework/eigen_xent_cases.py). Rows over ``eigen_cpu.LEAF`` classes are summed by
Eigen as a tree (not modelled): the callers keep NumPy's arithmetic there.

Mirrors tensorflow/core/kernels/xent_op.h (XentEigenImpl) and sparse_xent_op.h
(SparseXentEigenImpl, SparseXentLossGenerator, SparseXentGradGenerator).
"""

from __future__ import annotations

import numpy as np

from simdist.framework.ops import eigen_cpu

_F = np.float32


def modelled(rows) -> bool:
    """Whether TF's bits are modelled for these (batch, classes) logits."""
    return type(rows) is np.ndarray and rows.dtype == _F and 0 < rows.shape[-1] <= eigen_cpu.LEAF


def _shifted_total(rows):
    shifted = rows - rows.max(axis=-1, keepdims=True)
    return shifted, eigen_cpu.inner_sum(eigen_cpu.exp_rows(shifted))


def sparse_loss(rows, labels):
    """SparseSoftmaxCrossEntropyWithLogits' loss of the (batch, classes) float32 ``rows``
    and integer ``labels`` (batch,), all in range."""
    with np.errstate(all="ignore"):
        shifted, total = _shifted_total(rows)
        picked = shifted[np.arange(rows.shape[0]), labels]
        return eigen_cpu.libm("logf")(total) - picked


def dense_loss(rows, labels):
    """SoftmaxCrossEntropyWithLogits' loss of (batch, classes) float32 ``rows`` and
    ``labels`` of the same shape."""
    from simdist.framework.ops.eigen_unary import log

    with np.errstate(all="ignore"):
        shifted, total = _shifted_total(rows)
        return eigen_cpu.inner_sum(labels * (log(total)[:, None] - shifted))


def probabilities(rows):
    """``exp(shifted) / total``: the softmax both kernels subtract the labels from for
    their backprop."""
    with np.errstate(all="ignore"):
        shifted, total = _shifted_total(rows)
        return eigen_cpu.exp(shifted) / total[:, None]
