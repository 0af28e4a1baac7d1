"""AutoGraph's conversion: converted code on Python values is the original Python; on
tensors it takes TF's paths (tf.cond / tf.while_loop) with the same values; do_not_convert,
to_code and the fall back for functions without source behave as TF's.
TF's own results for converted programs are replayed in
tests/framework/test_control_flow_tf_conformance.py."""

import logging

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import simdist as tf
from simdist.autograph.operators import control_flow


def jumps(xs, stop, skip):
    """break, continue and an early return: all lowered by AutoGraph (a loop else is not:
    TF runs such a function unconverted, see test_a_loop_else_runs_unconverted)."""
    total, seen, ended = 0, [], False
    for x in xs:
        if x == skip:
            continue
        if x == stop:
            ended = True
            break
        if x < 0:
            return -1, seen
        total += x
        seen.append(x)
    if not ended:
        total += 1000
    n = 0
    while n < 3 and total > 5:
        n += 1
        total = total // 2
    return total, seen


@given(st.lists(st.integers(-3, 9), max_size=8), st.integers(0, 9), st.integers(0, 9))
def test_converted_code_on_python_values_is_the_original(xs, stop, skip):
    assert tf.autograph.to_graph(jumps)(xs, stop, skip) == jumps(xs, stop, skip)


def row_sums(m):
    acc = tf.zeros(m.shape[1:])
    steps = 0
    for row in m:
        acc = acc + row
        steps += 1
    return acc, steps


@given(st.integers(0, 5), st.integers(1, 4), st.integers(0, 2**31 - 1))
def test_a_converted_loop_over_a_tensor_is_the_python_loop_over_its_rows(rows, cols, seed):
    values = np.random.default_rng(seed).normal(size=(rows, cols)).astype(np.float32)
    acc, steps = tf.autograph.to_graph(row_sums)(tf.constant(values))
    np.testing.assert_allclose(acc.numpy(), values.sum(axis=0), rtol=1e-5, atol=1e-6)
    assert isinstance(steps, tf.Tensor) and int(steps) == rows  # a tf.while_loop output


def test_tensor_conditions_go_through_tf_cond_and_tf_while_loop(monkeypatch):
    calls = []
    real_if, real_while = control_flow._tf_if_stmt, control_flow._tf_while_stmt
    monkeypatch.setattr(control_flow, "_tf_if_stmt",
                        lambda *a: calls.append("cond") or real_if(*a))
    monkeypatch.setattr(control_flow, "_tf_while_stmt",
                        lambda *a: calls.append("while") or real_while(*a))

    def f(x):
        if x > 0:
            x = x - 1
        while x > 10:
            x = x // 2
        return x

    converted = tf.autograph.to_graph(f)
    assert int(converted(tf.constant(50))) == f(50)
    assert calls == ["cond", "while"]
    calls.clear()
    assert converted(50) == f(50) and calls == []  # Python values: Python's if and while


def test_print_is_not_converted_and_runs_as_python(capsys):
    def f(x):
        for _ in tf.range(x):
            print("step")
        return x

    tf.autograph.to_graph(f)(tf.constant(2))
    assert capsys.readouterr().out == "step\nstep\n"  # TF: once, at trace time (NEEDS_TRACING)


def test_undefined_variable_reads_as_python_unbound_local():
    def f(flag):
        if flag:
            y = 1
        return y

    converted = tf.autograph.to_graph(f)
    assert converted(True) == 1
    with pytest.raises(UnboundLocalError, match="'y'"):
        converted(False)


def test_to_code_shows_the_functional_form():
    code = tf.autograph.to_code(jumps)
    for name in ("ag__.for_stmt", "ag__.while_stmt", "ag__.if_stmt", "break_", "continue_",
                 "do_return", "nonlocal"):
        assert name in code, name
    compile(code, "<to_code>", "exec")


def test_a_loop_else_runs_unconverted_with_tfs_warning(caplog):
    def loop_else(n):
        for i in range(n):
            n += i
        else:
            n += 100
        return n

    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert tf.function(loop_else)(3).numpy() == 106   # Python's for/else, run as it is
    assert "Cause: for/else statement not yet supported" in caplog.text


def test_do_not_convert_returns_the_function_unconverted():
    @tf.autograph.experimental.do_not_convert
    def f(x):
        return x if x else 0

    assert tf.autograph.to_graph(f) is f
    assert tf.autograph.to_graph(jumps) is tf.autograph.to_graph(jumps)  # cached


def test_a_function_made_again_reuses_its_converted_code_with_its_own_closure(monkeypatch):
    """Its code converted once (TF's cache by code object), each function bound to its own
    closure, defaults and name."""
    from simdist.autograph.impl import conversion

    made = []
    real = conversion._convert_code
    monkeypatch.setattr(conversion, "_convert_code", lambda fn: made.append(fn) or real(fn))

    def maker(k):
        def scaled(x, bias=k):
            if x > 0:
                return x * k + bias
            return -x
        return scaled, (lambda x: x + k if x > 0 else x - k)

    first, second = maker(2), maker(5)
    converted = [tf.autograph.to_graph(f) for f in (*first, *second)]
    assert len(made) == 2 and converted[0] is not converted[2]
    assert converted[0].__code__ is converted[2].__code__
    assert converted[1].__code__ is converted[3].__code__
    assert [c(3) for c in converted] == [8, 5, 20, 8]
    assert [c(-3) for c in converted] == [3, -5, 3, -8]
    assert int(converted[2](tf.constant(3))) == 20
    assert tf.autograph.to_code(second[0]) == tf.autograph.to_code(first[0])
    renamed = maker(7)[0]
    renamed.__name__ = "elsewhere"   # another name: converted again (found by its name)
    conversion.convert(renamed)
    assert len(made) == 3


def test_equal_code_from_another_file_converts_from_its_own_file(tmp_path):
    """Code objects of the same text at the same place in two files compare equal (their
    file is not compared): each is converted from its own file."""
    converted = []
    for name in ("one", "two"):
        path = tmp_path / f"{name}.py"
        path.write_text("def f(x):\n    if x > 0:\n        return x\n    return -x\n")
        scope = {"__name__": name}
        exec(compile(path.read_text(), str(path), "exec"), scope)  # noqa: S102
        converted.append(tf.autograph.to_graph(scope["f"]))
    assert [c.__code__.co_filename for c in converted] == [str(tmp_path / "one.py"),
                                                           str(tmp_path / "two.py")]
    assert [c(-2) for c in converted] == [2, 2]


def test_a_function_without_source_runs_unconverted_with_tfs_warning(caplog):
    scope = {}
    code = compile("def f(x):\n    return x + 1\n", "/nonexistent/gone.py", "exec")
    exec(code, scope)  # noqa: S102 - a function whose source file is gone
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        converted = tf.autograph.to_graph(scope["f"])
    assert converted is scope["f"] and converted(1) == 2
    assert "AutoGraph could not transform <function f at" in caplog.text
    assert "will run it as-is" in caplog.text
    assert "@tf.autograph.experimental.do_not_convert" in caplog.text


def test_methods_closures_and_super_keep_working():
    scale = 3

    class Base:
        def step(self, x):
            return x + 1

    class Model(Base):
        def step(self, x):
            if x > 0:
                x = super().step(x) * scale
            return x

    m = Model()
    converted = tf.autograph.to_graph(m.step)
    assert converted(2) == m.step(2) == 9
    assert int(converted(tf.constant(2))) == 9 and converted(-1) == -1


def test_exec_code_runs_unconverted_silently(caplog):
    scope = {}
    exec("def f(x):\n    return x + 1\n", scope)  # noqa: S102 - TF skips '<string>' code
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert tf.autograph.to_graph(scope["f"]) is scope["f"]
    assert caplog.text == ""


def helper(x):
    """Module-level: converted when a converted function calls it (TF's converted_call)."""
    if x > 0:
        return x * 2
    return -x


def test_called_user_functions_are_converted_too(monkeypatch):
    calls = []
    real_if = control_flow._tf_if_stmt
    monkeypatch.setattr(control_flow, "_tf_if_stmt",
                        lambda *a: calls.append("cond") or real_if(*a))

    def f(x):
        return helper(x) + len([1, 2])

    converted = tf.autograph.to_graph(f)
    assert int(converted(tf.constant(3))) == 8 and calls == ["cond"]
    assert converted(-3) == f(-3) == 5


def test_tf_function_converts_its_body():
    @tf.function
    def f(x):
        n = 0
        while x > 1:
            x = x / 2
            n += 1
        return n

    assert int(f(tf.constant(20.0))) == 5
    assert f.python_function is not tf.autograph.to_graph(f.python_function)


class _State:
    """An object whose attributes a converted function changes (composite symbols)."""


def _composite_program(c, k, state):
    """Tensor if and for over composite symbols: the same Python runs traced and eagerly."""
    acc = {"s": c * 0, "hits": c * 0}
    if c > 2:
        state.best = c
        acc["hits"] = acc["hits"] + 1
    else:
        state.best = -c
    for i in tf.range(k):
        acc["s"] += i * c
        if acc["s"] > 10:
            acc["hits"] += 1
    return state.best, acc["s"], acc["hits"]


@given(st.integers(-5, 5), st.integers(0, 6))
def test_composite_symbols_traced_as_run_eagerly(c, k):
    """self.x / d['k'] set inside tensor control flow: a traced call gives what the same
    function gives run eagerly (no leak, no lost update), for any predicate and trip count."""
    traced = tf.function(_composite_program)(tf.constant(c), tf.constant(k), _State())
    tf.config.run_functions_eagerly(True)
    try:
        eager = tf.function(_composite_program)(tf.constant(c), tf.constant(k), _State())
    finally:
        tf.config.run_functions_eagerly(False)
    assert [int(t) for t in traced] == [int(t) for t in eager]
