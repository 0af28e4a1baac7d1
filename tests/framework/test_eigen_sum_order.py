"""eigen_cpu.inner_sum adds each row in Eigen's order (a literal model of
InnerMostDimReducer: four packet accumulators from +0 over the blocks of 32, then the
whole packets left into the first, the tail into a scalar, scalar + predux), and
eigen_redux's stacked outer sum gives each stacked array's outer_sum: bit for bit on
random values with signed zeros, infinities, NaN, subnormals and sums that cancel or
overflow, for every row length to 100 (and 257, 1000), and for the stacked shapes of a
channels-last BiasAddGrad (depth 1 included: a NumPy reduction over a single column is
pairwise, not in order). Against the model a NaN is any NaN: which NaN operand's bits a
NumPy loop keeps is its own (eigen_cpu.quiet_nans)."""

import numpy as np
import pytest

from simdist.framework.ops import eigen_cpu, eigen_redux

_F = np.float32


@pytest.fixture(autouse=True)
def _quiet():
    with np.errstate(all="ignore"):   # the sums that overflow
        yield


def _eigen_inner_sum(row):
    """Eigen's float32 sum of one row, value by value as its loops add them."""
    n = row.size
    accs = [np.zeros(8, _F) for _ in range(4)]
    blocks = n - n % 32
    for start in range(0, blocks, 32):
        for a in range(4):
            accs[a] = accs[a] + row[start + 8 * a:start + 8 * a + 8]
    packet = ((accs[0] + accs[1]) + accs[2]) + accs[3] if blocks else np.zeros(8, _F)
    whole = n - n % 8
    for start in range(blocks, whole, 8):
        packet = packet + row[start:start + 8]
    scalar = _F(0)
    for v in row[whole:]:
        scalar = _F(scalar + v)
    half = packet[:4] + packet[4:]
    return _F(scalar + _F((half[0] + half[2]) + (half[1] + half[3])))


def _values(rng, shape):
    """Normal values with one in five a special one."""
    x = (rng.standard_normal(shape) * rng.choice([1e-3, 1, 1e3, 3e37], shape)).astype(_F)
    specials = _F([0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-40, 3e38, -3e38])
    pick = rng.random(shape) < 0.2
    x[pick] = rng.choice(specials, pick.sum())
    return x


def _plain(rng, shape):
    return rng.standard_normal(shape).astype(_F)


@pytest.mark.parametrize("values", [_plain, _values])
def test_inner_sum_adds_in_eigens_order(values):
    rng = np.random.default_rng(3)
    for n in [*range(101), 257, 1000]:
        rows = 1 + n % 4
        x = values(rng, (rows, n))
        got = eigen_cpu.inner_sum(x)
        want = np.array([_eigen_inner_sum(row) for row in x], _F)
        assert got.dtype == _F and got.shape == (rows,)
        nan = np.isnan(want)
        assert (np.isnan(got) == nan).all(), n
        assert got[~nan].tobytes() == want[~nan].tobytes(), n


def test_transposed_sum_gives_the_strided_sums_bits():
    """Rows without NaN (infinities that make NaNs among them): the two layouts' sums agree
    bit for bit, NaNs included, for 1 to 21 rows (NumPy's contiguous loops treat the last
    values past a multiple of 16 apart)."""
    rng = np.random.default_rng(8)
    for n in [*range(1, 80), 257]:
        x = _values(rng, (1 + n % 21, n))
        x[np.isnan(x)] = np.inf
        assert eigen_cpu._transposed_sum(x).tobytes() == eigen_cpu._strided_sum(x).tobytes()


def test_inner_sum_of_zeros_and_noncontiguous_rows():
    """Rows of -0 sum to +0 (the accumulators' +0 start); a strided view sums as its copy."""
    x = np.full((3, 64), -0.0, _F)
    assert eigen_cpu.inner_sum(x).tobytes() == np.zeros(3, _F).tobytes()
    y = np.random.default_rng(4).standard_normal((5, 130)).astype(_F)
    view = y[::2, 1::2]
    assert eigen_cpu.inner_sum(view).tobytes() == eigen_cpu.inner_sum(view.copy()).tobytes()


@pytest.mark.parametrize("values", [_plain, _values])
@pytest.mark.parametrize("count,rows,depth", [(4, 64, 1), (4, 64, 8), (4, 64, 16), (2, 2, 1),
                                              (1, 5, 1), (1, 5, 3), (3, 17, 64), (4, 3, 2)])
def test_stacked_outer_sum_gives_each_arrays_outer_sum(values, count, rows, depth):
    summed = eigen_redux.outer_sum_stacked(rows, depth)
    assert summed is not None
    rng = np.random.default_rng(rows * depth)
    for _ in range(5):
        x = values(rng, (count, rows, depth))
        got = summed(x)
        assert got.shape == (count, depth) and got.dtype == _F
        for k in range(count):
            assert got[k].tobytes() == eigen_redux.outer_sum(x[k]).tobytes(), k
