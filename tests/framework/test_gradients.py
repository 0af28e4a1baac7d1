"""Every gradient rule in ``execute.GRADIENTS`` against central finite differences.

``CASES`` is the one table: op type -> how to draw float64 inputs (hypothesis) and a
function of them that runs that op. A check makes sure no rule of simdist.framework
is missing from the table, and that each case really records its op type.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simdist.framework.ops  # noqa: F401 - registers the rules
from simdist.framework import execute
from simdist.framework.backprop import GradientTape
from simdist.framework.custom_gradient import custom_gradient
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import conv_ops as Cv
from simdist.framework.ops import fused_batch_norm_ops as FBN
from simdist.framework.ops import image_resize_ops as Im
from simdist.framework.ops import linalg_decompositions as D
from simdist.framework.ops import linalg_ops as L
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import nn_ops as N
from simdist.framework.ops import pad_ops as Pd
from simdist.framework.ops import pooling_ops as P
from simdist.framework.ops import ragged_math_ops as R
from simdist.framework.ops import scan_ops as Sc
from simdist.framework.ops import scatter_nd_ops as SN
from simdist.framework.ops import selection_ops as S
from simdist.framework.ops import special_math_ops as SM
from simdist.framework.ops import trig_ops as T
from simdist.framework.ops.numerics import check_numerics
from simdist.framework.variables import Variable
from simdist.testing.strategies import (
    broadcastable_shapes,
    distinct_floats,
    float_arrays,
    nonempty_shapes,
)

EXAMPLES = max(8, settings.default.max_examples // 4)


@dataclass
class Case:
    """Draw inputs with ``make(draw) -> (float arrays, extras)``; ``fn(*tensors, **extras)``."""

    make: object
    fn: object
    eps: float = 1e-6
    rtol: float = 1e-4
    atol: float = 1e-6
    variables: bool = False
    second_order: bool = True
    extras: dict = field(default_factory=dict)


# --- input generators (the strategies live in simdist.testing.strategies) ---------------
def pair(lo=-2.0, hi=2.0, min_abs_y=0.0):
    def make(draw):
        s = draw(nonempty_shapes())
        t = draw(broadcastable_shapes(s))
        if draw(st.booleans()):
            s, t = t, s
        return [draw(float_arrays(s, lo, hi)), draw(float_arrays(t, lo, hi, min_abs_y))], {}
    return make


def unary(lo=-2.0, hi=2.0, min_abs=0.0):
    def make(draw):
        return [draw(float_arrays(draw(nonempty_shapes()), lo, hi, min_abs))], {}
    return make


def reduction(values=float_arrays):
    def make(draw):
        s = draw(nonempty_shapes())
        axis = draw(st.one_of(st.none(), st.integers(-len(s), len(s) - 1)))
        x = draw(values(s))
        return [x], {"axis": axis, "keepdims": draw(st.booleans())}
    return make


def _floormod_make(draw):
    s = draw(nonempty_shapes())
    y = draw(float_arrays(s, 1.0, 2.0))
    k = np.array(draw(st.lists(st.integers(-2, 2), min_size=y.size, max_size=y.size)))
    f = draw(float_arrays(s, 0.2, 0.8))
    return [y * (k.reshape(s) + f), y], {}


def _minmax_make(draw):
    s = draw(nonempty_shapes())
    x = draw(float_arrays(s))
    delta = draw(float_arrays(s, 0.1, 1.0)) * np.where(draw(float_arrays(s)) < 0, -1, 1)
    return [x, x + delta], {}


def _matmul_make(batched):
    def make(draw):
        m, k, n = (draw(st.integers(1, 3)) for _ in range(3))
        ta, tb = draw(st.booleans()), draw(st.booleans())
        a = (k, m) if ta else (m, k)
        b = (n, k) if tb else (k, n)
        if batched:
            batch = (draw(st.integers(1, 3)),)
            a = batch + a
            b = (batch if draw(st.booleans()) else ()) + b
        return [draw(float_arrays(a)), draw(float_arrays(b))], {"transpose_a": ta,
                                                                "transpose_b": tb}
    return make


def _concat_make(draw):
    s = list(draw(nonempty_shapes()))
    axis = draw(st.integers(0, len(s) - 1))
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        s2 = list(s)
        s2[axis] = draw(st.integers(1, 3))
        parts.append(draw(float_arrays(tuple(s2))))
    return parts, {"axis": axis}


def _stack_make(draw):
    s = draw(nonempty_shapes(max_rank=2))
    n = draw(st.integers(1, 3))
    return [draw(float_arrays(s)) for _ in range(n)], {"axis": draw(st.integers(0, len(s)))}


def _split_make(sizes):
    def make(draw):
        s = list(draw(nonempty_shapes()))
        axis = draw(st.integers(0, len(s) - 1))
        if sizes:
            parts = draw(st.lists(st.integers(1, 2), min_size=1, max_size=3))
            s[axis] = sum(parts)
            return [draw(float_arrays(tuple(s)))], {"num_or_size_splits": parts, "axis": axis}
        n = draw(st.integers(1, 3))
        s[axis] = n * draw(st.integers(1, 2))
        return [draw(float_arrays(tuple(s)))], {"num_or_size_splits": n, "axis": axis}
    return make


def _where_make(draw):
    s = draw(nonempty_shapes())
    t = draw(broadcastable_shapes(s))
    cond = np.array(draw(st.lists(st.booleans(), min_size=int(np.prod(s)),
                                  max_size=int(np.prod(s))))).reshape(s)
    return [draw(float_arrays(s)), draw(float_arrays(t))], {"cond": cond}


def _transpose_make(draw):
    s = draw(nonempty_shapes())
    return [draw(float_arrays(s))], {"perm": draw(st.permutations(range(len(s))))}


def _gather_make(draw):
    s = draw(nonempty_shapes())
    axis = draw(st.integers(0, len(s) - 1))
    idx_shape = draw(nonempty_shapes(min_rank=0, max_rank=2))
    n = int(np.prod(idx_shape)) if idx_shape else 1
    idx = np.array(draw(st.lists(st.integers(0, s[axis] - 1), min_size=n, max_size=n)),
                   dtype=np.int32).reshape(idx_shape)
    return [draw(float_arrays(s))], {"indices": idx, "axis": axis}


def _reverse_make(draw):
    s = draw(nonempty_shapes())
    axes = draw(st.lists(st.integers(0, len(s) - 1), unique=True, min_size=1))
    return [draw(float_arrays(s))], {"axis": axes}


def _nd_indices(draw, s, unique=False):
    """(n, depth) index tuples into the leading ``depth`` axes of shape ``s``."""
    depth = draw(st.integers(1, len(s)))
    tuples = st.tuples(*[st.integers(0, d - 1) for d in s[:depth]])
    rows = draw(st.lists(tuples, min_size=1, max_size=3, unique=unique))
    return np.array(rows, dtype=np.int32).reshape(len(rows), depth), depth


def _gather_nd_make(draw):
    s = draw(nonempty_shapes())
    idx, _ = _nd_indices(draw, s)
    return [draw(float_arrays(s))], {"indices": idx}


def _scatter_nd_make(draw):
    s = draw(nonempty_shapes())
    idx, depth = _nd_indices(draw, s)
    updates = draw(float_arrays((len(idx),) + tuple(s[depth:])))
    return [updates], {"indices": idx, "shape": list(s)}


def _tensor_scatter_make(draw):
    s = draw(nonempty_shapes())
    idx, depth = _nd_indices(draw, s, unique=True)   # one update per place: well defined
    updates = draw(float_arrays((len(idx),) + tuple(s[depth:])))
    return [draw(float_arrays(s)), updates], {"indices": idx}


def _tensor_scatter_apart_make(draw):
    """As _tensor_scatter_make, each update at least 0.1 from the value it meets (min and
    max are not differentiable at a tie)."""
    (t, _), extras = _tensor_scatter_make(draw)
    idx = extras["indices"]
    met = t[tuple(idx.T)]
    updates = met + draw(float_arrays(met.shape, -1.0, 1.0, 0.1))
    return [t, updates], extras


def _segment_make(draw):
    s = draw(nonempty_shapes())
    ids = np.array(draw(st.lists(st.integers(0, 3), min_size=s[0], max_size=s[0])), np.int32)
    return [draw(float_arrays(s))], {"ids": ids}


def _segment_minmax_make(draw):
    """Distinct values (no ties) in segments that are all non-empty (no identity rows)."""
    s = draw(nonempty_shapes())
    x = draw(distinct_floats(s))
    n = min(s[0], 3)
    ids = np.array(draw(st.permutations([i % n for i in range(s[0])])), np.int32)
    return [x], {"ids": ids, "num": n}


def _slice_key(draw, shape):
    key = []
    for d in shape:
        kind = draw(st.sampled_from(["int", "slice", "all"]))
        if kind == "int":
            key.append(draw(st.integers(-d, d - 1)))
        elif kind == "slice":
            step = draw(st.sampled_from([1, 2, -1]))
            start = draw(st.one_of(st.none(), st.integers(-d, d - 1)))
            key.append(slice(start, None, step))
        else:
            key.append(slice(None))
    if draw(st.booleans()):
        key.insert(draw(st.integers(0, len(key))), None)
    return tuple(key)


def _slice_make(draw):
    s = draw(nonempty_shapes())
    key = _slice_key(draw, s)
    if np.zeros(s)[key].size == 0:
        key = tuple(slice(None) for _ in s)
    return [draw(float_arrays(s))], {"key": key}


def _slice_grad_make(draw):
    s = draw(nonempty_shapes())
    key = A._normalize_key(_slice_key(draw, s))
    out = np.zeros(s)[key]
    if out.size == 0:
        key = tuple(slice(None) for _ in s)
        out = np.zeros(s)
    return [draw(float_arrays(out.shape))], {"key": key, "shape": s}


def _tf_slice_make(draw):
    s = draw(nonempty_shapes())
    begin = [draw(st.integers(0, d - 1)) for d in s]
    size = [draw(st.sampled_from([-1, draw(st.integers(1, d - b))])) for b, d in zip(begin, s)]
    return [draw(float_arrays(s))], {"begin": begin, "size": size}


def _pad_make(values):
    def make(draw):
        s = draw(nonempty_shapes())
        paddings = [[draw(st.integers(0, 2)), draw(st.integers(0, 2))] for _ in s]
        return [draw(float_arrays(s))], {"paddings": paddings,
                                         "constant_values": draw(st.sampled_from(values))}
    return make


# Equations whose operand shapes follow from three sizes: products, a diagonal, a trace,
# a label only one operand has, and a broadcast ``...`` of size 1.
_EINSUM = {"ij,jk->ik": ("ab", "bc"), "ii->i": ("aa",), "ii": ("aa",), "ij->": ("ab",),
           "bxby->bxy": ("abac",), "...ij,...jk->...ik": ("dab", "bc"),
           "i,j->ij": ("a", "b"), "ij,j->": ("ab", "b")}


def _einsum_make(draw):
    equation = draw(st.sampled_from(sorted(_EINSUM)))
    sizes = {"a": draw(st.integers(1, 3)), "b": draw(st.integers(1, 3)),
             "c": draw(st.integers(1, 3)), "d": 1}
    return ([draw(float_arrays(tuple(sizes[c] for c in shape)))
             for shape in _EINSUM[equation]], {"equation": equation})


@custom_gradient
def _log1pexp(x):
    e = M.exp(x)

    def grad(dy):
        return M.multiply(dy, M.subtract(1.0, M.divide(1.0, M.add(e, 1.0))))
    return M.log(M.add(e, 1.0)), grad


def _tile_make(draw):
    s = draw(nonempty_shapes())
    return [draw(float_arrays(s))], {"multiples": [draw(st.integers(1, 3)) for _ in s]}


def _broadcast_make(draw):
    s = draw(nonempty_shapes())
    return [draw(float_arrays(draw(broadcastable_shapes(s))))], {"shape": list(s)}


def _squeeze_make(draw):
    s = list(draw(nonempty_shapes(max_rank=2)))
    axis = draw(st.integers(0, len(s)))
    s.insert(axis, 1)
    return [draw(float_arrays(tuple(s)))], {"axis": axis}


def _softmax_make(draw):
    s = draw(nonempty_shapes())
    return [draw(float_arrays(s))], {"axis": draw(st.integers(-len(s), len(s) - 1))}


def _bias_add_make(draw):
    s = draw(nonempty_shapes(min_rank=2, max_rank=4))
    nchw = len(s) == 4 and draw(st.booleans())  # channels second, as 'NCHW'
    bias = draw(float_arrays((s[1] if nchw else s[-1],)))
    return [draw(float_arrays(s)), bias], {"data_format": "NCHW" if nchw else None}


def _bias_add_grad_make(draw):
    s = draw(nonempty_shapes(min_rank=2, max_rank=4))
    return [draw(float_arrays(s))], {"axis": draw(st.integers(-len(s), len(s) - 1))}


def _fused_batch_norm_make(draw):
    # (x, scale, offset), float64 drawn and run in float32 (TF's kernel has no double);
    # inference's statistics are constants (their gradient is None, as TF's)
    s = draw(nonempty_shapes(min_rank=4, max_rank=4, max_dim=2))
    nchw = draw(st.booleans())
    depth = s[1] if nchw else s[-1]
    training = draw(st.booleans())
    extras = {"data_format": "NCHW" if nchw else "NHWC", "is_training": training}
    if not training:
        extras["stats"] = (draw(float_arrays((depth,))), draw(float_arrays((depth,), 0.5, 2.0)))
    return [draw(float_arrays(s)), draw(float_arrays((depth,), 0.5, 2.0)),
            draw(float_arrays((depth,)))], extras


def _fused_batch_norm(x, scale, offset, data_format, is_training, stats=(None, None)):
    x, scale, offset, *stats = (None if t is None else A.cast(t, "float32")
                                for t in (x, scale, offset, *stats))
    y = FBN.fused_batch_norm_v3(x, scale, offset, *stats, epsilon=0.1,
                                data_format=data_format, is_training=is_training)[0]
    return A.cast(y, "float64")


def _xent_make(draw):
    s = draw(nonempty_shapes(min_rank=2, max_rank=2))
    logits = draw(float_arrays(s))
    raw = draw(float_arrays(s))
    labels = np.exp(raw) / np.exp(raw).sum(-1, keepdims=True)  # rows sum to 1
    return [logits, labels], {}


def _sparse_xent_make(draw):
    s = draw(nonempty_shapes(min_rank=2, max_rank=2))
    labels = np.array(draw(st.lists(st.integers(0, s[1] - 1), min_size=s[0], max_size=s[0])),
                      dtype=np.int32)
    return [draw(float_arrays(s))], {"labels": labels}


def _addn_make(draw):
    s = draw(nonempty_shapes())
    return [draw(float_arrays(s)) for _ in range(draw(st.integers(1, 3)))], {}


def _square_make(draw):
    """A batch of well-conditioned square matrices (diagonally dominant)."""
    n = draw(st.integers(1, 3))
    batch = tuple(draw(st.lists(st.integers(1, 2), max_size=1)))
    return draw(float_arrays(batch + (n, n))) + 4.0 * np.eye(n)


def _solve_make(draw):
    a = _square_make(draw)
    return [a, draw(float_arrays(a.shape[:-1] + (draw(st.integers(1, 2)),)))], {}


def _matrix_make(draw):
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=2, max_size=3)))
    return [draw(float_arrays(shape))], {}


def _set_diag_make(draw):
    (x,), _ = _matrix_make(draw)
    return [x, draw(float_arrays(x.shape[:-2] + (min(x.shape[-2:]),)))], {}


def _band_make(draw):
    return _matrix_make(draw)[0], {"lower": draw(st.integers(-1, 2)),
                                    "upper": draw(st.integers(-1, 2))}


def _separated(draw, shape, symmetric=False):
    """A small perturbation of a diagonal (4, 2.5, 1 ...), so singular values / eigenvalues
    stay apart and away from zero (their rules divide by their gaps), with no zero entry:
    at an exact zero below the diagonal a Householder reflection (TF's and LAPACK's) is
    skipped, and the factors' signs jump there."""
    x = draw(float_arrays(shape, -0.3, 0.3, 0.05))
    if symmetric:
        x = (x + np.swapaxes(x, -1, -2)) / 2
    k = min(shape[-2:])
    x[..., range(k), range(k)] += np.array([4.0, 2.5, 1.0][:k])
    return x


def _factor_make(symmetric=False, square=False):
    def make(draw):
        m = draw(st.integers(1, 3))
        n = m if square or symmetric else draw(st.integers(1, 3))
        batch = tuple(draw(st.lists(st.integers(1, 2), max_size=1)))
        return [_separated(draw, batch + (m, n), symmetric)], {}
    return make


def _triangular_make(draw):
    (a, b), _ = _solve_make(draw)
    return [a, b], {"lower": draw(st.booleans()), "adjoint": draw(st.booleans())}


def _scan_make(exclusive=True, lo=-2.0):
    """An input (from ``lo``), an axis, exclusive (not for logsumexp: its first output is
    -inf) and reverse."""
    def make(draw):
        (x,), _ = unary(lo=lo, min_abs=0.3)(draw)
        return [x], {"axis": draw(st.integers(-x.ndim, x.ndim - 1)),
                     "exclusive": exclusive and draw(st.booleans()),
                     "reverse": draw(st.booleans())}
    return make


def _sign_free(outputs):
    """The values and the squared vectors of a factorisation: a vector's sign is LAPACK's
    choice, which flips between neighbouring inputs at a diagonal one; its square does
    not."""
    values, *vectors = outputs
    return [values] + [M.multiply(v, v) for v in vectors]


def _positive_definite(x):
    """``x x^T + 3 I``: symmetric positive definite, so Cholesky's rule (which assumes a
    symmetric input) can be checked by differences in ``x``."""
    n = x.shape[-1]
    return M.add(M.matmul(x, x, transpose_b=True), A.constant(3.0 * np.eye(n)))


def _const(x):
    return A.constant(x)


def _window(draw, pool=False):
    """A small NHWC input shape and a window geometry (any stride, dilation, padding)."""
    n, h, w, c = (draw(st.integers(1, 2)), draw(st.integers(2, 5)), draw(st.integers(2, 5)),
                  draw(st.integers(1, 2)))
    k = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    s = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    d = (1, 1) if pool else (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    return (n, h, w, c), k, s, d, draw(st.sampled_from(["VALID", "SAME"]))


def _conv_make(which):
    """Inputs of Conv2D (x, f) or of its backprop ops ((f, dy) or (x, dy)) and the geometry."""
    def make(draw):
        xs, k, s, d, pad = _window(draw)
        fs = (*k, xs[3], draw(st.integers(1, 2)))
        g = Cv.geometry(xs, fs, s, pad, d)
        dy = (xs[0], *g["out_hw"], fs[3])
        shapes_of = {"conv": (xs, fs), "input": (fs, dy), "filter": (xs, dy)}[which]
        extras = {"conv": {"s": s, "pad": pad, "d": d}}.get(which, {"attrs": g})
        return [draw(float_arrays(sh)) for sh in shapes_of], extras
    return make


def _pool_make(grad_of=None):
    """A distinct-valued input (no ties for max), its pooling geometry and, for the grad
    ops, the upstream gradient they take (output-shaped, or input-shaped for GradGrad)."""
    def make(draw):
        xs, k, s, _, pad = _window(draw, pool=True)
        x = draw(distinct_floats(xs))
        g = P.geometry(A.constant(x), k, s, pad, "MaxPool")
        if grad_of is None:
            return [x], {"k": k, "s": s, "pad": pad}
        gs = xs if grad_of == "GradGrad" else (xs[0], *g["out_hw"], xs[3])
        return [x, draw(float_arrays(gs))], {"attrs": g}
    return make


def _avg_grad_make(draw):
    xs, k, s, _, pad = _window(draw, pool=True)
    g = P.geometry(A.zeros(xs), k, s, pad, "AvgPool")
    return [draw(float_arrays((xs[0], *g["out_hw"], xs[3])))], {"attrs": g}


def _resize_make(draw):
    """Images of 1-4 rows and columns, resized to 1-5 (up, down or both)."""
    h, w = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    x = draw(float_arrays((draw(st.integers(1, 2)), h, w, draw(st.integers(1, 2)))))
    return [x], {"size": [draw(st.integers(1, 5)), draw(st.integers(1, 5))]}


def _max_pool_grad(grad_op):
    def fn(x, dy, attrs):
        pads = [[0, 0], *attrs["pads"], [0, 0]]
        y = A.stop_gradient(P.max_pool2d(x, attrs["ksize"], attrs["strides"], pads))
        return grad_op(x, y, dy, attrs)
    return fn


CONV_CASES: dict[str, Case] = {
    "Conv2D": Case(_conv_make("conv"), lambda x, f, s, pad, d: Cv.conv2d(x, f, s, pad,
                                                                         dilations=d)),
    "Conv2DBackpropInput": Case(_conv_make("input"), Cv.conv2d_backprop_input),
    "Conv2DBackpropFilter": Case(_conv_make("filter"), Cv.conv2d_backprop_filter),
    "MaxPool": Case(_pool_make(), lambda x, k, s, pad: P.max_pool2d(x, k, s, pad)),
    "MaxPoolGrad": Case(_pool_make("Grad"), _max_pool_grad(P.max_pool_grad)),
    "MaxPoolGradGrad": Case(_pool_make("GradGrad"), _max_pool_grad(P.max_pool_grad_grad)),
    "AvgPool": Case(_pool_make(), lambda x, k, s, pad: P.avg_pool2d(x, k, s, pad)),
    # float32 only (TF's kernel): linear in the image, so a wide step is exact
    "ResizeBilinear": Case(_resize_make, lambda x, size: A.cast(
        Im.resize(A.cast(x, "float32"), size), "float64"), eps=0.1, rtol=1e-3, atol=1e-4,
        second_order=False),
    "AvgPoolGrad": Case(_avg_grad_make, P.avg_pool_grad),
    # float64 kept (TF's kernel takes it); TF registers no gradient of its gradient
    "ResizeNearestNeighbor": Case(_resize_make, lambda x, size: Im.resize(x, size, "nearest"),
                                  second_order=False),
}


CASES: dict[str, Case] = {
    "AddV2": Case(pair(), lambda x, y: M.add(x, y)),
    "Sub": Case(pair(), lambda x, y: M.subtract(x, y)),
    "Mul": Case(pair(), lambda x, y: M.multiply(x, y)),
    "RealDiv": Case(pair(min_abs_y=0.5), lambda x, y: M.divide(x, y)),
    "FloorMod": Case(_floormod_make, lambda x, y: M.floormod(x, y)),
    "Pow": Case(pair(0.5, 2.0), lambda x, y: M.pow(x, y)),
    "Maximum": Case(_minmax_make, lambda x, y: M.maximum(x, y)),
    "Minimum": Case(_minmax_make, lambda x, y: M.minimum(x, y)),
    "SquaredDifference": Case(pair(), lambda x, y: M.squared_difference(x, y)),
    "AddN": Case(_addn_make, lambda *xs: M.add_n(list(xs))),
    "Neg": Case(unary(), lambda x: -x),
    "Square": Case(unary(), M.square),
    "Sqrt": Case(unary(0.5, 3.0), M.sqrt),
    "Rsqrt": Case(unary(0.5, 3.0), M.rsqrt),
    "Reciprocal": Case(unary(min_abs=0.5), M.reciprocal),
    "Exp": Case(unary(), M.exp),
    "Log": Case(unary(0.3, 3.0), M.log),
    "Log1p": Case(unary(-0.5, 2.0), M.log1p),
    "Abs": Case(unary(min_abs=0.1), M.abs),
    "Sign": Case(unary(min_abs=0.1), lambda x: M.multiply(M.sign(x), x)),
    "Sigmoid": Case(unary(-4.0, 4.0), M.sigmoid),
    "Tanh": Case(unary(), M.tanh),
    "Erf": Case(unary(), M.erf),
    "Erfc": Case(unary(), M.erfc),
    "Softplus": Case(unary(-4.0, 4.0), M.softplus),
    "Sin": Case(unary(), T.sin),
    "Cos": Case(unary(), T.cos),
    "Tan": Case(unary(-1.2, 1.2), T.tan),
    "Asin": Case(unary(-0.8, 0.8), T.asin),
    "Acos": Case(unary(-0.8, 0.8), T.acos),
    "Atan": Case(unary(), T.atan),
    "Sinh": Case(unary(), T.sinh),
    "Cosh": Case(unary(), T.cosh),
    "Asinh": Case(unary(), T.asinh),
    "Acosh": Case(unary(1.2, 3.0), T.acosh),
    "Atanh": Case(unary(-0.8, 0.8), T.atanh),
    "Expm1": Case(unary(), T.expm1),
    "Atan2": Case(pair(0.5, 2.0), lambda y, x: T.atan2(y, x)),   # away from the cut at x < 0
    "Sum": Case(reduction(), lambda x, axis, keepdims: M.reduce_sum(x, axis, keepdims)),
    "Mean": Case(reduction(), lambda x, axis, keepdims: M.reduce_mean(x, axis, keepdims)),
    "Max": Case(reduction(distinct_floats),
                lambda x, axis, keepdims: M.reduce_max(x, axis, keepdims)),
    "Min": Case(reduction(distinct_floats),
                lambda x, axis, keepdims: M.reduce_min(x, axis, keepdims)),
    "Prod": Case(reduction(lambda s: float_arrays(s, 0.5, 1.5)),
                 lambda x, axis, keepdims: M.reduce_prod(x, axis, keepdims)),
    "MatMul": Case(_matmul_make(False), M.matmul),
    "BatchMatMulV2": Case(_matmul_make(True), M.matmul),
    "UnsortedSegmentSum": Case(_segment_make,
                               lambda x, ids: M.unsorted_segment_sum(x, ids, 4)),
    "UnsortedSegmentMax": Case(_segment_minmax_make,
                               lambda x, ids, num: R.segment_reduce("max", x, ids, num)),
    "UnsortedSegmentMin": Case(_segment_minmax_make,
                               lambda x, ids, num: R.segment_reduce("min", x, ids, num)),
    "Identity": Case(unary(), A.identity),
    "IdentityN": Case(pair(), lambda x, y: M.add(*A.identity_n([x, M.multiply(y, 2.0)])),
                      second_order=False),
    "CheckNumerics": Case(unary(), lambda x: check_numerics(x, "finite")),
    "ReadVariableOp": Case(unary(), lambda v: M.multiply(v.read_value(), v.read_value()),
                           variables=True),
    "Fill": Case(lambda draw: ([draw(float_arrays(()))], {"dims": list(draw(nonempty_shapes()))}),
                 lambda x, dims: A.fill(dims, x)),
    "Cast": Case(unary(), lambda x: A.cast(M.multiply(A.cast(x, "float32"), 3.0), "float64"),
                 eps=1e-2, rtol=1e-3, atol=1e-3, second_order=False),
    "Reshape": Case(unary(), lambda x: A.reshape(x, [-1])),
    "ExpandDims": Case(unary(), lambda x: A.expand_dims(x, 0)),
    "Squeeze": Case(_squeeze_make, lambda x, axis: A.squeeze(x, axis)),
    "Transpose": Case(_transpose_make, lambda x, perm: A.transpose(x, perm)),
    "ConcatV2": Case(_concat_make, lambda *xs, axis: A.concat(list(xs), axis)),
    "Pack": Case(_stack_make, lambda *xs, axis: A.stack(list(xs), axis)),
    "Unpack": Case(_stack_make, lambda x, *rest, axis: A.unstack(A.stack([x] + list(rest),
                                                                          axis), axis=axis)),
    "Split": Case(_split_make(False), A.split),
    "SplitV": Case(_split_make(True), A.split),
    "SelectV2": Case(_where_make, lambda x, y, cond: A.where(_const(cond), x, y)),
    "BroadcastTo": Case(_broadcast_make, lambda x, shape: A.broadcast_to(x, shape)),
    "Tile": Case(_tile_make, lambda x, multiples: A.tile(x, multiples)),
    "GatherV2": Case(_gather_make, lambda x, indices, axis: A.gather(x, indices, axis=axis)),
    "ReverseV2": Case(_reverse_make, lambda x, axis: A.reverse(x, axis)),
    "GatherNd": Case(_gather_nd_make, lambda x, indices: SN.gather_nd(x, indices)),
    "ScatterNd": Case(_scatter_nd_make, lambda u, indices, shape: SN.scatter_nd(indices, u,
                                                                                shape)),
    "TensorScatterUpdate": Case(_tensor_scatter_make, lambda t, u, indices:
                                SN.tensor_scatter_nd_update(t, indices, u)),
    "TensorScatterAdd": Case(_tensor_scatter_make, lambda t, u, indices:
                             SN.tensor_scatter_nd_add(t, indices, u)),
    "TensorScatterSub": Case(_tensor_scatter_make, lambda t, u, indices:
                             SN.tensor_scatter_nd_sub(t, indices, u)),
    "TensorScatterMax": Case(_tensor_scatter_apart_make, lambda t, u, indices:
                             SN.tensor_scatter_nd_max(t, indices, u)),
    "TensorScatterMin": Case(_tensor_scatter_apart_make, lambda t, u, indices:
                             SN.tensor_scatter_nd_min(t, indices, u)),
    "StridedSlice": Case(_slice_make, lambda x, key: x[key]),
    "Einsum": Case(_einsum_make, lambda *xs, equation: SM.einsum(equation, *xs)),
    "CustomGradient": Case(lambda draw: ([draw(float_arrays(draw(nonempty_shapes())))], {}),
                           _log1pexp),
    "Slice": Case(_tf_slice_make, lambda x, begin, size: S.slice(x, begin, size)),
    "Pad": Case(_pad_make([0.0]), lambda x, paddings, constant_values: Pd.pad(x, paddings)),
    "PadV2": Case(_pad_make([1.5, -2.0]), lambda x, paddings, constant_values: Pd.pad(
        x, paddings, constant_values=constant_values)),
    "StridedSliceGrad": Case(_slice_grad_make,
                             lambda g, key, shape: A.strided_slice_grad(g, key, shape)),
    "MatrixInverse": Case(lambda draw: ([_square_make(draw)], {}), L.inv),
    "MatrixDeterminant": Case(lambda draw: ([_square_make(draw)], {}), L.det),
    "MatrixSolve": Case(_solve_make, L.solve),
    "Cholesky": Case(lambda draw: ([_square_make(draw)], {}),
                     lambda x: L.cholesky(_positive_definite(x))),
    "Svd": Case(_factor_make(), lambda x: _sign_free(D.svd(x))),
    "Qr": Case(_factor_make(), lambda x: D.qr(x)),
    "SelfAdjointEigV2": Case(_factor_make(symmetric=True), lambda x: _sign_free(D.eigh(x))),
    "LogMatrixDeterminant": Case(lambda draw: ([_square_make(draw)], {}), D.slogdet),
    "MatrixTriangularSolve": Case(_triangular_make, D.matrix_triangular_solve),
    "Cumsum": Case(_scan_make(), Sc.cumsum),
    "Cumprod": Case(_scan_make(), Sc.cumprod),
    # From -0.4: its outputs (at least the first input) never reach -0.5, where the second-
    # order check's upstream gradient w * (2o + 1) is exactly 0 and TF's rule (the log of
    # the gradient's positive and negative parts) has no derivative in it (hypothesis found
    # x = [-0.5]: analytic 0, numeric 2.94).
    "CumulativeLogsumexp": Case(_scan_make(exclusive=False, lo=-0.4),
                                Sc.cumulative_logsumexp),
    "MatrixDiagV3": Case(unary(), L.diag),
    "MatrixDiagPartV3": Case(_matrix_make, L.diag_part),
    "MatrixSetDiagV3": Case(_set_diag_make, L.set_diag),
    "MatrixBandPart": Case(_band_make, lambda x, lower, upper: L.band_part(x, lower, upper)),
    "Relu": Case(unary(min_abs=0.1), N.relu),
    "BiasAdd": Case(_bias_add_make, lambda x, b, data_format: N.bias_add(x, b, data_format)),
    "BiasAddGrad": Case(_bias_add_grad_make, N.bias_add_grad),
    "Elu": Case(unary(min_abs=0.1), N.elu),
    "Relu6": Case(unary(min_abs=0.1), N.relu6),
    "Selu": Case(unary(min_abs=0.1), N.selu),
    "L2Loss": Case(unary(), N.l2_loss),
    # float32 arithmetic: a coarser step and tolerance; its gradient has no gradient here
    "FusedBatchNormV3": Case(_fused_batch_norm_make, _fused_batch_norm, eps=1e-2, rtol=2e-2,
                             atol=2e-3, second_order=False),
    "Softmax": Case(_softmax_make, lambda x, axis: N.softmax(x, axis)),
    "LogSoftmax": Case(_softmax_make, lambda x, axis: N.log_softmax(x, axis)),
    "SoftmaxCrossEntropyWithLogits": Case(
        _xent_make, lambda lg, lb: N.softmax_cross_entropy_with_logits(lb, lg)),
    "SparseSoftmaxCrossEntropyWithLogits": Case(
        _sparse_xent_make,
        lambda lg, labels: N.sparse_softmax_cross_entropy_with_logits(labels, lg)),
}
CASES.update(CONV_CASES)


# --- the check --------------------------------------------------------------------------
def _inputs(case):
    """The strategy of a case's (arrays, extras), made once per test: st.composite reads
    the function's source (to check it calls draw) each time it is made, ~3 ms, which a
    strategy made inside every example paid per example; the draws are the same."""
    return st.composite(lambda draw: case.make(draw))()


def _as_sources(arrays, variables):
    if variables:
        return [Variable(a) for a in arrays]
    return [A.constant(a) for a in arrays]


def _scalar(outputs, weights, square=False):
    """A scalar from the op's output(s): sum of outputs ``o`` (or of ``o * (o + 1)``, whose
    second derivative is not zero for a linear op, nor for Sqrt) weighted by fixed random
    weights."""
    outs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    total = None
    for o, w in zip(outs, weights):
        value = M.multiply(o, M.add(o, 1.0)) if square else o
        term = M.reduce_sum(M.multiply(value, A.constant(w)))
        total = term if total is None else M.add(total, term)
    return total


def _weights(case, arrays, extras, rng):
    outs = case.fn(*_as_sources(arrays, case.variables), **extras)
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    return [rng.uniform(0.5, 1.5, size=tuple(o.shape)) for o in outs]


def _value(case, arrays, extras, weights):
    """The finite differences' f: the op run by simdist at ``arrays``, its outputs weighted
    and summed as ``_scalar`` does but in NumPy (float64 too; ~2 of its 3 ms per call were
    the sum's own simdist ops, which run twice per input element)."""
    outs = case.fn(*_as_sources(arrays, case.variables), **extras)
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    return float(sum(np.sum(np.asarray(o) * w) for o, w in zip(outs, weights)))


def _numeric_grad(f, arrays, eps):
    grads = []
    for i, a in enumerate(arrays):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            plus = [x.copy() for x in arrays]
            minus = [x.copy() for x in arrays]
            plus[i][idx] += eps
            minus[i][idx] -= eps
            g[idx] = (f(plus) - f(minus)) / (2 * eps)
        grads.append(g)
    return grads


def _analytic_grad(case, arrays, extras, weights, op_type=None, square=False):
    sources = _as_sources(arrays, case.variables)
    with GradientTape(persistent=True) as tape:
        for s in sources:
            tape.watch(s)
        y = _scalar(case.fn(*sources, **extras), weights, square)
    if op_type is not None:
        recorded = {r.type for r in tape._tape.records}
        assert op_type in recorded, f"case for {op_type} recorded only {sorted(recorded)}"
    grads = tape.gradient(y, sources)
    # a gather's gradient is an IndexedSlices, as TF's: compared as its dense tensor
    return [np.zeros_like(a) if g is None else np.asarray(execute.convert_to_tensor(g))
            for a, g in zip(arrays, grads)]


@pytest.mark.parametrize("op_type", sorted(CASES))
def test_gradient_matches_finite_differences(op_type):
    case = CASES[op_type]
    inputs = _inputs(case)

    @settings(max_examples=EXAMPLES)
    @given(st.data())
    def check(data):
        arrays, extras = data.draw(inputs)
        rng = np.random.default_rng(0)
        weights = _weights(case, arrays, extras, rng)
        analytic = _analytic_grad(case, arrays, extras, weights, op_type)
        numeric = _numeric_grad(lambda xs: _value(case, xs, extras, weights), arrays, case.eps)
        for a, n in zip(analytic, numeric):
            np.testing.assert_allclose(a, n, rtol=case.rtol, atol=case.atol)

    check()


def _grad_dot(case, arrays, extras, weights, w2):
    """``sum(grad(f)(x) * w2)`` with f the weighted sum of ``o * (o + 1)`` over the op's
    outputs: a scalar whose gradient is a second derivative of f."""
    return sum(float(np.sum(g * w)) for g, w in
               zip(_analytic_grad(case, arrays, extras, weights, square=True), w2))


@pytest.mark.parametrize("op_type", sorted(k for k, c in CASES.items() if c.second_order))
def test_second_order_gradient_matches_finite_differences(op_type):
    """Gradient rules are built from ops, so an outer tape differentiates them again.

    Each output o enters as o * (o + 1): then the upstream gradient reaching the rule depends
    on the input, and even a linear op's rule (Neg, Reshape, Sum ...) must be
    recorded by the outer tape for the second derivative to come out right.
    """
    case = CASES[op_type]
    inputs = _inputs(case)

    @settings(max_examples=max(4, EXAMPLES // 2))
    @given(st.data())
    def check(data):
        arrays, extras = data.draw(inputs)
        rng = np.random.default_rng(1)
        weights = _weights(case, arrays, extras, rng)
        w2 = [rng.uniform(0.5, 1.5, size=a.shape) for a in arrays]
        sources = _as_sources(arrays, case.variables)
        with GradientTape(persistent=True) as outer:
            for s in sources:
                outer.watch(s)
            with GradientTape() as inner:
                for s in sources:
                    inner.watch(s)
                y = _scalar(case.fn(*sources, **extras), weights, square=True)
            grads = inner.gradient(y, sources)
            z = None
            for g, w in zip(grads, w2):
                if g is None:
                    continue
                term = M.reduce_sum(M.multiply(g, A.constant(w)))
                z = term if z is None else M.add(z, term)
        if z is None:
            return
        analytic = [np.zeros_like(a) if g is None else np.asarray(execute.convert_to_tensor(g))
                    for a, g in zip(arrays, outer.gradient(z, sources))]
        numeric = _numeric_grad(lambda xs: _grad_dot(case, xs, extras, weights, w2),
                                arrays, 1e-5)
        for a, n in zip(analytic, numeric):
            np.testing.assert_allclose(a, n, rtol=1e-3, atol=1e-5)

    check()


def test_every_framework_gradient_rule_is_in_the_table():
    table = execute.gradient_rules()   # the rule modules load with the first gradient
    rules = {name for name, fn in table.items()
             if fn is not None and fn.__module__.startswith("simdist.framework")}
    missing = sorted(rules - set(CASES))
    assert not missing, f"gradient rules without a finite-difference case: {missing}"
    unknown = sorted(set(CASES) - set(table))
    assert not unknown, f"cases for op types without a rule: {unknown}"
