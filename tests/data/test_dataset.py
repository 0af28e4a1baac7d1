"""simdist.data.Dataset: sources, transformations, specs and iteration, as TF 2.15 gives them
(expected values were taken from TensorFlow 2.15)."""

import numpy as np
import pytest

from simdist import data
from simdist.framework import errors
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_spec import TensorSpec

D = data.Dataset


def ints(ds):
    return [int(x) for x in ds.as_numpy_iterator()]


def test_from_tensor_slices_dtypes_and_structure():
    assert D.from_tensor_slices([1.0, 2.0]).element_spec == TensorSpec((), "float32")
    assert D.from_tensor_slices([1, 2]).element_spec == TensorSpec((), "int32")
    assert D.from_tensor_slices(np.zeros((3, 2))).element_spec == TensorSpec((2,), "float64")
    # a list of arrays is one tensor; a tuple is a structure
    assert D.from_tensor_slices([np.zeros(2), np.ones(2)]).element_spec == TensorSpec(
        (2,), "float64")
    spec = D.from_tensor_slices(((np.zeros(3), [1, 2, 3]), {"x": [1, 2, 3]})).element_spec
    assert spec == ((TensorSpec((), "float64"), TensorSpec((), "int32")),
                    {"x": TensorSpec((), "int32")})
    d = D.from_tensor_slices({"b": [1, 2], "a": [1.0, 2.0]})
    assert list(d.element_spec) == ["b", "a"]  # insertion order kept, as TF prints it
    assert list(d.as_numpy_iterator()) == [{"a": 1.0, "b": 1}, {"a": 2.0, "b": 2}]


def test_iteration_yields_host_tensors_with_structure():
    x, y = next(iter(D.from_tensor_slices(([1, 2], [3.0, 4.0]))))
    assert isinstance(x, Tensor) and isinstance(y, Tensor)
    assert x.device.endswith("CPU:0") and int(x) == 1 and float(y) == 3.0
    el = next(iter(D.from_tensor_slices({"a": [1, 2]})))
    assert isinstance(el, dict) and isinstance(el["a"], Tensor)


def test_spec_repr_matches_tf():
    ds = D.from_tensor_slices((np.zeros((4, 10), np.float32), np.zeros((4, 1), np.int64)))
    assert str(ds.batch(2).element_spec) == (
        "(TensorSpec(shape=(None, 10), dtype=tf.float32, name=None), "
        "TensorSpec(shape=(None, 1), dtype=tf.int64, name=None))")
    assert repr(D.range(3)).endswith(
        "element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>")


def test_range_forms():
    assert ints(D.range(5)) == [0, 1, 2, 3, 4]
    assert ints(D.range(2, 5)) == [2, 3, 4]
    assert ints(D.range(5, 0, -2)) == [5, 3, 1]
    assert int(D.range(5, 0, -2).cardinality()) == 3
    assert D.range(3, output_type="int32").element_spec.dtype == "int32"
    with pytest.raises(errors.InvalidArgumentError, match="step must be a non-zero"):
        D.range(0, 5, 0)


def test_batch_partial_and_drop_remainder():
    assert [list(b) for b in D.range(5).batch(2).as_numpy_iterator()] == [[0, 1], [2, 3], [4]]
    assert D.range(3).batch(2).element_spec == TensorSpec((None,), "int64")
    assert D.range(3).batch(2, drop_remainder=True).element_spec == TensorSpec((2,), "int64")
    assert int(D.range(7).batch(2).cardinality()) == 4
    assert int(D.range(7).batch(2, True).cardinality()) == 3
    assert [len(b) for b in D.range(7).batch(2, drop_remainder=True)] == [2, 2, 2]


def test_batch_slow_path_same_as_fast_path():
    fast = D.range(10).batch(3)
    slow = D.range(10).map(lambda x: x).batch(3)
    assert [list(a) for a in fast.as_numpy_iterator()] == [
        list(b) for b in slow.as_numpy_iterator()]


def test_batch_mismatched_shapes_raises_like_tf():
    # element i is a vector of length i + 1: TF cannot stack them
    import simdist as tf

    ds = D.range(2).map(lambda i: tf.range(i + 1)).batch(2)
    with pytest.raises(errors.InvalidArgumentError, match="Cannot add tensor to the batch"):
        list(ds)


def test_unbatch_and_rebatch():
    assert ints(D.range(7).batch(3).unbatch()) == list(range(7))
    assert int(D.range(7).batch(3).unbatch().cardinality()) == data.UNKNOWN_CARDINALITY
    with pytest.raises(ValueError, match="scalar components"):
        D.range(7).unbatch()
    assert [list(b) for b in D.range(7).batch(4).rebatch(3).as_numpy_iterator()] == [
        [0, 1, 2], [3, 4, 5], [6]]
    assert [list(b) for b in D.range(10).batch(4).rebatch([1, 2]).as_numpy_iterator()] == [
        [0], [1, 2], [3], [4, 5], [6], [7, 8], [9]]
    assert D.range(10).batch(4, True).rebatch(2, True).element_spec == TensorSpec((2,), "int64")


def test_map_calling_convention_and_outputs():
    assert ints(D.from_tensor_slices(([1, 2], [3, 4])).map(lambda a, b: a + b)) == [4, 6]
    assert ints(D.from_tensor_slices({"a": [1, 2]}).map(lambda d: d["a"])) == [1, 2]
    # a returned list becomes a tuple; a Python float becomes float32
    assert D.range(2).map(lambda x: [x, x]).element_spec == (TensorSpec((), "int64"),) * 2
    assert D.range(2).map(lambda x: 1.5).element_spec == TensorSpec((), "float32")
    assert D.range(10).batch(3).map(lambda x: x * 2).element_spec == TensorSpec((None,), "int64")
    ds = D.range(3).map(lambda x: x + 1, num_parallel_calls=data.AUTOTUNE, deterministic=True)
    assert ints(ds) == [1, 2, 3]


def test_filter():
    assert ints(D.range(10).filter(lambda x: x % 2 == 0)) == [0, 2, 4, 6, 8]
    assert int(D.range(3).filter(lambda x: x > 0).cardinality()) == data.UNKNOWN_CARDINALITY
    with pytest.raises(ValueError, match="must return a `tf.bool` scalar"):
        D.range(3).filter(lambda x: x)


def test_zip_enumerate():
    z = D.zip((D.range(3), D.range(4)))
    assert z.element_spec == (TensorSpec((), "int64"),) * 2 and int(z.cardinality()) == 3
    assert list(D.zip(D.range(2), D.range(5)).as_numpy_iterator()) == [(0, 0), (1, 1)]
    assert set(D.zip({"a": D.range(3), "b": D.range(4)}).element_spec) == {"a", "b"}
    with pytest.raises(TypeError, match="Python `list` is not supported"):
        D.zip([D.range(3), D.range(3)])
    e = D.from_tensor_slices([1.0, 2.0]).enumerate(start=5)
    assert list(e.as_numpy_iterator()) == [(5, 1.0), (6, 2.0)]
    assert e.element_spec == (TensorSpec((), "int64"), TensorSpec((), "float32"))


def test_repeat_take_skip_shard_cardinality():
    assert ints(D.range(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert ints(D.range(3).repeat(0)) == []
    assert [int(D.range(3).repeat().cardinality()), int(D.range(0).repeat().cardinality())] == [
        data.INFINITE_CARDINALITY, 0]
    assert ints(D.range(3).repeat().take(5)) == [0, 1, 2, 0, 1]
    assert int(D.range(3).repeat().take(5).cardinality()) == 5
    assert ints(D.range(3).take(-1)) == [0, 1, 2] and ints(D.range(3).skip(-1)) == []
    assert int(D.range(3).skip(5).cardinality()) == 0
    assert [ints(D.range(7).shard(3, i)) for i in range(3)] == [[0, 3, 6], [1, 4], [2, 5]]
    assert [int(D.range(7).shard(3, i).cardinality()) for i in range(3)] == [3, 2, 2]
    assert len(D.range(5)) == 5
    with pytest.raises(TypeError, match="infinite"):
        len(D.range(5).repeat())
    with pytest.raises(TypeError, match="unknown"):
        len(D.range(5).filter(lambda x: True))


def test_prefetch_cache_options():
    assert ints(D.range(3).prefetch(data.AUTOTUNE)) == [0, 1, 2]
    assert data.AUTOTUNE == data.experimental.AUTOTUNE == -1
    c = D.range(6).shuffle(6).cache()
    first = ints(c)
    assert ints(c) == first  # the cache froze the first order
    opts = data.Options()
    assert opts.experimental_distribute.auto_shard_policy == data.experimental.AutoShardPolicy.AUTO
    opts.experimental_distribute.auto_shard_policy = data.experimental.AutoShardPolicy.DATA
    ds = D.range(3).with_options(opts).batch(2)
    assert ds.options().experimental_distribute.auto_shard_policy == data.AutoShardPolicy.DATA
    assert D.range(3).options().experimental_distribute.auto_shard_policy == 0
    with pytest.raises(AttributeError):
        opts.no_such_option = 1


def test_auto_shard_policy_values_are_tfs():
    P = data.experimental.AutoShardPolicy
    assert [(p.name, int(p)) for p in P] == [
        ("OFF", -1), ("AUTO", 0), ("FILE", 1), ("DATA", 2), ("HINT", 3)]


def test_iterator_protocol():
    it = iter(D.range(2))
    assert int(it.get_next()) == 0 and int(next(it)) == 1
    with pytest.raises(errors.OutOfRangeError):
        it.get_next()
    assert not bool(iter(D.range(0)).get_next_as_optional().has_value())


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: D.range(5).batch(0), errors.InvalidArgumentError, "Batch size must be greater"),
    (lambda: D.range(5).batch(-1), errors.InvalidArgumentError, "Batch size must be greater"),
    (lambda: D.range(5).shard(2, 2), errors.InvalidArgumentError, "Index must be between 0"),
    (lambda: D.range(5).shard(2, -1), errors.InvalidArgumentError, "Index must be between"),
    (lambda: D.range(5).shard(0, 0), errors.InvalidArgumentError, "Number of shards must"),
    (lambda: D.range(5).shard(2.0, 0), TypeError, "Cannot convert"),
    (lambda: D.range(5).shuffle(0), errors.InvalidArgumentError, "buffer_size must be greater"),
    (lambda: D.range(5).prefetch(-2), errors.InvalidArgumentError, "buffer_size must be >= 0"),
    (lambda: D.from_tensor_slices((np.zeros(3), np.zeros(4))), ValueError, "not compatible"),
    (lambda: D.from_tensor_slices(3), ValueError, "rank >= 1"),
    (lambda: D.range(3).with_options(None), AttributeError, "_to_proto"),
])
def test_bad_calls_raise_what_tf_raises(call, exc, msg):
    with pytest.raises(exc, match=msg):
        call()


def test_batching_a_10k_slice_dataset_uses_the_gather_path():
    x = np.random.default_rng(0).random((10_000, 8)).astype(np.float32)
    ds = D.from_tensor_slices((x, np.arange(10_000))).shuffle(10_000, seed=3).batch(256)
    seen = []
    for _ in range(2):
        rows = [y.numpy() for _, y in ds]
        assert [len(r) for r in rows][:-1] == [256] * 39 and len(rows[-1]) == 10_000 - 39 * 256
        seen.append(np.concatenate(rows))
    assert sorted(seen[0]) == list(range(10_000)) and not np.array_equal(seen[0], seen[1])
