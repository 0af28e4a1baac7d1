"""Record what TF 2.15 (Keras 2) gives for keras_cases.CASES into fixtures/tf_keras.json
(and TF 2.21 with tf-keras for fit_trace_cases, layer_call_error_cases and compile_error_cases:
group names fit_trace, call_errors, compile_errors, class_weight, optimizers,
sparse_optimizers).

Run with the TensorFlow interpreter (not simdist's venv); naming cases re-records only them:
    /tmp/tfenv/bin/python tests/keras/record_tf_keras.py
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"keras": ("keras_cases", "tf_keras.json"),
          "fit_trace": ("fit_trace_cases", "tf_fit_trace.json"),
          "call_errors": ("layer_call_error_cases", "tf_layer_call_errors.json"),
          "compile_errors": ("compile_error_cases", "tf_compile_errors.json"),
          "class_weight": ("class_weight_cases", "tf_class_weight.json"),
          "optimizers": ("optimizer_cases", "tf_optimizers.json"),
          "sparse_optimizers": ("sparse_optimizer_cases", "tf_sparse_optimizers.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:])
