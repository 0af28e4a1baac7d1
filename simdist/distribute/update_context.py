"""The update context: which replica's copy ``extended.update`` is writing right now.

Glossary:
  UpdateContext(i)       -- inside ``strategy.extended.update``, writing component ``i``; an
                            assign on a distributed variable then touches that copy only.
  get_update_replica_id  -- the ``i`` of the innermost update context, or None.

Mirrors ``UpdateContext`` in tensorflow/python/distribute/distribute_lib.py.
"""

from __future__ import annotations

from simdist.framework.thread_local import ThreadLocalValue

_replica = ThreadLocalValue(None)


def get_update_replica_id():
    """The replica id being updated, or None outside ``extended.update``."""
    return _replica.value


def UpdateContext(replica_id):  # noqa: N802 - TF's name
    """Mark writes inside the block as updating the copy of ``replica_id``."""
    return _replica.scope(replica_id)
