"""Replicas' values a reduction or gather cannot combine fail with TF's error, on every path.

The conformance cases (tests/conformance, recorded from TF 2.21) cover MirroredStrategy over
logical CPUs; here the paths only simdist's default machine (GPUs) takes: NcclAllReduce,
HierarchicalCopyAllReduce and MultiWorkerMirroredStrategy's CollectiveAllReduce, which used
to flatten, sum and reshape values of different shapes per replica, and simdist's MIN/MAX.
Also: replicas at different collectives, HierarchicalCopyAllReduce over an odd replica count.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import simdist as tf
from simdist import collectives
from simdist import warnings as teach
from simdist.framework import errors


def _placed(strategy, make):
    """A PerReplica of ``make(replica_id)``, each on its replica's device."""
    pr = strategy.experimental_distribute_values_from_function(
        lambda ctx: make(ctx.replica_id_in_sync_group))
    return strategy.run(tf.identity, (pr,))


def _all_reducing_strategies():
    return {
        "nccl": tf.distribute.MirroredStrategy(cross_device_ops=tf.distribute.NcclAllReduce()),
        "hierarchical_copy": tf.distribute.MirroredStrategy(
            cross_device_ops=tf.distribute.HierarchicalCopyAllReduce()),
        "multi_worker": tf.distribute.MultiWorkerMirroredStrategy(),
    }


SHAPES = {"same_size": ([2, 3], [3, 2]), "smaller_on_replica0": ([2, 3], [3, 3]),
          "bigger_on_replica0": ([3, 3], [2, 3])}


@pytest.mark.parametrize("shapes", sorted(SHAPES))
@pytest.mark.parametrize("name", ["nccl", "hierarchical_copy", "multi_worker"])
def test_all_reduce_of_different_shapes_is_tfs_collective_error(name, shapes):
    s = _all_reducing_strategies()[name]
    a, b = SHAPES[shapes]
    pr = _placed(s, lambda i: tf.ones(a) if i % 2 == 0 else tf.ones(b))
    with pytest.raises(errors.InvalidArgumentError, match="Shape mismatch in the collective"):
        s.extended.batch_reduce_to("SUM", [(pr, pr)])
    with pytest.raises(errors.InvalidArgumentError, match="Shape mismatch in the collective"):
        s.run(lambda x: tf.distribute.get_replica_context().all_reduce("SUM", x), (pr,))


@pytest.mark.parametrize("op", ["MIN", "MAX"])
def test_min_max_of_mixed_dtypes_is_an_error_not_an_upcast(op):
    s = tf.distribute.MirroredStrategy()
    pr = _placed(s, lambda i: tf.constant([1.0, 2.0]) if i % 2 == 0
                 else tf.constant([1.0, 2.0], tf.float64))
    with pytest.raises(errors.InvalidArgumentError, match="AddN.*double"):
        s.reduce(op, pr, axis=None)
    with pytest.raises(errors.InternalError, match="data_type"):
        s.run(lambda x: tf.distribute.get_replica_context().all_reduce(op, x), (pr,))


@pytest.mark.parametrize("op", ["SUM", "MEAN", "MIN", "MAX"])
def test_bool_reductions_are_refused(op):
    s = tf.distribute.MirroredStrategy()
    pr = _placed(s, lambda i: tf.constant([i == 0, False]))
    with pytest.raises(errors.InvalidArgumentError, match="bool is not in the list"):
        s.reduce(op, pr, axis=None)


def test_replicas_at_different_collectives_fail_naming_both():
    s = tf.distribute.MirroredStrategy()

    def fn():
        ctx = tf.distribute.get_replica_context()
        if ctx.replica_id_in_sync_group == 2:
            return ctx.all_reduce("MEAN", tf.ones([2]))
        return ctx.all_reduce("SUM", tf.ones([2]))

    with pytest.raises(errors.InvalidArgumentError,
                       match=r"replica 0 called all_reduce\(SUM\), replica 2 called "
                             r"all_reduce\(MEAN\)"):
        s.run(fn)

    def merge_or_gather():
        ctx = tf.distribute.get_replica_context()
        if ctx.replica_id_in_sync_group == 0:
            return ctx.merge_call(lambda strategy: 1.0)
        return ctx.all_gather(tf.ones([2]), axis=0)

    with pytest.raises(errors.InvalidArgumentError, match="merge_call.*all_gather"):
        s.run(merge_or_gather)
    # The strategy still works afterwards.
    out = s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.ones([2])))
    assert [v.numpy().tolist() for v in s.experimental_local_results(out)] == [[4.0, 4.0]] * 4


def _hierarchical(n):
    return tf.distribute.MirroredStrategy(
        [f"/gpu:{i}" for i in range(n)],
        cross_device_ops=tf.distribute.HierarchicalCopyAllReduce())


@pytest.mark.parametrize("n", [2, 3, 4])
def test_hierarchical_copy_leaves_out_the_last_of_an_odd_count_as_tf_and_warns(n):
    s = _hierarchical(n)
    pr = _placed(s, lambda i: tf.constant([float(i + 1)]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = s.extended.batch_reduce_to("SUM", [(pr, pr)])[0]
    counted = n - n % 2  # TF's two groups of n // 2 devices
    expected = counted * (counted + 1) / 2
    assert [v.numpy().tolist() for v in s.experimental_local_results(out)] == [[expected]] * n
    mine = [w for w in caught if issubclass(w.category, teach.DistributionMistakeWarning)]
    if n % 2:
        assert len(mine) == 1 and f"GPU:{n - 1}" in str(mine[0].message)
    else:
        assert mine == []


def test_hierarchical_copy_adds_within_groups_first_as_tf():
    # float32: (1e8 + 1) + (-1e8 + 1) = 0 with TF's groups; left to right it is 1.
    s = _hierarchical(4)
    parts = [1e8, 1.0, -1e8, 1.0]
    pr = _placed(s, lambda i: tf.constant([parts[i]]))
    out = s.extended.batch_reduce_to("SUM", [(pr, pr)])[0]
    assert [v.numpy().tolist() for v in s.experimental_local_results(out)] == [[0.0]] * 4
    r1 = tf.distribute.ReductionToOneDevice().reduce("SUM", pr, pr)
    assert [v.numpy().tolist() for v in s.experimental_local_results(r1)] == [[1.0]] * 4


@given(st.integers(2, 9), st.integers(0, 3))
def test_hierarchical_copy_schedule_with_tf_groups_sums_the_first_even_count(p, pack):
    rng = np.random.default_rng(p)
    values = [rng.integers(-50, 50, 6).astype(np.int64) for _ in range(p)]
    out = collectives.all_reduce(values, "hierarchical_copy", pack_index=pack, tf_groups=True)
    expected = sum(values[:p - p % 2])
    for v in out.values:
        np.testing.assert_array_equal(v, expected)
    everyone = collectives.all_reduce(values, "hierarchical_copy", pack_index=pack)
    for v in everyone.values:
        np.testing.assert_array_equal(v, sum(values))


def test_nccl_on_cpus_has_no_kernel():
    cpus = tf.config.list_physical_devices("CPU")
    tf.config.set_logical_device_configuration(
        cpus[0], [tf.config.LogicalDeviceConfiguration() for _ in range(2)])
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"],
                                       cross_device_ops=tf.distribute.NcclAllReduce())
    pr = _placed(s, lambda i: tf.constant([1.0]))
    with pytest.raises(errors.InvalidArgumentError, match="NcclAllReduce.*CPU"):
        s.extended.batch_reduce_to("SUM", [(pr, pr)])
    assert s.reduce("SUM", pr, axis=None).numpy().tolist() == [2.0]


@given(st.lists(st.integers(0, 4), max_size=4), st.sampled_from([np.float32, np.int64]))
def test_a_plain_tensors_checked_shape_is_its_tensorshape(dims, dtype):
    """The checks read a plain tensor's NumPy shape directly: the same ints as
    ``tuple(t.shape)``, for every rank (a scalar's ``()`` too)."""
    from simdist.distribute.cross_replica_checks import _shape
    from simdist.framework.execute import convert_to_tensor

    t = convert_to_tensor(np.zeros(dims, dtype))
    assert _shape(t) == tuple(t.shape) == tuple(dims)
    assert all(type(d) is int for d in _shape(t))


def test_a_batch_reduce_checks_each_value_once_and_still_refuses_a_mismatch(monkeypatch):
    """batch_reduce_to checks each value, then its all-reduce would check the same
    tensors again: inside the strategy's ``remembered`` scope the second check is skipped,
    a check of other tensors (or outside the scope) is still made."""
    from simdist.distribute import cross_replica_checks as checks

    s = tf.distribute.MirroredStrategy()
    made = []
    real = checks._check_shapes
    monkeypatch.setattr(checks, "_check_shapes",
                        lambda tensors, k, axis: made.append(k.name) or real(tensors, k, axis))
    good = _placed(s, lambda i: tf.ones([2]) * float(i))
    out = s.extended.batch_reduce_to("SUM", [(good, good)])
    assert np.asarray(out[0].values[0]).tolist() == [6.0, 6.0]
    assert made == ["CollectiveReduceV2"]
    bad = _placed(s, lambda i: tf.ones([2]) if i else tf.ones([3]))
    with pytest.raises(errors.InvalidArgumentError, match="Shape mismatch in the collective"):
        s.extended.batch_reduce_to("SUM", [(good, good), (bad, bad)])
    with checks.remembered():
        parts = list(good.values)
        checks.check_reduce(parts, "CollectiveReduceV2", keep=True)
        checks.check_reduce(parts, "CollectiveReduceV2")
        with pytest.raises(errors.InvalidArgumentError, match="Shape mismatch"):
            checks.check_reduce(list(bad.values), "CollectiveReduceV2")
    assert checks._local.passed is None


def test_a_batch_of_a_structure_that_passed_is_not_checked_again(monkeypatch):
    """A training step's batch_reduce_to passes the checks with values of one structure
    (devices, dtypes, shapes) step after step: kept after the first pass, the later steps
    are not checked again and sum as before; a batch of another structure still fails."""
    from simdist.distribute import cross_replica_checks as checks

    s = tf.distribute.MirroredStrategy()
    made = []
    real = checks._check_shapes
    monkeypatch.setattr(checks, "_check_shapes",
                        lambda tensors, k, axis: made.append(k.name) or real(tensors, k, axis))
    for step in range(3):
        good = _placed(s, lambda i, step=step: tf.ones([2]) * float(i + step))
        out = s.extended.batch_reduce_to("SUM", [(good, good)])
        assert np.asarray(out[0].values[3]).tolist() == [6.0 + 4 * step] * 2
    assert made == ["CollectiveReduceV2"]
    bad = _placed(s, lambda i: tf.ones([2]) if i else tf.ones([3]))
    with pytest.raises(errors.InvalidArgumentError, match="Shape mismatch in the collective"):
        s.extended.batch_reduce_to("SUM", [(good, good), (bad, bad)])
    mixed = _placed(s, lambda i: tf.ones([2], tf.float64 if i == 2 else tf.float32))
    with pytest.raises(errors.InternalError, match="expected data_type 1"):
        s.extended.batch_reduce_to("SUM", [(good, good), (mixed, mixed)])
    with pytest.raises(errors.InternalError, match="expected data_type 1"):
        s.extended._cross_device_ops.batch_reduce("SUM", [(mixed, mixed)])


def test_a_reduction_to_one_device_keeps_the_check_of_a_structure_that_passed(monkeypatch):
    """strategy.reduce adds the replicas' values on one device (AddN): a value of a
    structure that passed is not checked again; a value of another still fails."""
    from simdist.distribute import cross_replica_checks as checks

    s = tf.distribute.MirroredStrategy()
    monkeypatch.setattr(checks, "_PASSED", {})
    made = []
    real = checks._check_shapes
    monkeypatch.setattr(checks, "_check_shapes",
                        lambda tensors, k, axis: made.append(k.name) or real(tensors, k, axis))
    for step in range(3):
        loss = _placed(s, lambda i, step=step: tf.constant(float(i + step)))
        assert float(s.reduce("SUM", loss, axis=None)) == 6.0 + 4 * step
    assert made == ["AddN"]
    bad = _placed(s, lambda i: tf.ones([2]) if i else tf.ones([3]))
    with pytest.raises(errors.InvalidArgumentError, match="must have the same size and shape"):
        s.reduce("SUM", bad, axis=None)


def test_a_kept_pass_holds_no_device_and_a_new_machine_is_checked_again(monkeypatch):
    """The kept passes name devices by serial number: a dropped machine's devices (and
    their traces) are freed, and the same structure on a new machine's devices is checked
    as new."""
    import gc
    import weakref

    from simdist.distribute import cross_replica_checks as checks
    from simdist.testing import reset_world

    monkeypatch.setattr(checks, "_PASSED", {})
    made = []
    real = checks._check_shapes
    monkeypatch.setattr(checks, "_check_shapes",
                        lambda tensors, k, axis: made.append(k.name) or real(tensors, k, axis))

    def reduce_twice():
        s = tf.distribute.MirroredStrategy()
        for _ in range(2):
            v = _placed(s, lambda i: tf.ones([2]) * float(i))
            out = s.extended.batch_reduce_to("SUM", [(v, v)])
        assert np.asarray(out[0].values[0]).tolist() == [6.0, 6.0]
        return [weakref.ref(d) for d in s.extended._devices]

    old = reduce_twice()
    assert made == ["CollectiveReduceV2"]
    reset_world()
    gc.collect()
    assert [d() for d in old] == [None] * len(old)
    reduce_twice()
    assert made == ["CollectiveReduceV2"] * 2
