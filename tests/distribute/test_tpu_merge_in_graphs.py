"""TPUStrategy: a merge_call inside a cond branch or loop body of the replica function, or
inside a tf.function nested in it, is traced with the rest (simdist/distribute/
tpu_replicate.py: "merging control flow", "placeholder merge").

What TF does, from its source (TF 2.21):
- tensorflow/python/distribute/distribute_lib.py, ``ReplicaContext.merge_call`` and
  ``_merge_call``: no check of the graph it is called in (MirroredStrategy's
  ``_MirroredReplicaContext._merge_call`` in mirrored_run.py raises "`merge_call` called
  while defining a new graph" there, recorded in tf_function_distribute.json);
  tensorflow/python/distribute/tpu_strategy.py's ``_TPUReplicaContext`` does not override
  them, so the merge runs inside whatever graph is being built.
- tensorflow/python/ops/cond_v2.py (``cond_v2``) and while_v2.py build each branch or body
  once as a FuncGraph, and tensorflow/python/tpu/tpu.py (``split_compile_and_replicate``)
  calls the computation once for all cores: the cross-replica op (``cross_replica_sum``)
  and the variable updates of the merge (tf-keras's ``apply_gradients`` ->
  ``_distributed_apply``) are ops in the branch, body or nested function, traced once.
So the Python of the replica function runs once per trace, and every call gives each
core's values. TPU cannot be recorded here: MirroredStrategy refuses these programs, so
the values are checked against what the same step computes written without the cond (or
undecorated), and the sums by hand.
"""

import numpy as np
from tpu_world import tpu_strategy

import simdist as tf
from simdist.testing.log_capture import tf_logs


def _local(strategy, value):
    return [p.numpy().tolist() for p in strategy.experimental_local_results(value)]


def test_all_reduces_in_a_cond_and_a_loop_of_the_replica_function_are_traced_once():
    """It ran the whole tf.function eagerly (a Python side effect at every call)."""
    strategy = tpu_strategy()
    traced = []

    @tf.function
    def step(x):
        def fn(x):
            traced.append(1)
            ctx = tf.distribute.get_replica_context()
            rid = tf.cast(ctx.replica_id_in_sync_group, tf.float32)
            if x > 0:
                y = ctx.all_reduce("SUM", rid)
            else:
                y = ctx.all_reduce("SUM", -rid)
            total = tf.constant(0.0)
            for i in tf.range(3):
                total += ctx.all_reduce("SUM", rid * x + tf.cast(i, tf.float32))
            return y, total, rid
        return strategy.run(fn, args=(x,))

    with tf_logs(contains="could not trace") as fallbacks:
        got = [[_local(strategy, o) for o in step(tf.constant(x))] for x in (1.0, -1.0, 2.0)]
    assert fallbacks.messages == []
    assert len(traced) == 1 and step.experimental_get_tracing_count() == 1
    for x, (y, total, rid) in zip((1.0, -1.0, 2.0), got):
        assert rid == list(range(8))   # each core its own id
        assert y == [28.0 if x > 0 else -28.0] * 8
        # sum over i < 3 of sum over r of (r * x + i) = 3 * 28 x + 8 * 3
        assert total == [3 * 28.0 * x + 24.0] * 8


def _sgd_in_a_cond(in_cond):
    """Three steps; the update (SGD and a mirrored counter) happens when x > 1, decided in
    a cond of the replica function (``in_cond``) or in Python outside the tf.function."""
    strategy = tpu_strategy()
    traced = []
    with strategy.scope():
        w = tf.Variable([1.0, 2.0])
        counter = tf.Variable(0.0)
        opt = tf.keras.optimizers.SGD(0.1)

    def make_step(update):
        @tf.function
        def step(x):
            def fn(x):
                traced.append(1)
                rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                              tf.float32)
                with tf.GradientTape() as tape:
                    loss = tf.reduce_sum(w * (rid + x))
                grad = tape.gradient(loss, w)
                if update is None:
                    if x > 1:
                        opt.apply_gradients([(grad, w)])
                        counter.assign_add(1.0)
                elif update:
                    opt.apply_gradients([(grad, w)])
                    counter.assign_add(1.0)
                return loss
            return strategy.run(fn, args=(x,))
        return step

    steps = {None: make_step(None)} if in_cond else {True: make_step(True),
                                                      False: make_step(False)}
    losses = []
    with tf_logs(contains="could not trace") as fallbacks:
        for x in (2.0, 0.5, 3.0):
            step = steps[None] if in_cond else steps[x > 1]
            losses.append(_local(strategy, step(tf.constant(x))))
    return losses, w.numpy().tolist(), float(counter.numpy()), traced, fallbacks.messages


def test_variable_updates_in_a_cond_of_the_replica_function_are_traced():
    """An optimizer step and a mirrored variable's update in a cond: their merges write
    variables, which ran the whole tf.function eagerly."""
    losses, w, counter, traced, fallbacks = _sgd_in_a_cond(True)
    want_losses, want_w, want_counter, _, _ = _sgd_in_a_cond(False)
    assert fallbacks == []
    assert len(traced) <= 2   # the first trace makes the optimizer's iterations (TF's rule)
    assert (losses, w, counter) == (want_losses, want_w, want_counter)
    # by hand: the gradient is sum over r of (r + x) = 28 + 8x per weight, at x = 2 and 3
    np.testing.assert_allclose(w, np.array([1.0, 2.0]) - 0.1 * (56.0 + 8 * 5.0), rtol=1e-6)
    assert counter == 2.0


def _adam_steps(decorate):
    """Three steps whose replica function applies Adam (a tf.function of its own when
    ``decorate``): the weights, the optimizer's iterations, the Python runs, the warnings."""
    strategy = tpu_strategy()
    with strategy.scope():
        w = tf.Variable(np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32))
        opt = tf.keras.optimizers.Adam(0.01)
    traced = []

    def step_fn(x):
        traced.append(1)
        rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                      tf.float32)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x + rid, w))) / 8.0
        opt.apply_gradients([(tape.gradient(loss, w), w)])
        return loss

    replica_fn = tf.function(step_fn) if decorate else step_fn
    @tf.function   # (not a lambda: TF's TPU cluster is named after the function)
    def step(x):
        return strategy.run(replica_fn, args=(x,))

    with tf_logs(contains="could not trace") as fallbacks:
        for k in range(3):
            step(tf.constant(np.arange(8, dtype=np.float32).reshape(2, 4) / (k + 1)))
    return w.numpy(), int(opt.iterations.numpy()), len(traced), fallbacks.messages


def test_a_nested_tf_function_that_applies_gradients_is_traced_without_a_warning():
    """Its merge writes variables, which its graph could not hold on placeholders: the
    function ran its Python in the replicated trace, with a warning that it ran eagerly.
    Now it is traced apart (twice, as its first trace makes Adam's slots: TF's rule) and
    not again; the weights are the undecorated step's."""
    w_plain, it_plain, _, _ = _adam_steps(False)
    w_nested, it_nested, traced, fallbacks = _adam_steps(True)
    np.testing.assert_array_equal(w_nested, w_plain)
    assert it_plain == it_nested == 3
    assert fallbacks == [] and traced == 2
