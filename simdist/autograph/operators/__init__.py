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


class ConversionOptions:
    """How a function was converted (TF's ``converter.ConversionOptions``; simdist keeps the
    values, its conversion is always recursive)."""

    def __init__(self, recursive=False, user_requested=False, optional_features=(),
                 internal_convert_user_code=True):
        self.recursive = recursive
        self.user_requested = user_requested
        self.optional_features = optional_features
        self.internal_convert_user_code = internal_convert_user_code


STD = ConversionOptions(recursive=True)   # TF's options of a nested function


class FunctionScope:
    """The scope a converted function's body runs in (TF's ``FunctionScope``):
    ``ret(retval_, do_return)`` is its return value, None when it returned nothing."""

    def __init__(self, function_name, scope_name, options):
        self.name = scope_name
        self.function_name = function_name
        self.options = options

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    @staticmethod
    def ret(value, did_return):
        del did_return
        return None if isinstance(value, UndefinedReturnValue) else value


def with_function_scope(thunk, scope_name, options):
    """A converted lambda's body, ``thunk(scope)``, in its FunctionScope (TF's inline
    FunctionScope)."""
    with FunctionScope("lambda_", scope_name, options) as scope:
        return thunk(scope)


def autograph_artifact(entity):
    """Mark a function AutoGraph generated (TF's marker; converted_call runs it as it is)."""
    entity.autograph_info__ = frozenset()
    return entity
