"""``tf.autograph.to_code`` against TF 2.21's text (record_tf_to_code.py,
fixtures/tf_to_code.json) for the functions of to_code_functions.py: a tensor if/else, a
while loop, a for over range, break/continue, a return inside a loop, a nested function,
a conditional expression, argument defaults (``None`` in TF's text), a lambda inside a
function (``ag__.autograph_artifact``) and lambdas converted themselves.

The texts are equal but for one thing: TF orders the names of a ``nonlocal`` statement, and
the ``x = ag__.Undefined('x')`` lines before a statement, as a Python set does (its order
changes with PYTHONHASHSEED), so the comparison sorts them. Composite symbols (``acc['s']``,
``self.x``) are control-flow state read with ``ag__.ldu`` in TF's order and text.
"""

import json
import os
import re

import pytest
import to_code_functions

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_to_code.json")) as _f:
    RECORDED = json.load(_f)["results"]


def _sorted_nonlocals(code: str) -> str:
    code = re.sub(r"nonlocal (.*)",
                  lambda m: "nonlocal " + ", ".join(sorted(m.group(1).split(", "))), code)
    return re.sub(r"(?:^ *\w+ = ag__\.Undefined\('\w+'\)\n)+",
                  lambda m: "".join(sorted(m.group(0).splitlines(keepends=True))), code,
                  flags=re.MULTILINE)


def test_every_function_was_recorded():
    names = {n for n, f in vars(to_code_functions).items()
             if callable(f) and getattr(f, "__module__", None) == to_code_functions.__name__}
    assert set(RECORDED) == names


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_to_code_is_tfs_text(name):
    code = tf.autograph.to_code(getattr(to_code_functions, name))
    assert _sorted_nonlocals(code) == _sorted_nonlocals(RECORDED[name])
