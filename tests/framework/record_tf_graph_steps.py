"""Record the graphs TF 2.21 (tf-keras) lists for graph_step_cases.CASES into
fixtures/tf_graph_steps.json (test_graph_step_listing.py replays them); and, replayed by
test_graph_listing_conformance.py, tf.tensordot's values, errors and traced ops
(tensordot_cases -> fixtures/tf_tensordot.json) and the ops and values of Keras's loss
functions called directly (loss_function_cases -> fixtures/tf_loss_functions.json).

Run with the TensorFlow interpreter (not simdist's venv); naming cases re-records only them:
    TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES="" /tmp/tfvenv/bin/python \
        tests/framework/record_tf_graph_steps.py [tensordot "a Dense model's gradients" ...]
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets
from tf_snippets import recorder_main  # noqa: E402

if __name__ == "__main__":
    recorder_main(HERE, {"graph_steps": ("graph_step_cases", "tf_graph_steps.json"),
                         "tensordot": ("tensordot_cases", "tf_tensordot.json"),
                         "loss_functions": ("loss_function_cases", "tf_loss_functions.json")},
                  sys.argv[1:], cpus=None)
