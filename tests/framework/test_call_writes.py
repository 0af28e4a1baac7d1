"""A traced metric update replayed as one program with its variable writes (call_plan
``writes=True``, op_capture's write steps): the same values, clocks, trace events and
memory as the node-by-node replay (``graph_plan.disabled()``)."""

import numpy as np
import pytest
import world_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simdist as tf
from simdist.framework import call_plan, graph_plan
from simdist.hardware import backend as _backend

pytestmark = pytest.mark.skipif(
    _backend.get_backend() != "numpy",
    reason="compiled graph plans lower ops on the NumPy backend only (graph_plan.py)")


def _assert_same(program):
    return world_state.assert_same(program, graph_plan.disabled, seed=11)


def _metric_steps(fn):
    plan = fn._traces[0].graph._plans[None]
    return [s.lowered for s in plan.steps if isinstance(s, call_plan.CallStep) and
            s.node.name.endswith("update_state")]


def _mirrored_metrics_program(make_metric, weighted=False):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        metric = make_metric()
    x = np.linspace(0.0, 1.0, 64, dtype=np.float32).reshape(32, 2)
    y = (np.sin(9 * x[:, :1]) > 0).astype(np.float32)
    w = np.linspace(0.5, 2.0, 32, dtype=np.float32).reshape(32, 1)
    data = strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((x, y, w)).batch(8))

    def fn(features, labels, weights):
        predictions = tf.sigmoid(features[:, 1:] - 0.5)
        if weighted:
            metric.update_state(labels, predictions, sample_weight=weights)
        else:
            metric.update_state(labels, predictions)
        return predictions

    @tf.function
    def step(batch):
        return strategy.run(fn, args=batch)

    out = []
    for _ in range(3):
        metric.reset_state()
        for batch in data:
            step(batch)
        out.append(metric.result())
    return out + [v.numpy() for v in metric.variables], step


def test_a_mirrored_accuracy_update_replays_with_its_writes_exactly():
    step = _assert_same(lambda: _mirrored_metrics_program(tf.keras.metrics.BinaryAccuracy))
    assert _metric_steps(step) == [True] * 4   # each replica's update: ops and 2 writes


@pytest.mark.parametrize("make_metric, weighted", [
    (lambda: tf.keras.metrics.Mean(), True),
    (lambda: tf.keras.metrics.Sum(), False),
    (lambda: tf.keras.metrics.BinaryAccuracy(threshold=0.7), True)])   # with a Squeeze
def test_mean_sum_and_weighted_updates_replay_exactly(make_metric, weighted):
    def program():
        metric = make_metric()

        @tf.function
        def f(y, p, w):
            if isinstance(metric, tf.keras.metrics.BinaryAccuracy):
                metric.update_state(y, p, sample_weight=w if weighted else None)
            else:
                metric.update_state(p, sample_weight=w if weighted else None)
            return p

        rng = np.random.default_rng(4)
        for _ in range(6):
            f(rng.integers(0, 2, (5, 1)).astype(np.float32),
              rng.random((5, 1), dtype=np.float32), rng.random((5, 1), dtype=np.float32))
        return [metric.result()] + [v.numpy() for v in metric.variables], f

    f = _assert_same(program)
    assert _metric_steps(f) == [True]   # the update lowers: its ops and its writes


class _Assigning(tf.keras.metrics.Metric):
    """A metric whose update assigns (not a write a program replays)."""

    def __init__(self):
        super().__init__(name="last")
        self.last = self.add_weight("last")

    def update_state(self, values):
        self.last.assign(tf.reduce_sum(values))

    def result(self):
        return self.last.read_value()


def test_an_update_that_assigns_is_not_a_program_and_still_replays_exactly():
    call_plan.register(_Assigning.update_state, writes=True)

    def program():
        metric = _Assigning()

        @tf.function
        def f(v):
            metric.update_state(v)
            return v

        for k in range(5):
            f(np.full((3,), float(k), np.float32))
        return [metric.result()], f

    f = _assert_same(program)
    assert _metric_steps(f) in ([], [False])


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(1, 6), threshold=st.floats(0.05, 0.95), seed=st.integers(0, 2**16),
       dtype=st.sampled_from(["float32", "float64"]))
def test_random_accuracy_updates_replay_exactly(rows, threshold, seed, dtype):
    rng = np.random.default_rng(seed)
    batches = [(rng.integers(0, 2, (rows, 1)).astype(dtype), rng.random((rows, 1)).astype(dtype))
               for _ in range(5)]

    def program():
        metric = tf.keras.metrics.BinaryAccuracy(threshold=threshold, dtype=dtype)

        @tf.function
        def f(y, p):
            metric.update_state(y, p)
            return p

        out = []
        for y, p in batches:
            f(y, p)
            out.append(metric.result())
        return out, f

    assert _metric_steps(_assert_same(program)) == [True]
