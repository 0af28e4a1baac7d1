"""``tf.linalg.cholesky`` of a matrix that is not positive definite: TF 2.21's CPU kernel
gives NaNs (recorded in api_cases.py, replayed by test_framework_tf_conformance.py). Here:
the same rule on a backend that, like CuPy, returns a partial factor instead of raising
unless ``array_api.raising_linalg_errors`` is in force."""

import contextlib
import types

import numpy as np

from simdist.framework.ops import linalg_ops
from simdist.hardware import array_api


def test_a_namespace_that_does_not_raise_by_itself_still_gives_nans(monkeypatch):
    raising = []

    @contextlib.contextmanager
    def errstate(xp):
        raising.append(True)
        try:
            yield
        finally:
            raising.pop()

    def cholesky(a):  # CuPy's default: no error, whatever the factorization left (not NaN)
        if raising:
            return np.linalg.cholesky(a)
        return np.full(a.shape, 7.0, a.dtype)

    quiet = types.SimpleNamespace(**{n: getattr(np, n) for n in ("reshape", "stack", "tril",
                                                                   "full")},
                                  linalg=types.SimpleNamespace(cholesky=cholesky))
    monkeypatch.setattr(array_api, "raising_linalg_errors", errstate)
    a = np.array([[[4.0, 2.0], [2.0, 3.0]], [[1.0, 2.0], [2.0, 1.0]]], np.float32)
    got = linalg_ops._factors(quiet, a)
    np.testing.assert_array_equal(got[0], np.linalg.cholesky(a[0]))
    np.testing.assert_array_equal(np.isnan(got[1]), [[True, False], [True, True]])
    assert got[1, 0, 1] == 0.0 and got.dtype == np.float32
