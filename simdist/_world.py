"""The world-reset registry, in the bottom layer so every layer can register with it.

Glossary:
  RESETTERS         -- callables that clear one piece of global state each (strategy stack,
                       tapes, random seeds, Keras name counters ...); the module that owns
                       the state registers its resetter when it is imported.
  register_resetter -- add one (a decorator); imports nothing, so no layer imports upward.
  reset             -- call every resetter; ``simdist.testing.reset_world`` also picks the
                       machine, which is the public entry point.
"""

from __future__ import annotations

RESETTERS: list = []


def register_resetter(fn):
    """Add ``fn`` to the resetters (used as a decorator by modules with global state)."""
    RESETTERS.append(fn)
    return fn


def reset() -> None:
    """Call every registered resetter, in registration order."""
    for fn in RESETTERS:
        fn()
