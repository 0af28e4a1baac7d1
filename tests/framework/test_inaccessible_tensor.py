"""A tensor made in a loop body or cond branch and used outside it (appended to a Python
list in the body, the classic mistake): TF's InaccessibleTensorError with its whole text
(framework/func_graph.py FuncGraph.inaccessible); the recorded texts are replayed by
control_flow_cases. Here: the parts TF's text is built of, and that the trace, not the
values, decides."""

import inspect

import pytest

import simdist as tf


def test_a_body_tensor_returned_names_where_it_was_made():
    @tf.function
    def collect(n):
        kept = []
        for i in tf.range(n):
            kept.append(i * 2)   # the line the error points at
        return kept

    line = inspect.getsourcelines(collect.python_function)[1] + 4
    with pytest.raises(ValueError) as info:   # TF's class is a ValueError
        collect(tf.constant(3))
    text = str(info.value)
    assert type(info.value).__name__ == "InaccessibleTensorError"
    assert text.startswith("<tf.Tensor 'while/mul:0' shape=() dtype=int32> is out of scope "
                           "and cannot be used here.")
    assert f'File "{__file__}", line {line}, in collect' in text
    assert "cannot be accessed from FuncGraph(name=collect, id=" in text
    assert "because it was defined in FuncGraph(name=while_body_" in text


def test_a_branch_tensor_used_by_a_later_op_is_refused_too():
    @tf.function
    def use(x):
        made = []
        if x > 0:
            made.append(x + 1)
        else:
            made.append(x - 1)
        return made[0] * 2

    with pytest.raises(ValueError, match="defined in FuncGraph\\(name=cond_true_"):
        use(tf.constant(1))


def test_loop_variables_carried_out_are_fine():
    @tf.function
    def total(n):
        s = tf.constant(0)
        for i in tf.range(n):
            s += i
        return s

    assert total(tf.constant(4)).numpy() == 6
