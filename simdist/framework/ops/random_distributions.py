"""TF's conversions from Philox samples to numbers, vectorised: ``sample(name, gen, n)``.

Glossary:
  sample block   -- the four uint32 one Philox call gives (``PhiloxRandom.blocks``).
  group          -- the values one distribution call makes from one block: 4 for 32- and
                    16-bit results, 2 for 64-bit ones (which take two words each). Value i
                    of the output comes from group i // size, block i // size: the same
                    numbers whatever the shape, and a longer draw starts with a shorter one.
  Uint32ToFloat  -- the low 23 bits as a float32 mantissa in [1, 2), minus 1; float64 takes
                    20 + 32 bits of two words, float16 10 bits, bfloat16 7 bits.
  Box-Muller     -- two uniform words give two normals: u1 (at least 1e-7) and v = 2*pi*u2,
                    sqrt(-2 log u1) * (sin v, cos v), in float32 for float32/16 and bfloat16
                    results (rounded after), in float64 for float64 ones. ``log``/``sincos``
                    are the C library's (``libm``), as TF's kernel calls them, so the bits
                    agree (float32 sin / cos: NumPy's float64 ones rounded, libm's only
                    near a rounding midpoint: the same bits, fewer C calls); without a C
                    library NumPy's float64 functions stand in.
  truncated      -- group g reads blocks from g * 256 * size / 4 on (TF reserves 256 samples
                    per value), Box-Muller pairs in order, keeping values with |x| < 2 until
                    the group is full.
  int range      -- ``lo + (word % (hi - lo))``; int64 takes two words (low first).

Mirrors tensorflow/core/lib/random/random_distributions.h and the CPU FillPhiloxRandom
in tensorflow/core/kernels/random_op_cpu.h.
"""

from __future__ import annotations

import ctypes
import functools
import math

import numpy as np

from simdist.framework import dtypes

_RESERVED_SAMPLES_PER_OUTPUT = 256
_TRUNCATE = 2.0
_EPS32, _EPS64 = np.float32(1.0e-7), 1.0e-7


# --- the C library's log and sincos (what TF's Box-Muller calls) --------------------------
@functools.cache
def _libm():
    """The C math library, loaded on first use: finding it (``ctypes.util``) imports
    subprocess, tempfile and shutil and may run ``ldconfig``, which ``import simdist``
    need not pay for."""
    import ctypes.util

    try:
        lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        for name, ct in (("logf", ctypes.c_float), ("log", ctypes.c_double)):
            getattr(lib, name).restype = ct
            getattr(lib, name).argtypes = [ct]
        for name, ct in (("sincosf", ctypes.c_float), ("sincos", ctypes.c_double)):
            getattr(lib, name).restype = None
            getattr(lib, name).argtypes = [ct, ctypes.POINTER(ct), ctypes.POINTER(ct)]
        return lib
    except (OSError, AttributeError, TypeError):
        return None


def _log(x: np.ndarray) -> np.ndarray:
    libm = _libm()
    if libm is None:
        return np.log(x.astype(np.float64)).astype(x.dtype)
    fn = libm.logf if x.dtype == np.float32 else libm.log
    return np.fromiter((fn(v) for v in x.ravel().tolist()), dtype=x.dtype,
                       count=x.size).reshape(x.shape)


def _sincos(x: np.ndarray):
    libm = _libm()
    if libm is None:
        d = x.astype(np.float64)
        return np.sin(d).astype(x.dtype), np.cos(d).astype(x.dtype)
    if x.dtype != np.float32:
        return _sincos_libm(libm, x)
    # glibc's sinf / cosf round a double result within 0.0607 ulp of the true value
    # (s_sinf.c: worst-case 0.5607 ulp): NumPy's float64 sin / cos rounded give their bits
    # unless they lie within that of a rounding midpoint; those few ask libm.
    d = x.astype(np.float64)
    both = np.stack([np.sin(d), np.cos(d)])
    out = both.astype(np.float32)
    toward = np.where(both >= out, np.float32(np.inf), np.float32(-np.inf))
    ulp = np.abs(np.nextafter(out, toward).astype(np.float64) - out)
    near = np.abs(both - out) > _SINCOSF_SAFE * ulp
    hard = np.flatnonzero((near[0] | near[1]).ravel())
    if hard.size:
        s, c = _sincos_libm(libm, x.ravel()[hard])
        out[0].reshape(-1)[hard], out[1].reshape(-1)[hard] = s, c
    return out[0], out[1]


_SINCOSF_SAFE = 0.43   # of an ulp: 0.5 - 0.0607, less a margin


def _sincos_libm(libm, x: np.ndarray):
    """libm's ``sincosf`` / ``sincos`` on each element."""
    ct = ctypes.c_float if x.dtype == np.float32 else ctypes.c_double
    fn = libm.sincosf if x.dtype == np.float32 else libm.sincos
    s, c = ct(), ct()
    ps, pc = ctypes.byref(s), ctypes.byref(c)
    out = np.empty((2, x.size), dtype=x.dtype)
    for i, v in enumerate(x.ravel().tolist()):
        fn(v, ps, pc)
        out[0, i], out[1, i] = s.value, c.value
    return out[0].reshape(x.shape), out[1].reshape(x.shape)


# --- uniform words -> floats in [0, 1) ----------------------------------------------------
def uint32_to_float(x: np.ndarray) -> np.ndarray:
    bits = (x & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)
    return bits.view(np.float32) - np.float32(1.0)


def uint64_to_double(x0: np.ndarray, x1: np.ndarray) -> np.ndarray:
    man = ((x0 & np.uint32(0xFFFFF)).astype(np.uint64) << np.uint64(32)) | x1.astype(np.uint64)
    return (man | np.uint64(1023 << 52)).view(np.float64) - 1.0


def uint16_to_half(x: np.ndarray) -> np.ndarray:
    bits = ((x & np.uint32(0x3FF)) | np.uint32(15 << 10)).astype(np.uint16)
    return bits.view(np.float16) - np.float16(1.0)


def uint16_to_bfloat16(x: np.ndarray) -> np.ndarray:
    bits = ((x & np.uint32(0x7F)) | np.uint32(127 << 7)).astype(np.uint32) << np.uint32(16)
    return (bits.view(np.float32) - np.float32(1.0)).astype(dtypes.bfloat16.as_numpy_dtype)


# --- Box-Muller ---------------------------------------------------------------------------
def box_muller_float(x0: np.ndarray, x1: np.ndarray):
    """TF's BoxMullerFloat on word arrays: two float32 normals per pair of words."""
    u1 = np.maximum(uint32_to_float(x0), _EPS32)
    v1 = (2.0 * math.pi * uint32_to_float(x1).astype(np.float64)).astype(np.float32)
    u2 = np.sqrt(np.float32(-2.0) * _log(u1))
    s, c = _sincos(v1)
    return s * u2, c * u2


def box_muller_double(x0, x1, x2, x3):
    """TF's BoxMullerDouble: two float64 normals from four words."""
    u1 = np.maximum(uint64_to_double(x0, x1), _EPS64)
    v1 = 2 * math.pi * uint64_to_double(x2, x3)
    u2 = np.sqrt(-2.0 * _log(u1))
    s, c = _sincos(v1)
    return s * u2, c * u2


# --- whole-block distributions: (n_blocks, 4) uint32 -> (n_blocks, group) values ----------
def _uniform32(blocks, dtype):
    dtype = np.dtype(dtype)
    if dtypes.is_bfloat16(dtype):   # (ml_dtypes loads with the first bfloat16 draw)
        return uint16_to_bfloat16(blocks)
    return {np.dtype(np.float32): uint32_to_float,
            np.dtype(np.float16): uint16_to_half}[dtype](blocks)


def _normal32(blocks, dtype):
    a, b = box_muller_float(blocks[:, 0::2], blocks[:, 1::2])
    out = np.empty(blocks.shape, dtype=np.float32)
    out[:, 0::2], out[:, 1::2] = a, b
    return out.astype(dtype)


def _normal64(blocks):
    a, b = box_muller_double(blocks[:, 0], blocks[:, 1], blocks[:, 2], blocks[:, 3])
    return np.stack([a, b], axis=1)


def _group_size(dtype) -> int:
    return 2 if np.dtype(dtype).itemsize == 8 else 4


def _fixed(gen, n, dtype, convert):
    group = _group_size(dtype)
    blocks = gen.first_blocks(-(-n // group))
    return convert(blocks).reshape(-1)[:n]


def uniform(gen, n: int, dtype) -> np.ndarray:
    """``n`` floats in [0, 1) of ``dtype`` (TF's UniformDistribution)."""
    if np.dtype(dtype) == np.float64:
        return _fixed(gen, n, dtype, lambda b: uint64_to_double(b[:, 0::2], b[:, 1::2]))
    return _fixed(gen, n, dtype, lambda b: _uniform32(b, dtype))


def normal(gen, n: int, dtype) -> np.ndarray:
    """``n`` standard normals of ``dtype`` (TF's NormalDistribution)."""
    if np.dtype(dtype) == np.float64:
        return _fixed(gen, n, dtype, _normal64)
    return _fixed(gen, n, dtype, lambda b: _normal32(b, dtype))


def _full_words(blocks, dtype):
    if np.dtype(dtype).itemsize == 8:
        return (blocks[:, 0::2].astype(np.uint64)
                | (blocks[:, 1::2].astype(np.uint64) << np.uint64(32)))
    return blocks


def uniform_int(gen, n: int, dtype, lo: int, hi: int) -> np.ndarray:
    """``n`` integers in [lo, hi) of ``dtype``: ``lo + word % (hi - lo)``, TF's wrapping."""
    dt = np.dtype(dtype)
    bits = 8 * dt.itemsize
    rng = (hi - lo) % 2**bits
    words = _fixed(gen, n, dt, lambda b: _full_words(b, dt))
    unsigned = np.dtype(f"uint{bits}")
    with np.errstate(over="ignore"):
        offset = (words.astype(unsigned) % unsigned.type(rng)).astype(unsigned)
        return (offset + unsigned.type(lo % 2**bits)).view(dt)


def uniform_full_int(gen, n: int, dtype) -> np.ndarray:
    """``n`` integers covering the whole of ``dtype`` (TF's UniformFullIntDistribution)."""
    dt = np.dtype(dtype)
    words = _fixed(gen, n, dt, lambda b: _full_words(b, dt))
    return words.astype(f"uint{8 * dt.itemsize}").view(dt)


def truncated_normal(gen, n: int, dtype) -> np.ndarray:
    """``n`` standard normals with |x| < 2 of ``dtype`` (TF's TruncatedNormalDistribution
    through a SingleSampleAdapter, one generator skip per group)."""
    dt = np.dtype(dtype)
    group = _group_size(dt)
    n_groups = -(-n // group)
    skip = group * _RESERVED_SAMPLES_PER_OUTPUT // 4
    out = np.zeros((n_groups, group), dtype=np.float64 if dt == np.float64 else np.float32)
    filled = np.zeros(n_groups, dtype=np.int64)
    base = np.arange(n_groups, dtype=np.uint64) * np.uint64(skip)
    active = np.arange(n_groups)
    step = 0
    while active.size:
        blocks = gen.blocks(base[active] + np.uint64(step))
        if dt == np.float64:
            cand = _normal64(blocks)
        else:
            a, b = box_muller_float(blocks[:, 0::2], blocks[:, 1::2])
            cand = np.empty(blocks.shape, dtype=np.float32)
            cand[:, 0::2], cand[:, 1::2] = a, b
        for j in range(cand.shape[1]):          # candidates in order, as the C++ loop
            take = (np.abs(cand[:, j]) < _TRUNCATE) & (filled[active] < group)
            rows = active[take]
            out[rows, filled[rows]] = cand[take, j]
            filled[rows] += 1
        active = active[filled[active] < group]
        step += 1
    return out.astype(dt).reshape(-1)[:n]
