"""TF's "Multi-worker training with Keras" tutorial, as one worker.

tensorflow/docs site/en/tutorials/distribute/multi_worker_with_keras.ipynb: mnist_setup.py
(its CNN: Reshape, Conv2D, Flatten, Dense, Dense) and main.py as written, then the model
saving section (the chief saves to the real path, another worker to workertemp_<id> and
removes it) and the chief loading the saved model and training it on. Edits: synthetic
MNIST-shaped data instead of the download, cut sizes (Conv2D(4), Dense(16), 16 examples per
worker and step, 2 epochs of 4 steps; the loaded model 1 epoch of 2), ``MODEL_DIR`` instead of
/tmp, ``verbose=0``. ``TF_MODULE=tensorflow`` runs it under TensorFlow (record_tf_cluster.py);
``INIT=constant`` then gives the model seeded NumPy weights and drops the shuffle, so both
libraries start from the same numbers. Run once per task with its TF_CONFIG; prints
``@@RESULT@@{json}``.
"""

import importlib
import json
import os

import numpy as np

tf = importlib.import_module(os.environ.get("TF_MODULE", "simdist"))
DETERMINISTIC = os.environ.get("INIT", "random") == "constant"

# --- mnist_setup.py -------------------------------------------------------------------


def mnist_dataset(batch_size):
    # Synthetic stand-in for tf.keras.datasets.mnist.load_data() (no download here).
    rng = np.random.default_rng(0)
    x_train = rng.integers(0, 256, size=(256, 28, 28)).astype(np.uint8)
    y_train = rng.integers(0, 10, size=(256,)).astype(np.uint8)
    # The `x` arrays are in uint8 and have values in the [0, 255] range.
    # You need to convert them to float32 with values in the [0, 1] range.
    x_train = x_train / np.float32(255)
    y_train = y_train.astype(np.int64)
    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
    if not DETERMINISTIC:
        train_dataset = train_dataset.shuffle(60000)
    train_dataset = train_dataset.repeat().batch(batch_size)
    return train_dataset


def build_and_compile_cnn_model():
    model = tf.keras.Sequential([
        tf.keras.layers.InputLayer(input_shape=(28, 28)),
        tf.keras.layers.Reshape(target_shape=(28, 28, 1)),
        tf.keras.layers.Conv2D(4, 3, activation='relu'),  # the tutorial's 32 filters
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(16, activation='relu'),  # the tutorial's 128 units
        tf.keras.layers.Dense(10)
    ])
    model.compile(
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        optimizer=tf.keras.optimizers.SGD(learning_rate=0.001),
        metrics=['accuracy'])
    return model


def fixed_weights(model):
    """Seeded NumPy weights (not in the tutorial): the same start in TF and simdist."""
    if DETERMINISTIC:
        rng = np.random.default_rng(1)
        model.set_weights([(rng.standard_normal(w.shape) * 0.1).astype(np.float32)
                           for w in model.get_weights()])


# --- main.py ----------------------------------------------------------------------------
per_worker_batch_size = 16  # the tutorial's 64
tf_config = json.loads(os.environ['TF_CONFIG'])
num_workers = len(tf_config['cluster']['worker'])

strategy = tf.distribute.MultiWorkerMirroredStrategy()

global_batch_size = per_worker_batch_size * num_workers
multi_worker_dataset = mnist_dataset(global_batch_size)

with strategy.scope():
    # Model building/compiling need to be within `strategy.scope()`.
    multi_worker_model = build_and_compile_cnn_model()
fixed_weights(multi_worker_model)

history = multi_worker_model.fit(multi_worker_dataset, epochs=2, steps_per_epoch=4,
                                 verbose=0)  # the tutorial's 3 epochs of 70

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

# The tutorial then loads the chief's model and trains it on a single worker's data.
loaded = {}
if _is_chief(task_type, task_id):
    loaded_model = tf.keras.models.load_model(model_path)
    single_worker_dataset = mnist_dataset(per_worker_batch_size)
    loaded_history = loaded_model.fit(single_worker_dataset, epochs=1, steps_per_epoch=2,
                                      verbose=0)  # the tutorial's 2 epochs of 20
    loaded = {"history": loaded_history.history,
              "layers": [type(layer).__name__ for layer in loaded_model.layers]}

print("@@RESULT@@" + json.dumps({
    "tensorflow": tf.__version__,
    "task": [task_type, task_id], "history": history.history,
    "num_replicas_in_sync": strategy.num_replicas_in_sync,
    "should_checkpoint": strategy.extended.should_checkpoint,
    "weights": [w.numpy().tobytes().hex() for w in multi_worker_model.weights],
    "weight_sums": [float(np.sum(w.numpy(), dtype=np.float64))
                    for w in multi_worker_model.weights],
    "loaded": loaded,
    "saved": sorted(os.listdir(os.environ['MODEL_DIR']))}), flush=True)
