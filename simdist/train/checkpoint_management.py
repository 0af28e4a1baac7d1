"""``tf.train.CheckpointManager``: numbered checkpoints in a directory, keeping the last N.

Mirrors tensorflow/python/checkpoint/checkpoint_management.py.
"""

from __future__ import annotations

import json
import os


class CheckpointManager:
    """Save ``checkpoint`` as ``directory/ckpt-N``, keep ``max_to_keep``, find the latest."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None,
                 init_fn=None):
        if directory is None:
            raise ValueError("directory cannot be None.")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._state = os.path.join(self._directory, "checkpoint.json")
        self._checkpoints = []
        if os.path.exists(self._state):
            with open(self._state) as f:
                self._checkpoints = json.load(f)["all"]

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoints(self) -> list:
        return list(self._checkpoints)

    @property
    def latest_checkpoint(self):
        return self._checkpoints[-1] if self._checkpoints else None

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Save a new checkpoint; returns its path."""
        os.makedirs(self._directory, exist_ok=True)
        if checkpoint_number is None:
            path = self._checkpoint.save(self._prefix)
        else:
            path = self._checkpoint.write(f"{self._prefix}-{int(checkpoint_number)}")
        if path in self._checkpoints:
            self._checkpoints.remove(path)
        self._checkpoints.append(path)
        while self._max_to_keep is not None and len(self._checkpoints) > self._max_to_keep:
            old = self._checkpoints.pop(0)
            if os.path.exists(old + ".npz"):
                os.remove(old + ".npz")
        with open(self._state, "w") as f:
            json.dump({"latest": path, "all": self._checkpoints}, f)
        return path

    def restore_or_initialize(self):
        if self.latest_checkpoint is not None:
            self._checkpoint.restore(self.latest_checkpoint)
            return self.latest_checkpoint
        return None


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The newest checkpoint path in ``checkpoint_dir`` (None when there is none)."""
    state = os.path.join(os.fspath(checkpoint_dir), "checkpoint.json")
    if not os.path.exists(state):
        return None
    with open(state) as f:
        return json.load(f)["latest"]
