"""Record TF 2.21's ``tf.autograph.to_code`` for the functions of to_code_functions.py into
fixtures/tf_to_code.json (test_to_code_vs_tf.py compares simdist's text with it).

TF's text is deterministic but for the order of the names in each ``nonlocal`` statement:
TF builds it from a set, so it follows Python's string hashing (it changes with
PYTHONHASHSEED). The test sorts those names; record with PYTHONHASHSEED=0 for a stable file.

Run with the TensorFlow interpreter (not simdist's venv), from tests/autograph:
    PYTHONHASHSEED=0 TF_USE_LEGACY_KERAS=1 /tmp/tfvenv/bin/python record_tf_to_code.py
"""

import inspect
import json
import os
import sys

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import to_code_functions  # noqa: E402 - from this folder

if __name__ == "__main__":
    # by the module's name for each (a lambda's __name__ is "<lambda>")
    functions = {n: f for n, f in inspect.getmembers(to_code_functions, inspect.isfunction)
                 if f.__module__ == to_code_functions.__name__}
    results = {n: tf.autograph.to_code(f) for n, f in functions.items()}
    path = os.path.join(HERE, "fixtures", "tf_to_code.json")
    with open(path, "w") as out:
        json.dump({"tf_version": tf.__version__, "results": results}, out, indent=1)
    print(f"wrote {len(results)} results to {path}")
