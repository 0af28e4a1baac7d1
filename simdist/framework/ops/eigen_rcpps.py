"""The CPU's approximate float32 reciprocal (x86 ``rcpps``) and Eigen's Newton step on it.

Glossary:
  rcpps      -- ``_mm256_rcp_ps``: 12 significant bits of ``1 / a``, read from a table by the
                top 12 bits of ``a``'s mantissa; the exponent is the reciprocal's. Intel and
                AMD build different tables (the instruction only bounds the error by 1.5 *
                2**-12), so TF's bits through it depend on the CPU model. simdist holds the
                table of the AMD Zen 3 EPYC (family 25, model 1) that its TF fixtures were
                recorded on, measured over all 4096 mantissa blocks
                (tests/framework/record_rcpps_table.py): each entry as its difference, -1 to
                1, from ``round(2**13 / (1 + (i + 0.5) / 4096))``, two bits each.
  preciprocal -- Eigen's packet reciprocal under EIGEN_FAST_MATH (TF's x86 build):
                ``x = rcpps(a)``, then one Newton step ``x * (1 - a x) + x`` with each
                multiply-add rounded twice (no FMA), ``x`` itself where ``1 - a x`` is NaN
                (``a`` zero or infinite); a subnormal Newton term is flushed (the CPU's
                FTZ). Erfc's packets use it, Softmax's ``1 / sum`` and
                Reciprocal's (``reciprocal``: the tail divides).
Results below float32's smallest normal are 0, as rcpps flushes them.

Mirrors Eigen/src/Core/arch/AVX/MathFunctions.h (``preciprocal<Packet8f>``) and
Eigen/src/Core/MathFunctionsImpl.h (``generic_reciprocal_newton_step``) as TF 2.21 ships
them.
"""

from __future__ import annotations

import functools

import numpy as np

from simdist.framework.ops import eigen_cpu

_F = np.float32
_ONE = _F(1)
_TINY = np.finfo(_F).tiny
_PACKED = (
    "BVVaqgVVWqoFVVqqBVUFVVqqWqpapVqqRVVaVVqVWqVapVqlWpVaVVlVVVVapVpVqqlalaqpWlWapVlVWlVFQBBR"
    "VWUUVVlpFFFVZWWmmqoVVlllZZaaaWmmmmlpppppZZZZZVVVVVRllllVaaZZZWmmWWVpllVUZZVFEKmmWVQRVZma"
    "EVmZqhFZmZoRVVmZVZmqqhFVVZlVmZmZVZmZmVWZmZlVmVVVZqqqmVWZlVVmmZmZZqqZmaaqmZlmqZmVFFWWaVlm"
    "mqoUVVZZVWWWaVllmmlZZZZpVVWWWRRVVVVZZZZZVVVVVVVVVVVZZZZVWWWWVVllVVVVVUUUaaaWVQVFVWUVlZWl"
    "VpaWplaWlqZWlpamVpaVpVWVVWVqmpqmVpWVZVqalqVVVUVRVZVVUVWVVVFVlUVRVVVBUGqWlWVVVVpVqVaqalRV"
    "VlVZVWpVaVWqValVqlWpVWpVaVVaVVVVVRWpVqpVaVVVValVqlVUVVUAqVVVBalVVRWpVVUVVVVVVlVVVVVWqqqq"
    "VVVVqlVVVVVVVVVWqqqqqlVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVaqqqqqpVVVVVVVVVVVZVVVVWqqqQAVVVVVV"
    "VVVVWpVVVVqlVVVapVVVWpVVVVVVVVQFVVVVWqpVVVlVVaVaqpVVWVVVlVqlVVUFVUBWpVqpVqlaqgFVBVUBVQVV"
    "VqlaqValWqVWlVpVVVVVVZaqWqVWlVlVUVUFUFaVWVWWqVqVVVVFVFZVVVVWpVlVRVFVVUVRVVVFUVVVRVFUVVqW"
    "palaVpWlWVZVlUVRVFVaVpWlVVVUVVqWlZVVUVRUWlZVVZqWlaVVUVBQWVVUVFVZWVlVWlpaVlpaWVVZWVlVWVlZ"
    "UVVVVVFFRUWWWlpaVVlZVVFVRUVWWllZUVVFRVZZWVVRRUUFVVlVRZZaWVVVVVZZVWWWWllllppZZaaaWWWmmlll"
    "pppZZZaaWWWWWVVVVllVVVVVRRRRRVlllllVVVVVmmmmmllVVVVFFFFFEEUUVVVZVVllmmWaFFUUVVVVVVlVWWVZ"
    "ZZllmmWaaZoURRRFFEUUVRRFFEUURRRFaZplmmWZZZllWWVZVVVVVVRVFUVpmmaZZVlWVVRVFUVlmWZZVVVVRWWZ"
    "ZllVVRVFZZlWVVRFEURlVVVFZZlWVamaZllUVRFEZVVVRWVZVVURFURVEVVFVRFVRVURVUVVEVVEVREVREVmZpmZ"
    "ZmZZmVVmVVlVVVVVEVVERWZmWZlVVlVVEVVERGZmVVlVVURVZmVVmVVURFVmZVVZVVRERFZlVVVmZZmZVVRERFZl"
    "VVVmZVVVaqmZmVVURERVVEREZmVVVWZlVVVmZVVVZmVVVQ=="
)


def unpack(packed_lines):
    """The entries (-1, 0 or 1) of a table packed as ``_PACKED`` is: two bits each, four to
    a byte, base64 (tests/framework/record_rcpps_table.pack)."""
    import base64

    packed = np.frombuffer(base64.b64decode("".join(packed_lines)), np.uint8)
    shifts = np.array([6, 4, 2, 0], np.uint8)
    return ((packed[:, None] >> shifts) & 3).ravel().astype(np.int64) - 1


@functools.cache   # built on the first reciprocal, not at the import (the first op)
def _table():
    """rcpps of ``1 + (i + 0.5) / 4096``'s block, as float32 bits in [0.5, 1), for each i."""
    i = np.arange(4096)
    m = np.round(8192 / (1 + (i + 0.5) / 4096)).astype(np.int64) + unpack(_PACKED)
    return (np.uint32(126 << 23) | ((m.astype(np.uint32) & 0xFFF) << 11)).astype(np.uint32)


def rcpps(a):
    """The CPU's ``rcpps`` of a float32 array (see the glossary)."""
    a = np.asarray(a, _F)
    bits = a.view(np.uint32)
    exponent = ((bits >> 23) & 0xFF).astype(np.int64)
    entry = _table()[(bits >> 11) & 0xFFF]
    out_exp = 253 - exponent                 # 126 for a in [1, 2)
    out = (out_exp.astype(np.uint32) << 23) | (entry & 0x7FFFFF) | (bits & 0x80000000)
    out = np.where(out_exp <= 0, bits & 0x80000000, out)            # underflow: signed 0
    out = np.where(exponent == 0, (bits & 0x80000000) | 0x7F800000, out)   # 0 -> inf
    out = out.astype(np.uint32).view(_F)
    return np.where(np.isnan(a), a, out)


def preciprocal(a):
    """Eigen's packet ``1 / a`` of a float32 array: rcpps and one Newton step."""
    with np.errstate(all="ignore"):
        x = rcpps(a)
        tmp = _ONE - a * x
        # the Newton term of a reciprocal near float32's smallest normal is subnormal: the
        # CPU flushes it (TF's FTZ), leaving rcpps's value; a NaN comes back quiet
        step = x * tmp
        step = np.where(np.abs(step) < _TINY, _F(0) * step, step)
        return np.where(tmp == tmp, step + x, x * _ONE)


def reciprocal(a):
    """TF's float32 Reciprocal (tf.math.reciprocal, Grappler's ``x ** -1``) of a float32
    array (any shape): ``reciprocal_rows`` of it as one row."""
    return reciprocal_rows(np.reshape(a, (1, -1))).reshape(np.shape(a))


def reciprocal_rows(rows):
    """Reciprocal of each row of ``rows`` (n, size) as a tensor of its own: whole packets
    by ``preciprocal``, the tail divided, subnormal inputs and results flushed to zero."""
    with np.errstate(all="ignore"):
        a = np.asarray(rows, _F)
        if a.size and ((a.view(_U32) & _EXPONENT) - _SMALLEST).max() <= _SPAN:
            return eigen_cpu.whole_packets(_ordinary, _divided, a)
        return _reciprocal_rows(a)


def _reciprocal_rows(a):
    """``reciprocal_rows`` with every special case (any float32 inputs; under errstate)."""
    return eigen_cpu.ftz(eigen_cpu.by_packets(preciprocal, _divided, eigen_cpu.daz(a)))


def _divided(t):
    return _ONE / t


# ``reciprocal_rows`` of normal values below 2**100 in magnitude (their exponent bits less
# 2**23 at most _SPAN): no input is flushed, no rcpps underflows, no Newton term and no
# result is subnormal (1/a > 2**-100, and 1 - a x is 0 or at least 2**-24), none is NaN.
# Its constants are 0-d arrays (eigen_cpu's ``ordinary``)
_U32 = np.dtype(np.uint32)
_EXPONENT, _SIGN_EXPONENT = np.array(0x7F800000, _U32), np.array(0xFF800000, _U32)
_SMALLEST, _SPAN = np.array(1 << 23, _U32), np.array(225 << 23, _U32)
# rcpps's sign and exponent bits: 253 less the input's exponent, its sign (253 << 23 less a
# negative input's bits wraps round to the sign bit set: 253 - e < 256)
_EXPONENTS = np.array(253 << 23, _U32)
_INDEX_SHIFT, _INDEX = np.array(11, _U32), np.array(0xFFF, _U32)   # the table's 12 bits


@functools.cache
def _mantissas():
    return _table() & np.uint32(0x7FFFFF)


def _ordinary(a):
    """``preciprocal`` of such values: rcpps and the Newton step without the cases."""
    bits = a.view(_U32)
    x = ((_EXPONENTS - (bits & _SIGN_EXPONENT)) |
         _mantissas().take((bits >> _INDEX_SHIFT) & _INDEX)).view(_F)
    return x * (eigen_cpu._C_ONE - a * x) + x
