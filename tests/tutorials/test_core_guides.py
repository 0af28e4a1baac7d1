"""TF's guides to its core objects run under simdist and print what TF 2.21 printed
(``record_tf_tutorials.py 1 variable``, each guide in a process of its own).

"Introduction to Variables" (programs/variable.py): variables of float, bool and complex128
values, viewed as tensors, reshaped, assigned (TF's ValueError for a resizing ``assign``),
copied, compared, and placed with ``tf.device``: 'GPU:0' on a machine without a GPU places
the multiply on the CPU (soft placement, TF's default in eager code).
"""

from run_program import run
from test_tutorials import _compare, _recorded, _replays_traced, cpu_machine  # noqa: F401


def test_variable_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _compare(run("variable", "simdist"), _recorded("variable", 1))
