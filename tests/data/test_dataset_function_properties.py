"""Properties of the dataset functions traced once (simdist.data.structured_function with
simdist.data.bound_dataset): whatever the input, ``interleave``'s and ``group_by_window``'s
Python runs once, when the dataset is made; ``interleave`` gives every element of every
dataset its function makes, each dataset's in its order (``flat_map``: one after another);
``group_by_window`` keeps each key's elements in order, one key per window."""

from hypothesis import given, settings
from hypothesis import strategies as st

import simdist as tf

SIZES = st.lists(st.integers(0, 4), min_size=0, max_size=6)


def _numbers(ds):
    return [tuple(int(x) for x in v) if isinstance(v, tuple) else int(v)
            for v in ds.as_numpy_iterator()]


@settings(max_examples=15, deadline=None)
@given(SIZES, st.integers(1, 4), st.integers(1, 3))
def test_interleave_runs_its_python_once_and_keeps_every_dataset_in_order(sizes, cycle, block):
    runs = []

    def make(i, n):
        runs.append(1)
        return tf.data.Dataset.range(n).map(lambda y: (i, y))

    source = tf.data.Dataset.from_tensor_slices(
        (tf.range(len(sizes), dtype=tf.int64), tf.constant(sizes, tf.int64)))
    out = _numbers(source.interleave(make, cycle_length=cycle, block_length=block))
    flat = _numbers(source.flat_map(make))
    assert runs == [1, 1]   # traced once each, not once per element
    assert flat == [(i, y) for i, n in enumerate(sizes) for y in range(n)]
    assert sorted(out) == flat
    for i in range(len(sizes)):
        assert [y for j, y in out if j == i] == list(range(sizes[i]))


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 20), max_size=12), st.integers(1, 3), st.integers(1, 4))
def test_group_by_window_runs_its_python_once_and_keeps_each_key_in_order(xs, keys, size):
    runs = []

    def reduce(k, window):
        runs.append(1)
        return window.batch(size).map(lambda b: (k, b))

    ds = tf.data.Dataset.from_tensor_slices(tf.constant(xs, tf.int64)).group_by_window(
        lambda x: x % keys, reduce, window_size=size)
    windows = [(int(k), [int(x) for x in b]) for k, b in ds.as_numpy_iterator()]
    assert runs == [1]
    assert all(0 < len(b) <= size and all(x % keys == k for x in b) for k, b in windows)
    for k in range(keys):
        assert [x for key, b in windows if key == k for x in b] == [x for x in xs
                                                                    if x % keys == k]
