"""TF's float32 Exp, Softmax and Sum on a CPU, as its Eigen kernels compute them, in NumPy.

Glossary:
  formula    -- TF's SoftmaxEigenImpl: ``shifted = x - max(x)``, ``e = exp(shifted)``, then
                ``e * (1 / sum(e))`` along the classes (not ``exp(x - logsumexp(x))``).
  pexp       -- Eigen's float32 exp for a packet of 8 (TF's x86 build: AVX without FMA, so
                every multiply-add rounds twice): ``m = floor(x * log2(e) + 0.5)``, ``r = x -
                m * ln 2`` in two parts, a degree-6 polynomial in ``r``, times ``2**m``.
                Elements past the last whole packet of the tensor take the scalar
                ``std::exp`` (glibc's expf, ``exp_tail``). Results below float32's smallest normal
                are 0 (TF runs its kernels with denormals flushed to zero). Bit-equal to TF's
                tf.exp on 400,000 float32 values.
  inner sum  -- Eigen's sum along the innermost dimension (InnerMostDimReducer): packets of
                8 added into 4 packet accumulators when there are 32 values or more (joined
                ``((p0 + p1) + p2) + p3``), the remaining whole packets into the first, the
                last values one by one into a scalar, then ``scalar + predux(packet)``, where
                predux adds the halves and then ``(v0 + v2) + (v1 + v3)``. It is TF's Sum
                (and Mean's sum) over trailing dimensions of up to 8192 values
                (eigen_reduce.py): bit-equal to TF's tf.reduce_sum / reduce_mean on rows and
                whole tensors of 2 to 8192 float32 values, where NumPy's pairwise sum is not.
  column sum -- Eigen's sum over a tensor's leading dimensions (a column of the tensor as
                a matrix (leading values, the rest)): 16 rows or more in four accumulators
                by row mod 4 for the columns in whole packets of 8, row after row for the
                rest: TF's Sum / Mean over leading axes (eigen_reduce.py), and
                FusedBatchNorm's batch statistics.
  reciprocal -- ``1 / sum`` of the rows in whole packets of 8 is the CPU's approximate
                ``rcpps`` refined by one Newton step, whose last bit depends on the CPU
                (rcpps is implementation-defined: eigen_rcpps.py holds the table of the
                CPU TF's fixtures were recorded on); the rows after them divide exactly.
                Bit-equal to TF's softmax on the recorded cases; on larger tensors (a
                few thousand values) TF evaluates exp(shifted) in tiles whose sizes come
                from the host's caches, and a value at a tile's end may take std::exp: one
                value in several thousand is an ulp off.
  packets    -- an element-wise kernel's whole packets of 8 take Eigen's packet formula,
                the last ``size % 8`` values the scalar one (``by_packets``); TF reads
                subnormal inputs as zero and flushes subnormal results (``daz``, ``ftz``).
  ordinary   -- inputs for which a formula's special cases (clamps, flushes, NaN and
                infinity selections) change nothing: a kernel checks its whole input once
                (one reduction) and then computes without them, the same bits, with
                constants as 0-d arrays (``constant``: NumPy combines an array with a
                0-d array in half the time it takes with a NumPy scalar).
Every step is IEEE float32 arithmetic in NumPy (one rounding per operation), so the bits
do not depend on the host CPU's SIMD width, unlike NumPy's own exp. eigen_pow.py and
eigen_unary.py build TF's Pow, Tanh, Sigmoid and Log from the same pieces.

Mirrors tensorflow/core/kernels/softmax_op_functor.h, Eigen's pexp_float
(Eigen/src/Core/arch/Default/GenericPacketMathFunctions.h) and InnerMostDimReducer
(unsupported/Eigen/CXX11/src/Tensor/TensorReduction.h).
"""

from __future__ import annotations

import functools

import numpy as np

_F = np.float32
PACKET = 8  # floats in an AVX packet
_TINY = np.finfo(np.float32).tiny


def _madd(a, b, c):
    """Eigen's pmadd without FMA: the product rounded, then the sum."""
    return a * b + c


def horner(coefficients, x):
    """Eigen's ppolevl: the polynomial of ``coefficients`` (highest degree first) at ``x``,
    each multiply-add rounded twice."""
    if len(coefficients) == 1:
        return np.full_like(x, coefficients[0])
    out = x * coefficients[0] + coefficients[1]   # (c0 * x, as full_like(x, c0) * x gives)
    for c in coefficients[2:]:
        out = out * x + c
    return out


def daz(a):
    """``a`` as a float32 array whose subnormals are signed zeros (denormals-are-zero)."""
    a = np.asarray(a, _F)
    return np.where(np.abs(a) < _TINY, _F(0) * a, a)


def ftz(a):
    """``a`` with its subnormal results flushed to signed zeros (flush-to-zero)."""
    return np.where(np.abs(a) < _TINY, _F(0) * a, a)


def quiet_nans(given, out):
    """``out`` with each NaN of ``given`` coming back as itself, quieted, where Eigen's
    arithmetic passes its NaN operand on (x86 keeps the first NaN operand's bits; NumPy's
    SIMD loops may keep another's)."""
    nan = np.isnan(given)
    return np.where(nan, given + _F(0), out) if nan.any() else out


def by_packets(packets, tail, *rows):
    """An element-wise kernel of the 2-D arrays ``rows`` (one shape), each row a tensor of
    its own: its whole packets of 8 by ``packets``, the values after them by ``tail``."""
    size = rows[0].shape[1]
    whole = size - size % PACKET
    out = np.empty(rows[0].shape, _F)
    if not size:
        return out
    if whole == size or not whole:   # one formula for every value: no call on no values
        out[...] = (packets if whole else tail)(*rows)
        return out
    out[:, :whole] = packets(*(r[:, :whole] for r in rows))
    out[:, whole:] = tail(*(r[:, whole:] for r in rows))
    return out


@functools.cache
def libm(name):
    """The C library's float32 function ``name`` (``"expf"``, ``"sinf"`` ...) of a float32
    array, element by element, as TF's scalar tail calls it (glibc's expf, expm1f, sinf
    are not always correctly rounded); NumPy's float64 function rounded where there is no
    C library. For a tail's few values: each is one call."""
    from simdist.framework.ops import random_distributions

    lib = random_distributions._libm()
    if lib is None:
        fallback = getattr(np, name[:-1])
        return lambda t: fallback(np.asarray(t, np.float64)).astype(_F)
    import ctypes

    fn = getattr(lib, name)
    fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    return lambda t: np.array([fn(v) for v in np.ravel(t).tolist()], _F).reshape(np.shape(t))


def constant(value, dtype=_F):
    """``value`` as a read-only 0-d array of ``dtype`` (see ``ordinary``)."""
    out = np.array(value, dtype)
    out.flags.writeable = False
    return out


def whole_packets(packets, tail, rows):
    """``by_packets`` of rows of whole packets only (``packets``' new float32 array of
    their shape, as it is), else ``by_packets``."""
    if rows.shape[1] % PACKET:
        return by_packets(packets, tail, rows)
    return packets(rows)


_U32 = np.dtype(np.uint32)
# m + 2**23 + 127 in float32 (m an integer in [-126, 127]) holds m + 127 in its low
# mantissa bits: shifted 23 bits left (the rest leaves the 32), the bits of 2**m
_POW2_BIAS, _EXPONENT_SHIFT = constant(2 ** 23 + 127), constant(23, np.uint32)


def pow2(m):
    """``2**m`` of a float32 array of integers in [-126, 127] (``ldexp(1, m)``, a normal
    float), from its bits."""
    return ((m + _POW2_BIAS).view(_U32) << _EXPONENT_SHIFT).view(_F)


def elementwise(packets, tail):
    """TF's float32 kernel of an element-wise op from its packet and scalar formulas: the
    function of a float32 array (any shape), and the function of each row of a 2-D array
    as a tensor of its own (a stacked kernel's replicas)."""
    def rows_fn(rows):
        with np.errstate(all="ignore"):
            return by_packets(packets, tail, rows)

    def fn(a):
        return rows_fn(np.reshape(np.asarray(a, _F), (1, -1))).reshape(np.shape(a))
    return fn, rows_fn


def pexp(x):
    """Eigen's packet exp of a float32 array (any shape), every element as a packet's."""
    with np.errstate(all="ignore"):
        return _pexp(x)


# pexp's float32 constants, made once (a NumPy scalar made per call costs more than the
# arithmetic on a small tensor)
_LOWEST, _HIGHEST = _F(-104.0), _F(88.723)
_LOG2E, _HALF, _ONE = _F(1.44269504088896341), _F(0.5), _F(1.0)
_LN2_HI, _LN2_LO = _F(-0.693359375), _F(2.12194440e-4)
_P0, _P1 = _F(1.37449637986719608306884765625e-3), _F(4.166965186595916748046875e-2)
_P2, _P3 = _F(8.36894474923610687255859375e-3), _F(0.16666518151760101318359375)
_P4, _ZERO = _F(0.49999988079071044921875), _F(0)


def _pexp(x):
    zero = x < _LOWEST
    out = _pexp_unflushed(np.minimum(x, _HIGHEST))
    return np.where(zero | (out < _TINY), _ZERO, out)


# inputs in [-80, 80] (``ordinary``): none below -104 or above 88.723, every result at
# least exp(-80) ~ 1.8e-35, a normal float: pexp's clamp and flushes change nothing
_ORDINARY = _F(80)
_C_LOG2E, _C_HALF, _C_ONE = constant(_LOG2E), constant(_HALF), constant(_ONE)
_C_ZERO = constant(0)
_C_LN2_HI, _C_LN2_LO = constant(_LN2_HI), constant(_LN2_LO)
_C_P = tuple(constant(c) for c in (_P0, _P1, _P2, _P3, _P4))


def cephes_exp(x, p_even, p_odd):
    """Eigen's float32 exp by Cephes' reduction ``x = m ln2 + r`` (``m = floor(x log2(e) +
    1/2)``, ``ln2`` in two parts) and ``r2 (r p_odd(r2) + p_even(r2)) + (r + 1)`` times
    ``2**m``, for values whose ``m`` is in [-126, 127] and whose results are normal floats
    (``ldexp`` is then the product by ``pow2(m)``)."""
    m = np.floor(x * _C_LOG2E + _C_HALF)
    r = m * _C_LN2_HI + x
    r = m * _C_LN2_LO + r
    r2 = r * r
    return (r2 * (r * p_odd(r2) + p_even(r2)) + (r + _C_ONE)) * pow2(m)


def _ordinary_exp(x):
    """``_pexp_unflushed`` of values in [-_ORDINARY, _ORDINARY] (m in [-116, 116]); every
    result exceeds its input, so the final maximum keeps it."""
    return cephes_exp(x, _exp_even, _exp_odd)


def _exp_even(r2):
    return r2 * (r2 * _C_P[0] + _C_P[1]) + _C_P[4]


def _exp_odd(r2):
    return r2 * _C_P[2] + _C_P[3]


def _pexp_unflushed(x):
    """pexp of values at most 88.723, results below float32's smallest normal kept."""
    m = np.floor(_madd(x, _LOG2E, _HALF))
    r = _madd(m, _LN2_HI, x)
    r = _madd(m, _LN2_LO, r)
    r2 = r * r
    p_even = _madd(r2, _P0, _P1)
    p_odd = _madd(r2, _P2, _P3)
    p_even = _madd(r2, p_even, _P4)
    y = _madd(r2, _madd(r, p_odd, p_even), r + _ONE)
    return np.maximum(np.ldexp(y, m.astype(np.int32)).astype(_F), x)


def exp(x):
    """TF's float32 Exp of a tensor: whole packets by ``pexp``, the tail by ``std::exp``."""
    return exp_rows(np.reshape(x, (1, -1))).reshape(np.shape(x))


def exp_rows(rows):
    """``exp`` of each row of the 2-D float32 array ``rows`` as of a tensor of its own (the
    values past a row's last whole packet by ``std::exp``): one computation for the rows
    of several replicas' tensors (stacked_kernels)."""
    if ordinary(rows):
        with np.errstate(all="ignore"):
            return whole_packets(_ordinary_exp, exp_tail, rows)
    return _exp_rows(rows)


def ordinary(x):
    """Whether the float32 array ``x`` has values, all of them in [-80, 80] (no NaN)."""
    return x.size > 0 and bool(np.abs(x).max() <= _ORDINARY)


# a float32 is normal, positive and below 2**100 where its bits less those of the smallest
# normal (as unsigned: zeros and negatives wrap round) are below 2**100's less them
_SMALLEST_BITS = constant(1 << 23, np.uint32)
_SPAN = constant((227 << 23) - (1 << 23) - 1, np.uint32)


def positive_normal(x):
    """Whether the float32 array ``x`` has values, all of them normal floats in (0, 2**100)."""
    return x.size > 0 and bool((x.view(_U32) - _SMALLEST_BITS).max() <= _SPAN)


def _exp_rows(rows):
    """``exp_rows`` with every special case (any inputs)."""
    out = by_packets(pexp, exp_tail, rows)
    out[out < _TINY] = 0
    return out


def exp_tail(t):
    """``std::exp`` of a tail's float32 values: the C library's expf (glibc's is not
    always correctly rounded: float64's exp rounded differs in ~4 values in 10,000),
    subnormal results flushed."""
    with np.errstate(all="ignore"):
        return ftz(libm("expf")(t))


def _predux(p):
    half = p[..., :4] + p[..., 4:]
    return (half[..., 0] + half[..., 2]) + (half[..., 1] + half[..., 3])


def inner_sum(x):
    """Eigen's float32 sum of each row of ``x`` (rows, n), in its order (n <= 8192, where
    Eigen does not split the row into a tree): ``_transposed_sum`` where ``x`` holds no
    NaN, else ``_strided_sum``."""
    top = x.max() if x.size else None
    if top is not None and top == top:
        return _transposed_sum(x)
    return _strided_sum(x)


def _strided_sum(x):
    """``inner_sum`` on the rows as they are. The packet accumulators' sums over the
    blocks of 32 are NumPy reductions over a non-contiguous axis: added block after block,
    as Eigen's loop adds them."""
    rows, n = x.shape
    start, acc = 0, np.zeros((rows, PACKET), _F)
    if n >= 4 * PACKET:
        start = n - n % (4 * PACKET)
        accs = np.add.reduce(x[:, :start].reshape(rows, start // (4 * PACKET), 4, PACKET),
                             axis=1, dtype=_F)
        acc = ((accs[:, 0] + accs[:, 1]) + accs[:, 2]) + accs[:, 3]
    for j in range(start, n - PACKET + 1, PACKET):
        acc = acc + x[:, j:j + PACKET]
        start = j + PACKET
    scalar = np.zeros(rows, _F)
    for j in range(start, n):
        scalar = scalar + x[:, j]
    return scalar + _predux(acc)


def _transposed_sum(x):
    """``inner_sum`` of rows without NaN, on their transpose: the slices of whole rows of
    it are contiguous, which NumPy adds in half the time or less, the same sums (NumPy's
    contiguous loops may keep the second of two NaN operands' bits, where the strided ones
    keep the first, as x86 does: with no NaN given, every NaN made is the default one);
    the blocks of 32 reduce over its first axis, block after block."""
    rows, n = x.shape
    whole, blocks = n - n % PACKET, n - n % (4 * PACKET)
    t = x.T.copy()
    if blocks:
        accs = np.add.reduce(t[:blocks].reshape(blocks // (4 * PACKET), 4, PACKET, rows),
                             axis=0, dtype=_F)
        acc = ((accs[0] + accs[1]) + accs[2]) + accs[3]
    else:
        acc = np.zeros((PACKET, rows), _F)
    for j in range(blocks, whole, PACKET):
        acc = acc + t[j:j + PACKET]
    scalar = _C_ZERO
    for j in range(whole, n):
        scalar = scalar + t[j]
    half = acc[:4] + acc[4:]   # _predux, along the first axis
    pairs = half[:2] + half[2:]
    return scalar + (pairs[0] + pairs[1])


LEAF = 8192  # values Eigen sums in one packet loop; longer rows are split into a tree


def column_sum(x):
    """Eigen's float32 sum of each column of ``x`` (rows, depth), in its order (TF's Sum over
    a tensor's leading dimensions: InnerMostDimPreserver). With 16 rows or more, the columns
    in whole packets of 8 add rows into four accumulators by row mod 4, joined ``((a0 +
    a1) + a2) + a3``, then the last ``rows % 4`` rows; fewer rows, and the columns after
    the whole packets, add one row after another. Every accumulator starts at +0."""
    rows, depth = x.shape
    out = np.zeros(depth, _F)
    if rows == 0:
        return out
    whole = depth - depth % PACKET if rows >= 16 else 0
    if whole:
        unrolled = rows - rows % 4
        blocks = x[:unrolled, :whole].reshape(unrolled // 4, 4, whole)
        accs = np.cumsum(blocks, axis=0, dtype=_F)[-1]
        acc = ((accs[0] + accs[1]) + accs[2]) + accs[3]
        for j in range(unrolled, rows):
            acc = acc + x[j, :whole]
        out[:whole] = acc
    if whole < depth:
        out[whole:] = np.cumsum(x[:, whole:], axis=0, dtype=_F)[-1]
    return out + _F(0)   # an all -0 column: the accumulators' +0 start makes it +0


def _inverse(total):
    """``1 / total`` as Eigen's ``inverse()`` of the row sums gives it: whole packets of 8
    by ``preciprocal`` (the CPU's rcpps and a Newton step), the rest divided."""
    from simdist.framework.ops.eigen_rcpps import preciprocal

    whole = total.size - total.size % PACKET
    return np.concatenate([preciprocal(total[:whole]), _F(1) / total[whole:]])


def softmax(x, axis):
    """TF's float32 Softmax of ``x`` (a NumPy float32 array) along ``axis``, swapped with
    the last one as tf.nn.softmax does; rows over 8192 classes are summed by NumPy (Eigen
    splits them into a tree, not reproduced)."""
    rows = np.swapaxes(x, axis, -1)
    if rows.size == 0:
        return x.copy()
    shape, n = rows.shape, rows.shape[-1]
    rows = rows.reshape(-1, n)
    with np.errstate(all="ignore"):
        e = exp(rows - rows.max(axis=-1, keepdims=True))
        total = inner_sum(e) if n <= 1024 * PACKET else e.sum(axis=-1, dtype=_F)
        out = e * _inverse(total)[:, None]
    return np.swapaxes(out.reshape(shape), axis, -1)
