"""TF's float32 CPU MatMul bits: oneDNN's sgemm inside Eigen's tensor contraction, in NumPy.

Glossary:
  contraction -- TF's CPU MatMul (and BatchMatMul when it contracts) is Eigen's tensor
                contraction with TF's custom kernel (tsl eigen_contraction_kernel.h), which
                cuts the product into Eigen blocks and hands each to oneDNN's ``dnnl_sgemm``.
                Eigen sees the row-major product column-major, so oneDNN's rows are TF's
                output columns (``j``) and oneDNN's columns are TF's output rows (``i``).
  blocks      -- Eigen's single-threaded blocking (computeProductBlockingSizes, KcFactor 1,
                the caches Eigen read on the recording CPU: eigen_gebp.blocking) refined for
                oneDNN: the depth in equal slices rounded up to 8 (``kc``), TF rows in blocks
                rounded up to 24 (``nc``); each depth block after the first is added to the
                output (``beta = 1``: ``c + block``).
  shards      -- a small output with a long depth (Eigen's cost model: shardByInnerDim):
                the depth in two shards (evalShardedByInnerDim's blockSize, half the depth
                rounded up to 8), each a GEMM of its own blocked for 2 threads (the
                multi-threaded heuristic: depth blocks of up to 320), the second shard's
                result added to the first's (``_shards``).
  nocopy      -- oneDNN's AVX2 "nocopy" sgemm (jit_avx_gemm_f32.cpp), taken while
                ``1/rows + 1/cols >= 0.0038``: depth blocks of 256 (257 to 511 in two
                halves), TF rows in blocks of 48 (73 to 95 in two halves); in each block
                TF rows go in tiles of 6 and TF columns in tiles of 16 (the last columns in
                a tile of 16 if more than 8 remain, else of 8).
  orders      -- per tile: 16 columns x 4 to 6 rows is one fused multiply-add chain over
                the depth (``chain``); a tile of 8 columns, or of 3 rows, adds the even and
                the odd depths in two fused chains, joins them and fuses the odd last term
                (``pair``); tiles of 1 or 2 rows do the same with a rounded product and a
                separate add (``pair`` unfused).
  fma         -- a float32 fused multiply-add: the exact ``a * b + c`` rounded once. NumPy
                computes it in float64 (the product of two float32 values is exact there);
                the sum's rounding to float64 and then float32 is a double rounding only
                when the float64 sum lies exactly halfway between two float32 values; the
                chains with such a rare step redo it exactly (round to odd from the sum's
                exact error). Every chain of a depth block steps at once: three NumPy
                calls per depth step (the float64 sum, rounded to float32 and back) for
                all outputs, tiles and batch entries; the float64 sums are checked for
                such steps afterwards, and only the chains that have one are redone.
  program     -- every choice above depends on the operands' shapes and flags only: each
                call signature's choices are made once (``_program``, cached).
  gemv        -- a product with a dimension of 1 is not contracted (LaunchBatchMatMul):
                Eigen's matrix product makes a vector result a GEMV, without FMA.
                Column-major (one TF row, or one column with ``transpose_a``): an unfused
                sum in depth order, in blocks of 16 added to the output from a depth of 128.
                Row-major (one TF column, or one row with ``transpose_b``): 8 unfused lanes
                over whole packets joined as ``predux`` does, an odd last row's packet of
                4 likewise, then the last terms one by one.
Not modelled (``sgemm`` returns None and the caller keeps NumPy): products whose output
Eigen's cost model shares out among both threads of the recording CPU (``_sharding``),
blocks too big for the nocopy kernel (oneDNN's copy-based kernel), an
Eigen block of one row or column, and vector products with ``m + k + n < 20`` (Eigen's
coefficient-based product). Sums in float32's subnormal range are not flushed to zero as
TF's threads do (FTZ/DAZ), nor checked for ties; where two NaNs meet, which payload
wins is NumPy's loops' choice. Bit-equal to TF 2.21 (recorded on an AVX2
AMD EPYC, 2 cores) on every modelled shape (499) of 589 recorded ones, k up to 1500, on 85
random depth-sharded ones (k 600 to 1600, batches of 3 too) and on
tests/framework/onednn_sgemm_cases.py.

Mirrors tensorflow/core/kernels/matmul_op_impl.h (LaunchBatchMatMul),
tsl/framework/contraction/eigen_contraction_kernel.h (TensorContractionBlocking,
dnnl_gemm_kernel), Eigen's TensorContraction(ThreadPool).h and GeneralMatrixVector.h,
oneDNN's src/cpu/x64/gemm/gemm_driver.cpp (nocopy_checker_avx2) and
src/cpu/x64/gemm/f32/jit_avx_gemm_f32.cpp (sgemm_nocopy_driver, xbyak_gemm_t::kernel).
"""

from __future__ import annotations

import functools
import math
import struct
import threading

import numpy as np

from simdist.framework.ops import eigen_gebp

_F, _D = np.float32, np.float64
_TIE = np.iinfo(np.int64).min  # float64 bits below float32's, shifted to the top: halfway
_LOAD = 11 / 64       # TensorCostModel's cycles per byte loaded or stored
_NOCOPY = 0.0038      # nocopy_checker_avx2's FORCE_NOCOPY_THRESH
_CHUNK = 1 << 13      # float32 terms held at once by unfused sums (fresh pages cost more)
_BUDGET = 1 << 14     # float64 products held at once by the kernel's chains (128 KiB)
_PIECE = 1 << 16      # ... on a first pass, which checks for double roundings (512 KiB)
_SCRATCH = threading.local()
_FEW = 8              # chains redone one Python float at a time (arrays cost more for few)
_BITS = struct.Struct("<q"), struct.Struct("<d")


def _fma(p, c):
    """float32 ``p + c`` rounded once for exact float64 products ``p`` and float32 ``c``:
    round to odd in float64 (from the sum's exact error), then to float32."""
    c = np.asarray(c, _F).astype(_D)
    s = p + c
    t = s - p                                     # TwoSum: s + e == p + c exactly
    e = (p - (s - t)) + (c - t)
    bits = s.view(np.int64)
    inexact = (e != 0) & ((bits & 1) == 0)        # sticky bit: step to the odd neighbour
    if inexact.any():
        toward = np.where((e > 0) == (s > 0), 1, -1)
        s = np.where(inexact, bits + toward, bits).view(_D)
    return s.astype(_F)


def _fma_chain(products, acc):
    """``acc`` (float32) after ``_fma`` with each row of ``products`` in turn; up to ``_FEW``
    chains one Python float at a time (``_fma_floats``: the same IEEE operations)."""
    if len(acc) > _FEW:
        for product in products:
            acc = _fma(product, acc)
        return acc
    return np.array([_fma_floats(column, c) for column, c in
                     zip(products.T.tolist(), acc.tolist())], _F)


def _fma_floats(products, c):
    """``_fma`` of each of ``products`` in turn from ``c``, in Python floats."""
    as_int, as_float = _BITS
    for p in products:
        s = p + c
        t = s - p
        e = (p - (s - t)) + (c - t)
        if e != 0:
            bits = as_int.unpack(as_float.pack(s))[0]
            if not bits & 1:
                s = as_float.unpack(as_int.pack(bits + (1 if (e > 0) == (s > 0) else -1)))[0]
        c = float(_F(s))
    return c


def _depth_first(a, b, lanes, swap=False, dtype=None):
    """``a`` (..., m, k) and ``b`` (..., k, n) as (k, ..., m, 1) and (k, ..., 1, n) (``swap``:
    (k, ..., 1, m) and (k, ..., n, 1), the products' long side innermost; ``dtype``: copied
    to it in that order), and the shape of ``lanes`` sums: (lanes, ..., m, n) (``swap``:
    (lanes, ..., n, m))."""
    rank = max(a.ndim, b.ndim)                  # the batch axes aligned from the right
    if a.ndim < rank:
        a = a.reshape((1,) * (rank - a.ndim) + a.shape)
    if b.ndim < rank:
        b = b.reshape((1,) * (rank - b.ndim) + b.shape)
    batch = tuple(range(rank - 2))
    at = a.transpose((rank - 1,) + batch + (rank - 2,))
    bt = b.transpose((rank - 2,) + batch + (rank - 1,))
    if dtype is not None:
        at, bt = at.astype(dtype, order="C"), bt.astype(dtype, order="C")
    at, bt = (at[..., None, :], bt[..., None]) if swap else (at[..., None], bt[..., None, :])
    return at, bt, (lanes,) + _shape(at, bt)


def _products(at, bt, rects, lanes, t0, steps, shape):
    """The exact float64 products of steps ``t0`` to ``t0 + steps`` of ``lanes`` chains per
    output of each rectangle (``(rows, cols)``) of the kernel's output ``shape``, lane ``l``
    of step ``t`` at depth ``t * lanes + l``: (steps there are, each rectangle's lanes side
    by side), in this thread's scratch when one rectangle."""
    cut = slice(t0 * lanes, (t0 + steps) * lanes)
    parts = []
    for rows, cols in rects:
        a = at[cut] if rows is None else at[cut][..., rows, :]
        b = bt[cut] if cols is None else bt[cut][..., cols]
        size = (len(a),) + shape[:-2] + (_count(rows, shape[-2]), _count(cols, shape[-1]))
        out = _scratch("products", math.prod(size), _D) if len(rects) == 1 else None
        product = np.multiply(a, b, out=None if out is None else out.reshape(size))
        parts.append(product.reshape(len(product) // lanes, -1))
    return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)


def _scratch(name, size, dtype):
    """This thread's reusable buffer ``name`` of ``size`` elements (up to ``_PIECE``): a
    fresh one per product would cost more in new pages than the sums it holds."""
    if size > _PIECE:
        return np.empty(size, dtype)
    held = getattr(_SCRATCH, name, None)
    if held is None or held.size < size:
        held = np.empty(size, dtype)
        setattr(_SCRATCH, name, held)
    return held[:size]


def _fused_sums(at, bt, rects, lanes, shape):
    """Fused multiply-add chains from +0 (``_products``' columns) over the depth:
    (columns,). Each step adds the exact float64 products of every chain to their sums
    (float64 holding float32 values) and rounds to float32 (``_stepped``), ``_PIECE``
    products at a time; the chains with a step whose float64 sum lies exactly halfway
    between two float32 values (a double rounding) are redone (``_redone``)."""
    steps = at.shape[0] // lanes
    width = lanes * _width(shape, rects)
    piece = min(steps, max(1, _PIECE // width))
    sums, rounded, tied = np.zeros(width, _D), np.zeros(width, _F), None
    for t0 in range(0, steps, piece):
        ties = _stepped(_products(at, bt, rects, lanes, t0, piece, shape), sums, rounded)
        if ties is not None:
            tied = ties if tied is None else tied | ties
    if tied is not None:
        cols = np.flatnonzero(tied)
        rounded[cols] = _redone(at, bt, rects, lanes, shape, cols)
    return rounded


def _stepped(wide, sums, rounded):
    """Steps chains from their float64 ``sums`` (float32 values, ``rounded`` as float32)
    by each row of exact products ``wide``, which becomes the float64 sums: the columns with
    a step exactly halfway between two float32 values (a double rounding), or None."""
    add = np.add
    for sum_ in wide:
        add(sum_, sums, sum_)
        rounded[...] = sum_
        sums[...] = rounded
    bits = wide.view(np.int64)
    np.left_shift(bits, 35, out=bits)           # the bits below float32's, on top
    return (bits == _TIE).any(0) if np.minimum.reduce(bits, None) == _TIE else None


def _redone(at, bt, rects, lanes, shape, cols):
    """The chains ``cols`` of ``_fused_sums`` with their double roundings redone: the depth
    in pieces of ``_BUDGET`` products (of all chains), a chain with a tie in a piece redone
    from the piece's start with ``_fma``. These are the pieces this model has always used,
    so that a chain whose sums pass float32's subnormal range (where neither way is exact)
    keeps its bits."""
    steps = at.shape[0] // lanes
    chunk = min(steps, max(1, _BUDGET // (lanes * _width(shape, rects))))
    sums, rounded = np.zeros(cols.size, _D), np.zeros(cols.size, _F)
    for t0 in range(0, steps, chunk):
        start = rounded.copy()
        products = (_column_products(at, bt, lanes, t0, chunk, shape, cols) if rects is _WHOLE
                    else _products(at, bt, rects, lanes, t0, chunk, shape)[:, cols])
        ties = _stepped(products.copy(), sums, rounded)
        if ties is not None:
            ties = np.flatnonzero(ties)
            rounded[ties] = sums[ties] = _fma_chain(products[:, ties], start[ties])
    return rounded


def _column_products(at, bt, lanes, t0, steps, shape, cols):
    """``_products(...)[:, cols]`` for the whole output (``_WHOLE``): only the chains
    ``cols`` (lane by lane, each an output of ``shape``) multiplied."""
    width = math.prod(shape)
    lane, where = np.divmod(cols, width)
    index = np.unravel_index(where, shape)
    depth = np.arange(t0 * lanes, min(len(at), (t0 + steps) * lanes)).reshape(-1, lanes)
    depth = depth[:, lane]
    picks = []
    for x in (at, bt):                            # a size of 1 is broadcast: index 0
        picks.append(x[(depth,) + tuple(i if size > 1 else 0
                                        for i, size in zip(index, x.shape[1:]))])
    return picks[0] * picks[1]


def _width(shape, rects):
    """How many outputs the rectangles of a kernel's output ``shape`` have in all."""
    return math.prod(shape[:-2]) * sum(_count(rows, shape[-2]) * _count(cols, shape[-1])
                                       for rows, cols in rects)


def _shape(at, bt):
    """The product's shape (..., m, n) for depth-first ``at`` and ``bt`` (batch axes of
    the same rank, none empty)."""
    return tuple(map(max, at.shape[1:], bt.shape[1:]))


def _count(where, size):
    """How many of ``size`` a ``_subset`` holds."""
    if where is None:
        return size
    return len(range(size)[where]) if isinstance(where, slice) else where.size


def _accumulate(at, bt, lanes):
    """``lanes`` unfused sums of depth-first ``at`` (k, ..., m, 1) times ``bt`` (k, ..., 1,
    n), lane ``l`` over depths ``l``, ``l + lanes``, ... (k a multiple of ``lanes``), each
    product rounded to float32 before its addition: (lanes, ..., m, n)."""
    shape = (lanes,) + _shape(at, bt)
    steps = at.shape[0] // lanes
    if steps == 1:                                # +0 + p, from +0
        return (at * bt).astype(_F, copy=False).reshape(shape) + _F(0)
    acc = np.zeros(shape, _F)
    chunk = max(1, _CHUNK // acc.size)
    for c0 in range(0, steps, chunk):
        c1 = min(steps, c0 + chunk)
        terms = (at[c0 * lanes:c1 * lanes] * bt[c0 * lanes:c1 * lanes]).astype(_F, copy=False)
        acc = np.add.accumulate(np.concatenate([acc[None], terms.reshape((c1 - c0,) + shape)]))[-1]
    return acc + _F(0)                            # a sum from +0 is never -0


def _chain(at, bt, rects, shape):
    """One fused chain over the whole depth per output."""
    return _fused_sums(at, bt, rects, 1, shape)


def _fused_pair(at, bt, rects, shape):
    """Even and odd depths in two fused chains, joined, then the odd last depth fused."""
    depth = at.shape[0]
    whole = depth - depth % 2
    sums, start, outs = _fused_sums(at[:whole], bt[:whole], rects, 2, shape), 0, []
    for rect in rects:
        width = _width(shape, [rect])
        outs.append(sums[start:start + width] + sums[start + width:start + 2 * width])
        start += 2 * width
    out = outs[0] if len(outs) == 1 else np.concatenate(outs)
    if depth % 2 == 0:
        return out
    return _fma(_products(at[whole:], bt[whole:], rects, 1, 0, 1, shape)[0], out)


def _unfused_pair(at, bt, rects, shape):
    """As ``_fused_pair`` with each product rounded to float32 before its addition."""
    depth = at.shape[0]
    whole = depth - depth % 2
    outs = []
    for rows, cols in rects:
        a = at if rows is None else at[..., rows, :]
        b = bt if cols is None else bt[..., cols]
        sums = _accumulate(a[:whole], b[:whole], 2)
        out = sums[0] + sums[1]
        outs.append((out + (a[depth - 1] * b[depth - 1]).astype(_F) if depth % 2 else out).ravel())
    return np.concatenate(outs)


_ORDERS = {"chain": _chain, "fused": _fused_pair, "unfused": _unfused_pair}
_LANES = {"chain": 1, "fused": 2}   # the fused orders' chains per output
_WHOLE = ((None, None),)            # a kernel order's rectangles: the whole output


def _split(size, block, whole):
    """oneDNN's nocopy cuts: blocks of ``block`` while 2 blocks remain, then one piece up
    to ``whole`` or two halves."""
    cuts, pos = [], 0
    while pos < size:
        rest = size - pos
        piece = block if rest >= 2 * block else (rest + 1) // 2 if rest > whole else rest
        cuts.append((pos, pos + piece))
        pos += piece
    return cuts


def _row_tiles(rows, nc):
    """Each TF row's tile height (6, or the last tile's 1 to 5) in Eigen's and oneDNN's
    row blocks."""
    height = np.empty(rows, np.int64)
    for r0 in range(0, rows, nc):
        for b0, b1 in _split(min(r0 + nc, rows) - r0, 48, 72):
            full = (b1 - b0) // 6 * 6
            height[r0 + b0:r0 + b0 + full] = 6
            height[r0 + b0 + full:r0 + b1] = b1 - b0 - full
    return height


def _subset(where, size):
    """Indices of a subset of ``size``: None for all, a slice for a run, else themselves."""
    if where.size == size:
        return None
    if where[-1] - where[0] == where.size - 1:
        return slice(int(where[0]), int(where[-1]) + 1)
    return where


@functools.lru_cache(maxsize=256)
def _parts(m, n, nc):
    """The kernel's orders over TF's output: ``(order, rectangles)`` with a rectangle's
    rows and columns as ``_subset``s."""
    height = _row_tiles(m, nc)
    rem = n % 16
    wide = n - rem if 0 < rem <= 8 else n
    tall, three, low = (np.flatnonzero(f) for f in (height >= 4, height == 3, height <= 2))
    parts = {"chain": [(tall, np.arange(wide))], "unfused": [(low, np.arange(n))],
             "fused": [(tall, np.arange(wide, n)), (three, np.arange(n))]}
    return tuple((order, tuple((_subset(rows, m), _subset(cols, n)) for rows, cols in rects
                               if rows.size and cols.size))
                 for order, rects in parts.items()
                 if any(rows.size and cols.size for rows, cols in rects))


def _kernel(at, bt, parts, shape):
    """One depth block of the nocopy kernel, ``at`` (kb, ..., m, 1) and ``bt`` (kb, ..., 1,
    n) float64: ``shape`` (..., m, n)."""
    out = None
    for order, rects in parts:
        sums, start = _ORDERS[order](at, bt, rects, shape), 0
        for rows, cols in rects:
            if rows is None and cols is None:
                return sums.reshape(shape)
            if out is None:
                out = np.empty(shape, _F)
            size = (_count(rows, shape[-2]), _count(cols, shape[-1]))
            if isinstance(rows, np.ndarray) and isinstance(cols, np.ndarray):
                rows = rows[:, None]
            place = (..., slice(None) if rows is None else rows,
                     slice(None) if cols is None else cols)
            out[place] = sums[start:start + math.prod(size + shape[:-2])].reshape(
                shape[:-2] + size)
            start += math.prod(size + shape[:-2])
    return out


def _bandwidth(k, narrow, short):
    """computeBandwidth without FMA (TF's build): Eigen's cycles per multiply-add."""
    return 4.0 if k == 1 else 2.0 if narrow < 4 or short < 16 else 1.0


def _sharding(m, k, n, chipped):
    """How Eigen's ThreadPool contraction (evalProductImpl) runs TF's m x k x n product: 1
    (one sequential GEMM: its cost model asks for one thread), 2 (the depth sharded in two
    GEMMs: shardByInnerDim) or 0 (the output shared out among threads: not modelled).
    Eigen's rows are TF's columns; costs in TensorCostModel's cycles, the device's 2 threads
    (the recording CPU's cores). A batch's products read chips of 3-D tensors, one more
    index addition per coefficient loaded (TensorChippingOp::costPerCoeff)."""
    rows, cols = n, m
    bk = k if k <= 320 else -(-(k // -(-k // 320)) // 8) * 8   # blocking for 2 threads
    by_col = _shard_by_col(rows, cols)
    chip = 1 / 8 if chipped else 0
    per_coeff = (bk * _bandwidth(bk, rows, cols) / 8 + chip * (bk / rows + bk / cols)
                 + _LOAD * (4 + 4 * bk / (rows if by_col else cols)))
    threads = 2 if rows * cols * per_coeff >= 210_000 else 1
    inner = k * (_bandwidth(k, cols, rows) * rows * cols / 8 + chip * (rows + cols)
                 + _LOAD * (4 + 4 * cols))
    reduction = rows * cols * (3 * _LOAD + 1 / 8)
    by_k = 2 if inner / 2 + 100_000 + 2 * (reduction + 3000) < inner else 1
    if (by_k < 2 or by_k < threads or k // by_k < 8
            or rows * cols * 4 > eigen_gebp.CACHES["l3"] // by_k):
        return 1 if threads == 1 else 0
    if max(rows, cols) // threads < 4 or (
            k // by_k > 32 and (min(rows, cols) < 8 or by_k > threads)):
        return by_k
    return 1 if threads == 1 else 0


def _shard_by_col(m, n, threads=2):
    """TensorContractionEvaluator::shardByCol (Traits::nr = 4) for Eigen's m x n."""
    if m // threads >= 4 and (n // threads < 4 or (
            n // threads < 16 and n % (threads * 4) != 0
            and (m % (threads * 4) == 0 or m // n >= 6))):
        return False
    return not (n // threads < 64 and m > n * 32)


@functools.lru_cache(maxsize=256)
def _plan(m, k, n, chipped):
    """(depth blocks, kernel parts) for TF's m x k x n product when Eigen runs it as one
    sequential GEMM, or None where this model does not hold."""
    return _gemm(m, k, n, 1) if _sharding(m, k, n, chipped) == 1 else None


@functools.lru_cache(maxsize=256)
def _shards(m, k, n, chipped):
    """The GEMMs TF's m x k x n product is (``_plan``'s one, or the depth's two shards:
    evalShardedByInnerDim's blocks of blockSize, each a GEMM blocked for 2 threads, the
    second's result added to the first's): ((depth blocks, kernel parts), ...), or None."""
    shards = _sharding(m, k, n, chipped)
    if shards < 2:
        plan = _plan(m, k, n, chipped)
        return None if plan is None else (plan,)
    share = -(-k // shards)
    size = min(k, max(12 * 8, -(-share // 8) * 8))
    plans = []
    for k0 in range(0, k, size):
        plan = _gemm(m, min(k, k0 + size) - k0, n, -(-k // size))
        if plan is None:
            return None
        plans.append((tuple((k0 + d0, k0 + d1) for d0, d1 in plan[0]), plan[1]))
    return tuple(plans)


@functools.lru_cache(maxsize=256)
def _gemm(m, k, n, threads):
    """(depth blocks, kernel parts) of one GEMM (evalGemmPartial) of depth ``k`` of TF's m x
    ``k`` x n product, blocked for ``threads``, or None where the nocopy kernel does not
    take it."""
    kc, mc, nc = eigen_gebp.blocking(k, n, m, kc_factor=1, threads=threads)  # Eigen's rows
    slices = max(1, -(-k // kc))                                             # are TF's columns
    kc = min(k, -(-(k // slices) // 8) * 8)
    mc = min(n, -(-int(mc * 1.5) // 48) * 48)
    nc = min(m, -(-nc // 24) * 24)
    if 1 / mc + 1 / nc < _NOCOPY or mc > 4032 or n % mc == 1 or m % nc == 1:
        return None
    blocks = tuple((k0 + d0, k0 + d1) for k0 in range(0, k, kc)
                   for d0, d1 in _split(min(k, k0 + kc) - k0, 256, 256))
    return blocks, _parts(m, n, nc)


def _col_gemv(a, b, stride):
    """Eigen's column-major GEMV (``res += a[:, j] * b[j]``): unfused sums over the depth in
    order, in blocks of 16 added to the output from a depth of 128 (4 when a column of the
    stored matrix, ``stride`` floats, passes 32000 bytes)."""
    if a.shape[-1] < 128:                         # one block: the sum in depth order
        return _in_order(_terms(a, b)) + _F(0)
    return _col_blocks(a, b, 16 if stride * 4 < 32000 else 4)


def _terms(a, b):
    """The products of ``a`` (..., m, k) and ``b`` (..., k, n), each rounded to float32,
    depth first: (k, ..., m, n), contiguous."""
    rank = max(a.ndim, b.ndim)                  # the batch axes aligned from the right
    a = a.reshape((1,) * (rank - a.ndim) + a.shape) if a.ndim < rank else a
    b = b.reshape((1,) * (rank - b.ndim) + b.shape) if b.ndim < rank else b
    batch = tuple(range(rank - 2))
    at = a.transpose((rank - 1,) + batch + (rank - 2,))[..., None]
    bt = b.transpose((rank - 2,) + batch + (rank - 1,))[..., None, :]
    return np.multiply(at, bt, order="C")


def _in_order(terms):
    """The unfused sums of contiguous ``terms`` (k, ...) over the depth in order, from the
    first: NumPy reduces an axis that is not the fastest in memory one term at a time (its
    pairwise summation is along the fastest axis only); a single sum is accumulated."""
    return np.add.reduce(terms) if terms[0].size > 1 else np.add.accumulate(terms)[-1]


def _col_blocks(a, b, step):
    """``_col_gemv`` in blocks of ``step`` depths (each summed from +0, then added to the
    output in order), ``_CHUNK`` terms summed at once."""
    depth = a.shape[-1]
    at, bt, shape = _depth_first(a, b, 1)
    group = step * max(1, _CHUNK // (step * math.prod(shape)))
    out = None
    for k0 in range(0, depth, group):
        terms = (at[k0:k0 + group] * bt[k0:k0 + group]).astype(_F, copy=False)
        whole = len(terms) // step
        sums = np.add.accumulate(terms[:whole * step].reshape((whole, step) + shape[1:]), 1)
        sums = sums[:, -1]
        if whole * step < len(terms):
            sums = np.concatenate([sums, np.add.accumulate(terms[whole * step:])[-1:]])
        sums = sums + _F(0)                       # a sum from +0 is never -0
        out = np.add.accumulate(sums if out is None else np.concatenate([out[None], sums]))[-1]
    return out


def _dots(terms, half):
    """Eigen's row-major GEMV rows from their products ``terms`` (k, ...): 8 unfused lanes
    over whole packets joined by predux, then (a single row) one packet of 4 joined the same
    way, then one term at a time."""
    depth = len(terms)
    full = depth // 8 * 8
    out = _predux(_lanes(terms[:full], 8))
    if half and depth - full >= 4:
        out = out + _predux(_lanes(terms[full:full + 4], 4))
        full += 4
    for k in range(full, depth):
        out = out + terms[k]
    return out


def _lanes(terms, lanes):
    """``lanes`` unfused sums of ``terms`` (k, ...), lane ``l`` over depths ``l``, ``l +
    lanes``, ... (k a multiple of ``lanes``) from +0: (lanes, ...). Summed from the first
    term, then +0: the same bits (only a zero's sign could differ, and +0 makes it +0)."""
    steps = len(terms) // lanes
    if steps == 0:
        return np.zeros((lanes,) + terms.shape[1:], _F)
    if steps == 1:
        return terms + _F(0)
    return _in_order(terms.reshape((steps, lanes) + terms.shape[1:])) + _F(0)


def _predux(lanes):
    """Eigen's predux of a packet's ``lanes`` (8 or 4): its halves added, then their halves:
    ``((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7))``."""
    while len(lanes) > 1:
        lanes = lanes[:len(lanes) // 2] + lanes[len(lanes) // 2:]
    return lanes[0]


def _row_gemv(a, b):
    """Eigen's row-major GEMV, ``a`` (..., rows, k) times ``b`` (..., k, 1): rows in groups
    of 8, 4 and 2 (one math), an odd last row alone (``_dots``); each product rounded."""
    terms = _terms(a, b)[..., 0]                  # (k, ..., rows)
    rows = terms.shape[-1]
    even = rows - rows % 2
    if even == rows:
        out = _dots(terms, False)
    elif even == 0:
        out = _dots(terms, True)
    else:
        out = np.concatenate([_dots(terms[..., :even], False),
                              _dots(terms[..., even:], True)], axis=-1)
    return out[..., None] + _F(0)


def _vector_product(transposed, a, b):
    """Eigen's matrix product (SequentialMatMulKernel) when a dimension is 1: a vector
    result is a GEMV, column-major or row-major as the stored matrix is (TF's transpose
    flags); None for products so small that Eigen takes its coefficient-based product."""
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    if m + k + n < 20:
        return None
    if n == 1:               # x @ y: the stored x is row-major unless transposed
        return _col_gemv(a, b, m) if transposed[0] else _row_gemv(a, b)
    # m == 1: (y^T x^T)^T, the stored y row-major (k x n) unless transposed
    if transposed[1]:
        return np.swapaxes(_row_gemv(np.swapaxes(b, -1, -2), np.swapaxes(a, -1, -2)), -1, -2)
    return _col_gemv(a, b, n)


def sgemm(a, b, chipped=False, transposed=(False, False)):
    """TF's CPU float32 ``a @ b`` for ``a`` (..., m, k) and ``b`` (..., k, n) (TF's
    ``transposed`` flags already applied, batch dimensions broadcast; ``chipped``: each one
    of a batch's products), or None where its order is not modelled."""
    return _program(a.shape, b.shape, bool(chipped), tuple(transposed))(a, b)


@functools.lru_cache(maxsize=1024)
def _program(a_shape, b_shape, chipped, transposed):
    """``sgemm`` for operands of these shapes: a function of ``a`` and ``b`` (every choice
    of order depends on the shapes and flags only)."""
    m, k, n = a_shape[-2], a_shape[-1], b_shape[-1]
    if 0 in a_shape or 0 in b_shape:
        return _unmodelled
    if k == 1:                       # any order: the products, rounded (+0 + p)
        return _rounded_products
    if m == 1 or n == 1:
        return functools.partial(_vector_product, transposed)
    shards = _shards(m, k, n, chipped)
    if shards is None:
        return _unmodelled
    whole = all(len(parts) == 1 and parts[0][1][0][0] is None and parts[0][1][0][1] is None
                for _, parts in shards)
    (blocks, parts), *more = shards
    if whole and not more and len(blocks) == 1 and parts[0][0] in _LANES:
        single = _single_plan(a_shape, b_shape, parts[0][0], m > n)
        if single is not None:
            return functools.partial(_single, single)
    return functools.partial(_contract, shards, whole and m > n)


def _single_plan(a_shape, b_shape, order, swap):
    """``_single``'s plan for one GEMM of one depth block with one fused order over the
    whole output: (lanes, depth in whole steps, swap, the kernel's output shape, and per
    operand the axes and shape that make it ``_depth_first``'s), or None when its products
    take more than one ``_PIECE``."""
    k, lanes = a_shape[-1], _LANES[order]
    batch = np.broadcast_shapes(a_shape[:-2], b_shape[:-2])
    shape = batch + ((b_shape[-1], a_shape[-2]) if swap else (a_shape[-2], b_shape[-1]))
    whole = k - k % lanes
    if whole * math.prod(shape) > _PIECE:
        return None
    rank = len(batch) + 2
    ra, rb = len(a_shape), len(b_shape)
    a_depth = (ra - 1,) + tuple(range(ra - 2)) + (ra - 2,), (k,) + (1,) * (rank - ra) + (
        a_shape[:-2] + ((1, a_shape[-2]) if swap else (a_shape[-2], 1)))
    b_depth = (rb - 2,) + tuple(range(rb - 2)) + (rb - 1,), (k,) + (1,) * (rank - rb) + (
        b_shape[:-2] + ((b_shape[-1], 1) if swap else (1, b_shape[-1])))
    return lanes, whole, swap, shape, a_depth, b_depth


def _single(plan, a, b):
    """``_contract`` for one GEMM of one depth block with one fused order over the whole
    output (``_single_plan``): ``_fused_sums`` of the whole output in one piece, the even and
    odd chains of a pair joined, an odd last depth fused (``_fused_pair``)."""
    lanes, whole, swap, shape, (a_axes, a_shape), (b_axes, b_shape) = plan
    at = a.transpose(a_axes).astype(_D, order="C").reshape(a_shape)   # _depth_first's
    bt = b.transpose(b_axes).astype(_D, order="C").reshape(b_shape)
    width = math.prod(shape)
    wide = _scratch("products", whole * width, _D).reshape((whole,) + shape)
    np.multiply(at[:whole], bt[:whole], out=wide)
    sums, rounded = np.zeros(lanes * width, _D), np.empty(lanes * width, _F)
    ties = _stepped(wide.reshape(-1, lanes * width), sums, rounded)
    if ties is not None:
        cols = np.flatnonzero(ties)
        rounded[cols] = _redone(at[:whole], bt[:whole], _WHOLE, lanes, shape, cols)
    out = rounded if lanes == 1 else rounded[:width] + rounded[width:]
    if whole < len(at):
        out = _fma((at[whole] * bt[whole]).ravel(), out)
    out = out.reshape(shape)
    return np.ascontiguousarray(np.swapaxes(out, -1, -2)) if swap else out


def _unmodelled(a, b):
    """No model: the caller keeps NumPy's product."""
    return None


def _rounded_products(a, b):
    """A depth of 1: each output is its product rounded (+0 + p)."""
    return a * b + _F(0)


def _contract(shards, swap, a, b):
    """The contraction: each GEMM's depth blocks, each the nocopy kernel's, added up, and
    the GEMMs' results added up. ``swap``: the kernel runs on the transposed output (one
    order for all of it, more rows than columns), so that its products' inner loops are the
    longer side."""
    at, bt, shape = _depth_first(a, b, 1, swap, _D)
    total = None
    for blocks, parts in shards:
        out = None
        for k0, k1 in blocks:
            if k1 - k0 == 1:             # every order: the product, rounded (+0 + p)
                part = a[..., k0:k1] * b[..., k0:k1, :] + _F(0)
            else:
                part = _kernel(at[k0:k1], bt[k0:k1], parts, shape[1:])
                if swap:
                    part = np.ascontiguousarray(np.swapaxes(part, -1, -2))
            out = part if out is None else out + part
        total = out if total is None else total + out
    return total
