"""tf.Variable created inside a tf.function body: function_variable_cases.CASES replayed
against TF 2.21 (record_tf_function.py, fixtures/tf_function_variables.json), each traced
into a graph (no eager fallback)."""

import os

import pytest
from function_variable_cases import CASES
from tf_snippets import conformance_tests
from untraceable import reset_untraceable  # noqa: F401 - the fixture

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_function_variables.json"):
         CASES}, traced=True)


# --- a function that runs eagerly (its trace failed: here GradientTape.reset, made
# untraceable by untraceable.reset_untraceable) keeps TF's first-call rule. TF traces such
# a body and raises the singleton error at the first call (the recorded case "a variable
# created at every call"). A variable made before the untraceable construct is made by the
# failed trace, and the eager run refuses a second one at the first call as TF does
# (function_fallback_cases); one made after it (here) is made by the first eager run, and a
# fallback cannot run the Python twice, so simdist raises it at the second call.
def _untraceable(body):
    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            t.reset()
        return body(x)
    return f


@pytest.mark.usefixtures("reset_untraceable")
def test_a_fallback_creating_a_variable_at_every_call_raises_tf_error_at_the_next_call():
    from simdist.framework import function_variables

    made = []

    def body(x):
        made.append(tf.Variable(1.0))
        return made[-1] + x

    f = _untraceable(body)
    assert float(f(tf.constant(1.0))) == 2.0
    with pytest.raises(ValueError, match="only supports singleton tf.Variables"):
        f(tf.constant(2.0))
    assert len(made) == 1   # refused before it was made
    assert function_variables.SINGLETON_ERROR.startswith("tf.function only supports")


@pytest.mark.usefixtures("reset_untraceable")
def test_a_fallback_with_a_singleton_variable_creates_it_once():
    state = {}

    def body(x):
        if "v" not in state:
            state["v"] = tf.Variable(1.0)
        return state["v"].assign_add(x)

    f = _untraceable(body)
    assert [float(f(tf.constant(1.0))) for _ in range(3)] == [2.0, 3.0, 4.0]


@pytest.mark.usefixtures("reset_untraceable")
def test_a_fallback_creating_a_variable_on_a_later_call_only_raises_after_that_call():
    calls = []

    def body(x):
        calls.append(1)
        if len(calls) == 2:
            tf.Variable(0.0)
        return x

    f = _untraceable(body)
    f(tf.constant(1.0))
    with pytest.raises(ValueError, match="Creating variables on a non-first call"):
        f(tf.constant(1.0))
    assert len(calls) == 2   # the call ran, as in TF
