"""The Array API extras convolutions and slicing lean on, checked against plain NumPy on
whatever backend runs them (also re-run on array_api_strict: pytest.mark.array_api)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import simdist as tf
from simdist.hardware import array_api, backend

pytestmark = pytest.mark.array_api


def _naive_windows(x, out_hw, k, s, d):
    n, _, _, c = x.shape
    out = np.zeros((n, out_hw[0], out_hw[1], k[0], k[1], c), x.dtype)
    for y in range(out_hw[0]):
        for z in range(out_hw[1]):
            for i in range(k[0]):
                for j in range(k[1]):
                    out[:, y, z, i, j, :] = x[:, y * s[0] + i * d[0], z * s[1] + j * d[1], :]
    return out


@settings(max_examples=25, deadline=None)
@given(h=st.integers(1, 7), w=st.integers(1, 7), k=st.tuples(st.integers(1, 3), st.integers(1, 3)),
       s=st.tuples(st.integers(1, 3), st.integers(1, 3)),
       d=st.tuples(st.integers(1, 2), st.integers(1, 2)),
       pads=st.tuples(st.integers(0, 2), st.integers(0, 2)), fill=st.sampled_from([0.0, -7.5]))
@example(h=1, w=1, k=(1, 2), s=(1, 1), d=(1, 2), pads=(0, 0), fill=0.0)  # no window fits
def test_pad_and_windows_are_the_naive_loops(h, w, k, s, d, pads, fill):
    host = np.arange(2 * h * w * 3, dtype=np.float32).reshape(2, h, w, 3)
    widths = ((0, 0), (pads[0], pads[1]), (pads[1], pads[0]), (0, 0))
    want_padded = np.pad(host, widths, constant_values=fill)
    padded = array_api.pad(array_api.from_host(host), widths, fill)
    np.testing.assert_array_equal(array_api.to_host(padded), want_padded)
    ph, pw = want_padded.shape[1:3]
    out_hw = (max(0, (ph - (k[0] - 1) * d[0] - 1) // s[0] + 1),
              max(0, (pw - (k[1] - 1) * d[1] - 1) // s[1] + 1))
    got = array_api.to_host(array_api.windows(padded, out_hw, k, s, d))
    np.testing.assert_array_equal(got, _naive_windows(want_padded, out_hw, k, s, d))


_bound = st.one_of(st.none(), st.integers(-9, 9))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 6), start=_bound, stop=_bound,
       step=st.one_of(st.none(), st.integers(-3, 3).filter(bool)))
def test_slices_clamp_out_of_range_bounds_as_python_does(n, start, stop, step):
    host = np.arange(n * 2, dtype=np.int32).reshape(n, 2)
    key = slice(start, stop, step)
    np.testing.assert_array_equal(tf.constant(host)[key].numpy(), host[key])
    np.testing.assert_array_equal(tf.constant(host)[:, key].numpy(), host[:, key])


def test_gather_with_matrix_indices_and_split_unstack_transpose():
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
    idx = np.array([[3, 0], [1, 1]])
    np.testing.assert_array_equal(tf.gather(x, idx).numpy(), x.numpy()[idx])
    np.testing.assert_array_equal(tf.gather(x, idx % 3, axis=1).numpy(), x.numpy()[:, idx % 3])
    parts = tf.split(x, [1, 2], axis=1)
    assert [p.shape.as_list() for p in parts] == [[4, 1], [4, 2]]
    np.testing.assert_array_equal(parts[1].numpy(), x.numpy()[:, 1:])
    np.testing.assert_array_equal(tf.unstack(x, axis=1)[2].numpy(), x.numpy()[:, 2])
    np.testing.assert_array_equal(tf.transpose(x).numpy(), x.numpy().T)


def test_host_only_values_compute_on_numpy_and_device_dtypes_do_not():
    if backend.get_backend() != "array_api_strict":
        pytest.skip("the strict backend's namespace is what reroutes host values")
    xp = backend.xp
    half = np.array([-1.5, 2.0], np.float16)
    out = xp.maximum(half, 0)
    assert isinstance(out, np.ndarray) and out.dtype == np.float16 and out.tolist() == [0, 2]
    mask = array_api.from_host(np.array([True, False]))
    assert xp.where(mask, half, half * 0).tolist() == [-1.5, 0.0]  # the mask comes to the host
    with pytest.raises(TypeError):  # a NumPy float32 array in device code is still an error
        xp.maximum(np.array([1.0], np.float32), 0)
