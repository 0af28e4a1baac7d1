"""Cross-device ops wired to the collectives: defaults, packing, values, time and trace."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import simdist as tf
from simdist.distribute import packing
from simdist.hardware.machine import get_machine
from simdist.testing import reset_world

pytestmark = pytest.mark.array_api  # also on array_api_strict: tests/hardware/test_backends.py


def _per_replica_grads(strategy, shapes, seed=0):
    rng = np.random.default_rng(seed)
    data = [[rng.standard_normal(s).astype(np.float32) for s in shapes]
            for _ in range(strategy.num_replicas_in_sync)]
    # values_from_function leaves values where the caller is (as TF); run moves them.
    values = [strategy.run(tf.identity, (strategy.experimental_distribute_values_from_function(
        lambda ctx, j=j: tf.constant(data[ctx.replica_id_in_sync_group][j])),))
        for j in range(len(shapes))]
    return data, values


def test_default_cross_device_ops_follow_tf_choice():
    # TF's _make_collective_ops_with_fallbacks (the CPU choice is recorded from TF 2.21 in
    # test_default_cross_device_ops.py; TF-CPU cannot record the GPU one, read from its source).
    gpu = tf.distribute.MirroredStrategy()
    ops = gpu.extended._get_cross_device_ops()
    assert type(ops).__name__ == "CollectiveAllReduce"
    assert ops._options.implementation.value == "AUTO"   # NCCL on physical GPUs
    cpu = tf.distribute.MirroredStrategy(["/cpu:0"])
    ops = cpu.extended._get_cross_device_ops()
    assert type(ops).__name__ == "CollectiveAllReduce"
    assert ops._options.implementation.value == "RING"
    mixed = tf.distribute.MirroredStrategy(["/cpu:0", "/gpu:0"])
    assert type(mixed.extended._get_cross_device_ops()).__name__ == "ReductionToOneDevice"
    # int32 values go to a ReductionToOneDevice of their own, whatever the strategy's ops.
    for s in (gpu, cpu):
        assert type(s.extended._get_cross_device_ops(tf.constant([1]))).__name__ == \
            "ReductionToOneDevice"


def test_default_on_virtual_gpus_is_ring():
    # TF: "Use RING collective ops if virtual devices are used" (more logical GPUs than
    # physical ones).
    gpu = tf.config.list_physical_devices("GPU")[0]
    tf.config.set_logical_device_configuration(
        gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=1024)] * 2)
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    ops = strategy.extended._get_cross_device_ops()
    assert ops._options.implementation.value == "RING"


@pytest.mark.parametrize("ops", [
    tf.distribute.NcclAllReduce(num_packs=0),
    tf.distribute.NcclAllReduce(num_packs=1),
    tf.distribute.NcclAllReduce(num_packs=3),
    tf.distribute.HierarchicalCopyAllReduce(num_packs=2),
    tf.distribute.experimental.CollectiveAllReduce(
        tf.distribute.experimental.CommunicationOptions(bytes_per_pack=64)),
    tf.distribute.ReductionToOneDevice(),
])
@pytest.mark.parametrize("op", ["SUM", "MEAN"])
def test_batch_reduce_equals_reference_on_every_device(ops, op):
    reset_world("dgx1")
    strategy = tf.distribute.MirroredStrategy(cross_device_ops=ops)
    shapes = [(3, 5), (7,), (), (2, 2, 2)]
    data, values = _per_replica_grads(strategy, shapes)
    out = strategy.extended.batch_reduce_to(op, [(v, v) for v in values])
    n = strategy.num_replicas_in_sync
    for j, mirrored in enumerate(out):
        expected = np.sum([data[i][j].astype(np.float64) for i in range(n)], axis=0)
        if op == "MEAN":
            expected = expected / n
        comps = strategy.experimental_local_results(mirrored)
        assert [c.device for c in comps] == list(strategy.extended.worker_devices)
        for c in comps:
            assert c.shape == shapes[j]
            np.testing.assert_allclose(c.numpy(), expected, rtol=1e-5, atol=1e-5)
        assert len({c.numpy().tobytes() for c in comps}) == 1


def test_nccl_all_reduce_moves_clocks_and_lands_in_the_trace():
    strategy = tf.distribute.MirroredStrategy()
    _, values = _per_replica_grads(strategy, [(1024,)])
    trace = get_machine().trace
    before = len(trace.filter(cat="collective"))
    strategy.extended.batch_reduce_to("SUM", [(values[0], values[0])])
    steps = trace.filter(cat="collective")[before:]
    assert steps, "the all-reduce's steps are recorded"
    clocks = {get_machine().devices[d].clock for d in strategy.extended.worker_devices}
    assert len(clocks) == 1 and clocks.pop() >= steps[-1].end


def test_num_packs_splits_the_concatenation_as_tf():
    assert packing.concat_and_split_sizes(10, 3) == [3, 3, 4]
    assert packing.concat_and_split_sizes(2, 4) == [0, 0, 0, 2]
    with pytest.raises(ValueError):
        tf.distribute.NcclAllReduce(num_packs=-1)


def test_group_by_size_example():
    assert packing.group_by_size([4, 4, 4, 4], 5) == [[0, 1], [2, 3]]
    assert packing.group_by_size([4, 4, 4], 0) == [[0, 1, 2]]


@given(sizes=st.lists(st.integers(0, 100), max_size=20), limit=st.integers(1, 150))
def test_group_by_size_keeps_order_and_closes_packs_only_past_the_limit(sizes, limit):
    packs = packing.group_by_size(sizes, limit)
    assert [i for p in packs for i in p] == list(range(len(sizes)))
    for p in packs[:-1]:
        assert sum(sizes[i] for i in p) > limit
        assert sum(sizes[i] for i in p[:-1]) <= limit


def test_communication_options_validate():
    with pytest.raises(ValueError):
        tf.distribute.experimental.CommunicationOptions(bytes_per_pack=-1)
    opts = tf.distribute.experimental.CommunicationOptions(implementation="ring")
    assert opts.implementation is tf.distribute.experimental.CommunicationImplementation.RING


@pytest.mark.parametrize("ops", [
    tf.distribute.NcclAllReduce(num_packs=1),
    tf.distribute.experimental.CollectiveAllReduce(),
    tf.distribute.ReductionToOneDevice(),
], ids=["nccl", "collective", "one_device"])
@given(lengths=st.lists(st.integers(0, 3), min_size=8, max_size=8),
       op=st.sampled_from(["SUM", "MEAN"]))
def test_indexed_slices_are_concatenated_never_densified(ops, lengths, op):
    """IndexedSlices reduce to the replicas' slices concatenated in replica order (values
    divided by n for MEAN) on every device, as TF's ReductionToOneDevice (which NCCL's
    sparse path calls) and CollectiveAllReduce's all-gather of lengths, values and indices
    give; a dense value in the same batch is all-reduced as before."""
    reset_world("dgx1")
    strategy = tf.distribute.MirroredStrategy(cross_device_ops=ops)
    n = strategy.num_replicas_in_sync
    lengths = lengths[:n]

    def replica_values(ctx):
        r = ctx.replica_id_in_sync_group
        rows = np.arange(lengths[r] * 2, dtype=np.float32).reshape(-1, 2) + 10 * r
        return tf.IndexedSlices(tf.constant(rows), tf.constant(np.arange(lengths[r]) % 5,
                                                               dtype=tf.int32),
                                tf.constant([5, 2]))

    sparse = strategy.run(lambda s: tf.IndexedSlices(tf.identity(s.values), s.indices,
                                                     s.dense_shape),
                          (strategy.experimental_distribute_values_from_function(
                              replica_values),))
    _, (dense,) = _per_replica_grads(strategy, [(3,)])
    out_sparse, out_dense = strategy.extended.batch_reduce_to(op, [(sparse, sparse),
                                                                   (dense, dense)])
    parts = strategy.experimental_local_results(sparse)
    values = np.concatenate([p.values.numpy() for p in parts]) / (n if op == "MEAN" else 1)
    indices = np.concatenate([p.indices.numpy() for p in parts])
    comps = strategy.experimental_local_results(out_sparse)
    assert [c.values.device for c in comps] == list(strategy.extended.worker_devices)
    for c in comps:
        assert isinstance(c, tf.IndexedSlices)
        np.testing.assert_allclose(c.values.numpy(), values.reshape(-1, 2), rtol=1e-6)
        np.testing.assert_array_equal(c.indices.numpy(), indices)
        assert c.dense_shape.numpy().tolist() == [5, 2]
    assert all(c.shape == (3,) for c in strategy.experimental_local_results(out_dense))


def test_devices_of_distributed_values_are_their_components_devices():
    """get_devices_from reads a component's ``_device`` where its type always has one (a
    Tensor, a ResourceVariable); other components (an unread variable, a device name) go
    through _device_of: the same Device objects either way."""
    from simdist.distribute import cross_device_ops as cdo
    from simdist.distribute.values import Mirrored, PerReplica
    from simdist.framework.variables import _UnreadVariable
    from simdist.hardware.machine import find_device

    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    with strategy.scope():
        v = tf.Variable(tf.zeros((3,)))
    gpus = [find_device(f"/gpu:{i}") for i in range(2)]
    unread = _UnreadVariable(v.values[0])
    assert type(unread) not in cdo._AT_HAND and type(v.values[0]) in cdo._AT_HAND
    assert cdo.get_devices_from(v) == tuple(gpus)
    assert cdo.get_devices_from(PerReplica([v.values[1], unread])) == (gpus[1], gpus[0])
    assert cdo.get_devices_from(Mirrored([gpus[1].name, v.values[0]])) == (gpus[1], gpus[0])
    with tf.device("/gpu:1"):
        t = tf.constant(1.0)
    assert cdo.get_devices_from(PerReplica([t, v.values[0]])) == (gpus[1], gpus[0])
