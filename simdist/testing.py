"""Helpers for tests, lessons and the app: start again from a clean simulated world.

Glossary:
  RESETTERS    -- callables that clear one piece of global state each; modules that own
                  global state (machine, strategy stack, tapes, random seed) add theirs.
  reset_world  -- call every resetter: a new default machine, no strategy, no tapes.
"""

from __future__ import annotations

RESETTERS: list = []


def register_resetter(fn):
    """Add ``fn`` to the resetters (used as a decorator by modules with global state)."""
    RESETTERS.append(fn)
    return fn


def reset_world(machine=None) -> None:
    """Forget all global state; make ``machine`` (a Machine or preset name) current."""
    from simdist.framework import tape
    from simdist.hardware import machine as machine_lib

    for fn in RESETTERS:
        fn()
    tape.stack().clear()
    machine_lib.set_machine(machine)
