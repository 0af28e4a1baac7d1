"""The ``ag__`` module converted code calls: operators that choose Python semantics for
Python values and TF's (tf.cond, tf.while_loop) for tensors at run time.

Mirrors tensorflow/python/autograph/operators/__init__.py.
"""

from simdist.autograph.impl.conversion import converted_call  # noqa: F401
from simdist.autograph.operators.conditional_expressions import if_exp  # noqa: F401
from simdist.autograph.operators.control_flow import for_stmt, if_stmt, while_stmt  # noqa: F401
from simdist.autograph.operators.logical import and_, not_, or_  # noqa: F401
from simdist.autograph.operators.variables import (  # noqa: F401
    Undefined,
    UndefinedReturnValue,
    ld,
    ldu,
)


def retval(value):
    """A converted function's return value: None when it returned nothing (TF's
    ``FunctionScope.ret``)."""
    return None if isinstance(value, UndefinedReturnValue) else value
