"""simdist.testing: what a correct collective and a correct distributed step must satisfy.

Glossary:
  reset_world              -- forget all global state (strategy stack, tapes, seeds, Keras
                              names) and make a machine current; tests and lessons start here.
  check_all_reduce         -- property check of ``fn(values, op)``: every replica gets the same
                              bits, equal to the reduction within the float-order bound,
                              dtype and shape kept; ``AssertionError`` with the smallest case.
  check_reduce_scatter, check_all_gather, check_broadcast -- the same for the other
                              collectives; ``check_schedule`` runs a user-written Schedule on
                              simdist's executor and checks it as its collective.
  check_equivalent_to_single_device -- a training function run on N replicas with the
                              global batch gives what it gives on one device.
  strategies               -- hypothesis strategies (``simdist.testing.strategies``).
  grade, grade_value       -- the lessons' exercise graders (right/wrong and a hint).
The checks and strategies need hypothesis (``pip install simdist[test]``); it is imported
only when one of them is used, never by ``import simdist``.
"""

from __future__ import annotations

import importlib

# Public name -> module that defines it (loaded on first use, so hypothesis stays optional).
_LAZY = {
    "check_all_reduce": "simdist.testing.collective_checks",
    "check_reduce_scatter": "simdist.testing.collective_checks",
    "check_all_gather": "simdist.testing.collective_checks",
    "check_broadcast": "simdist.testing.collective_checks",
    "check_schedule": "simdist.testing.collective_checks",
    "check_equivalent_to_single_device": "simdist.testing.training_checks",
    "strategies": "simdist.testing.strategies",
    "grade": "simdist.testing.exercises",
    "grade_value": "simdist.testing.exercises",
    "require_answer": "simdist.testing.exercises",
    "digest_of": "simdist.testing.exercises",
}

__all__ = ["reset_world", *_LAZY]


def reset_world(machine=None) -> None:
    """Forget all global state; make ``machine`` (a Machine or preset name) current."""
    from simdist import _world
    from simdist.hardware import machine as machine_lib

    _world.reset()
    machine_lib.set_machine(machine)


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module 'simdist.testing' has no attribute {name!r}")
    module = importlib.import_module(_LAZY[name])
    return module if name == "strategies" else getattr(module, name)


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
