"""One worker of a Keras ``fit`` with BackupAndRestore, as TF's fault-tolerance tutorial.

``BACKUP_DIR``: the backup directory; ``SAVE_FREQ``: ``epoch`` or a number of batches;
``FAULT=task,epoch,batch``: that task dies (os._exit) as that batch begins, the others
report the error they got. Run it again (the whole cluster restarted) and fit resumes from
the last backup. Prints ``@@RESULT@@`` with the batches this run trained, the loss history
and the final weights (hex).
"""

import importlib
import json
import os

import numpy as np

tf = importlib.import_module(os.environ.get("TF_MODULE", "simdist"))

GLOBAL_BATCH, EPOCHS = 8, 4
save_freq = os.environ.get("SAVE_FREQ", "epoch")
save_freq = int(save_freq) if save_freq.isdigit() else save_freq
fault = [int(v) for v in os.environ["FAULT"].split(",")] if os.environ.get("FAULT") else None
backup_dir = os.environ["BACKUP_DIR"]

strategy = tf.distribute.MultiWorkerMirroredStrategy()
task_id = strategy.cluster_resolver.task_id or 0
x = np.linspace(-1, 1, 64, dtype=np.float32).reshape(-1, 2)
y = x @ np.array([[1.0], [-2.0]], dtype=np.float32) + 0.5
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(
        1, input_shape=(2,), kernel_initializer=tf.keras.initializers.Constant(0.5))])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")

trained = []


class Watch(tf.keras.callbacks.Callback):
    """Records each batch begun; dies at FAULT's batch on FAULT's task."""

    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch

    def on_train_batch_begin(self, batch, logs=None):
        if fault and fault[0] == task_id and [self.epoch, batch] == fault[1:]:
            os._exit(3)  # the worker is killed
        trained.append([self.epoch, batch])


out = {"task": task_id}
try:
    history = model.fit(dataset, epochs=EPOCHS, verbose=0, callbacks=[
        tf.keras.callbacks.BackupAndRestore(backup_dir, save_freq=save_freq), Watch()])
    out["history"] = history.history["loss"]
    out["epochs"] = history.epoch
except tf.errors.OpError as e:
    out["error"] = [type(e).__name__, str(e)]
out["trained"] = trained
out["weights"] = [w.numpy().tobytes().hex() for w in model.weights]
print("@@RESULT@@" + json.dumps(out), flush=True)
