"""AutoGraph: Python control flow on tensors, by rewriting a function's source.

Glossary:
  conversion  -- ``if`` / ``while`` / ``for``, ``break`` / ``continue`` / ``return`` and
                 ``and`` / ``or`` / ``not`` / ``x if c else y`` become calls of the ``ag__``
                 operators (simdist.autograph.operators) through an AST transformation.
  operators   -- at run time a tensor condition or iterable gives tf.cond / tf.while_loop
                 with TF's checks; Python values keep Python's semantics, so converted code on
                 Python values behaves as the original. ``print`` is not converted (it runs
                 when the Python runs: once per trace in TF); ``tf.print`` is an op.
  tf.autograph -- to_graph, to_code, do_not_convert (experimental), set_verbosity, trace.

Mirrors tensorflow/python/autograph (converters/, operators/, impl/api.py).
"""

import types as _types

from simdist.autograph.impl.api import (  # noqa: F401
    do_not_convert,
    get_verbosity,
    set_verbosity,
    to_code,
    to_graph,
    trace,
)


def _set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                      shape_invariants=None):
    """``tf.autograph.experimental.set_loop_options``: a directive. In a converted loop body
    the converter takes its arguments as the loop's options (shape_invariants by variable,
    maximum_iterations ...) and removes the call; called anywhere else it does nothing."""


experimental = _types.SimpleNamespace(
    do_not_convert=do_not_convert, set_loop_options=_set_loop_options,
    Feature=_types.SimpleNamespace(ALL="ALL", AUTO_CONTROL_DEPS="AUTO_CONTROL_DEPS",
                                   ASSERT_STATEMENTS="ASSERT_STATEMENTS",
                                   BUILTIN_FUNCTIONS="BUILTIN_FUNCTIONS",
                                   EQUALITY_OPERATORS="EQUALITY_OPERATORS",
                                   LISTS="LISTS", NAME_SCOPES="NAME_SCOPES"),
)
