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
