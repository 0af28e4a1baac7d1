"""Grappler's arithmetic rewrites of a tf.function's graph on a CPU, as simdist computes them
when a traced function executes (eager ops are not rewritten: their bits differ).

Glossary:
  executing     -- a node of a traced function running (op_recording.execution_values() is
                   not None); the trace's own run on placeholders is not rewritten.
  constant      -- an operand that is a Python (or NumPy) number: a Const of TF's graph.
  ConvertPow    -- Pow by a constant 2, 3, 0.5, -0.5 or -1 runs as Square, Mul(x,
                   Square(x)), Sqrt, Rsqrt or Reciprocal (``pow_kernel``); 1 and 0 become
                   Identity and ones, which are Pow's values already.
  ConvertLog1p  -- Log of ``x + 1`` (an AddV2 with a constant 1 that does not broadcast
                   ``x``) runs as Log1p(x): the Add remembers its operand (``one_plus``),
                   the Log reads it (``log_operand``). The tape still records Log of the
                   sum, whose gradient TF built before Grappler ran.
  Pow gradient -- with a constant exponent, Grappler folds ``y - 1`` (so that Pow is
                   rewritten too) and pushes the constant down: ``grad * (y * pow(x, y -
                   1))`` where eager TF computes ``(grad * y) * pow(x, y - 1)``.
  ReduceDivToReciprocalMul -- constant folding's: ``x / c`` (RealDiv, Div of floats) by a
                   constant ``c`` (a Python or NumPy value, or a tf.constant made in the
                   function: ``constant_divisor``; not a captured tensor, not ``c / x``)
                   runs as ``x * Reciprocal(c)``, the Reciprocal folded by TF's CPU kernel
                   in ``c``'s dtype (``div_kernel``; whole packets of 8 float32 by rcpps
                   and a Newton step). RealDiv's gradient ``grad / y`` by such a ``y`` too.
                   Not in tf.data's functions (``FuncGraph.constant_folding``), where TF
                   still rewrites Pow and Log.
Not modelled: exponents or ones that are tensors (a tf.constant in the trace), the other
rewrites and foldings of Grappler (ConvertExpm1 ...).

Mirrors tensorflow/core/grappler/optimizers/arithmetic_optimizer.cc (ConvertPowStage,
ConvertLog1pStage) and constant_folding.cc (ReduceDivToReciprocalMul).
"""

from __future__ import annotations

import weakref

import numpy as np

from simdist.framework import op_recording
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api

_SCALARS = (int, float, np.float32, np.float64, np.float16)
_ONE_PLUS: dict = {}   # id(sum) -> (weak reference to the sum, its other operand)
_CONSTANTS: dict = {}  # id(tensor) -> weak reference to a tf.constant made in an execution


def _executing() -> bool:
    return op_recording.execution_values() is not None


def _folding() -> bool:
    """Constant folding runs on the executing graph (a tf.function's, not tf.data's)."""
    graph = op_recording.execution_graph()
    return graph is not None and graph.constant_folding


def _floats_only(fn):
    from simdist.framework.ops import math_ops as M

    def kernel(a, b):
        return fn(M, a) if a.dtype.kind == "f" else M._pow(a, b)
    return kernel


_POW = {2.0: lambda M, a: a * a,
        3.0: lambda M, a: a * (a * a),
        0.5: lambda M, a: M._sqrt(a),
        -0.5: lambda M, a: M._rsqrt(a),
        -1.0: lambda M, a: M._reciprocal(a)}


def pow_kernel(y):
    """The kernel of ``x ** y`` Grappler gives when ``y`` is such a constant, else None."""
    if type(y) not in _SCALARS or not _executing():
        return None
    rule = _POW.get(float(y))
    return None if rule is None else _floats_only(rule)


def constant_exponent(y):
    """The tape's attrs of a Pow by ``y``: ``{"exponent": y}`` when ``y`` is a constant of
    an executing function (its gradient is then Grappler's, ``pow_gradient``), else None."""
    if type(y) not in _SCALARS or not _executing():
        return None
    return {"exponent": float(y)}


def pow_gradient(op, grad):
    """The gradient of ``x ** y`` w.r.t. ``x``: TF's ``grad * y * pow(x, y - 1)``; in an
    executing function with a constant ``y``, as Grappler left it: ``y - 1`` folded (so
    the Pow is rewritten, ``pow_kernel``) and the constant pushed down, ``grad * (y *
    pow(x, y - 1))``."""
    from simdist.framework.ops import math_ops as M

    x, y = op.inputs
    exponent = op.attrs.get("exponent")
    if exponent is None:
        return M.multiply(M.multiply(grad, y), M.pow(x, M.subtract(y, 1)))
    folded = float(np.float32(exponent) - np.float32(1))
    return M.multiply(grad, M.multiply(y, M.pow(x, folded)))


def one_plus(x, y, out) -> None:
    """Note ``out = x + y`` when one side is the constant 1 (see ConvertLog1p)."""
    if type(x) not in _SCALARS and type(y) not in _SCALARS or not _executing():
        return   # (every add asks: the cheap test first)
    for one, other in ((x, y), (y, x)):
        if type(one) in _SCALARS and one == 1 and isinstance(other, Tensor) and \
                other.dtype.is_floating and tuple(other.shape) == tuple(out.shape):
            _ONE_PLUS[id(out)] = (weakref.ref(out), other)
            weakref.finalize(out, _ONE_PLUS.pop, id(out), None)
            return


def log_operand(t):
    """``x`` where ``t`` is ``x + 1`` made in this execution (Log runs as Log1p(x)), else
    None."""
    entry = _ONE_PLUS.get(id(t))
    if entry is None or entry[0]() is not t:
        return None
    return entry[1]


def note_constant(t) -> None:
    """Note ``t``, a tf.constant: a Const of the executing function's graph, if one runs."""
    if _executing():
        _CONSTANTS[id(t)] = weakref.ref(t)
        weakref.finalize(t, _CONSTANTS.pop, id(t), None)


def constant_divisor(y) -> bool:
    """Whether a divisor ``y`` (as the op was given it) is a Const of an executing
    function's graph: a Python or NumPy value, or a tf.constant made in the function."""
    if type(y) in _SCALARS or type(y) is np.ndarray:
        return _folding()
    ref = _CONSTANTS.get(id(y))
    return ref is not None and ref() is y and _folding()


def div_kernel(constant: bool):
    """The kernel of ``x / y`` (Div, RealDiv) with Grappler's ReduceDivToReciprocalMul when
    ``y`` is a constant (``constant_divisor``): ``x * Reciprocal(y)`` for floats, else
    None (the division's own kernel)."""
    return reciprocal_mul if constant else None


def reciprocal_mul(a, b):
    """``a * Reciprocal(b)`` (``a / b`` for integers): a RealDiv by a constant as Grappler
    rewrote it (the kernel of kernels.py's RealDiv with the attribute ``constant``)."""
    from simdist.framework.ops import math_ops as M

    if array_api.kind(a) not in "fc":
        return a / b
    if isinstance(a, np.ndarray):   # a host value: its reciprocal by TF's CPU kernel
        b = np.asarray(b, a.dtype)
    return a * M._reciprocal(b)
