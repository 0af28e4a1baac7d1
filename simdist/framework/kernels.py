"""NumPy kernels of single ops, for replays that call them without the op's Python.

Glossary:
  kernel   -- ``fn(*input values) -> output value``: what an op computes, without its
              conversion, dtype and shape checks, its device charge or its tape record.
  builder  -- ``builder(attrs, values, out) -> kernel or None``: the kernel of one op type
              for inputs like ``values`` (NumPy arrays) and an output like ``out`` (shapes
              and dtypes that were seen are fixed: a replay checks they recur), or None
              where the kernel would not be the op's (16-bit matmuls, strings ...).
  verified -- the kernel only if it reproduces an output the op made, bit for bit (value,
              dtype, shape): every replay that lowers an op asks this first.
  remembered -- a span (a plan's build) in which asking again about the same op (type and
              attributes) on the same input and output arrays gets the first answer: the
              build verifies a section's single-op nodes as their own kernel steps, then
              every op of the section's capture, on the very arrays of the one run. An op
              of the same type and equal attributes on other arrays of the same shapes and
              dtypes (another replica's) gets the kernel verified first (a builder's
              kernel depends on those only); where that verification failed, it is
              verified on its own arrays.

Each kernel computes as the op's own code does (math_ops ``_binary`` / ``_unary``: under
``np.errstate(all="ignore")``, cast back to the first input's dtype; reductions through
math_ops' own functions). The registry is keyed by TF's op type (``execute``'s first
argument), so graph_plan's single-op nodes and gradient_plan's backward sweeps share it.

Mirrors tensorflow/core/framework/op_kernel.h (an op type's kernel, looked up once, then
``Compute``d on the inputs).
"""

from __future__ import annotations

import contextlib
import threading
import warnings

import numpy as np

from simdist.hardware import array_api

_BUILDERS: dict = {}   # op type -> builder(attrs, values, out)
# remembered()'s answers: .memo {ids: (attrs, out, values, kernel)}; .alike {(op type,
# shapes and dtypes): [(attrs, kernel verified)]}
_answers = threading.local()


def verified(op_type, attrs, values, out, quiet=False):
    """The kernel of ``op_type`` for ``values`` if it gives ``out`` (a NumPy array) bit for
    bit, else None. ``quiet``: the caller runs it under ``silenced()`` (a compile that
    verifies many kernels enters it once)."""
    memo = getattr(_answers, "memo", None)
    if memo is None:
        return _verified(op_type, attrs, values, out, quiet)
    # the memo holds what it names by id (so an id there is still that object's)
    key = (op_type, id(attrs), id(out), *[id(v) for v in values])
    found = memo.get(key)
    if found is None:
        found = memo[key] = (attrs, out, tuple(values),
                             _verified_alike(op_type, attrs, values, out, quiet))
    return found[3]


def array_signature(values, out):
    """The (shape, dtype) of an op's input arrays and its output, or None (not all NumPy
    arrays): with the op's type and attributes, all a builder's kernel depends on."""
    signature = []
    for a in (*values, out):
        if type(a) is not np.ndarray:
            return None
        signature.append((a.shape, a.dtype))
    return tuple(signature)


def _verified_alike(op_type, attrs, values, out, quiet):
    """``_verified``, or the kernel verified in this span for an op like it (see
    ``remembered``)."""
    signature = array_signature(values, out)
    if signature is None:
        return _verified(op_type, attrs, values, out, quiet)
    seen = _answers.alike.setdefault((op_type, signature), [])
    for other, kernel in seen:
        if same_attributes(other, attrs):
            return kernel
    kernel = _verified(op_type, attrs, values, out, quiet)
    if kernel is not None:
        seen.append((attrs, kernel))
    return kernel


def same_attributes(a, b) -> bool:
    """Whether two ops' attributes are equal (False where NumPy cannot compare them)."""
    if a is b:
        return True
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - attributes NumPy cannot compare: not known equal
        return False


@contextlib.contextmanager
def remembered():
    """Within it (on this thread), ``verified`` answers a question it was asked before --
    the same op type and attributes object, the same input and output arrays -- as it did
    then, and one about an op like one it verified with that kernel (see the module
    docstring)."""
    saved = getattr(_answers, "memo", None), getattr(_answers, "alike", None)
    _answers.memo, _answers.alike = {}, {}
    try:
        yield
    finally:
        _answers.memo, _answers.alike = saved


def _verified(op_type, attrs, values, out, quiet):
    builder = _BUILDERS.get(op_type)
    if builder is None or type(out) is not np.ndarray:
        return None
    for v in values:
        if type(v) is not np.ndarray or v.dtype.kind in "OUSV":
            return None
    kernel = builder(attrs or {}, values, out)
    if kernel is None:
        return None
    if quiet:
        again = kernel(*values)
    else:
        with silenced():
            again = kernel(*values)
    if type(again) is not np.ndarray or again.dtype != out.dtype or \
            again.shape != out.shape or again.tobytes() != out.tobytes():
        return None
    return kernel


@contextlib.contextmanager
def silenced():
    """No warnings and no floating-point errors: a verification's second run of a kernel
    (the op warned already, if it did)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        yield


def _register(op_types, builder) -> None:
    for op_type in op_types:
        _BUILDERS[op_type] = builder


def _fixed(kernel):
    """A builder that always gives ``kernel``."""
    return lambda attrs, values, out: kernel


def _quiet(fn):
    """``fn`` under ``np.errstate(all="ignore")``, as the ops that compute so run it;
    ``kernel.raw`` is ``fn`` itself, for a caller that runs many kernels under one such
    errstate (a kernel without ``raw`` runs under its caller's errstate: it may warn)."""
    def kernel(*values):
        with np.errstate(all="ignore"):
            return fn(*values)
    kernel.raw = fn
    return kernel


def _silent(fn):
    """A kernel that never meets a floating-point error (moves and fills): ``raw`` too."""
    fn.raw = fn
    return fn


def _same_dtype(fn):
    """``fn``'s result in its first input's dtype (as the ops cast it back)."""
    def kernel(x, *rest):
        value = fn(x, *rest)
        if value.dtype != x.dtype:
            value = value.astype(x.dtype, copy=False)
        return value if type(value) is np.ndarray else np.asarray(value)  # a 0-d result
    return kernel


def _numeric(kernel, kinds="biuf"):
    """A builder for inputs of NumPy kinds ``kinds`` only (no booleans unless named)."""
    def builder(attrs, values, out):
        return kernel if all(v.dtype.kind in kinds for v in values) else None
    return builder


def _compare(fn):
    def compare(a, b):
        value = fn(a, b)
        if type(value) is np.ndarray and value.dtype == np.bool_:
            return value
        return np.asarray(value).astype(np.bool_, copy=False)
    return _numeric(_quiet(compare), "iuf")


def _matmul(attrs, values, out):
    a, b = values
    if a.ndim != 2 or b.ndim != 2 or a.dtype.itemsize == 2:
        return None   # 16-bit products accumulate in float32: the op's own code
    from simdist.framework.ops import onednn_sgemm  # loaded with the ops, after this

    ta, tb = attrs["transpose_a"], attrs["transpose_b"]
    host32 = a.dtype == b.dtype == np.float32
    mt = _swapped   # NumPy arrays (verified: every kernel's inputs are)

    def product(x, y):   # as math_ops.matmul: TF's CPU bits for float32 (stacked too)
        x, y = mt(x) if ta else x, mt(y) if tb else y
        value = onednn_sgemm.sgemm(x, y, transposed=(ta, tb)) if host32 else None
        return np.matmul(x, y) if value is None else value
    return _quiet(product)


def _swapped(x):
    """A NumPy array's matrix transpose (array_api.matrix_transpose's view, at a method's
    cost)."""
    return x.swapaxes(-1, -2)


def _bias_add(attrs, values, out):
    v, b = values
    if b.ndim != 1:
        return None
    shape = [1] * v.ndim
    shape[attrs["axis"]] = b.shape[0]
    shape = tuple(shape)
    return lambda x, y: x + np.reshape(y, shape)


def _bias_add_grad(attrs, values, out):
    from simdist.framework.ops import nn_ops

    axis = attrs["axis"]
    return lambda x: nn_ops.bias_grad_value(x, axis)


def _reduction(fn):
    """Sum / Mean as math_ops._reduce computes them (its own reduction function)."""
    def builder(attrs, values, out):
        axes, keepdims = attrs["axes"], attrs["keepdims"]
        (v,) = values
        shape = out.shape

        def kernel(x):
            with np.errstate(all="ignore"):
                value = fn(x, axes)
            if value.dtype != x.dtype:
                value = array_api.astype(value, x.dtype)
            value = np.asarray(value)
            return np.reshape(value, shape) if keepdims else value

        def raw(x):   # no cast back: all of it runs under the reduction's errstate
            value = np.asarray(fn(x, axes))
            return np.reshape(value, shape) if keepdims else value

        if v.dtype.kind not in "iuf":
            return None
        with np.errstate(all="ignore"):
            same = fn(v, axes).dtype == v.dtype   # the result's dtype follows the input's
        if same:
            kernel.raw = raw
        return kernel
    return builder


def _sum(v, axes):
    """Sum as math_ops.reduce_sum computes it (Eigen's order for float32 rows; float16 /
    bfloat16 accumulate in float32)."""
    return _math_sum[0](v, axes)


_math_sum: list = []   # math_ops._sum (set by _install: math_ops imports late)


def _shaped(make):
    """Ops whose output shape was fixed by the build (Reshape, BroadcastTo, fills)."""
    return lambda attrs, values, out: make(out.shape, out.dtype)


def _cast(attrs, values, out):
    dtype = out.dtype
    return _quiet(lambda x: x.astype(dtype, copy=False))


def _size(attrs, values, out):
    dtype = out.dtype
    return _silent(lambda x: np.asarray(x.size, dtype=dtype))


def _strided_slice(attrs, values, out):
    """Basic indexing by the op's key, clamped for the input shape it was built for."""
    key, shape = attrs["key"], attrs["shape"]
    if values[0].shape != shape:
        return None
    return _silent(lambda x: np.array(x[key], copy=True))


def _one_hot(attrs, values, out):
    """OneHot as array_ops.one_hot computes it (indices against a range, then a choice)."""
    depth, axis, dtype = attrs["depth"], attrs["axis"], out.dtype
    positions = np.arange(depth, dtype=values[0].dtype)

    def kernel(idx, on, off):
        value = np.where(idx[..., None] == positions, on, off).astype(dtype, copy=False)
        return value if axis == -1 else np.moveaxis(value, -1, axis)
    return _silent(kernel)


def _softmax(attrs, values, out):
    """Softmax as nn_ops computes it (the kernel that made it: ``xent`` or not)."""
    from simdist.framework.ops import nn_ops

    axis, xent = attrs["axis"], attrs.get("xent", False)
    return _quiet(lambda x: nn_ops.softmax_value(x, axis, xent))


def _arg_reduction(fn):
    """ArgMax / ArgMin (``fn``) along the op's axis, in the output's dtype."""
    def builder(attrs, values, out):
        axis, dtype = attrs["axis"], out.dtype
        return _silent(lambda x: np.asarray(fn(x, axis=axis)).astype(dtype, copy=False))
    return builder


def _install() -> None:
    from simdist.framework.ops import grappler_arithmetic, math_ops, trig_ops

    _math_sum.append(math_ops._sum)
    binary = {"AddV2": lambda a, b: a + b, "Sub": lambda a, b: a - b,
              "Mul": lambda a, b: a * b, "Maximum": math_ops._maximum, "Minimum": math_ops._minimum,
              "SquaredDifference": lambda a, b: (a - b) * (a - b)}
    for op_type, fn in binary.items():
        _register([op_type], _numeric(_quiet(_same_dtype(fn)), "iuf"))
    divisions = {folded: _numeric(_quiet(_same_dtype(fn)), "f") for folded, fn in
                 ((False, math_ops._div), (True, grappler_arithmetic.reciprocal_mul))}
    _register(["RealDiv"], lambda attrs, values, out:   # by a constant: Grappler's
              divisions[bool(attrs.get("constant"))](attrs, values, out))
    _register(["Rsqrt"], _numeric(_quiet(_same_dtype(math_ops._rsqrt)), "f"))
    unary = {"Neg": lambda a: -a, "Square": lambda a: a * a, "Abs": np.abs,
             "Reciprocal": math_ops._reciprocal, "Exp": math_ops._exp, "Log": math_ops._log,
             "Log1p": math_ops._log1p, "Sqrt": math_ops._sqrt, "Tanh": math_ops._tanh,
             "Sigmoid": math_ops._sigmoid, "Softplus": math_ops._softplus,
             "Erf": math_ops._erf, "Erfc": math_ops._erfc, "Sin": trig_ops.UNARY["sin"][1],
             "Cos": trig_ops.UNARY["cos"][1]}
    for op_type, fn in unary.items():
        _register([op_type], _numeric(_quiet(_same_dtype(fn)), "iuf"))
    _register(["Relu"], _numeric(_same_dtype(lambda a: np.maximum(a, 0)), "iuf"))
    for op_type, fn in {"Greater": np.greater, "GreaterEqual": np.greater_equal,
                        "Less": np.less, "LessEqual": np.less_equal, "Equal": np.equal,
                        "NotEqual": np.not_equal}.items():
        _register([op_type], _compare(fn))
    _register(["MatMul"], _matmul)
    _register(["BiasAdd"], _bias_add)
    _register(["BiasAddGrad"], _bias_add_grad)
    _register(["Sum"], _reduction(_sum))
    _register(["Mean"], _reduction(math_ops._mean))
    _register(["SelectV2"], _fixed(_silent(lambda c, x, y: np.asarray(np.where(c, x, y)))))
    _register(["Cast"], _cast)
    _register(["Size"], _size)
    _register(["Reshape", "Squeeze", "ExpandDims"], _shaped(   # views of a fixed shape
        lambda shape, dtype: _silent(lambda x: np.reshape(x, shape))))
    _register(["Shape"], lambda attrs, values, out: _silent(
        lambda x: np.asarray(x.shape, dtype=out.dtype)))
    _register(["StridedSlice"], _strided_slice)
    _register(["OneHot"], _one_hot)
    _register(["Softmax"], _softmax)
    _register(["ArgMax"], _arg_reduction(np.argmax))
    _register(["ArgMin"], _arg_reduction(np.argmin))
    _register(["BroadcastTo"], _shaped(
        lambda shape, dtype: _silent(lambda x: np.broadcast_to(x, shape).copy())))
    _register(["OnesLike"], _shaped(
        lambda shape, dtype: _silent(lambda x: np.ones(shape, dtype))))
    _register(["ZerosLike"], _shaped(
        lambda shape, dtype: _silent(lambda x: np.zeros(shape, dtype))))


_install_lock: list = []


def ensure_installed() -> None:
    """Fill the registry (at first use: it reads math_ops)."""
    if not _install_lock:
        _install_lock.append(True)
        _install()
