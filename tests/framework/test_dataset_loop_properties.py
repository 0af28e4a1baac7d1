"""Properties of loops over datasets inside tf.function (AutoGraph's dataset and
distributed-dataset loops, traced into graphs): for any data, the traced loop gives what the
same loop in plain Python gives, its Python body runs once per trace whatever the data, and
one trace serves every dataset of the same element spec (TF's DatasetSpec)."""

import io
from contextlib import redirect_stdout

from hypothesis import given, settings
from hypothesis import strategies as st

import simdist as tf

_VALUES = st.lists(st.integers(0, 20), max_size=8)


def _python_sum_until(values, limit, skip):
    total = count = 0
    for v in values:
        if v == skip:
            continue
        if total + v > limit:
            break
        total += v
        count += 1
    return total, count


def test_a_traced_dataset_loop_with_break_and_continue_matches_python():
    @tf.function
    def sum_until(ds, limit, skip):
        print("tracing body")
        total = tf.constant(0, tf.int64)
        count = 0
        for x in ds:
            if x == skip:
                continue
            if total + x > limit:
                break
            total += x
            count += 1
        return total, count

    printed = io.StringIO()

    @settings(max_examples=25)
    @given(values=_VALUES, limit=st.integers(0, 60), skip=st.integers(0, 20))
    def check(values, limit, skip):
        ds = tf.data.Dataset.from_tensor_slices(tf.constant(values, tf.int64))
        with redirect_stdout(printed):
            total, count = sum_until(ds, tf.constant(limit, tf.int64),
                                     tf.constant(skip, tf.int64))
        assert (int(total), int(count)) == _python_sum_until(values, limit, skip)

    check()
    assert printed.getvalue() == "tracing body\n"     # once, for every dataset and limit
    assert sum_until.experimental_get_tracing_count() == 1


def test_a_traced_distributed_dataset_loop_sums_every_replica_batch():
    tf.config.set_logical_device_configuration(
        tf.config.list_physical_devices("CPU")[0], [tf.config.LogicalDeviceConfiguration()] * 2)
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

    @tf.function
    def total_of(dds):
        total = tf.constant(0, tf.int64)
        steps = 0
        for batch in dds:
            per_replica = strategy.run(tf.reduce_sum, args=(batch,))
            total += strategy.reduce("SUM", per_replica, axis=None)
            steps += 1
        return total, steps

    @settings(max_examples=15)
    @given(values=st.lists(st.integers(0, 20), min_size=1, max_size=12),
           batch=st.sampled_from([2, 4]))
    def check(values, batch):
        ds = tf.data.Dataset.from_tensor_slices(tf.constant(values, tf.int64)).batch(batch)
        total, steps = total_of(strategy.experimental_distribute_dataset(ds))
        assert int(total) == sum(values)
        assert int(steps) == -(-len(values) // batch)

    check()
    assert total_of.experimental_get_tracing_count() == 1
