"""AutoGraph's choice among the lambdas of one source line, and its fallback warning,
against TF 2.21 (record_tf_fallbacks.py, fixtures/tf_autograph_fallbacks.json): the values,
and the messages logged on the "tensorflow" logger, word for word."""

import os
import subprocess
import sys

import fallback_cases
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_autograph_fallbacks.json"):
         fallback_cases.CASES})


def test_the_tensorflow_logger_writes_tfs_prefix_to_stderr():
    """TF's tf_logging.get_logger gives the "tensorflow" logger a handler with
    logging.BASIC_FORMAT when the root logger has none: a warning reads
    "WARNING:tensorflow:<message>" on stderr; a root logger configured first gets it alone
    (TF 2.21 wrote the same two outputs for this program)."""
    program = ("import logging, sys\n"
               "if sys.argv[1] == 'root': logging.basicConfig(format='root:%(message)s')\n"
               "import simdist as tf\ntf.get_logger().warning('x is %d', 3)\n")
    bare, rooted = (subprocess.run([sys.executable, "-c", program, how], capture_output=True,
                                   text=True, timeout=60) for how in ("bare", "root"))
    assert bare.stderr == "WARNING:tensorflow:x is 3\n" and bare.stdout == ""
    assert rooted.stderr == "root:x is 3\n"
