"""Record what TF 2.21 does on a machine with no TPU (fixtures/tf_tpu_absent.json): the
TPUClusterResolver errors, a 'local' resolver's answers, initialize_tpu_system's and
TPUStrategy's errors, and list_logical_devices('TPU'). test_tpu_strategy.py checks simdist
gives the same on a machine that simulates no TPU.

Run with the TensorFlow interpreter (not simdist's venv):
    TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES="" /tmp/tfvenv/bin/python \
        tests/distribute/record_tf_tpu.py
"""

import json
import os

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))


def outcome(fn):
    try:
        value = fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return {"error": type(e).__name__, "message": str(e)}
    return {"value": value}


def main():
    resolver_cls = tf.distribute.cluster_resolver.TPUClusterResolver
    local = resolver_cls(tpu="local")
    results = {
        "resolver ''": outcome(lambda: resolver_cls(tpu="") and None),
        "resolver None": outcome(lambda: resolver_cls() and None),
        "local master": outcome(local.master),
        "local cluster_spec": outcome(lambda: local.cluster_spec().as_dict()),
        "local num_accelerators": outcome(local.num_accelerators),
        "initialize_tpu_system": outcome(
            lambda: tf.tpu.experimental.initialize_tpu_system(local) and None),
        "TPUStrategy": outcome(lambda: tf.distribute.TPUStrategy(local) and None),
        "list_logical_devices TPU": outcome(
            lambda: [d.name for d in tf.config.list_logical_devices("TPU")]),
    }
    with open(os.path.join(HERE, "fixtures", "tf_tpu_absent.json"), "w") as f:
        json.dump({"tf_version": tf.__version__, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
