"""Record what TF 2.15 (Keras 2) gives for layer_cases.CASES into fixtures/tf_layers.json.

Run with the TensorFlow interpreter (not simdist's venv):
    TF_CPP_MIN_LOG_LEVEL=3 /tmp/tfvenv/bin/python tests/keras/record_tf_layers.py
"""

import os
import sys

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets
tf.config.set_logical_device_configuration(
    tf.config.list_physical_devices("CPU")[0], [tf.config.LogicalDeviceConfiguration()] * 4)

from layer_cases import CASES  # noqa: E402 - after the logical devices exist
from tf_snippets import record  # noqa: E402

if __name__ == "__main__":
    record(tf, CASES, os.path.join(HERE, "fixtures", "tf_layers.json"),
           tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)]),
           before_each=tf.keras.backend.clear_session)
