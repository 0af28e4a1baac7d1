"""TF's public ops dispatch (framework/dispatch.py): the table recorded from TF 2.21
(record_tf_api_names.py) names simdist's public functions, one function per op however many
paths it has, and a value an op cannot take goes to the registered dispatchers only after
the op raised. Each op pickles by reference, as TF's do (multiprocessing sends them)."""

import pickle
import subprocess
import sys

import pytest

import simdist as tf
from simdist.framework import api_names, dispatch


def _resolve(path):
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("path", sorted(api_names.DISPATCHED))
def test_every_recorded_op_is_public_and_named_as_tf_names_it(path):
    op = _resolve(path)
    assert dispatch.api_name(op) == api_names.DISPATCHED[path]
    assert pickle.loads(pickle.dumps(op)) is op


def test_a_pickled_op_loads_in_a_new_process():
    sent = pickle.dumps([tf.reduce_sum, tf.nn.relu, tf.nn.compute_average_loss])
    code = ("import pickle, sys, simdist as tf; ops = pickle.loads(sys.stdin.buffer.read()); "
            "print(ops == [tf.reduce_sum, tf.nn.relu, tf.nn.compute_average_loss], "
            "float(ops[0]([1.0, 2.0])))")
    run = subprocess.run([sys.executable, "-c", code], input=sent, capture_output=True,
                         timeout=120, check=True)
    assert run.stdout.split() == [b"True", b"3.0"]


def test_an_op_is_one_function_under_each_of_its_paths():
    assert tf.reduce_mean is tf.math.reduce_mean
    assert tf.matmul is tf.linalg.matmul
    assert tf.__operators__.add is not tf.math.add  # TF's _add_dispatch is its own function


class _Symbol:
    """A value no op converts."""


class _Dispatcher(dispatch.GlobalOpDispatcher):
    def __init__(self):
        self.calls = []

    def handle(self, op, args, kwargs):
        if not any(isinstance(a, _Symbol) for a in args):
            return self.NOT_SUPPORTED
        self.calls.append((op, args, kwargs))
        return "handled"


@pytest.fixture
def dispatcher():
    d = _Dispatcher()
    d.register()
    yield d
    dispatch._GLOBAL_DISPATCHERS.remove(d)


def test_a_dispatcher_gets_the_public_op_and_its_arguments(dispatcher):
    s = _Symbol()
    assert tf.reduce_sum(s, axis=1) == "handled"
    assert dispatcher.calls == [(tf.reduce_sum, (s,), {"axis": 1})]
    assert tf.reduce_sum(tf.ones((2, 3)), axis=1).numpy().tolist() == [3.0, 3.0]
    assert len(dispatcher.calls) == 1  # an op that succeeds asks no dispatcher


def test_an_op_nobody_handles_raises_its_own_error(dispatcher):
    with pytest.raises(ValueError, match="Attempt to convert a value"):
        tf.reduce_sum(object())
    assert dispatcher.calls == []
