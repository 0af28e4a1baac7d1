"""``and`` / ``or`` / ``not`` as AutoGraph rewrites them.

Glossary:
  and_ / or_  -- the right operand is a thunk: evaluated only when needed. A tensor left
                 operand ``a`` gives ``tf.cond(a, b, lambda: a)`` (and) or
                 ``tf.cond(a, lambda: a, b)`` (or); a Python value Python's short circuit.
  not_        -- ``tf.logical_not`` for a tensor, Python's ``not`` otherwise.

Mirrors tensorflow/python/autograph/operators/logical.py.
"""

from __future__ import annotations

from simdist.framework.ops import cond as cond_lib
from simdist.framework.ops import math_ops


def _is_tensor(x) -> bool:
    from simdist.autograph.operators.control_flow import is_tensor

    return is_tensor(x)


def and_(a, b):
    """``a() and b()`` with TF semantics for tensors."""
    a_val = a()
    if _is_tensor(a_val):
        return cond_lib.cond_for_tf_v2(a_val, b, lambda: a_val)
    return a_val and b()


def or_(a, b):
    """``a() or b()`` with TF semantics for tensors."""
    a_val = a()
    if _is_tensor(a_val):
        return cond_lib.cond_for_tf_v2(a_val, lambda: a_val, b)
    return a_val or b()


def not_(a):
    """``not a`` with TF semantics for tensors."""
    if _is_tensor(a):
        return math_ops.logical_not(a)
    return not a
