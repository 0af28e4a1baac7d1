"""Record what TF 2.21 lists under visible_devices_cases.HIDE_ALL into
fixtures/tf_visible_devices.json: one TensorFlow process per CUDA_VISIBLE_DEVICES value (TF
reads it once, when it starts).

Run with the TensorFlow interpreter (not simdist's venv):
    TF_USE_LEGACY_KERAS=1 /tmp/tfvenv/bin/python tests/hardware/record_tf_visible_devices.py
"""

import inspect
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import visible_devices_cases as cases  # noqa: E402

PROGRAM = ("import tensorflow as tf\n" + inspect.getsource(cases.describe) + cases.SNIPPET)


def record_one(value: str) -> dict:
    env = dict(os.environ, CUDA_VISIBLE_DEVICES=value, TF_CPP_MIN_LOG_LEVEL="3")
    out = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True,
                         text=True, timeout=300, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


if __name__ == "__main__":
    import tensorflow as tf

    results = {value: record_one(value) for value in cases.HIDE_ALL}
    path = os.path.join(HERE, "fixtures", "tf_visible_devices.json")
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, "results": results}, f, indent=1)
    print(f"wrote {len(results)} results to {path}")
