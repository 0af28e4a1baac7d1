"""TF's two tf.function guides run under simdist and print what TF 2.21 printed
(``record_tf_tutorials.py 1 function_guide intro_to_graphs``): "Better performance with
tf.function" (programs/function_guide.py: tracing once per signature, retracing on Python
values, input_signature errors, concrete functions called, printed and refused, a graph's
nodes, AutoGraph loops, Python side effects, variables made on a first call only, an
optimizer per trace) and "Introduction to graphs and tf.function"
(programs/intro_to_graphs.py: a Function and its concrete functions, Keras models traced and
eager, run_functions_eagerly, print once per trace). What tf.print printed to stderr is
compared too (fizzbuzz, a while loop's values, "Executing ..." at every call, an iterator
read once per trace), and what a layer prints during ``model.fit`` (Keras's train_function
traced: twice in the first epoch, as the first trace makes the model's and the optimizer's
variables; at every step with ``run_eagerly=True``). No tf.function falls back to eager.

Two kinds of text are equal up to names only: an exception class's module
(``tensorflow.python.framework.errors_impl.X`` / ``simdist.errors.X``) and a Function's
(its default repr); and the captured variables' ids, which differ from run to run.
"""

import json
import os
import re

from run_program import HERE, run_with_prints
from test_tutorials import _compare, _recorded, cpu_machine  # noqa: F401 - the fixture

from simdist.testing.log_capture import tf_logs

_MODULE = re.compile(r"<(class '|)(tensorflow|simdist)[\w.]*\.(\w+)")
_CAPTURE = re.compile(r"^  \d+: TensorSpec", re.M)


def _names_masked(text):
    return _CAPTURE.sub("  #: TensorSpec", _MODULE.sub(r"<\1\3", text))


def _check(name):
    with tf_logs(contains="could not trace") as fallbacks:
        printed, tf_printed = run_with_prints(name, "simdist")
    _compare(_names_masked(printed), _names_masked(_recorded(name, 1)))
    with open(os.path.join(HERE, "fixtures", f"{name}@1cpu.json")) as f:
        _compare(tf_printed, json.load(f)["tf_print"])
    assert fallbacks.messages == []


def test_function_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _check("function_guide")


def test_intro_to_graphs_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _check("intro_to_graphs")
