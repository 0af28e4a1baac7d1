"""TF's "Multi-worker training with a custom training loop" tutorial, as one worker.

tensorflow/docs site/en/tutorials/distribute/multi_worker_with_ctl.ipynb: mnist.py and
main.py as written, except: synthetic MNIST-shaped data instead of the download, cut sizes
(Conv2D(4), Dense(16), 4 steps of 16 per worker and epoch), ``CKPT_DIR`` instead of
multiprocessing's per-process temp dir (so a second run restores), ``NUM_EPOCHS``, and a
``try`` around the loop that reports how it ended (a restart after a finished epoch divides
by zero batches, in TF too: the checkpoint holds step_in_epoch == num_steps_per_epoch).
``TF_MODULE=tensorflow`` runs it under TensorFlow (record_tf_cluster.py); ``INIT=constant``
then gives the model seeded NumPy weights and drops the shuffle, so both libraries start
from the same numbers. Prints the tutorial's lines and ``@@RESULT@@{json}``.
"""

import importlib
import json
import os

import numpy as np

tf = importlib.import_module(os.environ.get("TF_MODULE", "simdist"))
DETERMINISTIC = os.environ.get("INIT", "random") == "constant"

# --- mnist.py ---------------------------------------------------------------------------


def mnist_dataset(batch_size):
    # Synthetic stand-in for tf.keras.datasets.mnist.load_data() (no download here).
    rng = np.random.default_rng(0)
    x_train = rng.integers(0, 256, size=(256, 28, 28)).astype(np.uint8)
    y_train = rng.integers(0, 10, size=(256,)).astype(np.uint8)
    # The `x` arrays are in uint8 and have values in the range [0, 255].
    # You need to convert them to float32 with values in the range [0, 1]
    x_train = x_train / np.float32(255)
    y_train = y_train.astype(np.int64)
    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
    if not DETERMINISTIC:
        train_dataset = train_dataset.shuffle(60000)
    return train_dataset


def dataset_fn(global_batch_size, input_context):
    batch_size = input_context.get_per_replica_batch_size(global_batch_size)
    dataset = mnist_dataset(batch_size)
    dataset = dataset.shard(input_context.num_input_pipelines,
                            input_context.input_pipeline_id)
    dataset = dataset.batch(batch_size)
    return dataset


def build_cnn_model():
    regularizer = tf.keras.regularizers.L2(1e-5)
    return tf.keras.Sequential([
        tf.keras.Input(shape=(28, 28)),
        tf.keras.layers.Reshape(target_shape=(28, 28, 1)),
        tf.keras.layers.Conv2D(4, 3,
                               activation='relu',
                               kernel_regularizer=regularizer),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(16,
                              activation='relu',
                              kernel_regularizer=regularizer),
        tf.keras.layers.Dense(10, kernel_regularizer=regularizer)
    ])


# --- main.py ----------------------------------------------------------------------------
per_worker_batch_size = 16
tf_config = json.loads(os.environ['TF_CONFIG'])
num_workers = len(tf_config['cluster']['worker'])
global_batch_size = per_worker_batch_size * num_workers

num_epochs = int(os.environ.get("NUM_EPOCHS", "3"))
num_steps_per_epoch = 4


# Checkpoint saving and restoring
def _is_chief(task_type, task_id, cluster_spec):
    return (task_type is None
            or task_type == 'chief'
            or (task_type == 'worker'
                and task_id == 0
                and 'chief' not in cluster_spec.as_dict()))


def _get_temp_dir(dirpath, task_id):
    base_dirpath = 'workertemp_' + str(task_id)
    temp_dir = os.path.join(dirpath, base_dirpath)
    tf.io.gfile.makedirs(temp_dir)
    return temp_dir


def write_filepath(filepath, task_type, task_id, cluster_spec):
    dirpath = os.path.dirname(filepath)
    base = os.path.basename(filepath)
    if not _is_chief(task_type, task_id, cluster_spec):
        dirpath = _get_temp_dir(dirpath, task_id)
    return os.path.join(dirpath, base)


checkpoint_dir = os.path.join(os.environ['CKPT_DIR'], 'ckpt')

# Define Strategy
strategy = tf.distribute.MultiWorkerMirroredStrategy()

with strategy.scope():
    # Model building/compiling need to be within `tf.distribute.Strategy.scope`.
    multi_worker_model = build_cnn_model()

    multi_worker_dataset = strategy.distribute_datasets_from_function(
        lambda input_context: dataset_fn(global_batch_size, input_context))
    optimizer = tf.keras.optimizers.RMSprop(learning_rate=0.001)
    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(
        name='train_accuracy')

if DETERMINISTIC:  # the same starting numbers in TF and simdist (not in the tutorial)
    init_rng = np.random.default_rng(1)
    multi_worker_model.set_weights([
        (init_rng.standard_normal(w.shape) * 0.1).astype(np.float32)
        for w in multi_worker_model.get_weights()])


@tf.function
def train_step(iterator):
    """Training step function."""

    def step_fn(inputs):
        """Per-Replica step function."""
        x, y = inputs
        with tf.GradientTape() as tape:
            predictions = multi_worker_model(x, training=True)
            per_example_loss = tf.keras.losses.SparseCategoricalCrossentropy(
                from_logits=True,
                reduction=tf.keras.losses.Reduction.NONE)(y, predictions)
            loss = tf.nn.compute_average_loss(per_example_loss)
            model_losses = multi_worker_model.losses
            if model_losses:
                loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))

        grads = tape.gradient(loss, multi_worker_model.trainable_variables)
        optimizer.apply_gradients(
            zip(grads, multi_worker_model.trainable_variables))
        train_accuracy.update_state(y, predictions)

        return loss

    per_replica_losses = strategy.run(step_fn, args=(next(iterator),))
    return strategy.reduce(
        tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


epoch = tf.Variable(
    initial_value=tf.constant(0, dtype=tf.dtypes.int64), name='epoch')
step_in_epoch = tf.Variable(
    initial_value=tf.constant(0, dtype=tf.dtypes.int64),
    name='step_in_epoch')

task_type, task_id, cluster_spec = (strategy.cluster_resolver.task_type,
                                    strategy.cluster_resolver.task_id,
                                    strategy.cluster_resolver.cluster_spec())

checkpoint = tf.train.Checkpoint(
    model=multi_worker_model, epoch=epoch, step_in_epoch=step_in_epoch)

write_checkpoint_dir = write_filepath(checkpoint_dir, task_type, task_id,
                                      cluster_spec)
checkpoint_manager = tf.train.CheckpointManager(
    checkpoint, directory=write_checkpoint_dir, max_to_keep=1)

# Restoring the checkpoint
latest_checkpoint = tf.train.latest_checkpoint(checkpoint_dir)
if latest_checkpoint:
    checkpoint.restore(latest_checkpoint)
restored_epoch = int(epoch.numpy())
restored_step = int(step_in_epoch.numpy())

printed, losses = [], []
error = None
try:  # not in the tutorial: reports how the loop ends, for the comparison
    # Resume our CTL training
    while epoch.numpy() < num_epochs:
        iterator = iter(multi_worker_dataset)
        total_loss = 0.0
        num_batches = 0

        while step_in_epoch.numpy() < num_steps_per_epoch:
            total_loss += train_step(iterator)
            num_batches += 1
            step_in_epoch.assign_add(1)

        train_loss = total_loss / num_batches
        line = ('Epoch: %d, accuracy: %f, train_loss: %f.'  # noqa: UP031 - as written
                % (epoch.numpy(), train_accuracy.result(), train_loss))
        print(line)
        printed.append(line)
        losses.append(float(train_loss))

        train_accuracy.reset_states()

        checkpoint_manager.save()
        if not _is_chief(task_type, task_id, cluster_spec):
            tf.io.gfile.rmtree(write_checkpoint_dir)

        epoch.assign_add(1)
        step_in_epoch.assign(0)
except ZeroDivisionError as e:  # a restart after the last step of an epoch (as in TF)
    error = type(e).__name__

print("@@RESULT@@" + json.dumps({
    "tensorflow": tf.__version__, "task": [task_type, task_id],
    "restored": (os.path.basename(latest_checkpoint) if latest_checkpoint else None),
    "restored_epoch": restored_epoch,
    "restored_step_in_epoch": restored_step, "printed": printed, "losses": losses,
    "error": error,
    "num_replicas_in_sync": strategy.num_replicas_in_sync,
    "in_ckpt_dir": sorted(os.listdir(os.environ['CKPT_DIR']))}), flush=True)
