"""Callbacks: hooks ``fit``/``evaluate``/``predict`` call, and the ones Keras ships.

Glossary:
  CallbackList     -- calls every callback's hook in order; ``fit`` adds History and (for
                      verbose != 0) ProgbarLogger as Keras does.
  History          -- ``history.history[name]`` = one value per epoch; ``history.epoch``.
  EarlyStopping    -- stop when ``monitor`` has not improved by ``min_delta`` for
                      ``patience`` epochs (optionally restoring the best weights).
  ModelCheckpoint  -- save the weights (npz) or whole model after each epoch (or the best).
  BackupAndRestore -- back up weights, optimizer state, the epoch and batch at each
                      epoch end (or every ``save_freq`` batches); a new ``fit`` after an
                      interruption resumes from the backup (after its batch, with the
                      epoch's data started afresh, as Keras does).

Mirrors keras/src/callbacks.py.
"""

from __future__ import annotations

import os
import sys

import numpy as np

from simdist.keras.utils.progbar import Progbar


class Callback:
    """Base class: override the ``on_*`` hooks you need."""

    def __init__(self):
        self.model = None
        self.params = {}

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def _noop(self, *args, **kwargs):
        pass

    on_train_begin = on_train_end = on_epoch_begin = on_epoch_end = _noop
    on_test_begin = on_test_end = on_predict_begin = on_predict_end = _noop
    on_test_batch_begin = on_test_batch_end = _noop
    on_predict_batch_begin = on_predict_batch_end = _noop
    on_batch_begin = on_batch_end = _noop

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)  # the Keras 1 name still works, as in Keras

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)


class CallbackList:
    """A container of callbacks that forwards every hook to each of them."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None,
                 **params):
        self.callbacks = list(callbacks or [])
        if add_history and not any(isinstance(c, History) for c in self.callbacks):
            self._history = History()
            self.callbacks.append(self._history)
        else:
            self._history = next((c for c in self.callbacks if isinstance(c, History)), None)
        if add_progbar and not any(isinstance(c, ProgbarLogger) for c in self.callbacks):
            self.callbacks.append(ProgbarLogger(count_mode="steps"))
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def set_model(self, model):
        self.model = model
        if self._history is not None:
            model.history = self._history  # fit returns it, even after 0 epochs
        for c in self.callbacks:
            c.set_model(model)

    def set_params(self, params):
        self.params = params
        for c in self.callbacks:
            c.set_params(params)

    def append(self, callback):
        self.callbacks.append(callback)

    def __iter__(self):
        return iter(self.callbacks)

    def __getattr__(self, name):
        if not name.startswith("on_"):
            raise AttributeError(name)

        indexed = name.endswith(("_batch_begin", "_batch_end", "epoch_begin", "epoch_end"))

        def hook(*args, logs=None):
            # Every callback gets a dict of logs ({} rather than None), as Keras's do.
            if len(args) == (2 if indexed else 1):
                args, logs = args[:-1], args[-1]
            logs = {} if logs is None else logs
            for c in self.callbacks:
                getattr(c, name)(*args, logs)

        return hook


class History(Callback):
    """Records the logs of every epoch (``fit`` returns it)."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)
        self.model.history = self


class ProgbarLogger(Callback):
    """Prints Keras's progress bar (verbose 1) or one line per epoch (verbose 2)."""

    _supports_tf_logs = True  # TF's mark: batch hooks that accept RemoteValue logs

    def __init__(self, count_mode="samples", stateful_metrics=None):
        super().__init__()
        self.use_steps = count_mode == "steps"
        self.stateful_metrics = set(stateful_metrics or ())
        self.seen = 0
        self.progbar = None
        self.target = None
        self.verbose = 1
        self.epochs = 1
        self._called_in_fit = False

    def set_params(self, params):
        self.verbose = params.get("verbose", 1)
        self.epochs = params.get("epochs", 1)
        self.target = params.get("steps")

    def _reset(self):
        self.seen = 0
        self.progbar = None

    def _maybe_init(self):
        names = set(self.stateful_metrics)
        if self.model is not None:
            names |= {m.name for m in self.model.metrics}
        if self.progbar is None:
            self.progbar = Progbar(target=self.target, verbose=self.verbose,
                                   stateful_metrics=names, unit_name="step")
        self.progbar.stateful_metrics = names

    def on_train_begin(self, logs=None):
        self._called_in_fit = True

    def on_test_begin(self, logs=None):
        if not self._called_in_fit:
            self._reset()
            self._maybe_init()

    def on_predict_begin(self, logs=None):
        self._reset()
        self._maybe_init()

    def on_epoch_begin(self, epoch, logs=None):
        self._reset()
        self._maybe_init()
        if self.verbose and self.epochs > 1:
            print(f"Epoch {epoch + 1}/{self.epochs}")
            sys.stdout.flush()

    def _batch_update(self, batch, logs):
        self._maybe_init()
        self.seen = batch + 1
        if self.verbose == 1:
            self.progbar.update(self.seen, _python_items(logs), finalize=False)

    def on_train_batch_end(self, batch, logs=None):
        self._batch_update(batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        if not self._called_in_fit:
            self._batch_update(batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        self._batch_update(batch, None)

    def _finalize(self, logs):
        self._maybe_init()
        if self.target is None:
            self.target = self.seen
            self.progbar.target = self.seen
        self.progbar.update(self.target, _python_items(logs), finalize=True)

    def on_epoch_end(self, epoch, logs=None):
        self._finalize(logs)

    def on_test_end(self, logs=None):
        if not self._called_in_fit:
            self._finalize(logs)

    def on_predict_end(self, logs=None):
        self._finalize(logs)

    def on_train_end(self, logs=None):
        self._called_in_fit = False


def _python_items(logs) -> list:
    """The logs as (name, value) with NumPy scalars as Python numbers, as Keras's
    ``sync_to_numpy_or_python_type`` gives them to the bar (a float32 learning rate of
    0.001 is then above 1e-3 and prints as 0.0010)."""
    return [(k, v.item() if isinstance(v, np.generic) else v)
            for k, v in (logs or {}).items()]


class EarlyStopping(Callback):
    """Stop training when a monitored quantity has stopped improving."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        self.monitor, self.patience, self.verbose = monitor, patience, verbose
        self.baseline, self.restore_best_weights = baseline, restore_best_weights
        self.start_from_epoch = start_from_epoch
        self.min_delta = abs(min_delta)
        self.wait = 0
        self.stopped_epoch = 0
        self.best_weights = None
        if mode not in ("auto", "min", "max"):
            mode = "auto"
        if mode == "min" or (mode == "auto" and not self._is_acc(monitor)):
            self.monitor_op = np.less
        else:
            self.monitor_op = np.greater
        if self.monitor_op == np.greater:
            self.min_delta *= 1
        else:
            self.min_delta *= -1

    @staticmethod
    def _is_acc(name):
        return name.endswith("acc") or name.endswith("accuracy") or name.endswith("auc")

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self.monitor_op == np.less else -np.inf
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None or epoch < self.start_from_epoch:
            if current is None:
                import logging

                logging.warning("Early stopping conditioned on metric `%s` which is not "
                                "available. Available metrics are: %s", self.monitor,
                                ",".join(list((logs or {}).keys())))
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True
            if self.restore_best_weights and self.best_weights is not None:
                if self.verbose > 0:
                    print("Restoring model weights from the end of the best epoch: "
                          f"{self.best_epoch + 1}.")
                self.model.set_weights(self.best_weights)

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")

    def _is_improvement(self, monitor_value, reference_value):
        return self.monitor_op(monitor_value - self.min_delta, reference_value)


class ModelCheckpoint(Callback):
    """Save the model's weights (npz) after every epoch, or only the best ones."""

    _supports_tf_logs = True  # TF's mark: batch hooks that accept RemoteValue logs

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch",
                 initial_value_threshold=None, **kwargs):
        super().__init__()
        self.filepath = os.fspath(filepath)
        self.monitor, self.verbose = monitor, verbose
        self.save_best_only, self.save_weights_only = save_best_only, save_weights_only
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Unrecognized save_freq: {save_freq}. Expected save_freq are "
                             '"epoch" or integer values')
        self.save_freq = save_freq
        if mode == "min" or (mode == "auto" and not EarlyStopping._is_acc(monitor)):
            self.monitor_op, self.best = np.less, np.inf
        else:
            self.monitor_op, self.best = np.greater, -np.inf
        if initial_value_threshold is not None:
            self.best = initial_value_threshold
        self._batches_seen = 0

    def _path(self, epoch, batch, logs):
        """``filepath`` with its placeholders filled: ``{epoch}`` and ``{batch}`` count from 1,
        others name logs (``{val_loss:.2f}``).

        Raises:
          KeyError: a placeholder names no log (say ``{val_loss}`` without validation data).
        """
        logs = dict(logs or {})
        if batch is not None and "batch" not in logs:
            logs["batch"] = batch + 1
        try:
            return self.filepath.format(epoch=epoch + 1, **logs)
        except KeyError as e:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". '
                           f"Reason: {e}") from None

    def _save(self, epoch, logs, batch=None):
        path = self._path(epoch, batch, logs)
        if self.save_best_only:
            current = (logs or {}).get(self.monitor)
            if current is None:
                import logging

                logging.warning("Can save best model only with %s available, skipping.",
                                self.monitor)
                return
            if not self.monitor_op(current, self.best):
                if self.verbose > 0:
                    print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from "
                          f"{self.best:.5f}")
                return
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best:.5f} "
                      f"to {current:.5f}, saving model to {path}")
            self.best = current
        elif self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: saving model to {path}")
        self.model.save_weights(path)

    def on_train_batch_end(self, batch, logs=None):
        if isinstance(self.save_freq, int):
            self._batches_seen += 1
            if self._batches_seen % self.save_freq == 0:
                self._save(self._current_epoch, logs, batch)

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._save(epoch, logs)


class BackupAndRestore(Callback):
    """Back up training state each epoch (or every ``save_freq`` batches); a re-run ``fit``
    resumes where the backup was taken.

    Raises:
      ValueError: neither ``save_freq`` nor ``save_before_preemption`` is set.
    """

    _supports_tf_logs = True  # TF's mark: batch hooks that accept RemoteValue logs

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True,
                 save_before_preemption=False):
        super().__init__()
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        if not save_freq and not save_before_preemption:
            raise ValueError("Either `save_freq` or `save_before_preemption` must be set.")
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq = save_freq
        self.delete_checkpoint = delete_checkpoint
        self.save_before_preemption = save_before_preemption
        self._dir = os.path.join(self.backup_dir, "chief")
        self._batches_count = 0
        self._current_epoch = 0
        self._current_batch = -1

    def on_train_begin(self, logs=None):
        from simdist.train.checkpoint import load_state

        saved = load_state(self._dir, self.model)
        self.model._initial_counters_from_backup = (
            None if saved is None else self._initial_counters(*saved))

    def _initial_counters(self, epoch, batch):
        """Where fit resumes: Keras's maybe_load_initial_counters_from_ckpt."""
        if self.save_before_preemption or isinstance(self.save_freq, int):
            if batch < 0:
                return None
            if batch == (self.params.get("steps") or 0) - 1:
                return epoch + 1, 0  # backed up at an epoch's last batch
            return epoch, batch + 1
        return (epoch + 1, 0) if epoch >= 0 else None

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_begin(self, batch, logs=None):
        self._current_batch = batch

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq and self.save_freq != "epoch":
            self._batches_count += 1
            # A save_freq that is neither 'epoch' nor a number fails here, as in Keras.
            if self._batches_count >= self.save_freq:
                self._batches_count = 0
                self._backup(self._current_epoch)

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._backup(epoch)

    def _write_dir(self) -> str:
        """Where this worker writes its backup (Keras's distributed_file_utils.write_dirpath):
        the chief's directory, or ``workertemp_<task_id>`` on the other workers of a
        multi-worker run (they save too, since saving reads synchronized values, then
        remove it); every worker restores from the chief's."""
        strategy = self.model.distribute_strategy
        extended = strategy.extended
        multi_worker = getattr(extended, "_in_multi_worker_mode", lambda: False)()
        if not multi_worker or getattr(extended, "should_checkpoint", True):
            return self._dir
        return os.path.join(self.backup_dir, f"workertemp_{strategy.cluster_resolver.task_id}")

    def _backup(self, epoch):
        from simdist.train.checkpoint import save_state

        directory = self._write_dir()
        save_state(directory, self.model, epoch, self._current_batch)
        if directory != self._dir:
            _rmtree(directory)

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and self._write_dir() == self._dir:
            _rmtree(self._dir)  # the chief's, as Keras deletes it


def _rmtree(directory) -> None:
    import shutil  # (bz2, lzma ...) loaded by BackupAndRestore's first clean-up, not Keras

    shutil.rmtree(directory, ignore_errors=True)


class LambdaCallback(Callback):
    """A callback made of plain functions, one per hook (``on_epoch_end=lambda e, logs: ...``)."""

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_begin=None,
                 on_batch_end=None, on_train_begin=None, on_train_end=None, **kwargs):
        super().__init__()
        hooks = dict(on_epoch_begin=on_epoch_begin, on_epoch_end=on_epoch_end,
                     on_train_begin=on_train_begin, on_train_end=on_train_end,
                     on_batch_begin=on_batch_begin, on_batch_end=on_batch_end, **kwargs)
        for name, fn in hooks.items():
            if fn is not None:
                setattr(self, name, fn)


__all__ = ["Callback", "CallbackList", "History", "ProgbarLogger", "EarlyStopping", "TensorBoard",
           "ModelCheckpoint", "BackupAndRestore", "LambdaCallback"]


from simdist.keras.callbacks_schedule import LearningRateScheduler  # noqa: E402,F401 - tf.keras name
from simdist.keras.callbacks_tensorboard import TensorBoard  # noqa: E402,F401 - tf.keras name
