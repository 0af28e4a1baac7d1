"""Lists and dicts kept as attributes of a tf.train.Checkpoint: tracked as they change.

Glossary:
  ListWrapper  -- a list set as a checkpoint's attribute: its items are the checkpoint's
                  children "0", "1", ...; an item appended (or set) after a restore gets the
                  value waiting for it at once (deferred restoration).
  DictWrapper  -- the same for a dict, its values named by key.
Both are the list / dict itself to Python code (subclasses), printed as TF prints them
('ListWrapper([])', 'DictWrapper({...})').

Mirrors tensorflow/python/trackable/data_structures.py.
"""

from __future__ import annotations

from simdist.framework import trackable


def _changed() -> None:
    if trackable.waiting():
        trackable.restore_deferred()


class ListWrapper(list):
    """A tracked list (see the module glossary)."""

    def append(self, value):
        super().append(value)
        _changed()

    def extend(self, values):
        super().extend(values)
        _changed()

    def insert(self, index, value):
        super().insert(index, value)
        _changed()

    def __setitem__(self, index, value):
        super().__setitem__(index, value)
        _changed()

    def __repr__(self):
        return f"ListWrapper({list.__repr__(self)})"


class DictWrapper(dict):
    """A tracked dict (see the module glossary)."""

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        _changed()

    def update(self, *args, **kwargs):
        super().update(*args, **kwargs)
        _changed()

    def __repr__(self):
        return f"DictWrapper({dict.__repr__(self)})"


def wrap(value):
    """A list or dict as its tracked wrapper (other values as they are)."""
    if type(value) is list:
        return ListWrapper(value)
    if type(value) is dict:
        return DictWrapper(value)
    return value
