"""``TensorBoard``: the callback that logs a model's metrics as TensorBoard event files.

Glossary:
  log_dir/train, log_dir/validation -- one event file each, opened at ``on_train_begin``.
  'keras' summary -- at step 0, a Sequential's or functional model's config as JSON (the
                     graph dashboard's "keras" tag); a subclassed model has none.
  epoch_<metric>  -- each epoch's logs at step = epoch: training metrics in train/, the
                     ``val_`` ones (without the prefix) in validation/.
  evaluation_<metric>_vs_iterations -- the validation logs at step = optimizer.iterations.
  batch_<metric>  -- with ``update_freq='batch'`` (or every N batches): the running logs
                     at step = the global batch count.
  TBNotInstalledError -- TF writes scalars through the tensorboard package; without it,
                     tf.summary.scalar raises this, and so does this callback at its first
                     scalar (after opening the files and writing the 'keras' summary, as TF).
Not simulated: histograms, images, the traced graph, profiling, embeddings (refused when
asked for, rather than ignored).

Mirrors tf_keras/src/callbacks.py (``TensorBoard``) and tensorflow/python/summary/tb_summary.py.
"""

from __future__ import annotations

import json
import os

from simdist.framework import event_file
from simdist.framework.summary_ops import (  # noqa: F401 - the callback's names
    TBNotInstalledError,
    tensorboard_installed,
)
from simdist.keras.callbacks import Callback


class TensorBoard(Callback):
    """Write the logs of ``fit`` as TensorBoard event files (``tf.keras.callbacks.TensorBoard``)."""

    _supports_tf_logs = True  # TF's mark: batch hooks that accept RemoteValue logs

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0,
                 embeddings_freq=0, embeddings_metadata=None, **kwargs):
        super().__init__()
        unsupported = {"histogram_freq": histogram_freq, "write_images": write_images,
                       "profile_batch": profile_batch, "embeddings_freq": embeddings_freq,
                       "write_steps_per_second": write_steps_per_second}
        asked = [k for k, v in unsupported.items() if v not in (0, False, None, (0, 0))]
        if asked or embeddings_metadata is not None:
            raise NotImplementedError(
                f"simdist's TensorBoard callback writes scalars and the model config only; "
                f"{asked or ['embeddings_metadata']} (histograms, images, steps per second, "
                "profiling, embeddings) are not simulated.")
        if kwargs:
            raise ValueError(f"Unrecognized arguments in `TensorBoard` Callback: "
                             f"{list(kwargs)}")
        self.log_dir = os.fspath(log_dir)
        self.write_graph = write_graph
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self._train_writer = self._val_writer = None
        self._train_step = 0

    # --- writers ------------------------------------------------------------------------
    def _open(self):
        self._train_writer = event_file.EventFileWriter(os.path.join(self.log_dir, "train"))
        self._val_writer = event_file.EventFileWriter(os.path.join(self.log_dir,
                                                                   "validation"))

    def _scalar(self, writer, tag, value, step):
        if not tensorboard_installed():
            raise TBNotInstalledError("tf.summary.scalar")
        writer.scalar(tag, float(value), step)

    def _write_keras_model_summary(self):
        """The 'keras' summary of a graph network's config (Keras's keras_model_summary)."""
        model = self.model
        if not (getattr(model, "_is_graph_network", False)
                or getattr(model, "_is_sequential", False)):
            return
        config = {"class_name": type(model).__name__, "config": model.get_config(),
                  "keras_version": "2.21.0", "backend": "tensorflow"}
        self._train_writer.text_tensor("keras", json.dumps(config, default=_plain),
                                       "graph_keras_model", b"1")

    # --- hooks --------------------------------------------------------------------------
    def on_train_begin(self, logs=None):
        self._open()
        self._train_step = int(self.model.optimizer.iterations.numpy()) \
            if getattr(self.model, "optimizer", None) is not None else 0
        if self.write_graph:
            self._write_keras_model_summary()

    def on_train_batch_end(self, batch, logs=None):
        self._train_step += 1
        if self.update_freq == "epoch" or self._train_step % int(self.update_freq):
            return
        for name, value in (logs or {}).items():
            self._scalar(self._train_writer, "batch_" + name, value, self._train_step)

    def on_test_end(self, logs=None):
        # fit's validation: the logs against the optimizer's iterations.
        if self._val_writer is None or getattr(self.model, "optimizer", None) is None:
            return
        step = int(self.model.optimizer.iterations.numpy())
        for name, value in (logs or {}).items():
            self._scalar(self._val_writer, f"evaluation_{name}_vs_iterations", value, step)

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        for name, value in logs.items():
            if not name.startswith("val_"):
                self._scalar(self._train_writer, "epoch_" + name, value, epoch)
        for name, value in logs.items():
            if name.startswith("val_"):
                self._scalar(self._val_writer, "epoch_" + name[4:], value, epoch)


def _plain(value):
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)
