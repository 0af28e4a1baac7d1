"""A tf.function simdist cannot trace (func_graph.NotTraceable part-way through its Python)
runs eagerly instead: what its failed trace leaves behind. Mostly simdist's own behaviour
(TF traces these functions): the tests state the contract; where the fallback keeps TF's
behaviour (variables a failed trace made), it is recorded from TF and replayed.

- The failed trace's prints are dropped: the eager run prints them.
- Its other Python side effects (a list append before the untraceable construct) cannot be
  undone: they happen once more, on the call that traced -- and only on that one, because a
  function that fell back once runs eagerly for every later signature too, without a trace.
- TF's own checks that run before the function's Python (eager_reason: a call under a
  distribution strategy) decide before any Python runs, so they leave nothing behind.
"""

import contextlib
import io
import logging
import os

import pytest
from function_fallback_cases import CASES
from tf_snippets import conformance_tests
from untraceable import reset_untraceable  # noqa: F401 - the fixture

import simdist as tf
from simdist.framework import func_graph

# Every test here runs with GradientTape.reset untraceable (untraceable.py): a stand-in for
# what simdist cannot trace, since simdist traces reset as TF does.
pytestmark = pytest.mark.usefixtures("reset_untraceable")

# What TF 2.21 does with the functions of function_fallback_cases (it traces them), replayed
# by simdist's fallback (record_tf_function.py, fixtures/tf_function_fallback.json).
test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_function_fallback.json"):
         CASES})


def _untraceable(x, log):
    log.append(("python", tuple(x.shape)))
    print("printed", tuple(x.shape))
    with tf.GradientTape() as tape:
        tape.watch(x)
        tape.reset()   # untraceable here (the reset_untraceable fixture): NotTraceable
        y = x * 2.0
    return y


def test_a_failed_trace_leaves_its_appends_once_and_drops_its_prints(caplog):
    log = []
    f = tf.function(lambda x: _untraceable(x, log))
    out = io.StringIO()
    with contextlib.redirect_stdout(out), caplog.at_level(logging.WARNING, "tensorflow"):
        results = [f(tf.constant([1.0, 2.0])), f(tf.constant([3.0, 4.0])),
                   f(tf.constant([[1.0]])), f(tf.constant([[2.0]]))]
    # one failed trace (its append stays), then four eager runs; no trace for the new shape
    assert log == [("python", (2,))] * 3 + [("python", (1, 1))] * 2
    assert out.getvalue() == "printed (2,)\n" * 2 + "printed (1, 1)\n" * 2
    assert [r.numpy().tolist() for r in results] == [[2.0, 4.0], [6.0, 8.0], [[2.0]], [[4.0]]]
    warnings = [r for r in caplog.records if "could not trace" in r.getMessage()]
    assert len(warnings) == 1 and "GradientTape.reset" in warnings[0].getMessage()
    assert f.experimental_get_tracing_count() == 2   # TF's count: one per signature


def test_a_check_before_the_python_runs_leaves_nothing_behind(monkeypatch, caplog):
    log = []

    @tf.function
    def f(x):
        log.append("python")
        return x + 1.0

    conditions = list(func_graph._EAGER_CONDITIONS)
    monkeypatch.setattr(func_graph, "_EAGER_CONDITIONS", conditions)
    func_graph.register_eager_condition(lambda: "a test's condition")
    with caplog.at_level(logging.WARNING, "tensorflow"):
        results = [f(tf.constant(1.0)), f(tf.constant(2.0))]
    assert [r.numpy() for r in results] == [2.0, 3.0]
    assert log == ["python", "python"]   # no trace ran the Python: one append per call
    assert any("a test's condition" in r.getMessage() for r in caplog.records)


def _simdist_cannot_trace():
    """A stand-in for a construct simdist's graphs cannot record (TF traces it)."""
    if func_graph.current() is not None:
        raise func_graph.NotTraceable("a stand-in construct")


def test_variables_of_a_helper_the_failed_trace_cut_short_are_made_again(caplog):
    # TF's first trace completes build (it stores the variables) and its second makes none;
    # simdist's failed trace made them inside build, which never stored them: the eager
    # run makes them once more, as TF's first trace, without the singleton error.
    class Holder:
        vars = None

        def build(self):
            made = [tf.Variable(1.0), tf.Variable(2.0)]
            _simdist_cannot_trace()
            self.vars = made

    h = Holder()

    @tf.function
    def f(x):
        if h.vars is None:
            h.build()
        return h.vars[0] * x + h.vars[1]

    with caplog.at_level(logging.WARNING, "tensorflow"):
        results = [f(tf.constant(1.0)), f(tf.constant(2.0)), f(tf.constant(3.0))]
    assert [r.numpy() for r in results] == [3.0, 4.0, 5.0]
    assert any("a stand-in construct" in r.getMessage() for r in caplog.records)


def test_variables_a_returned_call_made_before_the_failure_count_as_the_first_traces():
    # make() returned its new variable to the body before the failure: TF's second trace
    # would make another, so the eager run is refused as TF refuses that trace.
    def make():
        return tf.Variable(1.0)

    @tf.function
    def g(x):
        v = make()
        _simdist_cannot_trace()
        return v + x

    with pytest.raises(ValueError, match="only supports singleton tf.Variables"):
        g(tf.constant(1.0))
