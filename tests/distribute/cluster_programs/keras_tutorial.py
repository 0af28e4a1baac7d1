"""The dense part of TF's "Multi-worker training with Keras" tutorial, as one worker.

tensorflow/docs site/en/tutorials/distribute/multi_worker_with_keras.ipynb: mnist_setup's
dataset and model (synthetic 28x28 images instead of the MNIST download, Dense instead of
Conv2D), the worker's main program, and the chief-only model saving with write_filepath.
Run once per task with its TF_CONFIG; ``MODEL_DIR`` is where the model goes.
Prints ``@@RESULT@@{json}``.
"""

import json
import os

import numpy as np

import simdist as tf

# --- mnist_setup.py -------------------------------------------------------------------


def mnist_dataset(batch_size):
    # Synthetic stand-in for tf.keras.datasets.mnist.load_data() (no download here).
    rng = np.random.default_rng(0)
    x_train = rng.integers(0, 256, size=(256, 28, 28)).astype(np.float32)
    y_train = rng.integers(0, 10, size=(256,)).astype(np.int64)
    # The `x` arrays are in uint8 and have values in the [0, 255] range.
    # You need to convert them to float32 with values in the [0, 1] range.
    x_train = x_train / np.float32(255)
    train_dataset = tf.data.Dataset.from_tensor_slices(
        (x_train, y_train)).repeat().batch(batch_size)
    return train_dataset


def build_and_compile_cnn_model():
    model = tf.keras.Sequential([
        tf.keras.layers.InputLayer(input_shape=(28, 28)),
        tf.keras.layers.Reshape(target_shape=(28 * 28,)),
        tf.keras.layers.Dense(32, activation='relu'),
        tf.keras.layers.Dense(10)
    ])
    model.compile(
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        optimizer=tf.keras.optimizers.SGD(learning_rate=0.001),
        metrics=['accuracy'])
    return model


# --- main.py ----------------------------------------------------------------------------
tf.keras.utils.set_random_seed(7)
per_worker_batch_size = 16
tf_config = json.loads(os.environ['TF_CONFIG'])
num_workers = len(tf_config['cluster']['worker'])

strategy = tf.distribute.MultiWorkerMirroredStrategy()

global_batch_size = per_worker_batch_size * num_workers
multi_worker_dataset = mnist_dataset(global_batch_size)

with strategy.scope():
    # Model building/compiling need to be within `strategy.scope()`.
    multi_worker_model = build_and_compile_cnn_model()

history = multi_worker_model.fit(multi_worker_dataset, epochs=2, steps_per_epoch=4,
                                 verbose=0)

# --- model saving -----------------------------------------------------------------------
model_path = os.path.join(os.environ['MODEL_DIR'], 'keras-model')


def _is_chief(task_type, task_id):
    # Note: there are two possible `TF_CONFIG` configurations.
    #   1) In addition to `worker` tasks, a `chief` task type is used;
    #      in this case, the `chief` is the one to save the model.
    #   2) Only `worker` task type is used; in this case, worker 0 is
    #      regarded as the chief and it saves the model.
    return (task_type == 'chief'
            or (task_type == 'worker' and task_id == 0)
            or task_type is None)


def _get_temp_dir(dirpath, task_id):
    base_dirpath = 'workertemp_' + str(task_id)
    temp_dir = os.path.join(dirpath, base_dirpath)
    tf.io.gfile.makedirs(temp_dir)
    return temp_dir


def write_filepath(filepath, task_type, task_id):
    dirpath = os.path.dirname(filepath)
    base = os.path.basename(filepath)
    if not _is_chief(task_type, task_id):
        dirpath = _get_temp_dir(dirpath, task_id)
    return os.path.join(dirpath, base)


task_type, task_id = (strategy.cluster_resolver.task_type,
                      strategy.cluster_resolver.task_id)
write_model_path = write_filepath(model_path, task_type, task_id)
multi_worker_model.save(write_model_path)
if not _is_chief(task_type, task_id):
    tf.io.gfile.rmtree(os.path.dirname(write_model_path))

print("@@RESULT@@" + json.dumps({
    "task": [task_type, task_id], "history": history.history,
    "num_replicas_in_sync": strategy.num_replicas_in_sync,
    "should_checkpoint": strategy.extended.should_checkpoint,
    "weights": [w.numpy().tobytes().hex() for w in multi_worker_model.weights],
    "saved": sorted(os.listdir(os.environ['MODEL_DIR']))}), flush=True)
