"""Record the event files TF 2.21's TensorBoard callback writes (test_tensorboard.py reads
them): a Sequential fit for 2 epochs with validation data. Without the tensorboard package
(as in TF 2.21's venv here) fit stops at the first scalar with TBNotInstalledError, after
writing each file's header and the 'keras' model-config summary.

Run with the TensorFlow interpreter:
    TF_USE_LEGACY_KERAS=1 TF_CPP_MIN_LOG_LEVEL=3 /tmp/tfvenv/bin/python \\
        tests/keras/record_tf_tensorboard.py
It writes fixtures/tf_tensorboard/{train,validation}.v2 and fixtures/tf_tensorboard/run.json.
"""

import glob
import json
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures", "tf_tensorboard")

if __name__ == "__main__":
    log_dir = tempfile.mkdtemp()
    m = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,),
                                                   kernel_initializer="ones", name="d")],
                            name="s")
    m.compile("sgd", "mse", metrics=["mae"])
    try:
        m.fit(np.ones((8, 3)), np.zeros((8, 2)), epochs=2, verbose=0,
              validation_data=(np.ones((4, 3)), np.zeros((4, 2))),
              callbacks=[tf.keras.callbacks.TensorBoard(log_dir=log_dir)])
        error = None
    except Exception as e:  # noqa: BLE001 - the error is the result
        error = {"error": type(e).__name__, "message": str(e)}
    os.makedirs(OUT, exist_ok=True)
    for sub in ("train", "validation"):
        (path,) = glob.glob(os.path.join(log_dir, sub, "events.out.tfevents.*.v2"))
        shutil.copy(path, os.path.join(OUT, f"{sub}.v2"))
    with open(os.path.join(OUT, "run.json"), "w") as f:
        json.dump({"tf_version": tf.__version__, "fit": error,
                   "names": sorted(os.path.basename(p).split(".")[0] + "..."
                                   for p in glob.glob(os.path.join(log_dir, "*", "*")))}, f,
                  indent=1)
    print("wrote", OUT)
