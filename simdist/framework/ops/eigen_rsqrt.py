"""TF's float32 Rsqrt on a CPU: the CPU's approximate ``rsqrtps`` and Eigen's Newton step.

Glossary:
  rsqrtps -- ``_mm256_rsqrt_ps``: 12 significant bits of ``1 / sqrt(a)``, read from a table
             by the parity of ``a``'s exponent and the top 12 bits of its mantissa; the
             exponent is the result's. Intel and AMD build different tables (the instruction
             only bounds the error by 1.5 * 2**-12), so TF's bits through it depend on the
             CPU model. simdist holds the table of the AMD Zen 3 EPYC (family 25, model 1)
             that its TF fixtures were recorded on, measured over all of [1, 4)
             (tests/framework/record_rsqrtps_table.py): each entry as its difference, -1 to
             1, from ``round(2**13 / sqrt(midpoint))``, two bits each. Zero (and a
             subnormal) gives an infinity of its sign, +inf gives 0, a negative number the
             default NaN 0xFFC00000, a NaN itself quieted.
  prsqrt  -- Eigen's packet rsqrt under EIGEN_FAST_MATH (TF's x86 build):
             ``x = rsqrtps(a)``, then one Newton step ``(-x / 2) * ((a x) x - 1) + x`` with
             each multiply-add rounded twice (no FMA); ``x`` itself where that is NaN (``a``
             zero, infinite, negative or NaN).
  tail    -- the last ``size % 8`` values of a tensor: ``scalar_rsqrt_op``'s
             ``1 / std::sqrt(a)``, each operation correctly rounded.
  denormals -- TF reads subnormal inputs as signed zeros: their rsqrt is an infinity.
Bit-equal to TF 2.21's tf.math.rsqrt on 80,003 float32 values (NumPy's ``1 / sqrt(a)``
differs in a third of them); Keras's RMSprop and Adafactor, legacy Adadelta
(ApplyAdadelta's ``rsqrt()``) and BatchNormalization's ``tf.nn.batch_normalization`` take
it.

Mirrors Eigen/src/Core/arch/AVX/MathFunctions.h (``prsqrt<Packet8f>``),
Eigen/src/Core/MathFunctionsImpl.h (``generic_rsqrt_newton_step``) and
Eigen/src/Core/functors/UnaryFunctors.h (``scalar_rsqrt_op``) as TF 2.21 ships them, and
tensorflow/core/kernels/cwise_op_rsqrt.cc.
"""

from __future__ import annotations

import functools

import numpy as np

from simdist.framework.ops.eigen_cpu import by_packets, daz
from simdist.framework.ops.eigen_rcpps import unpack

_F = np.float32
_PACKED = (
    "AABVVQAAVVUAAFVVVVWqqlVVpVUAAFVVVVWlVVVVqqpQAFVVVVBVVVVVVVVVVVVVVVRVVVVQVVVUAFVUVVWpVVWp"
    "VapQVVVVValVqkBVUFVVVVWVVaVVpVWpValVqlWqValVqVWpVaVVpVWVVVVUVVBVQFVVpVWVVVVQVVWpVZVVVZVZ"
    "VpWpWkFUVUVRVVVVVVWVVVZVlVlWVZVVVlWVVVVVVUVRVFUFlqWpWlZVlVVVVFUFlpWlVVVVVQVWlZVVUVlZWVZa"
    "WloBRUVFQVVVVVFVVVVRVVVVUVVVVVFVVVVRVVVVQUVFRZZaWlpVWVlZUVVVRZaaWllVWVVVlppaWRRQUUVVVVVZ"
    "ZaWWWhRUUUVVVFVVVZVVWWWVllllpZZZZaWWWWWllllllZZZZZVVVWWVVVVVVFFFaaWWWWWVVVVFFFVVWWWaaVVV"
    "WWVZZZppVVVVVVllmmVFFFVUVVVZVVllmWWaZZppRRRVFFVUVVRVVVVVVVVVVVVVVVVVVVVVZZmmmWWZplllWZZZ"
    "VVWVVVRVVUVlmaaZZVmWVVRVVUVlmaZZVVWVVWWZpllVVZVFZZmmVVRVVURlWZVVaZmmWVVlVZVmZZmWZmmZphVU"
    "VVFVVVVRVVVVVVVlVVVVZVWVVWVVVVVlVVVVVVVRVVRVURVURFFmaZmVZmVZlVVlVVGZmZqqVVWZmUVVVVWZmZma"
    "VVVVmZmZmqpVVVWZmZmZqlVVVVmZmZmZRVVVVVVVWZmZmZmZRFVVVVVVVVVVmZmZVVVVVVVVVVVWZmZmZmZmZmZm"
    "ZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmVVVVVVVVVVVVVaqqpmZmZmZmZmZlVVVVmZlVVVVVZmaqqVVVmZlVEVVV"
    "ZmWZmVVVlVVmZqmZVVWZVWZmqZlVVVVVZmWZmVURVVVVVZmVZmapmVVRVVVEVVUVVWVVWZVmZlmZqmZqRFVVFVVV"
    "VVVVZVVZVWZlWZVmZVmZZmZZmaZmWZmmZmmZpmZpmaZmWZmmZlmZZmVZVVVlVVFVVVURVFVRZpmqZmWZpmVVlWZV"
    "VVVlVRFUVVFlmaZmVZVmVVFVVVFmmaZmVZVmVVFUVVFlmWZlVVVVVWZZlmlVVVVZZlmWalVVVVlmWZZpVRVFVWZZ"
    "lmlVFUVVZVlWWaZZlmlVFUVVZVlWWaZZlmlVFUVVVVVVWWZZVllRVFEUVVVVFVWVZVVlmWVZZplmWaaZplmmqaZp"
    "VVRVFFVUVRVVVVUVVVVVFVVVVVVVlVVVVVVVFVVVVRVVVVUVWWVZZVllVWVVZVVVVVVVVRVVFFVpqmmmaaZZpllm"
    "WWVVZVVVVVUVVWmmaaZZplllWWVVVVVVFFVppllmWWVVVUVVVVlVZZZaWWWmmgQUUUUFFFFFWmmmmllppppZZZZZ"
    "WWWWWVVVVVWaaaaaWWWWWVVUUUVZZZZZVRRRRVllVVVVWVVVZZlllmWaaZYUVRRRVFVUUVRVVFFUVVRRVFVUUVRV"
    "FFFpmmmWZZlllWVZVVFUVRRBaZpllWVVVFFpmmWVZVmVZhRFURVVVZVWZZmWZhRFURVUVVVVZVWVVmVZlWZlmZZm"
    "ZZmWZmWZlmZlmZVmZZmVZmVZlVVlVVVVVFVRFVREVVVlWZmZZVVVWVRERVVlVZmZVEVVVWVVmZlURFVVZVVVWamZ"
    "mZlUVVVVZVVVVWmZmZlUREREVERVVWVVVVVmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZlVVVVVVVVVVVVVRERER"
    "ZmZmZlVVVVVVVRERZmZmVVVVVVVmZmZmRVVVWZZmZmpFVVVZVmZmWUVVURVWZVVZlmZmaUVVURVWVVVVVmZVWZpm"
    "ZllFUREVRVVRFVVVVRVVVVUVVlVVVWZZmaZmWZlmZlmZZmVZlWZlWZVmVVlVZVVVVVVVFURVZmmZpmVZlWZVVVVV"
    "VRVEVWZZmWZVWVVVURVEUWVZlWVVFVVVZlmWZVVVVVVmWZZlVRVFVWZZlmVVFUVRZVlWVWZZlmVVFUVRZVlVVWZZ"
    "lmVRFEURVVVFUWVZVVVmWVZVVUVVVVVVWVVZVVlWWVZZVllWWZZZllmWWZZZllmWWZZZllmWWVZZVllWWVVZVVlV"
    "VVVVVVVFVUUVRRRFaZZpllWWWWZVVVVlUUUVVWWaaaZVllllUVVVVRFFFFFVllllUUVVVWWWWaZVVVVVUUUUUVVV"
    "WWVRRRRRVVZZZVFFFFFVVVVVppppplVVVVVlllllUUUUUVVVVVVlllllUUUUUVVVVVVlllllUUUUUVVVVVVlllVV"
    "ZZZZZaaaaaZRRRRRRRRRVUUUUVVVVVFVVVVVZZVVVWWWVVVllllVZZZZZWWWWWVlllllZZZZZWWWWVVllllVZZZV"
    "VWWVVVVlVVVVVRRQUUVpZaaWWWWllllVZZVVVVVVVFFVRRRQUUVZZaWWWVVlVVVRVVUUUFFFWWVlllVVVVVUUVFF"
    "WWWlllVVVVUUUVFFWWVllVVRVUVpZaWWVVVVVRRQUUFZVWVVVFFRRVllZVVUUVFFWWVlVVRRUUVZVWVVVFBRQVlV"
    "VVVpZaWWUVFVVVVlZWVQUVFRVVVVZWVlZaVQUVFRVVVVZWVlZaVQUVFRUVVVVVVlZWVlpaWlUVFRUVFVVVVVVWVl"
    "ZWVlpVBQUFFRUVFRUVVVVVVVVVVlZWVlZWVlpaWlpaVQUFBQUVFRUVFRUVFRUVFRUVVVVVVVVVVVVVVVVVVVVVVV"
    "VVU="
)


@functools.cache   # built on the first rsqrt, not at the import (the first op)
def _table():
    """rsqrtps of each block's midpoint as float32 bits in [0.5, 1): [1, 2)'s 4096
    blocks, then [2, 4)'s."""
    i = np.arange(8192)
    mid = (1 + (i % 4096 + 0.5) / 4096) * np.where(i < 4096, 1, 2)
    m = np.round(8192 / np.sqrt(mid)).astype(np.int64) + unpack(_PACKED)
    return (np.uint32(126 << 23) | ((m.astype(np.uint32) & 0xFFF) << 11)).astype(np.uint32)


_MINUS_HALF, _MINUS_ONE, _ONE = _F(-0.5), _F(-1), _F(1)
_DEFAULT_NAN, _INF = np.uint32(0xFFC00000), np.uint32(0x7F800000)


def rsqrtps(a):
    """The CPU's ``rsqrtps`` of a float32 array (see the glossary)."""
    a = np.asarray(a, _F)
    bits = a.view(np.uint32)
    exponent = (bits >> 23) & 0xFF
    odd = (exponent & 1).astype(np.uint32)
    entry = _table()[((1 - odd) << 12) | ((bits >> 11) & 0xFFF)]
    out_exp = (np.int64(126) - (exponent.astype(np.int64) - 127) // 2).astype(np.uint32)
    out = (out_exp << 23) | (entry & 0x7FFFFF)
    sign = bits & 0x80000000
    out = np.where(sign != 0, _DEFAULT_NAN, out)
    out = np.where(exponent == 0, sign | _INF, out)
    out = np.where(bits == _INF, np.uint32(0), out)
    out = out.astype(np.uint32).view(_F)
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(a), a + _F(0), out)


def prsqrt(a):
    """Eigen's packet ``1 / sqrt(a)`` of a float32 array: rsqrtps and one Newton step."""
    with np.errstate(all="ignore"):
        x = rsqrtps(a)
        step = (x * _MINUS_HALF) * ((a * x) * x + _MINUS_ONE) + x
        return np.where(np.isnan(step), x, step)


def _tail(a):
    with np.errstate(all="ignore"):
        return _ONE / np.sqrt(a)


def rsqrt(a):
    """TF's float32 Rsqrt of a float32 array (any shape): whole packets, then the tail."""
    return rsqrt_rows(np.reshape(a, (1, -1))).reshape(np.shape(a))


def rsqrt_rows(rows):
    """``rsqrt`` of each row of ``rows`` (n, size) as a tensor of its own (a stacked
    kernel's replicas)."""
    return by_packets(prsqrt, _tail, daz(rows))
