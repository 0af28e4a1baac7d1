"""tf.function under ParameterServerStrategy: a scheduled function is traced once on the
coordinator (TF's Closure: get_concrete_function with the first worker's arguments) and
its graph runs on the workers. What TF 2.21 does (tracing counts, printed output, values)
is the recorded scenario ``tracing`` (test_parameter_server.py replays it); here: the
graph's variable reads and writes are the simulation's pulls and pushes, exactly as the
eager step's, and nothing falls back to eager."""

import contextlib

import numpy as np
from ps_helpers import cpu_cluster, load_scenarios

import simdist as tf
from simdist.hardware import machine
from simdist.testing.log_capture import tf_logs


def _train(eager: bool):
    """Nine Keras-optimizer steps scheduled on three workers and two ps."""
    strategy, coord = cpu_cluster(3, 2)
    with strategy.scope():
        w = tf.Variable(np.full((64, 64), 0.01, np.float32), name="w")
        b = tf.Variable(0.0, name="b")
        opt = tf.keras.optimizers.legacy.SGD(0.1)

    @tf.function
    def step():
        def fn():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.matmul(w, w)) + b
                loss += 0.0 * b.read_value()   # a read of its own: a ReadVariableOp node
            grads = tape.gradient(loss, [w, b])
            opt.apply_gradients(zip(grads, [w, b]))
            return loss

        return strategy.run(fn)

    if eager:   # the eager fallback, as every scheduled function ran before tracing
        step._untraceable = "compared with the traced run"
    remotes = [coord.schedule(step) for _ in range(9)]
    coord.join()
    sim = strategy.extended.simulation
    return (step, [tuple(sorted(e.items())) for e in sim.events],
            [worker.clock for worker in sim.workers], [float(r.fetch()) for r in remotes],
            w.numpy())


@contextlib.contextmanager
def _no_fallback():
    with tf_logs(contains="could not trace") as fallbacks:
        yield
    assert fallbacks.messages == []


def test_a_traced_step_pulls_and_pushes_as_the_eager_step_does():
    with _no_fallback():
        step, events, clocks, losses, weights = _train(eager=False)
    _, eager_events, eager_clocks, eager_losses, eager_weights = _train(eager=True)
    assert step.experimental_get_tracing_count() == 2   # the optimizer's variables: TF's 2
    assert {dict(e)["kind"] for e in events} == {"pull", "push"} and len(events) > 9
    assert events == eager_events   # same variables, workers, versions, simulated times
    assert clocks == eager_clocks
    assert losses == eager_losses
    np.testing.assert_array_equal(weights, eager_weights)


def test_the_recorded_tracing_scenario_does_not_fall_back_to_eager():
    machine.set_machine("cpu")   # as the recording
    with _no_fallback():
        load_scenarios().tracing()
