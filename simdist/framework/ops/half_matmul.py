"""The float32 accumulation of a float16 or bfloat16 matrix product, in TF's CPU order.

Glossary:
  widen      -- TF's CPU MatMul / BatchMatMul kernel for half and bfloat16 converts both
                inputs to float32 (``FastConvertToFloat``), multiplies them with its float32
                GEMM and rounds the float32 result to the input dtype once.
  sequential -- inside the GEMM each output element is a float32 sum over the depth k,
                added term after term from k = 0: ``acc = acc + a[i, k] * b[k, j]``. The
                product of two 16-bit floats is exact in float32 (11 + 11 or 8 + 8
                significant bits), so only the order of the float32 additions decides the
                bits. Recorded from TF 2.21 (tests/framework/half_matmul_cases.py): a Dense
                layer's products in training (k = 16 and 64; 10, 48 or 64 columns) are
                bit-equal to this order, where NumPy's float32 BLAS (its blocking and SIMD
                partial sums, chosen for the CPU it runs on) differs by one ulp in up to 2%
                of them, and a mixed-precision training run drifts from TF's.
  bfloat16   -- the float32 result is truncated to bfloat16 (its upper 16 bits), not rounded.
  not reproduced -- TF's float32 GEMM is oneDNN's sgemm, JIT-compiled for the CPU it runs
                on, inside Eigen's contraction: on an AVX2 CPU it sums the last columns of
                some widths (4, 24, 28, 40) in two interleaved partial sums, and a long depth
                (k = 784) in blocks; there 0.3% to 2% of the outputs differ from TF's by one
                ulp. Those orders belong to the CPU; this one does not.
The loop runs in NumPy element-wise float32 arithmetic (IEEE, one rounding per operation),
so its bits do not depend on the host CPU's SIMD width or BLAS kernel.

Mirrors tensorflow/core/kernels/matmul_op_impl.h (BaseBatchMatMulOp::Compute, the
``std::is_same_v<Ta, Eigen::half>`` branch).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes
from simdist.hardware import array_api


def widened_matmul(av, bv):
    """``av @ bv`` for 16-bit float arrays (rank >= 2, broadcast batch dimensions), summed
    in float32 over k in order and rounded once to ``av``'s dtype."""
    xp = array_api.namespace(av)
    a = array_api.astype(av, np.float32)
    b = array_api.astype(bv, np.float32)
    k = a.shape[-1]
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (a.shape[-2], b.shape[-1])
    acc = xp.zeros(shape, dtype=np.float32)
    for i in range(k):
        acc += a[..., :, i:i + 1] * b[..., i:i + 1, :]
    dtype = array_api.numpy_dtype(av)
    if dtypes.is_bfloat16(dtype):
        # FastConvertFromFloat<bfloat16> is tsl's FloatToBFloat16: the float32's upper
        # 16 bits, truncated (not rounded to nearest as a cast is).
        return (acc.view(np.uint32) >> 16).astype(np.uint16).view(dtype)
    return array_api.astype(acc, dtype)
