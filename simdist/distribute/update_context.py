"""The update context: which replica's copy ``extended.update`` is writing right now.

Glossary:
  UpdateContext(i)       -- inside ``strategy.extended.update``, writing component ``i``; an
                            assign on a distributed variable then touches that copy only.
  get_update_replica_id  -- the ``i`` of the innermost update context, or None.

Mirrors ``UpdateContext`` in tensorflow/python/distribute/distribute_lib.py.
"""

from __future__ import annotations

import contextlib
import threading

_local = threading.local()


def get_update_replica_id():
    """The replica id being updated, or None outside ``extended.update``."""
    return getattr(_local, "replica_id", None)


@contextlib.contextmanager
def UpdateContext(replica_id):  # noqa: N802 - TF's name
    """Mark writes inside the block as updating the copy of ``replica_id``."""
    old = getattr(_local, "replica_id", None)
    _local.replica_id = replica_id
    try:
        yield
    finally:
        _local.replica_id = old
