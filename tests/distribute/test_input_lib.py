"""experimental_distribute_dataset end to end: replay of the splits recorded from TF 2.15."""

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import simdist as tf
from simdist.hardware.machine import get_machine
from simdist.testing import reset_world

FIXTURE = Path(__file__).parents[1] / "data" / "fixtures" / "tf_batch_splits.json"
CASES = json.loads(FIXTURE.read_text())["single_worker"]
PIPELINES = {
    "batch": lambda ds, b, d: ds.batch(b, drop_remainder=d),
    "batch_map": lambda ds, b, d: ds.batch(b, drop_remainder=d).map(lambda x: x),
    "batch_filter": lambda ds, b, d: ds.batch(b, drop_remainder=d).filter(lambda x: True),
}
POLICIES = {p.name: p for p in tf.data.experimental.AutoShardPolicy}


def _run_case(case):
    strategy = tf.distribute.MirroredStrategy([f"/gpu:{i}" for i in range(case["replicas"])])
    ds = PIPELINES[case["pipeline"]](tf.data.Dataset.range(case["size"]),
                                     case["global_batch"], case["drop_remainder"])
    if case["policy"] != "AUTO":
        opts = tf.data.Options()
        opts.experimental_distribute.auto_shard_policy = POLICIES[case["policy"]]
        ds = ds.with_options(opts)
    steps = []
    for x in strategy.experimental_distribute_dataset(ds):
        steps.append([p.numpy().tolist() for p in strategy.experimental_local_results(x)])
    return steps


def test_every_recorded_single_worker_split_is_reproduced():
    reset_world("gpus=8,kind=A100")
    mismatches = []
    for case in CASES:
        try:
            got = _run_case(case)
        except Exception as e:  # noqa: BLE001 - compared with what TF raised
            got = type(e).__name__
        want = case.get("steps", case.get("error"))
        if got != want:
            mismatches.append((case, got))
    assert not mismatches, f"{len(mismatches)} of {len(CASES)} differ, e.g. {mismatches[:2]}"


def test_batches_land_on_replica_devices_and_copies_are_traced():
    strategy = tf.distribute.MirroredStrategy()
    ds = tf.data.Dataset.from_tensor_slices(np.ones((16, 4), np.float32)).batch(8)
    x = next(iter(strategy.experimental_distribute_dataset(ds)))
    parts = strategy.experimental_local_results(x)
    assert [p.device for p in parts] == list(strategy.extended.worker_devices)
    copies = get_machine().trace.filter(cat="input")
    assert len(copies) == 4 and all(e.args["bytes"] == 2 * 4 * 4 for e in copies)


def test_prefetch_overlaps_the_copy_with_compute():
    def step_time(prefetch):
        reset_world()
        strategy = tf.distribute.MirroredStrategy()
        ds = tf.data.Dataset.from_tensor_slices(np.ones((64, 256), np.float32)).batch(16)
        if prefetch:
            ds = ds.prefetch(tf.data.AUTOTUNE)
        for x in strategy.experimental_distribute_dataset(ds):
            strategy.run(lambda v: tf.matmul(v, tf.transpose(v)), args=(x,))
        return get_machine().devices[strategy.extended.worker_devices[0]].clock

    assert step_time(prefetch=True) < step_time(prefetch=False)


def test_fetch_to_device_false_keeps_batches_on_the_host():
    strategy = tf.distribute.MirroredStrategy()
    ds = tf.data.Dataset.range(8).batch(8)
    opts = tf.distribute.InputOptions(experimental_fetch_to_device=False)
    x = next(iter(strategy.experimental_distribute_dataset(ds, opts)))
    assert {p.device for p in strategy.experimental_local_results(x)} == {
        "/job:localhost/replica:0/task:0/device:CPU:0"}


def test_distribute_datasets_from_function_gives_input_context():
    strategy = tf.distribute.MirroredStrategy()
    seen = []

    def dataset_fn(ctx):
        seen.append((ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync))
        return tf.data.Dataset.range(16).batch(ctx.get_per_replica_batch_size(8))

    dist = strategy.distribute_datasets_from_function(dataset_fn)
    steps = [[p.numpy().tolist() for p in strategy.experimental_local_results(x)] for x in dist]
    assert seen == [(1, 0, 4)]
    assert steps[0] == [[0, 1], [2, 3], [4, 5], [6, 7]] and len(steps) == 2
    ctx = tf.distribute.InputContext(1, 0, 4)
    with pytest.raises(ValueError, match="not divisible"):
        ctx.get_per_replica_batch_size(10)


def test_iterator_end_and_optional():
    strategy = tf.distribute.MirroredStrategy()
    it = iter(strategy.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(4)))
    assert bool(it.get_next_as_optional().has_value())
    assert not bool(it.get_next_as_optional().has_value())
    with pytest.raises(tf.errors.OutOfRangeError):
        it.get_next()


@given(size=st.integers(0, 40), batch=st.integers(1, 12), replicas=st.integers(1, 4),
       drop=st.booleans())
def test_an_epoch_delivers_every_element_exactly_once(size, batch, replicas, drop):
    strategy = tf.distribute.MirroredStrategy([f"/gpu:{i}" for i in range(replicas)])
    ds = tf.data.Dataset.range(size).batch(batch, drop_remainder=drop)
    seen = []
    for x in strategy.experimental_distribute_dataset(ds):
        for p in strategy.experimental_local_results(x):
            seen.extend(p.numpy().tolist())
    kept = size - size % batch if drop else size
    assert sorted(seen) == list(range(kept))
