"""eigen_householder_qr: Eigen's float32 loops give a QR factorisation (TF's bits are pinned by
tests/framework/fixtures/tf_random.json: linalg_qr_float32, keras_Orthogonal_seeded, and for
48 reflectors or more by tf_blocked_qr.json)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simdist as tf
from simdist.framework.ops import eigen_householder_qr as E


@st.composite
def _tall(draw):
    n = draw(st.integers(1, 12))
    m = draw(st.integers(n, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    return np.random.default_rng(seed).standard_normal((m, n)).astype(np.float32)


@settings(max_examples=30, deadline=None)
@given(_tall(), st.booleans())
def test_the_loops_factorise_as_lapack_does_within_float32_rounding(a, full):
    q, r = E.qr(a, full)
    q64, r64 = np.linalg.qr(a.astype(np.float64), mode="complete" if full else "reduced")
    assert q.dtype == r.dtype == np.float32 and q.shape == q64.shape and r.shape == r64.shape
    np.testing.assert_allclose(q, q64, atol=2e-5)   # Householder's signs are LAPACK's too
    np.testing.assert_allclose(r, r64, atol=2e-5 * np.abs(r64).max())


def test_what_is_not_modelled_falls_back_to_float64():
    assert E.modelled(60, 48, False) and E.modelled(3, 4, True)     # blocked, wide: modelled
    assert E.modelled(2048, 512, False) and not E.modelled(2048, 512, True)
    assert E.modelled(812, 812, True) and not E.modelled(813, 813, False)
    assert not E.modelled(4096, 512, False)     # past MAX_WORK: float64 LAPACK
    tiny = np.array([[1.0, 2.0], [1e-30, 3.0], [0.0, 1.0]], np.float32)
    assert E.qr(tiny, False) is None     # a tail whose squared norm is under float32's tiny
    q, r = tf.linalg.qr(tiny)
    np.testing.assert_allclose((q @ r).numpy(), tiny, atol=1e-6)
    wide = tf.random.stateless_normal([3, 5], [1, 2])
    q, r = tf.linalg.qr(wide)
    np.testing.assert_allclose((q @ r).numpy(), wide.numpy(), atol=1e-5)


@pytest.mark.parametrize("shape", [(150, 60), (60, 150), (97, 97)])
def test_the_blocked_algorithm_factorises_within_float32_rounding(shape):
    a = np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)
    for full in (False, True):
        q, r = E.qr(a, full)
        q64, r64 = np.linalg.qr(a.astype(np.float64), mode="complete" if full else "reduced")
        assert q.shape == q64.shape and r.shape == r64.shape
        np.testing.assert_allclose(q, q64, atol=5e-5)
        np.testing.assert_allclose(r, r64, atol=5e-5 * np.abs(r64).max())
