"""Keras's ``smart_cond``: a branch chosen in Python when the predicate's value is known.

Glossary:
  smart_cond -- ``pred`` a Python bool or an eager tensor: the branch it selects runs now;
                a symbolic tensor (a ``tf.function``'s argument while it traces): ``tf.cond``,
                both branches built into the graph (a layer's ``training`` given as a
                tensor).

Mirrors tf_keras/src/utils/control_flow_util.py (smart_cond) and tensorflow's
smart_cond.py.
"""

from __future__ import annotations

from simdist.framework.ops import cond as cond_lib
from simdist.framework.ops import control_flow_util


def smart_cond(pred, true_fn, false_fn):
    """``true_fn()`` if ``pred`` else ``false_fn()``; a graph cond for a symbolic ``pred``."""
    if control_flow_util.graph_for(pred) is not None:
        return cond_lib.cond(pred, true_fn, false_fn)
    return true_fn() if bool(pred) else false_fn()
