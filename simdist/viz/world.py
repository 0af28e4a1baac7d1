"""The one simulated world every page of the app runs in, one run at a time.

Glossary:
  world      -- simdist's process-global state: the current machine, its devices, the
                trace, strategies' registries (reset by ``simdist.testing.reset_world``).
                Every Streamlit session (and page) runs in the same process, so two pages
                running at once would reset and drive each other's world.
  held()     -- the world's lock, for the length of a block; waiting for it is bounded by
                WAIT_LIMIT and then fails with a TimeoutError that says so.
  fresh(m)   -- held(), with the world reset and machine ``m`` made current first.
"""

from __future__ import annotations

import contextlib
import threading

WAIT_LIMIT = 120.0   # seconds: more than any page's run (the tf.function page's stops at 20)
_LOCK = threading.Lock()


@contextlib.contextmanager
def held(timeout: float | None = None):
    """Hold the world for the block, waiting at most ``timeout`` (WAIT_LIMIT) seconds.

    Raises:
      TimeoutError: another page's run kept the world longer than that.
    """
    limit = WAIT_LIMIT if timeout is None else timeout
    if not _LOCK.acquire(timeout=limit):
        raise TimeoutError(
            f"Another page's simulation held simdist's simulated world for more than "
            f"{limit:g} s; run this page again when it has finished.")
    try:
        yield
    finally:
        _LOCK.release()


@contextlib.contextmanager
def fresh(machine=None, timeout: float | None = None):
    """Hold the world (``held``) with it reset and ``machine`` (a preset name) current."""
    from simdist.testing import reset_world

    with held(timeout):
        reset_world(machine)
        yield
