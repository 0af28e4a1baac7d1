"""Record TF 2.15 (Keras 2) training numbers for test_training_tf_conformance.py.

Run with the TensorFlow interpreter (not simdist's venv):
    /tmp/tfenv/bin/python tests/keras/record_tf_training.py

The tutorial model (Dense 16 relu, Dense 8 relu, Dense 1 sigmoid) with FIXED initial weights
and data (both stored in the fixture) is trained under MirroredStrategy on 4 logical CPU
devices: a custom loop with SGD and with Adam (per-step loss, per-epoch accuracy, final
weights), the same loops on one device, ``fit`` with uneven per-replica batches (and on one
device), and a LossScaleOptimizer with non-finite gradients injected on some steps.
Writes tests/keras/fixtures/tf_training.json.
"""

import json
import os

import numpy as np
import tensorflow as tf
from training_programs import custom_loop, fit_run, loss_scale_run

HERE = os.path.dirname(os.path.abspath(__file__))
N, F = 64, 10
GLOBAL_BATCH = 16
EPOCHS = 2
FIT_BATCH = 18  # 64 = 18+18+18+10: per-replica 5,5,5,3 and 3,3,3,1 (uneven)


def make_data():
    rng = np.random.RandomState(1234)
    x = rng.normal(size=(N, F)).astype(np.float32)
    w = rng.normal(size=(F, 1)).astype(np.float32)
    y = (x @ w > 0).astype(np.float32)
    shapes = [(F, 16), (16,), (16, 8), (8,), (8, 1), (1,)]
    weights = [(rng.uniform(-0.5, 0.5, size=s)).astype(np.float32) for s in shapes]
    return x, y, weights


def main():
    cpus = tf.config.list_physical_devices("CPU")
    tf.config.set_logical_device_configuration(
        cpus[0], [tf.config.LogicalDeviceConfiguration()] * 4)
    devices = [d.name for d in tf.config.list_logical_devices("CPU")]
    mirrored = tf.distribute.MirroredStrategy(devices)
    one = tf.distribute.OneDeviceStrategy(devices[0])
    x, y, weights = make_data()
    out = {
        "tf_version": tf.__version__, "devices": devices, "global_batch": GLOBAL_BATCH,
        "fit_batch": FIT_BATCH, "epochs": EPOCHS,
        "x": x.tolist(), "y": y.tolist(), "initial_weights": [w.tolist() for w in weights],
        "custom_sgd": custom_loop(tf, mirrored, "sgd", x, y, weights, GLOBAL_BATCH, EPOCHS),
        "custom_adam": custom_loop(tf, mirrored, "adam", x, y, weights, GLOBAL_BATCH, EPOCHS),
        "custom_sgd_one_device": custom_loop(tf, one, "sgd", x, y, weights, GLOBAL_BATCH,
                                             EPOCHS),
        "custom_adam_one_device": custom_loop(tf, one, "adam", x, y, weights, GLOBAL_BATCH,
                                              EPOCHS),
        "fit": fit_run(tf, mirrored, x, y, weights, FIT_BATCH, EPOCHS),
        "fit_one_device": fit_run(tf, one, x, y, weights, FIT_BATCH, EPOCHS),
        "loss_scale": loss_scale_run(tf, mirrored, x, y, weights, GLOBAL_BATCH,
                                     poison_steps=(2, 5, 6)),
    }
    os.makedirs(os.path.join(HERE, "fixtures"), exist_ok=True)
    with open(os.path.join(HERE, "fixtures", "tf_training.json"), "w") as f:
        json.dump(out, f)
    print("custom_sgd", out["custom_sgd"]["losses"])
    print("fit", out["fit"]["history"], out["fit_one_device"]["history"])
    print("loss_scale", out["loss_scale"]["loss_scale"], out["loss_scale"]["iterations"])


if __name__ == "__main__":
    main()
