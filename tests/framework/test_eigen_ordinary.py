"""The Eigen float32 kernels' fast paths for ordinary inputs (eigen_cpu's ``ordinary``) give
the bits of their general paths (every special case) on the inputs they admit: Exp and
Sigmoid of values in [-80, 80], Log and Log1p of positive normal floats below 2**100,
Reciprocal of normal floats below 2**100 in magnitude. Inputs: random float32 bit
patterns (every exponent, subnormals and signed zeros among them), uniform values, and
the edges of the formulas' ranges, in rows of whole packets and with every tail length."""

import numpy as np
import pytest

from simdist.framework.ops import eigen_cpu, eigen_log1p, eigen_rcpps, eigen_unary

_F = np.float32
_WIDTHS = (64, 16, 13, 8, 7, 5, 1)   # 13, 7, 5, 1: rows with a tail (all of it for 7 and less)


def _bits(values):
    return np.array(values, np.uint32).view(_F)


def _edges():
    """The ordinary bounds, the sigmoid's clamp, signed zeros and subnormals, the smallest
    normals and the values where ``x + 1`` stops being 1, each with its neighbours."""
    points = _F([80, 16.6355324, 1, 0.5, 2 ** -23, 2 ** -24, 2 ** -126, 2 ** 99, 0.70710677])
    near = [np.nextafter(points, _F(0)), points, np.nextafter(points, _F(np.inf))]
    tiny = _bits([0, 1, 0x7FFFFF, 0x800000, 0x800001])
    out = np.concatenate(near + [tiny])
    return np.concatenate([out, -out])


def _pool(admit, seed, n=1 << 14):
    """Values ``admit`` keeps from random bit patterns, uniform values on several scales
    and ``_edges()``, shuffled."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32).view(_F)
    uniform = rng.uniform(-1, 1, n).astype(_F)
    scaled = [uniform * _F(s) for s in (2 ** -20, 1, 16, 80, 2 ** 40)]
    values = np.concatenate([bits, *scaled, _edges()])
    values = values[admit(values)]
    return values[rng.permutation(values.size)]


def _within(limit):
    return lambda x: np.abs(x) <= _F(limit)


def _positive_normal(x):
    return (x >= np.finfo(_F).tiny) & (x < _F(2 ** 100))


def _normal(x):
    return _positive_normal(np.abs(x))


_KERNELS = {   # name: (module, the kernel, its general path, the inputs its fast path admits)
    "exp": (eigen_cpu, "exp_rows", "_exp_rows", _within(80)),
    "sigmoid": (eigen_unary, "sigmoid_rows", "_sigmoid_rows", _within(80)),
    "log": (eigen_unary, "log_rows", "_log_rows", _positive_normal),
    "log1p": (eigen_log1p, "log1p_rows", "_log1p_rows", _positive_normal),
    "reciprocal": (eigen_rcpps, "reciprocal_rows", "_reciprocal_rows", _normal),
}


def _general(module, name, monkeypatch):
    """The general path ``module.name``, which the module's kernel then no longer calls."""
    general = getattr(module, name)

    def refused(rows):
        raise AssertionError(f"{name}: an input the fast path admits took the general path")
    monkeypatch.setattr(module, name, refused)
    return general


@pytest.mark.parametrize("name", sorted(_KERNELS))
@pytest.mark.parametrize("seed", [0, 1])
def test_fast_path_gives_the_general_paths_bits(name, seed, monkeypatch):
    module, kernel, general, admit = _KERNELS[name]
    values = _pool(admit, seed)
    assert values.size > 20000 and admit(values).all()
    kernel, general = getattr(module, kernel), _general(module, general, monkeypatch)
    for width in _WIDTHS:
        rows = values[: values.size - values.size % width].reshape(-1, width)
        with np.errstate(all="ignore"):
            want = general(rows)
        got = kernel(rows)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes(), (name, width)


@pytest.mark.parametrize("name", sorted(_KERNELS))
def test_one_value_outside_takes_the_general_path(name):
    """A NaN, an infinity or a value past the range in a row: the general path's bits for
    every row (the fast path's check covers the whole input)."""
    module, kernel, general, admit = _KERNELS[name]
    kernel, general = getattr(module, kernel), getattr(module, general)
    values = _pool(admit, 2, n=1 << 10)
    rows = values[: values.size - values.size % 8].reshape(-1, 8).copy()
    for outside in _F([np.nan, np.inf, -np.inf, 0, -1, 81, 2 ** 100]):
        if admit(np.array([outside])).all():
            continue
        rows[-1, -1] = outside
        with np.errstate(all="ignore"):
            want = general(rows)
        assert kernel(rows).tobytes() == want.tobytes(), (name, outside)
