"""Python operators on ``Tensor`` and ``Variable`` (``+``, ``@``, ``<``, ``==``, ``[]`` ...).

Glossary:
  binary operator   -- ``x + y`` calls ``math_ops.add(x, y)``; the other operand is
                       converted with the tensor's dtype (``tf.constant(1.0) + 2`` works).
  reflected         -- ``2 + x`` calls ``x.__radd__(2)`` = ``add(2, x)``.
  ``==`` / ``!=``   -- element-wise ``tf.equal`` (TF2 semantics); shapes that do not
                       broadcast give a scalar ``False``/``True``, and ``x == None`` is False.
Attached once, at import, to both classes, as TF's ``_OverrideBinaryOperatorHelper`` does.

Mirrors tensorflow/python/ops/math_ops.py (operator overloading) and
tensor_math_operator_overrides.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import grappler_arithmetic
from simdist.framework.ops import math_ops as M
from simdist.framework.tensor import Tensor
from simdist.framework.variables import Variable


def _bitwise_or_logical(logical, name):
    def fn(x, y):
        xt, yt = M.convert_pair(x, y)
        if xt.dtype.is_bool:
            return logical(xt, yt)
        raise TypeError(f"Operator {name} is only supported for bool tensors in simdist; "
                        "use tf.bitwise for integers.")
    return fn


_BINARY = {
    "add": M.add, "sub": M.subtract, "mul": M.multiply, "truediv": M.truediv,
    "floordiv": M.floordiv, "mod": M.floormod, "pow": M.pow, "matmul": M.matmul,
    "and": _bitwise_or_logical(M.logical_and, "&"),
    "or": _bitwise_or_logical(M.logical_or, "|"),
    "xor": _bitwise_or_logical(M.logical_xor, "^"),
}

_COMPARE = {"lt": M.less, "le": M.less_equal, "gt": M.greater, "ge": M.greater_equal}
# TF's comparison operators are the generated ops themselves: their graph ops are named so
_COMPARE_OPS = {"lt": "Less", "le": "LessEqual", "gt": "Greater", "ge": "GreaterEqual"}


def _make_binary(fn, name, op_name=None):
    def op(self, other):
        return fn(self, other)

    def rop(self, other):
        # TF's r_binary_op_wrapper converts the Python operand to the tensor's dtype
        # strictly, + too: 1.5 + tf.constant(1) is a TypeError, not a float32 + int32 AddV2
        out = fn(*M.convert_pair(other, self))
        if fn is M.add:   # 1 + x: a Log of it may run as Log1p (a Const 1 in TF's graph)
            grappler_arithmetic.one_plus(other, self, out)
        return out

    op.__name__, rop.__name__ = f"__{name}__", f"__r{name}__"
    # In a traced function an operator is one graph op named as TF names it ("add:0").
    return (op_recording.recorded(op, name=op_name or name),
            op_recording.recorded(rop, name=op_name or name))


def _equals(self, other):
    """Element-wise ``==``; shapes that do not broadcast compare unequal (a scalar False)."""
    if other is None:
        return False
    return _eq_impl(self, other, M.equal, False)


def _not_equals(self, other):
    """Element-wise ``!=``; shapes that do not broadcast compare unequal (a scalar True)."""
    if other is None:
        return True
    return _eq_impl(self, other, M.not_equal, True)


def _eq_impl(x, y, fn, mismatch):
    from simdist.framework import errors

    if type(y).__name__ == "RaggedTensor":   # TF dispatches to the ragged comparison
        return y == x if fn is M.equal else y != x
    try:
        return fn(x, y)
    except errors.InvalidArgumentError as e:
        if "Incompatible shapes" not in str(e):
            raise
        return A.constant(mismatch)


def _invert(self):
    t = A._t(self)
    if t.dtype.is_bool:
        return M.logical_not(t)
    raise TypeError("Operator ~ is only supported for bool tensors in simdist.")


def _install(cls) -> None:
    for name, fn in _BINARY.items():
        op, rop = _make_binary(fn, name)
        setattr(cls, op.__name__, op)
        setattr(cls, rop.__name__, rop)
    for name, fn in _COMPARE.items():
        setattr(cls, f"__{name}__", _make_binary(fn, name, _COMPARE_OPS[name])[0])
    cls.__eq__ = _equals
    cls.__ne__ = _not_equals
    cls.__neg__ = lambda self: M.negative(self)
    cls.__abs__ = lambda self: M.abs(self)
    cls.__invert__ = _invert
    cls.__getitem__ = _getitem


_strided_slice = op_recording.recorded(A._getitem, name="strided_slice")


def _getitem(self, key):
    """``tensor[key]``: a strided slice, or, for a whole key that is a boolean tensor, a
    NumPy bool array or a Python bool, ``tf.boolean_mask`` (TF's _slice_helper)."""
    if isinstance(key, bool) or (isinstance(key, np.ndarray) and key.dtype == bool) or (
            hasattr(key, "dtype") and not isinstance(key, np.ndarray)
            and key.dtype == dtypes.bool_):
        from simdist.framework.ops import selection_ops  # the recorded op (ops/__init__)

        return selection_ops.boolean_mask(self, key)
    return _strided_slice(self, key)


# In-place operators on a Variable would silently rebind the name to a Tensor; TF refuses.
_IN_PLACE = {
    "iadd": ("variable += value", "variable.assign_add(value)", "variable + value"),
    "isub": ("variable -= value", "variable.assign_sub(value)", "variable - value"),
    "imul": ("var *= value", "var.assign(var * value)", "var * value"),
    "itruediv": ("var /= value", "var.assign(var / value)", "var / value"),
    "ipow": ("var **= value", "var.assign(var ** value)", "var ** value"),
}


def _refuse_in_place(statement, assign, expression):
    def op(self, other):
        raise RuntimeError(f"`{statement}` with `tf.Variable`s is not supported. Use "
                           f"`{assign}` to modify the variable, or `out = {expression}` if "
                           "you need to get a new output Tensor.")
    return op


for _cls in (Tensor, Variable):
    _install(_cls)
for _name, _texts in _IN_PLACE.items():
    setattr(Variable, f"__{_name}__", _refuse_in_place(*_texts))
