"""ThreadLocalValue.scope and a recorded op's node scope: the value for the block, the old
one back however the block ends, and each thread's own."""

import threading

import pytest

from simdist.framework import execute, func_graph
from simdist.framework.tensor import tracing
from simdist.framework.thread_local import ThreadLocalValue


def test_scope_sets_the_value_for_its_block_and_puts_the_old_one_back():
    local = ThreadLocalValue(0)
    with local.scope(1):
        assert local.value == 1
        with local.scope(2):
            assert local.value == 2
        assert local.value == 1
    assert local.value == 0


def test_scope_puts_the_old_value_back_when_the_block_raises():
    local = ThreadLocalValue("outer")
    with pytest.raises(KeyError):
        with local.scope("inner"):
            raise KeyError("x")
    assert local.value == "outer"


def test_scope_reads_the_old_value_on_entering_in_the_entering_thread():
    local = ThreadLocalValue(0)
    scope = local.scope(5)   # made here, entered in another thread
    seen = []

    def other():
        local.value = 3
        with scope:
            seen.append(local.value)
        seen.append(local.value)

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert seen == [5, 3]
    assert local.value == 0   # this thread's value was never touched


def _state():
    return (tracing.value, func_graph._in_node.value, func_graph._variant.value,
            execute.in_shape_inference())


def test_node_scope_sets_the_four_states_and_restores_them():
    before = _state()
    with func_graph.recorded_op_scope(1):
        assert _state() == (None, before[1] + 1, 1, True)
        with func_graph.recorded_op_scope(0):
            assert _state() == (None, before[1] + 2, 0, True)
        assert _state() == (None, before[1] + 1, 1, True)
    assert _state() == before


def test_node_scope_restores_the_states_when_the_op_raises():
    before = _state()
    with tracing.scope("a graph"):
        with pytest.raises(ValueError):
            with func_graph.recorded_op_scope(1):
                raise ValueError("op failed")
        assert _state() == ("a graph",) + before[1:]
    assert _state() == before
