"""Kernels of single ops over several replicas' inputs stacked on a new leading axis.

Glossary:
  stacked value  -- R replicas' arrays of one shape and dtype as one array of shape
                    ``(R,) + shape`` (``np.stack``): row r is replica r's array.
  stacked kernel -- ``fn(*stacked inputs) -> stacked output`` whose row r is the op's kernel
                    (kernels.py) on the rows r: elementwise kernels and MatMul as they are
                    (an input of a lower rank padded with unit axes after the leading one,
                    so NumPy broadcasts rows with rows; NumPy multiplies stacked matrices one
                    pair at a time), reductions with their axes moved past the leading one,
                    the ops that fix a shape with the rows' count before it.
  builder        -- ``builder(kernel, attrs, values, out)``: the stacked kernel of one op from
                    its kernel, attributes, one replica's inputs and output (their shapes fix
                    it), or None where there is none.

No kernel here is trusted on its own: stacked_sections compares every row of every stacked
result with the op's kernel on that replica's inputs, bit for bit, before it uses them.

Mirrors what TF's graph optimiser cannot do for MirroredStrategy (each replica's ops are
their own nodes on their own device); XLA's SPMD partitioner (a replicated computation
compiled once for all replicas) is the closest TF relative.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import kernels

_ELEMENTWISE = ("AddV2", "Sub", "Mul", "Maximum", "Minimum", "SquaredDifference",
                "Neg", "Square", "Abs", "Sqrt", "Tanh", "Erf", "Relu",
                "Greater", "GreaterEqual", "Less", "LessEqual", "Equal",
                "NotEqual", "SelectV2", "Cast", "MatMul")


def build(op_type, kernel, attrs, values, out):
    """The stacked kernel of ``op_type`` (see the module docstring), or None."""
    if op_type in _ELEMENTWISE:
        return _padded(_direct(op_type, values, out) or kernel, values)
    builder = _BUILDERS.get(op_type)
    return None if builder is None else builder(kernel, attrs or {}, values, out)


# ops whose kernel (kernels.py) is one NumPy function and checks of its result that a
# stacked run's arrays (at least 1-d: an array, never a NumPy scalar) always pass, where
# the inputs' dtypes are the output's (arithmetic: nothing cast back) or, for a
# comparison, are of the kinds its kernel takes: that function itself, without the
# kernel's Python around it
_DIRECT = {"AddV2": np.add, "Sub": np.subtract, "Mul": np.multiply, "Neg": np.negative,
           "Greater": np.greater, "GreaterEqual": np.greater_equal, "Less": np.less,
           "LessEqual": np.less_equal, "Equal": np.equal, "NotEqual": np.not_equal}


def _direct(op_type, values, out):
    """The NumPy function computing ``op_type``'s stacked kernel as its kernel does, or
    None (see _DIRECT)."""
    if op_type == "SelectV2":   # np.asarray(np.where(...)): an array already
        return np.where
    fn = _DIRECT.get(op_type)
    if fn is None or type(out) is not np.ndarray:
        return None
    dtypes = {v.dtype for v in values}
    if out.dtype == np.bool_:   # a comparison: the kernel's NumPy kinds
        return fn if all(d.kind in "iuf" for d in dtypes) else None
    return fn if dtypes == {out.dtype} and out.dtype.kind in "iuf" else None


def _padded(kernel, values):
    """``kernel`` itself, its lower-rank inputs given unit axes after the leading one."""
    pads = _pads(values)
    if all(p is None for p in pads):
        return kernel
    if len(pads) == 2:   # a binary op's (most padded kernels): without the list
        first, second = pads
        if first is None:
            return lambda x, y: kernel(x, y.reshape(second))
        if second is None:
            return lambda x, y: kernel(x.reshape(first), y)
    return lambda *xs: kernel(*[x if p is None else x.reshape(p) for x, p in zip(xs, pads)])


def _pads(values):
    """Per input: None, or the shape giving a stacked input of a lower rank unit axes after
    the leading one (NumPy then broadcasts rows with rows)."""
    rank = max((v.ndim for v in values), default=0)
    return [None if v.ndim == rank else (-1,) + (1,) * (rank - v.ndim) + v.shape
            for v in values]


def _real_div(kernel, attrs, values, out):
    """RealDiv; by a constant, Grappler's ``x * Reciprocal(c)`` (grappler_arithmetic.
    reciprocal_mul) with each row's reciprocal taken as its own op takes it (a tensor of
    its own), once per stacked constant (the same read-only array at every run)."""
    x, c = values
    if not attrs.get("constant") or type(x) is not np.ndarray or x.dtype.kind != "f":
        return _padded(kernel, values)
    from simdist.framework.ops import math_ops

    dtype, (pad_x, pad_c) = x.dtype, _pads(values)
    memo: list = [None, None]   # (the stacked constant, its rows' reciprocals)

    def inverse(y):
        if memo[0] is not y:
            value = np.stack([math_ops._reciprocal(np.asarray(row, dtype)) for row in y])
            memo[:] = (y if not y.flags.writeable and y.base is None else None), value
        return memo[1]

    def stacked(a, y):
        with np.errstate(all="ignore"):
            r = inverse(y)
            value = (a if pad_x is None else a.reshape(pad_x)) * \
                (r if pad_c is None else r.reshape(pad_c))
        if value.dtype != dtype:
            value = value.astype(dtype, copy=False)
        return value if type(value) is np.ndarray else np.asarray(value)
    return stacked


def _bias_add(kernel, attrs, values, out):
    v, b = values
    shape = [1] * v.ndim
    shape[attrs["axis"]] = b.shape[0]
    shape = (-1,) + tuple(shape)
    return lambda x, y: x + y.reshape(shape)


def _bias_add_grad(kernel, attrs, values, out):
    from simdist.framework.ops import nn_ops

    axis = attrs["axis"]   # each row's sums in TF's order (nn_ops.bias_grad_value)
    (v,) = values
    if type(v) is np.ndarray and v.dtype == np.float32 and v.ndim and axis == v.ndim - 1:
        depth = v.shape[-1]   # channels last: eigen_redux.outer_sum of (rest, depth)
        summed = _eigen("eigen_redux").outer_sum_stacked(v.size // depth if depth else 0,
                                                         depth)
        if summed is not None:
            return lambda x: summed(x.reshape(x.shape[0], -1, depth))
    return lambda x: np.array([nn_ops.bias_grad_value(row, axis) for row in x])


def _reduction(name):
    """Sum / Mean (kernels._reduction) over the same axes of each row."""
    def builder(kernel, attrs, values, out):
        from simdist.framework.ops import math_ops

        fn = kernels._sum if name == "Sum" else math_ops._mean
        own = tuple(attrs["axes"])
        axes = tuple(a + 1 for a in own)
        shape = (-1,) + out.shape
        (v,) = values
        rows = _float32_rows_summed(v, own, name == "Mean")
        if rows is not None:
            return lambda x: rows(x).reshape(shape)
        # float32 but over trailing axes: Eigen's order depends on the runs of reduced and
        # kept dimensions (eigen_reduce.py), which the stacked axis changes: row by row
        by_row = (type(v) is np.ndarray and v.dtype == np.float32 and len(own) < v.ndim
                  and own != tuple(range(v.ndim - len(own), v.ndim)))
        if not attrs["keepdims"]:
            shape = None

        def stacked(x):
            value = np.array([fn(row, own) for row in x]) if by_row else np.asarray(fn(x, axes))
            if value.dtype != x.dtype:
                value = value.astype(x.dtype)
            return value if shape is None else value.reshape(shape)
        return stacked
    return builder


def _float32_rows_summed(v, axes, mean):
    """For a float32 ``v`` whose Sum over ``axes`` TF takes as row sums (eigen_reduce's
    runs: one reduced run, or a kept then a reduced one) or as a copy (no reduced run), the
    function of a stacked input giving each row's sums (means: divided by the count, as
    math_ops._mean divides), flat; else None."""
    if type(v) is not np.ndarray or v.dtype != np.float32 or not v.size:
        return None
    eigen_reduce = _eigen("eigen_reduce")
    n = eigen_reduce.row_sums(*eigen_reduce.runs(v.shape, axes))
    count = int(np.prod([v.shape[a] for a in axes]))
    if n == eigen_reduce.COPY:
        summed = np.copy
    elif n is not None and n <= _eigen("eigen_cpu").LEAF:
        sum_rows = eigen_reduce.sum_rows
        summed = lambda x: sum_rows(x.reshape(-1, n))   # noqa: E731
    else:
        return None
    return (lambda x: summed(x) / count) if mean else summed


def _reshape(kernel, attrs, values, out):
    shape = (-1,) + out.shape
    return lambda x: x.reshape(shape)


def _broadcast_to(kernel, attrs, values, out):
    (v,) = values
    pad, shape = (-1,) + (1,) * (out.ndim - v.ndim) + v.shape, out.shape

    def stacked(x):   # a new array of the rows' values repeated (np.broadcast_to's copy)
        value = np.empty((x.shape[0],) + shape, x.dtype)
        value[...] = x.reshape(pad)
        return value
    return stacked


def _copies(make):
    """A kernel giving a new array ``make(rows)`` for a stacked input of ``rows`` rows:
    a copy of the one made at the first run with that many rows."""
    made: dict = {}

    def kernel(x):
        rows = x.shape[0]
        value = made.get(rows)
        if value is None:
            value = made[rows] = make(rows)
        return value.copy()
    return kernel


def _fill(make):
    def builder(kernel, attrs, values, out):
        shape, dtype = out.shape, out.dtype
        return _copies(lambda rows: make((rows,) + shape, dtype))
    return builder


def _size(kernel, attrs, values, out):
    size, dtype = values[0].size, out.dtype
    return _copies(lambda rows: np.full(rows, size, dtype=dtype))


def _float32_rows(rows_fn):
    """A builder for an op whose float32 kernel is Eigen's, where the last ``size % 8``
    elements of a tensor take another formula (Exp: eigen_cpu.py; Sigmoid, Log:
    eigen_unary.py; Log1p, Softplus: eigen_log1p.py; Erfc: eigen_erf.py; Sin, Cos:
    eigen_trig.py; Rsqrt: eigen_rsqrt.py; Reciprocal: eigen_rcpps.py): ``rows_fn()``
    computes each row as a tensor of its own; other dtypes are element-wise."""
    def builder(kernel, attrs, values, out):
        (v,) = values
        if type(v) is not np.ndarray or v.dtype != np.float32:
            return _padded(kernel, values)
        size, rows = v.size, rows_fn()
        return lambda x: rows(x.reshape(x.shape[0], size)).reshape(x.shape)
    return builder


def _shape(kernel, attrs, values, out):
    shape = np.asarray(values[0].shape, dtype=out.dtype)
    return _copies(lambda rows: np.array([shape] * rows, dtype=out.dtype))


def _strided_slice(kernel, attrs, values, out):
    key = (slice(None),) + attrs["key"]   # the op's key within each row
    return lambda x: np.array(x[key], copy=True)


def _arg_reduction(fn):
    """ArgMax / ArgMin along each row's axis."""
    def builder(kernel, attrs, values, out):
        axis, dtype = attrs["axis"] + 1, out.dtype
        return lambda x: np.asarray(fn(x, axis=axis)).astype(dtype, copy=False)
    return builder


def _by_rows(kernel, attrs, values, out):
    """Each row by the op's own kernel (Softmax: its Eigen formula works on whole rows)."""
    return lambda *xs: np.array([kernel(*row) for row in zip(*xs)])


def _eigen(module):
    """The module ``simdist.framework.ops.<module>``, imported when a builder first runs."""
    import importlib

    return importlib.import_module(f"simdist.framework.ops.{module}")


_BUILDERS = {"BiasAdd": _bias_add, "RealDiv": _real_div,
             "Exp": _float32_rows(lambda: _eigen("eigen_cpu").exp_rows),
             "Sigmoid": _float32_rows(lambda: _eigen("eigen_unary").sigmoid_rows),
             "Log": _float32_rows(lambda: _eigen("eigen_unary").log_rows),
             "Log1p": _float32_rows(lambda: _eigen("eigen_log1p").log1p_rows),
             "Softplus": _float32_rows(lambda: _eigen("eigen_log1p").softplus_rows),
             "Erfc": _float32_rows(lambda: _eigen("eigen_erf").erfc_rows),
             "Sin": _float32_rows(lambda: _eigen("eigen_trig").sin_rows),
             "Cos": _float32_rows(lambda: _eigen("eigen_trig").cos_rows),
             "Rsqrt": _float32_rows(lambda: _eigen("eigen_rsqrt").rsqrt_rows),
             "Reciprocal": _float32_rows(lambda: _eigen("eigen_rcpps").reciprocal_rows),
             "BiasAddGrad": _bias_add_grad,
             "Sum": _reduction("Sum"), "Mean": _reduction("Mean"),
             "Reshape": _reshape, "Squeeze": _reshape, "ExpandDims": _reshape,
             "Shape": _shape, "StridedSlice": _strided_slice,
             "ArgMax": _arg_reduction(np.argmax), "ArgMin": _arg_reduction(np.argmin),
             "Softmax": _by_rows, "BroadcastTo": _broadcast_to,
             "OnesLike": _fill(np.ones), "ZerosLike": _fill(np.zeros), "Size": _size}
