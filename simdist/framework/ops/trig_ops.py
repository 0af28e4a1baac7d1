"""Trigonometric and hyperbolic ops, ``expm1``, ``ceil`` and ``atan2``: one table row each.

Glossary:
  UNARY    -- public name -> (TF op type, the NumPy kernel); each row becomes ``tf.math.<name>``
              (and ``tf.<name>`` where TF exports one), float inputs only, as TF's kernels.
  GRADIENTS -- op type -> rule(g, x, y) as in math_grad.UNARY_RULES (``y`` the output):
              TF's rules, written with simdist ops so outer tapes record them; Ceil has none
              (TF's _CeilGrad returns None).

Mirrors the ops of tensorflow/core/ops/math_ops.cc and their rules in
tensorflow/python/ops/math_grad.py.
"""

from __future__ import annotations

from simdist.framework import execute, op_recording
from simdist.framework.ops import eigen_log1p, eigen_trig, math_grad, op_types
from simdist.framework.ops import math_ops as M
from simdist.hardware import backend


def _xp(name):
    return lambda a: getattr(backend.xp, name)(a)


UNARY = {
    "sin": ("Sin", M.float32_by(eigen_trig.sin, _xp("sin"))),
    "cos": ("Cos", M.float32_by(eigen_trig.cos, _xp("cos"))), "tan": ("Tan", _xp("tan")),
    "asin": ("Asin", _xp("asin")), "acos": ("Acos", _xp("acos")),
    "atan": ("Atan", _xp("atan")), "sinh": ("Sinh", _xp("sinh")),
    "cosh": ("Cosh", _xp("cosh")), "asinh": ("Asinh", _xp("asinh")),
    "acosh": ("Acosh", _xp("acosh")), "atanh": ("Atanh", _xp("atanh")),
    "expm1": ("Expm1", M.float32_by(eigen_log1p.expm1, _xp("expm1"))),
    "ceil": ("Ceil", _xp("ceil")),
}


def _make(name, op_type, kernel):
    def op(x, name=None):
        return M._unary(op_type, x, kernel, "f")
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Element-wise ``{name}`` (TF's ``{op_type}`` op; float inputs)."
    op.__module__ = __name__
    return op


for _name, (_op_type, _kernel) in UNARY.items():
    globals()[_name] = _make(_name, _op_type, _kernel)


def atan2(y, x, name=None):
    """The angle of ``(x, y)`` in ``[-pi, pi]``, element-wise with broadcasting (``y``
    first, as TF)."""
    return M._binary("Atan2", y, x, lambda a, b: backend.xp.atan2(a, b), check=_floats_only)


def _floats_only(yt, xt):
    # _binary converts NumPy's float result back to an integer input's dtype: refuse first.
    if not yt.dtype.is_floating:
        op_types.refuse_dtype("Atan2", yt, "")


__all__ = [*UNARY, "atan2"]
_ = globals()   # the table's ops, for the rules below
sin, cos, sinh, cosh = _["sin"], _["cos"], _["sinh"], _["cosh"]


def _one_minus_x2(x):
    return M.subtract(1, M.square(x))


GRADIENTS = {
    "Sin": lambda g, x, y: M.multiply(g, cos(x)),
    "Cos": lambda g, x, y: M.multiply(g, M.negative(sin(x))),
    "Tan": lambda g, x, y: M.multiply(g, M.square(M.reciprocal(cos(x)))),
    "Asin": lambda g, x, y: M.multiply(g, M.reciprocal(M.sqrt(_one_minus_x2(x)))),
    "Acos": lambda g, x, y: M.negative(M.multiply(g, M.reciprocal(M.sqrt(_one_minus_x2(x))))),
    "Atan": lambda g, x, y: M.multiply(g, M.reciprocal(M.add(1, M.square(x)))),
    "Sinh": lambda g, x, y: M.multiply(g, cosh(x)),
    "Cosh": lambda g, x, y: M.multiply(g, sinh(x)),
    "Asinh": lambda g, x, y: M.multiply(g, M.reciprocal(cosh(y))),
    "Acosh": lambda g, x, y: M.multiply(g, M.reciprocal(sinh(y))),
    "Atanh": lambda g, x, y: M.multiply(g, M.reciprocal(_one_minus_x2(x))),
    "Expm1": lambda g, x, y: M.multiply(g, M.exp(x)),
}
math_grad.register_unary_rules(GRADIENTS)
execute.NotDifferentiable("Ceil")   # TF's _CeilGrad: None


@execute.RegisterGradient("Atan2")
def _atan2_grad(op, grad):
    y, x = op.inputs
    scale = M.multiply(grad, M.reciprocal(M.add(M.square(x), M.square(y))))
    return math_grad._pair(op, M.multiply(x, scale), M.negative(M.multiply(y, scale)))


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__)
