"""TF's float32 Sin and Cos on a CPU, as its Eigen computes them, in NumPy.

Glossary:
  octant    -- Eigen's ``psincos_float`` for whole packets of 8 (TF builds with
               EIGEN_FAST_MATH, so its Sin and Cos have packets): ``q = round(|x| * 2/pi)``
               by adding and subtracting 2**23 (the rounded sum's low bits are ``q``),
               then ``r = |x| - q pi/2`` in four multiply-adds of pi/2's parts, each rounded
               twice (no FMA).
  huge      -- ``|x|`` from 25966 (sin) or 18838 (cos) on: Payne-Hanek's reduction
               (``trig_reduce_huge``) of that value, in 64-bit fixed point on 192 bits of
               2/pi, gives ``q`` and ``r`` instead.
  polynomial -- sin's ``r + r^3 s(r^2)`` or cos's ``c(r^2)`` by ``q``'s parity, the sign
               from ``q``'s second bit (and ``x``'s sign for sin) by XOR: a NaN's sign may
               flip as TF's does.
  tail      -- the last ``size % 8`` values take the C library's sinf / cosf (glibc's;
               NumPy's float32 sin and cos are its own SIMD code, another).
Subnormal inputs are zeros in the packets (a subnormal's sin there is a signed zero; the
tail's sinf returns it as it is).

Mirrors Eigen/src/Core/arch/Default/GenericPacketMathFunctions.h (``psincos_float``,
``trig_reduce_huge``) as TF 2.21 ships it; tensorflow/core/kernels/cwise_ops.h (sin, cos).
"""

from __future__ import annotations

import numpy as np

from simdist.framework.ops.eigen_cpu import daz, elementwise, horner, libm

_F = np.float32
_U32 = np.uint32
_MAGIC = _F(12582912)   # 1.5 * 2**23: adding it rounds to an integer in the low bits
_TWO_OVER_PI = _F(0.636619746685028076171875)
_PIO2_PARTS = tuple(_F(c) for c in (-1.5703125, -0.000483989715576171875,
                                     1.62865035235881805419921875e-07,
                                     5.5644315544167710640977020375430583953857421875e-11))
_COS = tuple(_F(c) for c in (2.4372266125283204019069671630859375e-05,
                             -0.00138865201734006404876708984375,
                             0.041666619479656219482421875, -0.5, 1.0))
_SIN = tuple(_F(c) for c in (-0.0001959234114083702898469196984621021329076029360294342041015625,
                             0.0083326873655616851693794799871284340042620897293090820312500000,
                             -0.1666666203982298255503735617821803316473960876464843750000000000))
_TWO_OVER_PI_BITS = np.array([
    0x00000028, 0x000028be, 0x0028be60, 0x28be60db, 0xbe60db93, 0x60db9391, 0xdb939105,
    0x9391054a, 0x91054a7f, 0x054a7f09, 0x4a7f09d5, 0x7f09d5f4, 0x09d5f47d, 0xd5f47d4d,
    0xf47d4d37, 0x7d4d3770, 0x4d377036, 0x377036d8, 0x7036d8a5, 0x36d8a566, 0xd8a5664f,
    0xa5664f10, 0x664f10e4, 0x4f10e410, 0x10e41000, 0xe4100000], np.uint64)
_SIGN = _U32(0x80000000)


def _reduce_huge(val):
    """``trig_reduce_huge`` of finite float32 values >= 25966: (r, quadrant)."""
    xi = val.view(_U32).astype(np.uint64)
    e = (xi >> np.uint64(23)) - np.uint64(118)
    xi = ((xi & np.uint64(0x7FFFFF)) | np.uint64(0x800000)) << (e & np.uint64(7))
    i = (e >> np.uint64(3)).astype(np.int64)
    t1, t2, t3 = (_TWO_OVER_PI_BITS[i + k] for k in (-1, 3, 7))
    low32 = np.uint64(0xFFFFFFFF)
    p = xi * t3
    p = xi * t2 + (p >> np.uint64(32))
    p = (((xi * t1) & low32) << np.uint64(32)) + p
    q = (p + (np.uint64(1) << np.uint64(61))) >> np.uint64(62)
    p = p - (q << np.uint64(62))
    r = (p.view(np.int64).astype(np.float64) * 3.4061215800865545e-19).astype(_F)
    return r, q.astype(np.int64).astype(np.int32)


def _packets(sine):
    huge_th = _F(25966.0) if sine else _F(18838.0)

    def fn(given):
        xs = daz(given)
        x = np.abs(xs)
        y_round = x * _TWO_OVER_PI + _MAGIC
        y_int = y_round.view(np.int32)
        y = y_round - _MAGIC
        for part in _PIO2_PARTS:
            x = y * part + x
        huge = (np.abs(xs) >= huge_th) & np.isfinite(xs)
        if huge.any():
            r, q = _reduce_huge(np.abs(xs[huge]))
            x, y_int = x.copy(), y_int.copy()
            x[huge], y_int[huge] = r, q
        quadrant = y_int.view(_U32)
        if sine:
            sign = (xs.view(_U32) ^ (quadrant << _U32(30))) & _SIGN
        else:
            sign = ((quadrant + _U32(1)) << _U32(30)) & _SIGN
        x2 = x * x
        cos = horner(_COS, x2)
        sin = (horner(_SIN, x2) * x2) * x + x
        first = (quadrant & _U32(1)) == 0
        out = np.where(first, sin, cos) if sine else np.where(first, cos, sin)
        return (out.view(_U32) ^ sign).view(_F)
    return fn


def _kernel(sine):
    name = "sinf" if sine else "cosf"
    return elementwise(_packets(sine), lambda t: libm(name)(t))


(sin, sin_rows), (cos, cos_rows) = _kernel(True), _kernel(False)
