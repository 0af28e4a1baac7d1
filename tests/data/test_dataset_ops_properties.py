"""Properties of the Dataset methods take_while, unique, choose_from_datasets and
assert_cardinality (simdist/data/take_while.py, unique.py, directed_interleave.py,
assert_cardinality.py), and of the lists a dataset function returns: whatever the input,
take_while is Python's takewhile, unique keeps each value's first place and loses none,
choose_from_datasets gives each chosen dataset's elements in its order and stops (or skips)
at an empty one, assert_cardinality passes a right count through, a packed list is the
stack of its values."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import simdist as tf

VALUES = st.lists(st.integers(-5, 5), max_size=12)


def _ints(ds):
    return [int(v) for v in ds.as_numpy_iterator()]


@settings(max_examples=25, deadline=None)
@given(VALUES, st.integers(-5, 5))
def test_take_while_is_takewhile(values, bound):
    ds = tf.data.Dataset.from_tensor_slices(tf.constant(values, tf.int64))
    assert _ints(ds.take_while(lambda x: x < bound)) == list(
        itertools.takewhile(lambda v: v < bound, values))


@settings(max_examples=25, deadline=None)
@given(VALUES)
def test_unique_keeps_first_places_and_loses_nothing(values):
    ds = tf.data.Dataset.from_tensor_slices(tf.constant(values, tf.int32))
    assert _ints(ds.unique()) == list(dict.fromkeys(values))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=3),
       st.lists(st.integers(0, 2), max_size=12), st.booleans())
def test_choose_from_datasets_takes_each_dataset_in_order(sizes, choices, stop):
    datasets = [tf.data.Dataset.range(100 * i, 100 * i + n) for i, n in enumerate(sizes)]
    choices = [c % len(sizes) for c in choices]
    got = _ints(tf.data.Dataset.choose_from_datasets(
        datasets, tf.data.Dataset.from_tensor_slices(tf.constant(choices, tf.int64)),
        stop_on_empty_dataset=stop))
    taken, want = [0] * len(sizes), []
    for c in choices:
        if taken[c] == sizes[c]:
            if stop:
                break
            if all(t == n for t, n in zip(taken, sizes)):
                break
            continue
        want.append(100 * c + taken[c])
        taken[c] += 1
    assert got == want


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 6))
def test_assert_cardinality_of_the_right_count_passes_everything(n):
    ds = tf.data.Dataset.range(10).filter(lambda x: x < n)
    checked = ds.apply(tf.data.experimental.assert_cardinality(n))
    assert int(checked.cardinality()) == n
    assert _ints(checked) == list(range(n))


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=4))
def test_a_returned_list_is_the_stack_of_its_values(offsets):
    runs = []

    def fn(x):
        runs.append(1)
        return {"a": [x + k for k in offsets]}

    ds = tf.data.Dataset.range(3).map(fn)
    assert runs == [1]   # traced once, not run per element
    assert [v["a"].tolist() for v in ds.as_numpy_iterator()] == [
        [x + k for k in offsets] for x in range(3)]


def test_stack_and_concat_convert_python_values_to_the_first_tensors_dtype():
    x = tf.constant(2, tf.int64)
    assert tf.stack([x, 1]).dtype == tf.int64
    assert tf.stack([1, x]).dtype == tf.int64
    assert tf.concat([[x], [1]], 0).dtype == tf.int64
    assert tf.stack([x, 1]).numpy().tolist() == [2, 1]
