"""Box-Muller's float32 sin / cos (random_distributions._sincos) are libm's sincosf bits:
NumPy's float64 sin / cos rounded, and libm itself where those lie near a rounding midpoint
(glibc's sincosf is within 0.5607 ulp). TF's kernel calls sincosf; the recorded random
programs (test_random_streams.py) check the normals end to end."""

import math

import numpy as np
import pytest

from simdist.framework.ops import random_distributions as rd


@pytest.mark.skipif(rd._libm() is None, reason="no C math library")
def test_float32_sincos_is_libm_sincosf_bit_for_bit():
    rng = np.random.RandomState(3)
    x = np.concatenate([(2 * math.pi * rng.rand(40000)).astype(np.float32),
                        np.array([0.0, 1e-30, 1e-7, math.pi, 2 * math.pi, 1.5707964],
                                 np.float32)]).reshape(2, -1)
    s, c = rd._sincos(x)
    want_s, want_c = rd._sincos_libm(rd._libm(), x)
    assert s.shape == c.shape == x.shape
    assert np.array_equal(s.view(np.uint32), want_s.view(np.uint32))
    assert np.array_equal(c.view(np.uint32), want_c.view(np.uint32))
    # the midpoints' fallback is used: rounding NumPy's float64 values alone differs
    d = x.astype(np.float64)
    assert not np.array_equal(np.sin(d).astype(np.float32), want_s)
