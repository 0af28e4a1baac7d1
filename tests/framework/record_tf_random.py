"""Record TF 2.21's random numbers for the programs in random_cases.py (bits, not values).

Run with TensorFlow's Python:
``TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES="" /tmp/tfvenv/bin/python
tests/framework/record_tf_random.py``; it writes ``fixtures/tf_random.json``: for each case
the dtype, shape and raw bits (unsigned ints of the dtype's width) of each output tensor
(``cases``: compared bit for bit; ``fit_cases``: to float32 round-off).
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import generator_cases  # noqa: E402
from random_cases import CASES, FIT_CASES, STRATEGY_CASES, STRATEGY_FIT_CASES  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def as_bits(t) -> dict:
    """dtype name, shape and the raw bits of one tensor (the record every test compares)."""
    a = np.asarray(t.numpy())
    width = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
    return {"dtype": t.dtype.name, "shape": list(a.shape),
            "bits": a.reshape(-1).view(width).tolist()}


TF_DEVICES = ["/cpu:0", "/cpu:1"]


def run_case(tf, code: str, devices=None) -> list:
    scope = {"tf": tf, "np": np, "DEVICES": devices}
    exec(code, scope)  # noqa: S102 - the programs above, run as TF runs them
    return [as_bits(t) for t in scope["out"]]


def run_error_case(tf, code: str) -> list:
    """The exception a program raises: [its type's name, its message]."""
    try:
        exec(code, {"tf": tf, "np": np})  # noqa: S102 - the programs, run as TF runs them
    except Exception as e:  # noqa: BLE001 - recording whatever the framework raises
        return [type(e).__name__, str(e)]
    raise AssertionError(f"no exception from {code!r}")


def main():
    import tensorflow as tf

    cpu = tf.config.list_physical_devices("CPU")[0]   # two logical CPUs for the strategies
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    out = {"tf_version": tf.__version__,
           "cases": {name: run_case(tf, code) for name, code in CASES.items()},
           "fit_cases": {name: run_case(tf, code) for name, code in FIT_CASES.items()},
           "strategy_cases": {name: run_case(tf, code, TF_DEVICES)
                              for name, code in STRATEGY_CASES.items()},
           "strategy_fit_cases": {name: run_case(tf, code, TF_DEVICES)
                                  for name, code in STRATEGY_FIT_CASES.items()},
           "generator_cases": {name: run_case(tf, code)
                               for name, code in generator_cases.CASES.items()},
           "generator_strategy_cases": {name: run_case(tf, code, TF_DEVICES) for name, code
                                        in generator_cases.STRATEGY_CASES.items()},
           "generator_errors": {name: run_error_case(tf, code)
                                for name, code in generator_cases.ERROR_CASES.items()}}
    path = os.path.join(HERE, "fixtures", "tf_random.json")
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
    print("wrote", path, len(out["cases"]), "cases")


if __name__ == "__main__":
    main()
