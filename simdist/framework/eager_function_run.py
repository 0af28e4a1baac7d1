"""``tf.config.run_functions_eagerly``: every ``tf.function`` runs its Python at each call.

Glossary:
  RUN_FUNCTIONS_EAGERLY -- the switch: while True, calling a Function runs its Python
                           function as written (no AutoGraph, no trace, no graph), as TF's
                           ``Function.__call__`` does; ``get_concrete_function`` still traces.
  experimental_*        -- TF's deprecated names: they log TF's deprecation warning once.

Mirrors tensorflow/python/eager/polymorphic_function/eager_function_run.py.
"""

from __future__ import annotations

RUN_FUNCTIONS_EAGERLY = False
_warned: set = set()


def functions_run_eagerly() -> bool:
    """Whether functions run eagerly (``run_functions_eagerly``'s setting)."""
    return RUN_FUNCTIONS_EAGERLY


def run_functions_eagerly(run_eagerly) -> None:
    """Make every ``tf.function`` run its Python eagerly at each call (or not)."""
    global RUN_FUNCTIONS_EAGERLY
    RUN_FUNCTIONS_EAGERLY = bool(run_eagerly)


def _deprecated(name: str, instead: str) -> None:
    from simdist.platform.tf_logging import get_logger  # logging loads at first use

    if name not in _warned:   # TF's deprecation decorator warns once per function
        _warned.add(name)
        get_logger().warning(
            "%s (from tensorflow.python.eager.polymorphic_function.eager_function_run) is "
            "deprecated and will be removed in a future version.\nInstructions for "
            "updating:\n%s", name, instead)


def experimental_run_functions_eagerly(run_eagerly) -> None:
    """Deprecated: ``run_functions_eagerly``."""
    _deprecated("experimental_run_functions_eagerly",
                "Use `tf.config.run_functions_eagerly` instead of the experimental version.")
    run_functions_eagerly(run_eagerly)


def experimental_functions_run_eagerly() -> bool:
    """Deprecated: ``functions_run_eagerly``."""
    _deprecated("experimental_functions_run_eagerly",
                "Use tf.config.functions_run_eagerly instead of the experimental version.")
    return functions_run_eagerly()
