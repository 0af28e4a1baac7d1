"""``tf.train.Checkpoint``: save and restore variables (model, optimizer slots ...) as npz.

Glossary:
  trackables  -- the keyword arguments: a Model/Layer (its weights), an optimizer (its
                 iterations, learning rate and slots), a Metric, a Variable, or another
                 Checkpoint; each value is stored under ``<name>/<index>``.
  save_counter-- how many times ``save`` ran; ``save(prefix)`` writes ``prefix-N.npz`` and
                 returns ``prefix-N``.
  restore     -- assigns every stored value to every copy of the variable, whatever
                 strategy (or replica count) it lives under now; optimizer slots that do not
                 exist yet are restored when the optimizer creates them (TF's deferred
                 restoration).

Mirrors tensorflow/python/checkpoint/checkpoint.py (values only, not TF's file format).
"""

from __future__ import annotations

import os

import numpy as np

from simdist.framework import variables
from simdist.keras.utils import tf_utils


def _read(v):
    with tf_utils.enter_or_assert_strategy(tf_utils.strategy_of(v)):
        return np.asarray(v.numpy())


def _write(v, value):
    with tf_utils.enter_or_assert_strategy(tf_utils.strategy_of(v)):
        v.assign(np.asarray(value).astype(v.dtype.as_numpy_dtype))


def _optimizer_vars(opt):
    inner = getattr(opt, "inner_optimizer", None)
    return opt.variables if inner is None else opt.variables


def collect(obj) -> list:
    """The variables of ``obj`` in a stable order."""
    if isinstance(obj, variables.Variable) or hasattr(obj, "_distribute_strategy") and \
            hasattr(obj, "assign"):
        return [obj]
    if hasattr(obj, "apply_gradients") and hasattr(obj, "variables"):
        return list(_optimizer_vars(obj))
    if hasattr(obj, "weights") and hasattr(obj, "set_weights"):
        return list(obj.weights)
    if hasattr(obj, "variables") and hasattr(obj, "reset_state"):
        return list(obj.variables)
    if isinstance(obj, Checkpoint):
        return [v for _, v in obj._named_variables()]
    raise ValueError(f"Checkpoint was expecting a trackable object (an object derived from "
                     f"`Trackable`), got {obj}. If you believe this object should be "
                     "trackable (i.e. it is part of the TensorFlow Python API and manages "
                     "state), please open an issue.")


class _Status:
    def __init__(self, pending):
        self._pending = pending

    def assert_consumed(self):
        if self._pending:
            raise AssertionError(f"Unresolved object in checkpoint: {self._pending[:3]}")
        return self

    def expect_partial(self):
        return self

    def assert_existing_objects_matched(self):
        return self


class Checkpoint:
    """Groups trackable objects and saves/restores their variables."""

    def __init__(self, root=None, **kwargs):
        self._objects = dict(kwargs)
        if root is not None:
            self._objects["root"] = root
        self.save_counter = 0

    def __getattr__(self, name):
        objs = self.__dict__.get("_objects", {})
        if name in objs:
            return objs[name]
        raise AttributeError(name)

    def _named_variables(self):
        out = []
        for key, obj in self._objects.items():
            for i, v in enumerate(collect(obj)):
                out.append((f"{key}/{i}", v))
        return out

    def write(self, file_prefix) -> str:
        """Write the values to ``file_prefix + '.npz'``; returns ``file_prefix``."""
        path = os.fspath(file_prefix)
        os.makedirs(os.path.dirname(os.path.abspath(path)) or ".", exist_ok=True)
        arrays = {k: _read(v) for k, v in self._named_variables()}
        arrays["_meta/save_counter"] = np.asarray(self.save_counter)
        for key, obj in self._objects.items():
            if hasattr(obj, "apply_gradients") and hasattr(obj, "variables"):
                arrays[f"_meta/{key}/num_vars"] = np.asarray(len(collect(obj)))
        with open(path + ".npz", "wb") as f:
            np.savez(f, **arrays)
        return path

    def save(self, file_prefix, options=None) -> str:
        """Save to ``file_prefix-N`` (N = the new save counter); returns that path."""
        self.save_counter += 1
        return self.write(f"{os.fspath(file_prefix)}-{self.save_counter}")

    def read(self, save_path, options=None):
        return self.restore(save_path)

    def restore(self, save_path, options=None):
        """Assign the saved values (to every copy of each variable).

        Raises:
          NotFoundError: no checkpoint at ``save_path``.
        """
        if save_path is None:
            return _Status([])
        path = os.fspath(save_path)
        file = path if path.endswith(".npz") else path + ".npz"
        if not os.path.exists(file):
            from simdist.framework import errors

            raise errors.NotFoundError(
                None, None, f"Failed to find any matching files for {path}")
        with np.load(file) as data:
            stored = {k: data[k] for k in data.files}
        self.save_counter = int(stored.get("_meta/save_counter", self.save_counter))
        pending = []
        for key, obj in self._objects.items():
            current = collect(obj)
            values = [stored[f"{key}/{i}"] for i in range(len(
                [k for k in stored if k.startswith(key + "/")]))]
            for v, value in zip(current, values):
                _write(v, value)
            if len(values) > len(current):
                if hasattr(obj, "apply_gradients"):
                    # Slots not created yet: restore them when the optimizer builds them.
                    inner = getattr(obj, "inner_optimizer", obj)
                    inner._deferred_restore = (obj, values)
                else:
                    pending.append(key)
        return _Status(pending)


def save_state(path, model, epoch) -> None:
    """BackupAndRestore's backup: weights, optimizer variables and the epoch."""
    ckpt = Checkpoint(model=model, optimizer=model.optimizer,
                      epoch=variables.Variable(epoch, dtype="int64", trainable=False))
    ckpt.write(path[:-4] if path.endswith(".npz") else path)


def load_state(path, model) -> int:
    """Restore a backup written by :func:`save_state`; returns the epoch it was taken at."""
    epoch = variables.Variable(0, dtype="int64", trainable=False)
    Checkpoint(model=model, optimizer=model.optimizer, epoch=epoch).restore(path)
    return int(epoch.numpy())
