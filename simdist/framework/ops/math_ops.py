"""Math ops: element-wise arithmetic, comparisons, reductions and matrix products.

Glossary:
  convert_pair   -- TF's binary-op conversion: tensors keep their dtype, Python values
                    take the dtype of the tensor operand when they fit it
                    (``tf.constant(1.0) + 2`` works, ``tf.constant(1) + 2.5`` fails).
  broadcasting   -- shapes combine as in NumPy; a mismatch is TF's "Incompatible shapes".
  truediv        -- ``/``: integers are cast to float64 (int32, int64) first, as in TF.
  reductions     -- ``reduce_*`` over ``axis`` (all axes when None), ``keepdims``.
Gradient rules are in ``math_grad.py``.

Mirrors tensorflow/python/ops/math_ops.py.
"""

from __future__ import annotations

import builtins
import math

import numpy as np

from simdist import warnings as teach
from simdist.framework import dtypes, errors, execute, op_recording
from simdist.framework.ops import (
    array_ops,
    eigen_cpu,
    eigen_erf,
    eigen_log1p,
    eigen_minmax,
    eigen_pow,
    eigen_rcpps,
    eigen_reduce,
    eigen_rsqrt,
    eigen_unary,
    grappler_arithmetic,
    half_matmul,
    onednn_sgemm,
    op_types,
)
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api, backend

_t = array_ops._t


def _is_tensor_like(x) -> bool:
    return isinstance(x, Tensor) or hasattr(x, "_as_tensor")


def convert_pair(x, y, hint=False) -> tuple[Tensor, Tensor]:
    """Convert the operands of a binary op: a Python value takes the tensor's dtype, TF's
    TypeError where it cannot (``tf.constant(1) * 2.0``), as TF's op wrappers convert.
    ``hint``: the dtype is only preferred (``x + y`` and ``x / y`` in TF: ``1`` + ``1.0``
    becomes int32 + float32, which the op then refuses)."""
    if type(x) in execute.AS_IS and type(y) in execute.AS_IS:  # nothing to convert (most)
        return x, y
    if _is_tensor_like(x):
        xt = _t(x)
        yt = _t(y) if _is_tensor_like(y) else _like(y, xt, hint)
    elif _is_tensor_like(y):
        yt = _t(y)
        xt = _like(x, yt, hint)
    else:
        xt = _t(x)
        yt = _like(y, xt, hint)
    return xt, yt


def _like(value, t: Tensor, hint: bool) -> Tensor:
    if hint:
        return execute.convert_to_tensor(value, dtype_hint=t.dtype)
    return execute.convert_to_tensor(value, dtype=t.dtype)


def _shape_text(t: Tensor) -> str:
    return "[" + ",".join(str(d) for d in t._value.shape) + "]"


def _binary(op_type, x, y, fn, out_dtype=None, check=None, attrs=None):
    """Run a broadcasting binary op ``fn(xv, yv)`` with TF's dtype and shape errors;
    ``attrs`` go to the tape's record."""
    xt, yt = convert_pair(x, y)
    execute.check_same_dtype(op_type, xt, yt)
    if execute._is_host_strings(xt._value):  # a string tensor (inline: every op runs this)
        op_types.refuse_strings(op_type, xt)
    if check is not None:
        check(xt, yt)
    try:
        if xt._value.shape != yt._value.shape:  # a broadcast may outgrow both inputs
            execute.check_output_fits(op_type, execute.broadcast_shape(xt._value.shape,
                                                                     yt._value.shape),
                                     xt._value.dtype if out_dtype is None else out_dtype,
                                     [xt, yt])
        with np.errstate(all="ignore"):
            value = fn(xt._value, yt._value)
        if isinstance(value, bytes):  # NumPy gives two 0-d string arrays' sum as bytes
            value = np.array(value, dtype=object)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, f"Incompatible shapes: {_shape_text(xt)} vs. {_shape_text(yt)} "
                        f"[Op:{op_type}]") from None
    if out_dtype is not None:
        value = array_api.astype(value, out_dtype)
    elif value.dtype != xt._value.dtype:
        value = array_api.astype(value, array_api.numpy_dtype(xt._value))
    return execute.execute(op_type, [xt, yt], value, attrs=attrs)


def _unary(op_type, x, fn, allowed="fiu"):
    xt = _t(x)
    if execute._is_host_strings(xt._value):
        op_types.refuse_strings(op_type, xt)
    if dtypes.np_kind(array_api.numpy_dtype(xt._value)) not in allowed:
        op_types.refuse_dtype(op_type, xt, {"f": "half, float, double",
                                            "fiu": "half, float, double, int32, int64",
                                            "b": "bool"}[allowed])
    with np.errstate(all="ignore"):
        value = fn(xt._value)
    if value.dtype != xt._value.dtype:
        value = array_api.astype(value, array_api.numpy_dtype(xt._value))
    return execute.execute(op_type, [xt], value)


# --- arithmetic --------------------------------------------------------------------------
def add(x, y, name=None) -> Tensor:
    """``x + y`` element-wise, with broadcasting; string tensors are concatenated (TF's
    ``Add`` kernel, the one of its two that takes strings)."""
    xt, yt = convert_pair(x, y, hint=True)   # TF's _add_dispatch: a dtype hint only
    out = _binary("Add" if xt.dtype.is_string else "AddV2", xt, yt, lambda a, b: a + b)
    grappler_arithmetic.one_plus(x, y, out)   # a Log of it may run as Log1p
    return out


def subtract(x, y, name=None) -> Tensor:
    """``x - y`` element-wise, with broadcasting."""
    return _binary("Sub", x, y, lambda a, b: a - b)


def multiply(x, y, name=None) -> Tensor:
    """``x * y`` element-wise, with broadcasting."""
    return _binary("Mul", x, y, lambda a, b: a * b)


def _int_div_check(op_type):
    def check(xt, yt):
        if xt.dtype.is_integer and bool(backend.xp.any(yt._value == 0)):
            raise errors.InvalidArgumentError(
                None, None, f"Integer division by zero [Op:{op_type}]")
    return check


def realdiv(x, y, name=None) -> Tensor:
    """``x / y`` for floating tensors (TF's ``RealDiv``); by a constant in an executing
    tf.function, Grappler's ``x * (1 / y)`` (grappler_arithmetic.py)."""
    return _realdiv(x, y, grappler_arithmetic.constant_divisor(y))


def _realdiv(x, y, constant):
    return _binary("RealDiv", x, y, grappler_arithmetic.div_kernel(constant) or _div,
                   check=_int_div_check("RealDiv"), attrs={"constant": True} if constant else None)


def _div(a, b):
    return a / b


def truediv(x, y, name=None) -> Tensor:
    """``x / y``; integer operands are cast to float64 first, as in TF."""
    constant = grappler_arithmetic.constant_divisor(y)   # (its Cast is folded too)
    xt, yt = convert_pair(x, y, hint=True)   # TF's _truediv_python3
    if xt.dtype.is_string:
        raise TypeError("Invalid dtype tf.string in __truediv__. Expected one of {tf.uint8, "
                        "tf.int8, tf.uint16, tf.int16, tf.uint32, tf.int32, tf.uint64, "
                        "tf.int64, tf.bfloat16, tf.float16, tf.float32, tf.float64, "
                        "tf.complex64, tf.complex128}.")
    if xt.dtype != yt.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {xt.dtype!r} != "
                        f"{yt.dtype!r}.")
    if xt.dtype.is_integer:
        target = dtypes.float32 if xt.dtype.size <= 2 else dtypes.float64
        xt, yt = array_ops.cast(xt, target), array_ops.cast(yt, target)
    return _realdiv(xt, yt, constant)


divide = truediv


def floordiv(x, y, name=None) -> Tensor:
    """``x // y``: division rounded towards minus infinity."""
    return _binary("FloorDiv", x, y, lambda a, b: a // b, check=_int_div_check("FloorDiv"))


floor_div = floordiv


def floormod(x, y, name=None) -> Tensor:
    """``x % y`` with the sign of ``y``, as Python's ``%``."""
    return _binary("FloorMod", x, y, lambda a, b: a % b, check=_int_div_check("FloorMod"))


mod = floormod


def _pow_check(xt, yt):
    if xt.dtype.is_integer and bool(backend.xp.any(yt._value < 0)):
        raise errors.InvalidArgumentError(
            None, None, "Integers to negative integer powers are not allowed [Op:Pow]")


def pow(x, y, name=None) -> Tensor:  # noqa: A001 - TF's name
    """``x ** y`` element-wise (float32 on the host: Eigen's generic_pow, TF's CPU bits;
    eigen_pow.py). Run by a tf.function with a Python exponent (a Const of its graph), it
    computes what Grappler rewrote it to (grappler_arithmetic.py)."""
    fn = grappler_arithmetic.pow_kernel(y) or _pow
    return _binary("Pow", x, y, fn, check=_pow_check,
                   attrs=grappler_arithmetic.constant_exponent(y))


def _pow(a, b):
    if type(a) is np.ndarray and type(b) is np.ndarray and a.dtype == b.dtype == np.float32:
        return eigen_pow.pow(a, b)
    return a ** b


def maximum(x, y, name=None) -> Tensor:
    """The larger of ``x`` and ``y`` element-wise."""
    return _binary("Maximum", x, y, _maximum)


def minimum(x, y, name=None) -> Tensor:
    """The smaller of ``x`` and ``y`` element-wise."""
    return _binary("Minimum", x, y, _minimum)


def squared_difference(x, y, name=None) -> Tensor:
    """``(x - y) ** 2`` element-wise."""
    return _binary("SquaredDifference", x, y, lambda a, b: (a - b) * (a - b))


def negative(x, name=None) -> Tensor:
    """``-x``."""
    return _unary("Neg", x, lambda a: -a)


def square(x, name=None) -> Tensor:
    """``x * x``."""
    return _unary("Square", x, lambda a: a * a)


def sqrt(x, name=None) -> Tensor:
    """Square root (NaN for negative inputs; float32 on the host reads subnormals as 0, as
    TF's CPU kernels)."""
    return _unary("Sqrt", x, _sqrt, "f")


def rsqrt(x, name=None) -> Tensor:
    """``1 / sqrt(x)`` (float32 on the host: the CPU's approximate rsqrtps and Eigen's Newton
    step, TF's CPU bits; eigen_rsqrt.py)."""
    return _unary("Rsqrt", x, _rsqrt, "f")


def reciprocal(x, name=None) -> Tensor:
    """``1 / x`` (float32 on the host: Eigen's rcpps and a Newton step, TF's CPU bits;
    eigen_rcpps.py)."""
    return _unary("Reciprocal", x, _reciprocal, "f")


def exp(x, name=None) -> Tensor:
    """``e ** x`` (float32 on the host: Eigen's polynomial, TF's CPU bits; eigen_cpu.py)."""
    return _unary("Exp", x, _exp, "f")


def _exp(a):
    # A float32 NumPy scalar too (a stacked kernel's row of scalars, stacked_kernels):
    # NumPy's own exp would round some of them otherwise.
    return eigen_cpu.exp(a) if _host_float32(a) else backend.xp.exp(a)


def log(x, name=None) -> Tensor:
    """Natural logarithm (``-inf`` at 0, NaN below); of ``y + 1`` in an executing
    tf.function, Grappler's Log1p(y) (grappler_arithmetic.py)."""
    inner = grappler_arithmetic.log_operand(x)
    if inner is not None:
        return _unary("Log", x, lambda a: _log1p(inner._value), "f")
    return _unary("Log", x, _log, "f")


def _log(a):
    return eigen_unary.log(a) if _host_float32(a) else backend.xp.log(a)


def log1p(x, name=None) -> Tensor:
    """``log(1 + x)``, accurate for small ``x`` (float32 on the host: Eigen's, TF's CPU bits;
    eigen_log1p.py)."""
    return _unary("Log1p", x, _log1p, "f")


def abs(x, name=None) -> Tensor:  # noqa: A001 - TF's name
    """Absolute value."""
    return _unary("Abs", x, lambda a: backend.xp.abs(a))


def sign(x, name=None) -> Tensor:
    """-1, 0 or 1 by the sign of ``x``."""
    return _unary("Sign", x, lambda a: backend.xp.sign(a))


def round(x, name=None) -> Tensor:  # noqa: A001 - TF's name
    """Round half to even, as TF does."""
    return _unary("Round", x, lambda a: backend.xp.round(a))


def floor(x, name=None) -> Tensor:
    """Largest integer not greater than ``x``."""
    return _unary("Floor", x, lambda a: backend.xp.floor(a), "f")


def sigmoid(x, name=None) -> Tensor:
    """``1 / (1 + exp(-x))``, computed without overflow (float32 on the host: Eigen's, TF's
    CPU bits; eigen_unary.py)."""
    return _unary("Sigmoid", x, _sigmoid, "f")


def _sigmoid(a):
    if _host_float32(a):
        return eigen_unary.sigmoid(a)
    xp = backend.xp
    e = xp.exp(-xp.abs(a))
    return xp.where(a >= 0, 1 / (1 + e), e / (1 + e))


def tanh(x, name=None) -> Tensor:
    """Hyperbolic tangent (float32 on the host: Eigen's rational approximation, TF's CPU
    bits; eigen_unary.py)."""
    return _unary("Tanh", x, _tanh, "f")


def _tanh(a):
    return eigen_unary.tanh(a) if _host_float32(a) else backend.xp.tanh(a)


def _host_float32(a) -> bool:
    """A float32 NumPy array or scalar (a stacked kernel's row of scalars too)."""
    return (type(a) is np.ndarray and a.dtype == np.float32) or type(a) is np.float32


def float32_by(eigen_fn, other):
    """A kernel: ``eigen_fn`` (TF's CPU bits, eigen_*.py) for float32 on the host, ``other``
    for the rest."""
    return lambda a: eigen_fn(a) if _host_float32(a) else other(a)


_log1p = float32_by(eigen_log1p.log1p, lambda a: backend.xp.log1p(a))
_rsqrt = float32_by(eigen_rsqrt.rsqrt, lambda a: 1 / backend.xp.sqrt(a))
_reciprocal = float32_by(eigen_rcpps.reciprocal, lambda a: 1 / a)
_sqrt = float32_by(lambda a: np.sqrt(eigen_cpu.daz(a)), lambda a: backend.xp.sqrt(a))


def _minmax_kernel(eigen_fn, name):
    """Maximum's / Minimum's kernel: Eigen's for two float32 host values (eigen_minmax.py;
    a scalar or broadcast operand is broadcast first: TF's scalar and BCast paths apply
    the same rule, packets counted in the output), the array namespace's for the rest."""
    def kernel(a, b):
        if _host_float32(a) and _host_float32(b):
            if np.shape(a) != np.shape(b):
                a, b = np.broadcast_arrays(a, b)
            return eigen_fn(a, b)
        return getattr(backend.xp, name)(a, b)
    return kernel


_maximum = _minmax_kernel(eigen_minmax.maximum, "maximum")
_minimum = _minmax_kernel(eigen_minmax.minimum, "minimum")


def softplus(features, name=None) -> Tensor:
    """``log(1 + exp(x))``, computed without overflow (float32 on the host: TF's functor
    on Eigen's exp and log1p, TF's CPU bits; eigen_log1p.py)."""
    return _unary("Softplus", features, _softplus, "f")


def _softplus_other(a):
    xp = backend.xp
    return xp.maximum(a, 0) + xp.log1p(xp.exp(-xp.abs(a)))


_softplus = float32_by(eigen_log1p.softplus, _softplus_other)


def erf(x, name=None) -> Tensor:
    """The Gauss error function ``2/sqrt(pi) * integral_0^x exp(-t**2) dt`` (float32 on
    the host: Eigen's rational approximation, TF's CPU bits; eigen_erf.py)."""
    return _unary("Erf", x, _erf, "f")


def _erf_other(a):
    host = backend.to_host(a)
    return backend.xp.asarray(_ERF(host.astype(np.float64)).astype(host.dtype))


_erf = float32_by(eigen_erf.erf, _erf_other)


def erfc(x, name=None) -> Tensor:
    """The complementary error function ``1 - erf(x)``, accurate where ``erf`` is near 1
    (float32 on the host: Eigen's, TF's CPU bits; eigen_erf.py)."""
    return _unary("Erfc", x, _erfc, "f")


def _erfc_other(a):
    host = backend.to_host(a)
    return backend.xp.asarray(_ERFC(host.astype(np.float64)).astype(host.dtype))


_erfc = float32_by(eigen_erf.erfc, _erfc_other)


_ERF = np.vectorize(math.erf, otypes=[np.float64])  # exact to the last bit of float64
_ERFC = np.vectorize(math.erfc, otypes=[np.float64])


def add_n(inputs, name=None) -> Tensor:
    """The element-wise sum of a list of same-shape tensors."""
    ts = [_t(i) for i in inputs]
    if not ts:
        raise ValueError("inputs must be a list of at least one Tensor with the same dtype "
                         "and shape")
    execute.check_same_dtype("AddN", *ts)
    op_types.refuse_strings("AddN", ts[0])
    for j, t in enumerate(ts[1:], start=1):
        if t.shape != ts[0].shape:
            raise errors.InvalidArgumentError(
                None, None, "Inputs to operation AddN of type AddN must have the same size "
                            "and shape.  "
                            f"Input 0: {_shape_text(ts[0])} != input "
                            f"{j}: {_shape_text(t)} [Op:AddN]")
    value = ts[0]._value
    for t in ts[1:]:
        value = value + t._value
    return execute.execute("AddN", ts, value)


def clip_by_value(t, clip_value_min, clip_value_max, name=None) -> Tensor:
    """Clamp ``t`` to ``[clip_value_min, clip_value_max]`` (gradient 1 inside, 0 outside)."""
    t = _t(t)
    return maximum(minimum(t, clip_value_max), clip_value_min)


# --- comparison and logic ----------------------------------------------------------------
def _compare(op_type, x, y, fn):
    return _binary(op_type, x, y, fn, out_dtype=np.bool_)


def equal(x, y, name=None) -> Tensor:
    """``x == y`` element-wise (a bool tensor)."""
    return _compare("Equal", x, y, lambda a, b: a == b)


def not_equal(x, y, name=None) -> Tensor:
    """``x != y`` element-wise."""
    return _compare("NotEqual", x, y, lambda a, b: a != b)


def greater(x, y, name=None) -> Tensor:
    """``x > y`` element-wise."""
    return _compare("Greater", x, y, lambda a, b: a > b)


def greater_equal(x, y, name=None) -> Tensor:
    """``x >= y`` element-wise."""
    return _compare("GreaterEqual", x, y, lambda a, b: a >= b)


def less(x, y, name=None) -> Tensor:
    """``x < y`` element-wise."""
    return _compare("Less", x, y, lambda a, b: a < b)


def less_equal(x, y, name=None) -> Tensor:
    """``x <= y`` element-wise."""
    return _compare("LessEqual", x, y, lambda a, b: a <= b)


def _bool_check(op_type):
    def check(xt, yt):
        if not xt.dtype.is_bool:
            raise execute.input_dtype_error(op_type, 0, "bool", xt.dtype)
    return check


def logical_and(x, y, name=None) -> Tensor:
    """Element-wise AND of bool tensors."""
    return _binary("LogicalAnd", x, y, lambda a, b: a & b, check=_bool_check("LogicalAnd"))


def logical_or(x, y, name=None) -> Tensor:
    """Element-wise OR of bool tensors."""
    return _binary("LogicalOr", x, y, lambda a, b: a | b, check=_bool_check("LogicalOr"))


def logical_xor(x, y, name=None) -> Tensor:
    """Element-wise XOR of bool tensors."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)))


def logical_not(x, name=None) -> Tensor:
    """Element-wise NOT of a bool tensor."""
    return _unary("LogicalNot", x, lambda a: ~a, "b")


def is_finite(x, name=None) -> Tensor:
    """Whether each element is finite."""
    xt = _t(x)
    return execute.execute("IsFinite", [xt], backend.xp.isfinite(xt._value))


def is_nan(x, name=None) -> Tensor:
    """Whether each element is NaN."""
    xt = _t(x)
    return execute.execute("IsNan", [xt], backend.xp.isnan(xt._value))


def is_inf(x, name=None) -> Tensor:
    """Whether each element is +inf or -inf."""
    xt = _t(x)
    return execute.execute("IsInf", [xt], backend.xp.isinf(xt._value))


# --- reductions --------------------------------------------------------------------------
def _axes(x: Tensor, axis, op_type) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(x.ndim))
    out = []
    for a in array_ops._ints(axis):
        if not -x.ndim <= a < builtins.max(x.ndim, 1):
            raise errors.InvalidArgumentError(
                None, None, f"Invalid reduction dimension ({a} for input with {x.ndim} "
                            f"dimension(s) [Op:{op_type}]")
        out.append(a % builtins.max(x.ndim, 1))
    return tuple(sorted(set(out)))


def _reduce(op_type, x, axis, keepdims, fn):
    xt = _t(x)
    if execute._is_host_strings(xt._value):
        op_types.refuse_strings(op_type, xt)
    axes = _axes(xt, axis, op_type)
    with np.errstate(all="ignore"):
        value = fn(xt._value, axes)
    if value.dtype != xt._value.dtype:
        value = array_api.astype(value, array_api.numpy_dtype(xt._value))
    if keepdims:
        value = array_api.namespace(value).reshape(
            value, tuple(1 if i in axes else d for i, d in enumerate(xt._value.shape)))
    return execute.execute(op_type, [xt], value, attrs={"axes": axes, "keepdims": keepdims})


def _accumulator(dtype):
    # TF's CPU kernels sum bfloat16 in float32 and round once (recorded: 300 ones sum to
    # 300, where bfloat16 partial sums would stop at 256).
    dtype = array_api.numpy_dtype(dtype)
    return np.float32 if dtypes.np_kind(dtype) == "f" and dtype.kind == "V" else dtype


def _sum(v, a):
    """The sum over axes ``a`` as TF's CPU kernel adds: float32 in Eigen's order
    (eigen_reduce.reduce_sum), else NumPy's (CuPy's) sum."""
    s = eigen_reduce.reduce_sum(v, a)
    if s is not None:
        return s
    return array_api.namespace(v).sum(v, axis=a, dtype=_accumulator(v.dtype))


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None) -> Tensor:
    """Sum of elements over ``axis``."""
    return _reduce("Sum", input_tensor, axis, keepdims, _sum)


def _mean(v, a):
    xp = array_api.namespace(v)
    n = 1
    for i in a:
        n *= v.shape[i]
    s = _sum(v, a)
    if array_api.kind(v) in "iu":  # integer mean truncates towards zero, as TF's kernel does
        return xp.sign(s) * (xp.abs(s) // builtins.max(n, 1))
    return s / n if n else s * xp.nan


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None) -> Tensor:
    """Mean of elements over ``axis`` (integer tensors give a truncated integer mean)."""
    out = _reduce("Mean", input_tensor, axis, keepdims, _mean)
    if teach.enabled() and out._value.ndim == 0 and _t(input_tensor)._value.ndim >= 1:
        teach.tag(out, "batch_mean")  # a mean over the batch, if this is a loss
    return out


def reduce_max(input_tensor, axis=None, keepdims=False, name=None) -> Tensor:
    """Maximum over ``axis`` (``-inf`` for an empty float reduction)."""
    return _reduce("Max", input_tensor, axis, keepdims, lambda v, a: _extreme(v, a, True))


def reduce_min(input_tensor, axis=None, keepdims=False, name=None) -> Tensor:
    """Minimum over ``axis``."""
    return _reduce("Min", input_tensor, axis, keepdims, lambda v, a: _extreme(v, a, False))


def _extreme(v, a, is_max):
    xp = array_api.namespace(v)
    if v.size == 0:
        dt = array_api.numpy_dtype(v)
        floating = dtypes.np_kind(dt) == "f"
        info = dtypes.finfo(dt) if floating else np.iinfo(dt)
        fill = (-math.inf if is_max else math.inf) if floating else (
            int(info.min) if is_max else int(info.max))
        shape = tuple(d for i, d in enumerate(v.shape) if i not in a)
        return xp.full(shape, fill, dtype=v.dtype)
    return xp.max(v, axis=a) if is_max else xp.min(v, axis=a)


def reduce_prod(input_tensor, axis=None, keepdims=False, name=None) -> Tensor:
    """Product of elements over ``axis``."""
    return _reduce("Prod", input_tensor, axis, keepdims,
                   lambda v, a: backend.xp.prod(v, axis=a, dtype=v.dtype))


def reduce_all(input_tensor, axis=None, keepdims=False, name=None) -> Tensor:
    """Logical AND over ``axis``."""
    return _reduce("All", input_tensor, axis, keepdims, lambda v, a: backend.xp.all(v, axis=a))


def reduce_any(input_tensor, axis=None, keepdims=False, name=None) -> Tensor:
    """Logical OR over ``axis``."""
    return _reduce("Any", input_tensor, axis, keepdims, lambda v, a: backend.xp.any(v, axis=a))


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None) -> Tensor:
    """``log(sum(exp(x)))`` over ``axis``, computed stably (shifted by the maximum)."""
    x = _t(input_tensor)
    m = array_ops.stop_gradient(reduce_max(x, axis, keepdims=True))
    m = array_ops.where(is_finite(m), m, array_ops.zeros_like(m))
    out = add(log(reduce_sum(exp(subtract(x, m)), axis, keepdims=True)), m)
    axes = _axes(x, axis, "Sum")
    return out if keepdims or not axes else array_ops.squeeze(out, list(axes))


def _arg(op_type, x, axis, output_type, fn):
    xt = _t(x)
    if execute._is_host_strings(xt._value):
        op_types.refuse_strings(op_type, xt)
    a = array_ops._axis(0 if axis is None else array_ops._ints(axis)[0], xt.ndim, op_type)
    dt = dtypes.as_dtype(output_type)
    if xt._value.shape[a] == 0:
        raise errors.InvalidArgumentError(
            None, None, f"Reduction axis {a} is empty in shape {_shape_text(xt)} "
                        f"[Op:{op_type}]")
    return execute.execute(op_type, [xt], array_api.astype(fn(xt._value, axis=a),
                                                          dt.as_numpy_dtype),
                           attrs={"axis": a})


def argmax(input, axis=None, output_type=dtypes.int64, name=None) -> Tensor:  # noqa: A002
    """Index of the largest element along ``axis`` (0 when None); int64 by default."""
    return _arg("ArgMax", input, axis, output_type, backend.xp.argmax)


def argmin(input, axis=None, output_type=dtypes.int64, name=None) -> Tensor:  # noqa: A002
    """Index of the smallest element along ``axis`` (0 when None); int64 by default."""
    return _arg("ArgMin", input, axis, output_type, backend.xp.argmin)


# --- matrix product ----------------------------------------------------------------------
def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None) -> Tensor:
    """The matrix product ``a @ b`` (batched over leading dimensions, which broadcast).

    Raises:
      InvalidArgumentError: inputs of rank < 2, different dtypes, or inner dimensions that
        do not match (TF's "Matrix size-incompatible" message).
    """
    at, bt = convert_pair(a, b)
    ta, tb = bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)
    batched = at.ndim > 2 or bt.ndim > 2
    op_type = "BatchMatMulV2" if batched else "MatMul"
    execute.check_same_dtype(op_type, at, bt)
    op_types.refuse_strings(op_type, at)
    if at.ndim < 2 or bt.ndim < 2:   # TF 2.21's kernel texts
        if batched:
            which = 0 if at.ndim < 2 else 1
            problem = f"In[{which}] ndims must be >= 2: {min(at.ndim, bt.ndim)}"
        elif at.ndim == bt.ndim:
            problem = f"In[0] and In[1] ndims must be == 2: {at.ndim}"
        else:
            problem = (f"In[0] and In[1] has different ndims: {_shape_text(at)} vs. "
                       f"{_shape_text(bt)}")
        raise errors.InvalidArgumentError(
            None, None, f"{problem} [Op:{op_type}]\ntf.matmul multiplies matrices; use "
                        "tf.reshape or tf.expand_dims to make a vector a matrix.")
    xp = array_api.namespace(at._value)
    av = array_api.matrix_transpose(at._value) if ta else at._value
    bv = array_api.matrix_transpose(bt._value) if tb else bt._value
    if av.shape[-1] != bv.shape[-2]:
        raise errors.InvalidArgumentError(
            None, None, f"Matrix size-incompatible: In[0]: {_shape_text(at)}, "
                        f"In[1]: {_shape_text(bt)} "
                        f"[Op:{op_type}]. The inner dimensions must agree: a has "
                        f"{av.shape[-1]} columns{' (after transpose_a)' if ta else ''} but b "
                        f"has {bv.shape[-2]} rows{' (after transpose_b)' if tb else ''}.")
    try:
        execute.check_output_fits(
            op_type, execute.broadcast_shape(av.shape[:-2], bv.shape[:-2]) + (
                av.shape[-2], bv.shape[-1]),
            array_api.numpy_dtype(av), [at, bt])
        with np.errstate(all="ignore"):  # float16 overflow is inf, as in TF: no warning
            if array_api.itemsize(av) == 2 and at.dtype.is_floating:
                # Half and bfloat16 matmuls accumulate in float32 and round once, as TF's
                # CPU kernel does (also tensor cores, cuBLAS, the TPU's MXU); NumPy would
                # round every partial sum, its BLAS would order the float32 sums by CPU.
                value = half_matmul.widened_matmul(av, bv)
            else:
                value = _float32_matmul(av, bv, batched, (ta, tb)) if _host_float32(
                    av) else None
                value = xp.matmul(av, bv) if value is None else value
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, f"In[0] and In[1] must have compatible batch dimensions: "
                        f"{_shape_text(at)} vs. {_shape_text(bt)} [Op:{op_type}]") from None
    flops = 2 * value.size * av.shape[-1]
    return execute.execute(op_type, [at, bt], value,
                          attrs={"transpose_a": ta, "transpose_b": tb}, flops=flops)


def _float32_matmul(av, bv, batched, transposed):
    """TF's CPU bits for a float32 product (onednn_sgemm.py), or None to use NumPy's: a
    BatchMatMul contracts (as MatMul) only when its smallest dimension is 2 or more and it
    is one product or a big one (LaunchBatchMatMul), else it is Eigen's matrix product.
    On a trace's placeholders NumPy's product serves: the output's shape and dtype are
    what the trace keeps, and TF's order of sums is the costliest kernel a trace runs."""
    if not (type(bv) is np.ndarray and bv.dtype == np.float32) or \
            op_recording.on_placeholders():
        return None
    batch = math.prod(np.broadcast_shapes(av.shape[:-2], bv.shape[:-2]))
    m, k, n = av.shape[-2], av.shape[-1], bv.shape[-1]
    if batched and (min(m, k, n) < 2 or (batch > 1 and m * k * n <= 128 * 128)):
        return None
    return onednn_sgemm.sgemm(av, bv, chipped=batch > 1, transposed=transposed)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None) -> Tensor:
    """Sums of the slices of ``data`` that share a segment id (missing segments are 0)."""
    d = _t(data)
    ids = _t(segment_ids)
    # a tensor's value: in a trace, its placeholder's (tf.IndexedSlices' dense_shape[0])
    n = int(backend.to_host(num_segments._value) if isinstance(num_segments, Tensor)
            else num_segments)
    xp = array_api.namespace(d._value)
    out = xp.zeros((n,) + tuple(d._value.shape[ids.ndim:]), dtype=d._value.dtype)
    flat_ids = xp.reshape(ids._value, (-1,))
    flat = xp.reshape(d._value, (flat_ids.shape[0],) + tuple(d._value.shape[ids.ndim:]))
    keep = flat_ids >= 0  # TF drops negative ids (NumPy would count from the end)
    out = array_api.add_at(out, flat_ids[keep], flat[keep])  # a mask indexes alone
    return execute.execute("UnsortedSegmentSum", [d, ids], out, attrs={"num_segments": n})


def divide_no_nan(x, y, name=None) -> Tensor:
    """``x / y``, but 0 where ``y`` is 0."""
    xt, yt = convert_pair(x, y)
    zero = equal(yt, 0)
    q = truediv(xt, array_ops.where(zero, array_ops.ones_like(yt), yt))
    return array_ops.where(zero, array_ops.zeros_like(q), q)


__all__ = [
    "abs", "add", "add_n", "argmax", "argmin", "clip_by_value", "convert_pair", "div_no_nan",
    "divide", "divide_no_nan", "equal", "erf", "erfc", "exp", "floor", "floor_div", "floordiv",
    "floormod", "greater", "greater_equal", "is_finite", "is_inf", "is_nan", "l2_normalize", "less",
    "less_equal", "log", "log1p", "logical_and", "logical_not", "logical_or", "logical_xor",
    "matmul", "maximum", "minimum", "mod", "multiply", "negative", "norm", "not_equal", "pow",
    "realdiv", "reciprocal", "reduce_all", "reduce_any", "reduce_logsumexp", "reduce_max",
    "reduce_mean", "reduce_min", "reduce_prod", "reduce_std", "reduce_sum", "reduce_variance",
    "round", "rsqrt", "sigmoid", "sign", "softplus", "sqrt", "square", "squared_difference",
    "subtract", "tanh", "truediv", "unsorted_segment_sum",
]


div_no_nan = divide_no_nan


# --- composite reductions (differentiable through the ops they are made of) -------------
def reduce_variance(input_tensor, axis=None, keepdims=False, name=None) -> Tensor:
    """``mean(square(x - mean(x)))`` over ``axis``."""
    x = _t(input_tensor)
    mean = reduce_mean(x, axis=axis, keepdims=True)
    return reduce_mean(squared_difference(x, mean), axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None) -> Tensor:
    """``sqrt(reduce_variance(x))`` over ``axis``."""
    return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None) -> Tensor:
    """``x / sqrt(max(sum(x**2), epsilon))`` along ``axis``."""
    x = _t(x)
    axis = dim if axis is None else axis
    square_sum = reduce_sum(square(x), axis=axis, keepdims=True)
    return multiply(x, rsqrt(maximum(square_sum, epsilon)))


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None) -> Tensor:  # noqa: A002
    """The vector norm of ``tensor`` (all of it, or along ``axis``): euclidean, 1 or inf."""
    x = _t(tensor)
    keepdims = bool(keepdims)
    if ord in ("euclidean", "fro", 2, 2.0):
        return sqrt(reduce_sum(square(x), axis=axis, keepdims=keepdims))
    if ord in (1, 1.0):
        return reduce_sum(abs(x), axis=axis, keepdims=keepdims)
    if ord == np.inf:
        return reduce_max(abs(x), axis=axis, keepdims=keepdims)
    raise ValueError(f"'ord' must be a supported vector norm, got {ord!r}: simdist offers "
                     "'euclidean' (2), 1 and np.inf.")
