"""``tf.train.Checkpoint``: save the variables of an object graph, restore them by name.

Glossary:
  Checkpoint    -- the root of the graph: its keyword arguments (models, optimizers,
                   metrics, variables, dataset iterators, other checkpoints), the
                   attributes set on it later (lists and dicts tracked as they change:
                   framework/data_structures) and its ``save_counter``; with
                   ``root=obj``, obj's children are the root's (Keras's save_weights).
  save / write  -- ``save(prefix)`` counts, writes ``prefix-N`` and records it in the
                   directory's ``checkpoint`` file; ``write(prefix)`` writes ``prefix`` only.
  restore       -- match every saved value to the variable at the same path (or at an
                   alias of it) and assign it to every copy of that variable, whatever
                   strategy or replica count it lives under now. Values whose variable does
                   not exist yet are assigned when it is created (deferred restoration).
  load status   -- what ``restore`` returns: ``assert_consumed`` (every saved value found
                   its variable, every variable got a value), ``assert_existing_objects_
                   matched`` (every variable that exists got a value),
                   ``assert_nontrivial_match``, ``expect_partial``.

Mirrors tensorflow/python/checkpoint/checkpoint.py.
"""

from __future__ import annotations

import os

import numpy as np

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import data_structures, errors, trackable, variables
from simdist.train import checkpoint_utils
from simdist.train.checkpoint_management import update_checkpoint_state
from simdist.train.checkpoint_utils import SUFFIX


def _read(v) -> np.ndarray:
    with ds_context.enter_or_assert_strategy(ds_context.strategy_of(v)):
        return np.asarray(v.numpy())


def _assign(key, v, value) -> None:
    """Assign a saved value to ``v`` (every copy of it), checking dtype and shape as TF does.

    Raises:
      InvalidArgumentError: the saved dtype differs from the variable's.
      ValueError: the saved shape differs from the variable's.
    """
    _check(key, v, value)
    with ds_context.enter_or_assert_strategy(ds_context.strategy_of(v)):
        v.assign(value)


def _check(key, v, value) -> None:
    """TF's errors for a saved value that does not fit ``v`` (see ``_assign``)."""
    if value.dtype != v.dtype.as_numpy_dtype:
        saved = {"float32": "float", "float64": "double"}.get(str(value.dtype), value.dtype)
        raise errors.InvalidArgumentError(
            None, None, f"tensor_name = {key}; expected dtype {v.dtype.name} does not equal "
            f"original dtype {saved}\nRestore into a variable of the saved dtype.")
    if tuple(value.shape) != tuple(v.shape):
        raise ValueError(f"Received incompatible tensor with shape {tuple(value.shape)} when "
                         f"attempting to restore variable with shape {tuple(v.shape)} and "
                         f"name {v.name}.")


class CheckpointLoadStatus:
    """What a ``restore`` matched; its assertions say what it did not (TF's class)."""

    def __init__(self, root, keys):
        self._root = root
        self._unmatched = set(keys)
        self._bound = set()

    def _bind(self, key, variable) -> None:
        self._unmatched.discard(key)
        self._bound.add(id(variable))

    def assert_consumed(self):
        """Raises AssertionError unless every saved value and every variable were matched."""
        if self._unmatched:
            path = trackable.key_path(sorted(self._unmatched)[0])
            raise AssertionError(
                f"Unresolved object in checkpoint (root).{path.replace('/', '.')}"
                f": {len(self._unmatched)} saved value(s) matched no variable (yet). Create the "
                "objects they belong to (build the model, run a step of the optimizer), or "
                "call expect_partial() when only part of the checkpoint is wanted.")
        return self.assert_existing_objects_matched()

    def assert_existing_objects_matched(self):
        """Raises AssertionError if a variable that exists now got no saved value."""
        found, _ = trackable.walk(self._root)
        unbound = [p for p, v in found.items() if id(v) not in self._bound]
        if unbound:
            raise AssertionError(
                f"Found {len(unbound)} Python objects that were not bound to checkpointed "
                "values, likely due to changes in the Python program. Showing "
                f"{min(len(unbound), 10)} of {len(unbound)} unmatched objects: {unbound[:10]}")
        return self

    def assert_nontrivial_match(self):
        """Raises AssertionError if no variable at all got a saved value."""
        if not self._bound:
            raise AssertionError(
                "Nothing except the root object matched a checkpointed value. Typically this "
                "means that the checkpoint does not match the Python program.")
        return self

    def expect_partial(self):
        """Silence the warnings about unused values (simdist prints none)."""
        return self

    def run_restore_ops(self, session=None):
        """Restoring is eager: nothing left to run."""

    def initialize_or_restore(self, session=None):
        """Restoring is eager: nothing left to run."""


class InitializationOnlyStatus(CheckpointLoadStatus):
    """What ``restore(None)`` returns: nothing was restored."""

    def __init__(self, root):
        super().__init__(root, ())

    def _nothing(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")

    def assert_consumed(self):
        self._nothing()

    def assert_existing_objects_matched(self):
        self._nothing()

    def assert_nontrivial_match(self):
        self._nothing()


class Checkpoint(trackable.Trackable):
    """Groups trackable objects; saves and restores their variables (``tf.train.Checkpoint``).

    Raises:
      ValueError: a keyword argument is not trackable (e.g. a Python number).
    """

    def __init__(self, root=None, **kwargs):
        if root is not None:
            kwargs = {"root": root, **kwargs}
        for name, value in kwargs.items():
            if not trackable.is_trackable(value):
                raise ValueError(
                    f"`Checkpoint` was expecting {name} to be a trackable object (an object "
                    f"derived from `Trackable`), got {value}. If you believe this object "
                    "should be trackable (i.e. it is part of the TensorFlow Python API and "
                    "manages state), please open an issue.")
        self._objects = {k: data_structures.wrap(v) for k, v in kwargs.items()}
        self._save_counter = None

    def __setattr__(self, name, value):
        # A public attribute set later is a child too (TF's Checkpoint is AutoTrackable):
        # lists and dicts tracked as they change; values waiting for it are restored.
        objs = self.__dict__.get("_objects")
        if objs is None or name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        value = data_structures.wrap(value)
        if not (trackable.is_trackable(value) or isinstance(value, (list, dict))):
            objs.pop(name, None)   # kept, not saved (as TF's AutoTrackable keeps it)
            object.__setattr__(self, name, value)
            return
        self.__dict__.pop(name, None)
        objs[name] = value
        if trackable.waiting():
            trackable.restore_deferred()

    def __getattr__(self, name):
        objs = self.__dict__.get("_objects", {})
        if name in objs:
            return objs[name]
        raise AttributeError(f"'Checkpoint' object has no attribute '{name}'")

    @property
    def save_counter(self):
        """How many times ``save`` ran: an int64 variable, made on first use."""
        if self._save_counter is None:
            self._save_counter = variables.Variable(0, name="save_counter", dtype="int64",
                                                    trainable=False)
        return self._save_counter

    def _trackable_children(self) -> dict:
        # A ``root`` is not a child: its children are the checkpoint's own (TF's root=).
        root = self._objects.get("root")
        out = dict(trackable.children(root)) if root is not None else {}
        out.update({k: v for k, v in self._objects.items() if k != "root"})
        if self._save_counter is not None:
            out["save_counter"] = self._save_counter
        return out

    # --- saving -------------------------------------------------------------------------
    def write(self, file_prefix, options=None) -> str:
        """Write the checkpoint ``file_prefix`` (no counting, no state file); returns it."""
        return write_graph(self, file_prefix)

    def save(self, file_prefix, options=None) -> str:
        """Write ``file_prefix-N`` (N = the incremented save counter), record it as the
        directory's latest checkpoint; returns that path."""
        counter = self.save_counter
        counter.assign_add(1)
        path = self.write(f"{os.fspath(file_prefix)}-{int(counter.numpy())}")
        update_checkpoint_state(os.path.dirname(path) or ".", path)
        return path

    # --- restoring ----------------------------------------------------------------------
    def read(self, save_path, options=None):
        """Restore from ``save_path`` written by ``write`` (same as ``restore``)."""
        return self.restore(save_path)

    def restore(self, save_path, options=None):
        """Assign the saved values; returns a load status (see the module glossary).

        Raises:
          NotFoundError: no checkpoint at ``save_path``.
          InvalidArgumentError, ValueError: a saved value's dtype or shape differs from its
            variable's.
        """
        if save_path is None:
            return InitializationOnlyStatus(self)
        values, aliases = checkpoint_utils.read(os.fspath(save_path))
        if "save_counter" + SUFFIX in values:
            self.save_counter  # noqa: B018 - made now, so that it is restored too
        return _restore_values(self, values, aliases)


def write_graph(root, file_prefix) -> str:
    """Write every variable reachable from ``root`` as the checkpoint ``file_prefix``."""
    path = os.fspath(file_prefix)
    found, aliases = trackable.walk(root)
    checkpoint_utils.write(path, {trackable.key(p, v): _read(v) for p, v in found.items()},
                           aliases)
    return path


def restore_graph(root, save_path) -> CheckpointLoadStatus:
    """Assign the values of the checkpoint ``save_path`` to the variables under ``root``."""
    return _restore_values(root, *checkpoint_utils.read(os.fspath(save_path)))


def _restore_values(root, values, aliases) -> CheckpointLoadStatus:
    # Every existing variable is checked before any is written: as in TF, a restore that
    # fails on one value (shape, dtype) leaves all of them as they were.
    status = CheckpointLoadStatus(root, values)
    targets = {key: _find(root, key, aliases) for key in values}
    for key, (node, _) in targets.items():
        if node is not None:
            _check(key, node, values[key])
    for key, (node, deepest) in targets.items():
        _restore_one(key, values[key], node, deepest, status)
    return status


def _find(root, key, aliases):
    """``(variable, None)`` at ``key``'s path (or an alias of it), else ``(None, deepest)``:
    the deepest object on its paths, (depth, owner, rest), or None."""
    best = None
    for path in trackable.spellings(trackable.key_path(key), aliases):
        node, owner, rest = trackable.resolve(root, path)
        if trackable.is_leaf(node):
            return node, None
        depth = path.count("/") - rest.count("/")
        if node is None and (best is None or depth > best[0]):
            best = (depth, owner, rest)
    return None, best


def _restore_one(key, value, node, best, status) -> None:
    """Assign one saved value, or leave it waiting on the deepest object of its path."""
    if node is not None:
        _assign(key, node, value)
        status._bind(key, node)
        return
    if best is not None:
        def assign_later(variable):
            _assign(key, variable, value)
            status._bind(key, variable)

        trackable.defer(best[1], best[2], assign_later)


def save_state(directory, model, epoch, batch=-1) -> None:
    """BackupAndRestore's backup in ``directory``: the model (with its optimizer), the epoch
    and the last batch begun, as Keras's WorkerTrainingState keeps them (one checkpoint)."""
    from simdist.train.checkpoint_management import CheckpointManager

    ckpt = Checkpoint(model=model, **_counters(epoch, batch))
    CheckpointManager(ckpt, directory, max_to_keep=1).save()


def load_state(directory, model):
    """Restore the backup in ``directory``; the (epoch, batch) it was taken at, or None."""
    from simdist.train.checkpoint_management import latest_checkpoint

    latest = latest_checkpoint(directory)
    if latest is None:
        return None
    counters = _counters(-1, -1)
    Checkpoint(model=model, **counters).restore(latest)
    return tuple(int(v.numpy()) for v in counters.values())


def _counters(epoch, batch):
    """Keras's _ckpt_saved_epoch / _ckpt_saved_batch (-1: not set, as Keras's default)."""
    return {name: variables.Variable(value, dtype="int64", trainable=False)
            for name, value in (("_ckpt_saved_epoch", epoch), ("_ckpt_saved_batch", batch))}
