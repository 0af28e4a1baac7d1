"""TPUStrategy: a tensor all-reduced in a merge traced into the replicated computation is
each replica's own value, summed over the replicas (TF's ``cross_replica_sum``).

What TF does, from its source (TF 2.21):
- tensorflow/python/distribute/tpu_strategy.py, ``TPUExtended._reduce_to``: when
  ``tpu_util.enclosing_tpu_context()`` is not None (inside ``tpu.replicate``'s computation)
  a tensor or DistributedValues is reduced by ``tpu_ops.cross_replica_sum(value)``, MEAN
  first scaled by ``1 / num_replicas_in_sync``; any other reduce op raises
  NotImplementedError ("Currently we only support ReduceOp.SUM and ReduceOp.MEAN in
  TPUStrategy."); the destinations are not used.
- tensorflow/python/tpu/tpu.py, ``split_compile_and_replicate``: every replica's input is
  one ``tpu_replicated_input`` of the replicas' values and the computation runs on each
  core: a tensor every replica received (its argument, a tensor of the enclosing function)
  is each core's own value there.
So all-reducing such a tensor sums it over the cores. TPU cannot be recorded here: the
values are compared with TF 2.21's MirroredStrategy on 8 CPUs all-reducing tensors each
replica made from the same argument (cases_distribute.py,
``eight_replicas_all_reduce_tensors_they_made_in_a_function``), where TF's MirroredStrategy
and TPUStrategy agree (each replica's own tensor, summed).
"""

import json
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tpu_world import tpu_strategy

import simdist as tf

_FIXTURE = os.path.join(os.path.dirname(__file__), "..", "conformance", "fixtures",
                        "tf_distribute.json")


def _recorded_mirrored_values():
    """TF 2.21's per-replica values of the 8-replica MirroredStrategy program."""
    with open(_FIXTURE) as f:
        case = json.load(f)["cases"]["eight_replicas_all_reduce_tensors_they_made_in_a_function"]
    return [[part["value"] for part in item["local"]] for item in case["ok"]["items"]]


def test_a_tensor_every_replica_received_is_summed_in_the_replicated_trace():
    """The replica function, a plain Python function run by ``strategy.run`` inside a
    tf.function, all-reduces its argument and a tensor of the enclosing function: it was
    traced once and each call gives TF's cross_replica_sum (it raised MirroredStrategy's
    "destinations can not be empty" before)."""
    strategy = tpu_strategy()
    traced = []

    @tf.function
    def step(x):
        one = tf.constant(1.0)   # the enclosing function's tensor, every replica's

        def fn(x):
            traced.append(1)
            ctx = tf.distribute.get_replica_context()
            rid = tf.cast(ctx.replica_id_in_sync_group, tf.float32)
            return (ctx.all_reduce("SUM", x), ctx.all_reduce("MEAN", x),
                    ctx.all_reduce("SUM", one), ctx.all_reduce("SUM", rid))

        return strategy.run(fn, args=(x,))

    want = _recorded_mirrored_values()
    got = [[p.numpy().tolist() for p in strategy.experimental_local_results(o)]
           for o in step(tf.constant([1.5, -2.0]))]
    assert got == want
    got = [[p.numpy().tolist() for p in strategy.experimental_local_results(o)]
           for o in step(tf.constant([3.0, -4.0]))]
    assert got[0] == [np.multiply(w, 2).tolist() for w in want[0]]   # the graph ran again
    assert got[1] == [np.multiply(w, 2).tolist() for w in want[1]]
    assert len(traced) == 1 and step.experimental_get_tracing_count() == 1


def test_min_or_max_of_such_a_tensor_raises_tfs_error():
    """TPUExtended._reduce_to raises NotImplementedError for another reduce op (simdist's
    ReduceOp also has MIN and MAX)."""
    strategy = tpu_strategy()

    @tf.function
    def step(x):
        return strategy.run(lambda x: tf.distribute.get_replica_context().all_reduce(
            tf.distribute.ReduceOp.MAX, x), args=(x,))

    with pytest.raises(NotImplementedError, match="only support ReduceOp.SUM and ReduceOp.MEAN"):
        step(tf.constant(1.0))


@settings(max_examples=4, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3, width=32), min_size=1, max_size=3),
       st.sampled_from(["SUM", "MEAN"]))
def test_the_sum_is_over_the_replicas_whatever_the_values(values, op):
    """Property: all-reducing a tensor every core received gives n x (SUM) or x (MEAN, TF
    scales by 1/n first, then sums) on every core, in the replicated trace."""
    strategy = tpu_strategy()
    @tf.function   # (not a lambda: TF's TPU cluster is named after the function)
    def step(x):
        return strategy.run(
            lambda x: tf.distribute.get_replica_context().all_reduce(op, x), args=(x,))

    x = np.array(values, np.float32)
    want = x * 8 if op == "SUM" else (x * np.float32(1 / 8)) * 8
    for part in strategy.experimental_local_results(step(tf.constant(x))):
        np.testing.assert_allclose(part.numpy(), want, rtol=1e-6, atol=1e-6)
