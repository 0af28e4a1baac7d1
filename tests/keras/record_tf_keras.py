"""Record what TF 2.15 (Keras 2) gives for keras_cases.CASES into fixtures/tf_keras.json.

Run with the TensorFlow interpreter (not simdist's venv):
    /tmp/tfenv/bin/python tests/keras/record_tf_keras.py
"""

import json
import os

import numpy as np
import tensorflow as tf

tf.config.set_logical_device_configuration(
    tf.config.list_physical_devices("CPU")[0], [tf.config.LogicalDeviceConfiguration()] * 4)
from keras_cases import CASES  # noqa: E402 - after the logical devices exist

HERE = os.path.dirname(os.path.abspath(__file__))


def plain(value):
    """A JSON form of a case's result: nested lists of rounded floats, strings, bools."""
    if isinstance(value, (list, tuple)) and not hasattr(value, "as_list"):
        return [plain(v) for v in value]
    if isinstance(value, (str, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {"dict": [[k, plain(v)] for k, v in sorted(value.items())]}
    if hasattr(value, "as_list"):  # TensorShape
        return str(tuple(value.as_list()))
    arr = np.asarray(value)
    return {"dtype": str(arr.dtype), "shape": list(arr.shape),
            "values": np.round(arr.astype(np.float64), 6).tolist()}


STRATEGY = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)])


def run(code):
    scope = {"tf": tf, "np": np, "L": tf.keras.layers, "S": STRATEGY}
    try:
        exec(code, scope)  # noqa: S102 - the recorded cases
    except Exception as e:  # noqa: BLE001 - the error is the result
        return {"error": type(e).__name__, "message": str(e)}
    return {"value": plain(scope["out"])}


def main():
    results = {}
    for name, code in CASES.items():
        tf.keras.backend.clear_session()
        results[name] = run(code)
    with open(os.path.join(HERE, "fixtures", "tf_keras.json"), "w") as f:
        json.dump({"tf_version": tf.__version__, "results": results}, f, indent=1)
    print(f"wrote {len(results)} results")


if __name__ == "__main__":
    main()
