"""onednn_sgemm's fast paths give the bits of its general ones: a single GEMM of one depth
block with one fused order over the whole output (``_single``) against the general
contraction (``_contract``), on operands whose float64 sums often fall exactly halfway
between two float32 values (double roundings), with signed zeros, infinities and NaNs."""

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from simdist.framework.ops import onednn_sgemm

_F = np.float32
# near +-1 (a few ulps above) times +-1, +-0.5 and +-half an ulp of 1 (off by an ulp of its
# own): sums near 1 plus such products round to float64 exactly halfway between two float32
_NEAR_ONE = [1 + i * 2.0 ** -23 for i in range(4)]
_FACTORS = [1.0, 0.5, 2.0 ** -24 * (1 - 2.0 ** -23), 2.0 ** -24 * (1 + 2.0 ** -23)]
_SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan]


def _operand(rng, shape, values, special):
    """Values from ``values`` with random signs, a ``special`` share of them signed zeros,
    infinities and NaNs."""
    x = rng.choice(values, shape) * rng.choice([-1.0, 1.0], shape)
    odd = rng.random(shape) < special
    x[odd] = rng.choice(_SPECIAL, int(odd.sum()))
    return x.astype(_F)


def _pair(seed, batch, m, k, n, transposed, special):
    """``a`` (batch, m, k) and ``b`` (batch, k, n), stored transposed where TF's flags say."""
    rng = np.random.default_rng(seed)
    a = _operand(rng, batch + ((k, m) if transposed[0] else (m, k)), _NEAR_ONE, special)
    b = _operand(rng, batch + ((n, k) if transposed[1] else (k, n)), _FACTORS, special)
    return (np.swapaxes(a, -1, -2) if transposed[0] else a,
            np.swapaxes(b, -1, -2) if transposed[1] else b)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), batch=st.sampled_from([(), (1,), (3,)]),
       m=st.integers(2, 70), k=st.integers(2, 70), n=st.integers(2, 24),
       transposed=st.tuples(st.booleans(), st.booleans()),
       special=st.sampled_from([0.0, 0.0, 0.02]))
def test_single_gemm_matches_the_general_contraction(seed, batch, m, k, n, transposed, special):
    a, b = _pair(seed, batch, m, k, n, transposed, special)
    program = onednn_sgemm._program(a.shape, b.shape, False, transposed)
    assume(getattr(program, "func", None) is onednn_sgemm._single)
    with np.errstate(all="ignore"):
        got = program(a, b)
        want = onednn_sgemm._contract(onednn_sgemm._shards(m, k, n, False), m > n, a, b)
    assert got.dtype == want.dtype == _F and got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


def test_the_seed_loop_products_take_the_single_gemm():
    """The fast path is the one seed 001's products take (so the test above checks them)."""
    for a_shape, b_shape in [((4, 10, 64), (4, 64, 16)), ((4, 64, 16), (4, 16, 8)),
                             ((64, 10), (10, 16)), ((16, 4), (4, 8))]:
        program = onednn_sgemm._program(a_shape, b_shape, False, (False, False))
        assert program.func is onednn_sgemm._single


def _row_dot(x, y, half):
    """Eigen's row-major GEMV of one row, one float32 operation at a time: 8 lanes over
    whole packets joined by predux, (``half``) one packet of 4 likewise, then term by term."""
    terms = [_F(p) * _F(q) for p, q in zip(x, y)]
    full = len(terms) // 8 * 8
    out = _predux([sum(terms[lane:full:8], _F(0)) for lane in range(8)])
    if half and len(terms) - full >= 4:
        out = out + _predux([_F(0) + t for t in terms[full:full + 4]])
        full += 4
    for t in terms[full:]:
        out = out + t
    return out + _F(0)


def _predux(lanes):
    while len(lanes) > 1:
        lanes = [p + q for p, q in zip(lanes[:len(lanes) // 2], lanes[len(lanes) // 2:])]
    return lanes[0]


def _col_dot(x, y):
    """Eigen's column-major GEMV of one output: the depth in order, in blocks of 16 (each
    from +0) added to the output from a depth of 128."""
    terms = [_F(p) * _F(q) for p, q in zip(x, y)]
    step = len(terms) if len(terms) < 128 else 16
    out = None
    for k0 in range(0, len(terms), step):
        block = _F(0)
        for t in terms[k0:k0 + step]:
            block = block + t
        out = block if out is None else out + block
    return out


def _gemv_reference(a, b, transposed):
    """TF's vector product of ``a`` (m, k) and ``b`` (k, n), m or n of 1, output by output."""
    m, n = a.shape[0], b.shape[1]
    if not transposed[0] if n == 1 else transposed[1]:             # row-major GEMV
        x, y = (a, b[:, 0]) if n == 1 else (b.T, a[0])
        rows = [_row_dot(x[i], y, i == len(x) - 1 and len(x) % 2) for i in range(len(x))]
        out = np.array(rows, _F)
    else:
        out = (np.array([_col_dot(a[i], b[:, 0]) for i in range(m)], _F) if n == 1 else
               np.array([_col_dot(a[0], b[:, j]) for j in range(n)], _F))
    return out.reshape(m, n)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), batch=st.sampled_from([(), (2,)]),
       size=st.integers(1, 30), k=st.integers(2, 140), column=st.booleans(),
       transposed=st.tuples(st.booleans(), st.booleans()),
       special=st.sampled_from([0.0, 0.05]))
def test_vector_products_match_eigens_gemv_order(seed, batch, size, k, column, transposed,
                                                  special):
    m, n = (size, 1) if column else (1, size)
    a, b = _pair(seed, batch, m, k, n, transposed, special)
    a, b = a * np.float32(np.e), b * np.float32(np.pi)      # inexact sums, order-sensitive
    assume(m + k + n >= 20)                                  # else Eigen's coefficient product
    with np.errstate(all="ignore"):
        got = onednn_sgemm.sgemm(a, b, transposed=transposed)
        want = np.stack([_gemv_reference(x, y, transposed)
                         for x, y in zip(a.reshape((-1, m, k)), b.reshape((-1, k, n)))])
    want = want.reshape(got.shape)
    assert got.dtype == _F
    assert (np.isnan(got) == np.isnan(want)).all()           # NaN payloads: NumPy's loops
    np.testing.assert_array_equal(np.where(np.isnan(got), 0, got).view(np.uint32),
                                  np.where(np.isnan(want), 0, want).view(np.uint32))


_FLOATS32 = st.floats(width=32) | st.sampled_from(
    [v * s for v in _NEAR_ONE + _FACTORS + [2.0 ** -140, 2.0 ** 120] for s in (1, -1)])


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.lists(st.tuples(_FLOATS32, _FLOATS32), min_size=3, max_size=3),
                     min_size=1, max_size=6),
       start=st.lists(_FLOATS32, min_size=3, max_size=3))
def test_fma_chains_in_python_floats_match_the_array_ones(rows, start):
    """``_fma_chain`` of a few chains (Python floats) against ``_fma`` row by row (arrays):
    exact products of float32 values, ties near 1, subnormal and overflowing sums."""
    acc = np.array(start, _F)
    with np.errstate(all="ignore"):
        products = np.array([[np.float64(_F(x)) * np.float64(_F(y)) for x, y in row]
                             for row in rows])
        got = onednn_sgemm._fma_chain(products, acc)
        want = acc
        for product in products:
            want = onednn_sgemm._fma(product, want)
    assert got.dtype == _F and (np.isnan(got) == np.isnan(want)).all()
    np.testing.assert_array_equal(np.where(np.isnan(got), 0, got).view(np.uint32),
                                  np.where(np.isnan(want), 0, want).view(np.uint32))
