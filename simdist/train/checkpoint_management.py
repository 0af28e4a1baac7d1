"""``tf.train.CheckpointManager`` and the directory's ``checkpoint`` state file.

Glossary:
  state file        -- ``directory/checkpoint``, TF's human-readable CheckpointState: the
                       latest checkpoint and every kept one, by path relative to the
                       directory, with their timestamps.
  CheckpointManager -- saves ``directory/ckpt-N`` (N = the checkpoint's ``save_counter``
                       unless a number is given), keeps the newest ``max_to_keep`` (older
                       ones are deleted unless ``keep_checkpoint_every_n_hours`` preserves
                       them), skips saves closer than ``checkpoint_interval`` steps, and on
                       ``restore_or_initialize`` restores the latest or calls ``init_fn``.

Mirrors tensorflow/python/checkpoint/checkpoint_management.py.
"""

from __future__ import annotations

import glob
import os
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from simdist.train import checkpoint_utils

STATE = "checkpoint"


@dataclass
class CheckpointState:
    """What the state file records (TF's CheckpointState proto)."""

    model_checkpoint_path: str
    all_model_checkpoint_paths: list = field(default_factory=list)
    all_model_checkpoint_timestamps: list = field(default_factory=list)
    last_preserved_timestamp: float | None = None


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            all_model_checkpoint_timestamps=None,
                            last_preserved_timestamp=None) -> None:
    """Write ``save_dir/checkpoint``, paths relative to ``save_dir`` as TF writes them."""
    paths = list(all_model_checkpoint_paths or [model_checkpoint_path])

    def rel(p):
        return os.path.relpath(p, save_dir)

    lines = [f'model_checkpoint_path: "{rel(model_checkpoint_path)}"']
    lines += [f'all_model_checkpoint_paths: "{rel(p)}"' for p in paths]
    lines += [f"all_model_checkpoint_timestamps: {t!r}"
              for t in all_model_checkpoint_timestamps or []]
    if last_preserved_timestamp is not None:
        lines.append(f"last_preserved_timestamp: {last_preserved_timestamp!r}")
    os.makedirs(save_dir, exist_ok=True)
    with open(os.path.join(save_dir, STATE), "w") as f:
        f.write("\n".join(lines) + "\n")


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The ``CheckpointState`` in ``checkpoint_dir`` (paths made absolute), or None."""
    checkpoint_dir = os.fspath(checkpoint_dir)
    path = os.path.join(checkpoint_dir, latest_filename or STATE)
    if not os.path.exists(path):
        return None
    fields = {"model_checkpoint_path": [], "all_model_checkpoint_paths": [],
              "all_model_checkpoint_timestamps": [], "last_preserved_timestamp": []}
    with open(path) as f:
        for line in f:
            key, _, value = line.strip().partition(": ")
            if key in fields:
                fields[key].append(value.strip('"') if value.startswith('"') else float(value))

    def absolute(p):
        return p if os.path.isabs(p) else os.path.join(checkpoint_dir, p)

    latest = fields["model_checkpoint_path"]
    return CheckpointState(
        absolute(latest[0]) if latest else "",
        [absolute(p) for p in fields["all_model_checkpoint_paths"]],
        fields["all_model_checkpoint_timestamps"],
        fields["last_preserved_timestamp"][0] if fields["last_preserved_timestamp"] else None)


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The newest checkpoint's prefix in ``checkpoint_dir``, or None when there is none."""
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state is None or not checkpoint_utils.exists(state.model_checkpoint_path):
        return None
    return state.model_checkpoint_path


def _delete_checkpoint(prefix) -> None:
    for path in glob.glob(glob.escape(prefix) + ".index") + \
            glob.glob(glob.escape(prefix) + ".data-?????-of-?????"):
        os.remove(path)


class CheckpointManager:
    """Numbered checkpoints of one ``tf.train.Checkpoint`` in a directory, newest kept."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None,
                 init_fn=None):
        """Raises:
          TypeError: ``directory`` is None.
          ValueError: ``max_to_keep`` is not positive, or ``checkpoint_interval`` is given
            without a ``step_counter``.
        """
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f"Expected a positive integer or `None` for `max_to_keep`, got "
                             f"{max_to_keep}.")
        if directory is None:
            raise TypeError("CheckpointManager needs a `directory` to write checkpoints to, "
                            "got None.")
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is "
                             "not None.")
        self._checkpoint = checkpoint
        self._max_to_keep = max_to_keep
        self._keep_every_n_hours = keep_checkpoint_every_n_hours
        self._directory = os.fspath(directory)
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._init_fn = init_fn
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._last_checkpoint_step = None
        self._kept = OrderedDict()  # prefix -> timestamp, oldest first (TF's _maybe_delete)
        now = time.time()
        state = get_checkpoint_state(self._directory)
        if state is None:
            self._latest_checkpoint = None
            self._last_preserved_timestamp = now - 1.0
        else:
            self._latest_checkpoint = state.model_checkpoint_path
            self._last_preserved_timestamp = min(state.last_preserved_timestamp or now, now)
            stamps = state.all_model_checkpoint_timestamps or \
                [self._last_preserved_timestamp] * len(state.all_model_checkpoint_paths)
            for path, stamp in zip(state.all_model_checkpoint_paths, stamps):
                if min(stamp, now) > self._last_preserved_timestamp:
                    self._kept[path] = min(stamp, now)

    directory = property(lambda self: self._directory)
    checkpoint = property(lambda self: self._checkpoint)
    checkpoint_interval = property(lambda self: self._checkpoint_interval)
    latest_checkpoint = property(lambda self: self._latest_checkpoint)

    @property
    def checkpoints(self) -> list:
        """The kept checkpoints' prefixes, oldest first."""
        return list(self._kept)

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Save ``ckpt-N``; returns its prefix, or None when the step interval says not yet."""
        if self._checkpoint_interval is not None:
            step = int(self._step_counter.numpy())
            last = self._last_checkpoint_step
            if last is not None and (step == last or (
                    check_interval and step < last + self._checkpoint_interval)):
                return None
            self._last_checkpoint_step = step
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        number = counter if checkpoint_number is None else checkpoint_number
        if not isinstance(number, int):
            number = int(number.numpy())
        path = self._checkpoint.write(f"{self._prefix}-{number}")
        self._kept.pop(path, None)  # an overwritten checkpoint moves to the end of the queue
        self._kept[path] = time.time()
        self._latest_checkpoint = path
        self._sweep()
        self._record_state()
        return path

    def _sweep(self) -> None:
        """Delete the oldest checkpoints beyond ``max_to_keep`` (unless preserved by age)."""
        while self._max_to_keep and len(self._kept) > self._max_to_keep:
            path, stamp = self._kept.popitem(last=False)
            if self._keep_every_n_hours and \
                    stamp - self._keep_every_n_hours * 3600.0 >= self._last_preserved_timestamp:
                self._last_preserved_timestamp = stamp
                continue
            _delete_checkpoint(path)

    def _record_state(self) -> None:
        update_checkpoint_state(self._directory, self._latest_checkpoint, list(self._kept),
                                list(self._kept.values()), self._last_preserved_timestamp)

    def restore_or_initialize(self):
        """Restore the latest checkpoint (returns its prefix), else call ``init_fn`` (None)."""
        if self._latest_checkpoint is not None:
            self._checkpoint.restore(self._latest_checkpoint)
            if self._checkpoint_interval is not None:
                self._last_checkpoint_step = int(self._step_counter.numpy())
            return self._latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None

    def sync(self) -> None:
        """Wait for pending writes (simdist writes synchronously)."""
