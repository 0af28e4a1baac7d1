"""TF's two tf.function guides run under simdist and print what TF 2.21 printed
(``record_tf_tutorials.py 1 function_guide intro_to_graphs``): "Better performance with
tf.function" (programs/function_guide.py: tracing once per signature, retracing on Python
values, input_signature errors, concrete functions called, printed and refused, a graph's
nodes, AutoGraph loops, Python side effects, variables made on a first call only, an
optimizer per trace) and "Introduction to graphs and tf.function"
(programs/intro_to_graphs.py: a Function and its concrete functions, Keras models traced and
eager, run_functions_eagerly, print once per trace). What tf.print printed to stderr is
compared too (fizzbuzz, a while loop's values, "Executing ..." at every call, an iterator
read once per trace). No tf.function falls back to eager.

Two kinds of text are equal up to names only: an exception class's module
(``tensorflow.python.framework.errors_impl.X`` / ``simdist.errors.X``) and a Function's
(its default repr); and the captured variables' ids, which differ from run to run.

Not compared (known differences, not done): what the intro guide's EagerLayer prints during
``model.fit``: TF traces Keras's train_function (the layer prints when traced: twice in the
first epoch, as the first trace makes the optimizer's variables), where simdist's fit runs
each step's Python (it prints at every step). The fit's losses are compared."""

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


def _fit_prints_dropped(text):
    """The intro guide's text without the EagerLayer's prints between model.fit's start and
    "Run all functions eagerly." (see the module docstring)."""
    start = text.find("Directly calling a concrete function")
    end = text.find("Run all functions eagerly.")
    if start < 0 or end < 0:
        return text
    middle = text[start:end].replace("\nCurrently running eagerly <time>\n", "\n")
    return text[:start] + middle + text[end:]


def _check(name):
    with tf_logs(contains="could not trace") as fallbacks:
        printed, tf_printed = run_with_prints(name, "simdist")
    _compare(_fit_prints_dropped(_names_masked(printed)),
             _fit_prints_dropped(_names_masked(_recorded(name, 1))))
    with open(os.path.join(HERE, "fixtures", f"{name}@1cpu.json")) as f:
        _compare(tf_printed, json.load(f)["tf_print"])
    assert fallbacks.messages == []


def test_function_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _check("function_guide")


def test_intro_to_graphs_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _check("intro_to_graphs")
