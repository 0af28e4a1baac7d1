"""``x if cond else y`` as AutoGraph rewrites it: ``tf.cond`` for a tensor condition.

Mirrors tensorflow/python/autograph/operators/conditional_expressions.py.
"""

from __future__ import annotations

from simdist.framework.ops import cond as cond_lib


def if_exp(cond, if_true, if_false, expr_repr):
    """``if_true()`` if ``cond`` else ``if_false()``; a tensor ``cond`` runs ``tf.cond``."""
    from simdist.autograph.operators import control_flow

    if control_flow.is_tensor(cond):
        return cond_lib.cond(cond, if_true, if_false)
    return if_true() if cond else if_false()
