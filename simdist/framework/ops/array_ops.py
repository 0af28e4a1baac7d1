"""Array ops: making tensors, changing their shape, joining, splitting and slicing them.

Glossary:
  constant / fill / zeros / ones  -- new tensors from Python values or a fill value.
  reshape / transpose / squeeze   -- the same elements in another layout.
  concat / stack / split / unstack -- join or cut tensors along an axis.
  where / one_hot / gather / tile -- element selection and repetition.
  StridedSlice                    -- ``tensor[...]`` with ints, slices, ``...`` and
                                     ``None`` (``tf.newaxis``) as TF allows.
Gradient rules are in ``array_grad.py``.

Mirrors tensorflow/python/ops/array_ops.py.
"""

from __future__ import annotations

import builtins

import numpy as np

from simdist.framework import context, dtypes, errors, execute
from simdist.framework.ops import grappler_arithmetic, op_types
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api, backend

newaxis = None


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None) -> Tensor:
    """``tf.convert_to_tensor``: a tensor (or a variable, a distributed value) as it is; a
    Python or NumPy value a new constant, which a trace records as a Const op, as TF's
    graphs do (``tf.constant`` is one already)."""
    if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
        return execute.convert_to_tensor(value, dtype, dtype_hint, name)
    return _converted_constant(value, dtype, dtype_hint)


def _converted_constant(value, dtype=None, dtype_hint=None) -> Tensor:
    """A Python or NumPy value converted (a recorded op: see framework/ops/__init__)."""
    return execute.convert_to_tensor(value, dtype, dtype_hint)


def _t(x, dtype=None) -> Tensor:
    return execute.convert_to_tensor(x, dtype=dtype)


def _ints(value) -> list[int]:
    """A shape or list of axes given as a list, tuple, TensorShape or int Tensor (or a list
    with int scalar Tensors in it, as ``(tf.shape(x)[0], 3)``). A tensor is read through its
    value, which inside a traced op is its placeholder's (not ``numpy()``, which a symbolic
    tensor refuses)."""
    if isinstance(value, Tensor):
        value = backend.to_host(value._value)
    elif isinstance(value, (list, tuple)):
        return [int(-1 if d is None else
                    backend.to_host(d._value) if isinstance(d, Tensor) else d) for d in value]
    if np.ndim(value) == 0:
        return [int(value)]
    return [int(-1 if d is None else d) for d in value]


# op type -> TF's kernel text for an axis outside [-rank, rank) (concat_op.cc,
# squeeze_op.cc, split_op.cc, gather_op.cc, argmax_op.cc; softmax_op.cc for rank 0)
_AXIS_TEXTS = {
    "ConcatV2": "ConcatOp : Expected concatenating dimensions in the range [{lo}, {rank}), "
                "but got {axis}",
    "Squeeze": "Tried to squeeze dim index {axis} for tensor with {rank} dimensions.",
    "Split": "-input rank(-{rank}) <= split_dim < input rank ({rank}), but got {axis}",
    "GatherV2": "Shape must be at least rank {need} but is rank {rank}",
    "ArgMax": "Expected dimension in the range [{lo}, {rank}), but got {axis}",
    "ArgMin": "Expected dimension in the range [{lo}, {rank}), but got {axis}",
}
# op type -> its kernel's text for a scalar input, which has no axis at all
_SCALAR_TEXTS = {
    "ConcatV2": "ConcatOp : Can't concatenate scalars (use tf.stack instead)",
    "GatherV2": "params must be at least 1 dimensional",
    "Softmax": "logits must have >= 1 dimension, got []",
    "LogSoftmax": "logits must have >= 1 dimension, got []",
}


def _axis(axis, rank: int, op_type: str) -> int:
    """``axis`` in [0, rank), or the InvalidArgumentError ``op_type``'s kernel raises."""
    a = int(axis)
    if -rank <= a < rank:
        return a % rank
    # a scalar's own text where its kernel checks rank first (ConcatV2: for axis 0 only)
    text = _SCALAR_TEXTS.get(op_type) if rank == 0 and (op_type != "ConcatV2" or a == 0) \
        else None
    text = text or _AXIS_TEXTS.get(op_type, "Expected axis in the range [{lo}, {rank}), but "
                                            "got {axis}")
    raise errors.InvalidArgumentError(
        None, None, text.format(lo=-rank, rank=rank, axis=a, need=a + 1 if a >= 0 else -a)
        + f" [Op:{op_type}]")


# --- creation ----------------------------------------------------------------------------
def constant(value, dtype=None, shape=None, name=None) -> Tensor:
    """A constant tensor from a Python or NumPy value (``tf.constant``)."""
    if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
        t = _t(value)
        if dtype is not None and t.dtype != dtypes.as_dtype(dtype):
            t = cast(t, dtype)
        return reshape(t, shape) if shape is not None else t
    out = execute.constant_value(value, dtype, strict=True, shape=shape)
    grappler_arithmetic.note_constant(out)   # a Const of an executing function's graph
    return out


def _range_bounds(start, limit, delta, dtype):
    """(start, limit, delta as tensors or Python numbers, the output dtype): int32 for
    Python ints, float32 when any bound is a float, unless ``dtype`` says otherwise."""
    if limit is None:
        start, limit = 0, start
    bounds = [execute.convert_to_tensor(v) if isinstance(v, Tensor) or hasattr(v, "_as_tensor")
              else v for v in (start, limit, delta)]
    if dtype is None:
        kinds = [b.dtype if isinstance(b, Tensor) else dtypes.infer_dtype(b) for b in bounds]
        floats = [k for k in kinds if k.is_floating]
        dtype = max(floats, key=lambda k: k.size) if floats else max(kinds, key=lambda k: k.size)
    return bounds, dtypes.as_dtype(dtype)


def _range_length(bounds) -> tuple:
    """(start, delta, number of elements) of concrete bounds, with TF's errors."""
    start, limit, delta = (float(np.asarray(b.numpy() if isinstance(b, Tensor) else b))
                           for b in bounds)
    if delta == 0:
        raise errors.InvalidArgumentError(None, None,
                                          f"Requires delta != 0: {delta:g} [Op:Range]")
    if (delta > 0 and start > limit) or (delta < 0 and start < limit):
        raise errors.InvalidArgumentError(
            None, None, f"Requires start <= limit when delta > 0: {start:g}/{limit:g} "
                        "[Op:Range]" if delta > 0 else
                        f"Requires start >= limit when delta < 0: {start:g}/{limit:g} "
                        "[Op:Range]")
    return start, delta, int(np.ceil((limit - start) / delta))


def range(start, limit=None, delta=1, dtype=None, name="range") -> Tensor:  # noqa: A001
    """``[start, start + delta, ...)`` up to ``limit`` (``tf.range``): int32 for Python
    ints, float32 when any bound is a float, unless ``dtype`` says otherwise."""
    bounds, dtype = _range_bounds(start, limit, delta, dtype)
    start, delta, n = _range_length(bounds)
    execute.check_output_fits("Range", (n,), dtype, device=context.current_device())
    value = (start + delta * np.arange(n)).astype(dtype.as_numpy_dtype)
    return execute.execute("Range", [], backend.xp.asarray(value), flops=0,
                          device=context.current_device())


def range_spec(graph, start, limit=None, delta=1, dtype=None, name="range"):
    """``tf.range`` while tracing: its length is unknown (``None``) when a bound is symbolic,
    as TF's Range shape function says; known bounds are checked now (TF's errors)."""
    bounds, dtype = _range_bounds(start, limit, delta, dtype)
    from simdist.framework import func_graph

    n = None if any(func_graph.is_symbolic(b) for b in bounds) else _range_length(bounds)[2]
    return graph.symbolic_like([n], dtype, context.current_device(), name or "range")


def where_spec(graph, condition, x=None, y=None, name=None):
    """``tf.where(condition)`` while tracing: one row per true element, so the row count is
    unknown (TF's Where shape function: ``[?, rank]``); the select form runs as usual."""
    if x is not None or y is not None:
        return NotImplemented
    c = _t(condition)
    return graph.symbolic_like([None, c.shape.rank], dtypes.int64, context.current_device(),
                               name or "Where")


def squeeze_spec(graph, input, axis=None, name=None):  # noqa: A002 - TF's name
    """``tf.squeeze`` while tracing: without ``axis``, an input of unknown sizes has an
    output of unknown rank (any unknown size may be 1), as TF's Squeeze shape function."""
    x = _t(input)
    if axis is not None or x.shape.rank is None or None not in x.shape.as_list():
        return NotImplemented
    return graph.symbolic_like(None, x.dtype, context.current_device(), name or "Squeeze",
                               example=x.shape)


def fill(dims, value, name=None) -> Tensor:
    """A tensor of shape ``dims`` with every element ``value`` (``tf.fill``)."""
    v = _t(value)
    if v.ndim != 0:
        raise errors.InvalidArgumentError(
            None, None, f"value must represent a scalar, got shape {_shape_text(v)} [Op:Fill]")
    shape = _fill_dims(dims)
    execute.check_output_fits("Fill", shape, v._value.dtype, [v])
    xp = array_api.namespace(v._value)
    out = array_api.copy(xp.broadcast_to(v._value, shape))  # the standard's full takes scalars
    return execute.execute("Fill", [v], out, attrs={"shape": shape})


def zeros(shape, dtype=dtypes.float32, name=None) -> Tensor:
    """A tensor of zeros (``tf.zeros``)."""
    dt = dtypes.as_dtype(dtype)
    shape = _fill_dims(shape)
    execute.check_output_fits("Fill", shape, dt)
    return execute.execute("Fill", [], _zeros_value(shape, dt))


def _fill_dims(dims) -> tuple:
    """The shape of a Fill (tf.zeros, tf.ones, tf.fill).

    Raises:
      InvalidArgumentError: a negative dimension (TF's Fill kernel's text).
    """
    shape = tuple(_ints(dims))
    for d in shape:
        if d < 0:
            raise errors.InvalidArgumentError(None, None,
                                              f"Dimension {d} must be >= 0 [Op:Fill]")
    return shape


def _zeros_value(shape, dt):
    """Zeros of ``dt``: empty byte strings for ``tf.string``, as TF's zeros."""
    if dt.is_string:
        return np.full(shape, b"", dtype=object)
    return backend.xp.zeros(shape, dtype=dt.as_numpy_dtype)


def ones(shape, dtype=dtypes.float32, name=None) -> Tensor:
    """A tensor of ones (``tf.ones``)."""
    xp = backend.xp
    dt = dtypes.as_dtype(dtype)
    shape = _fill_dims(shape)
    execute.check_output_fits("Fill", shape, dt)
    return execute.execute("Fill", [], xp.ones(shape, dtype=dt.as_numpy_dtype))


def zeros_like(input, dtype=None, name=None) -> Tensor:  # noqa: A002 - TF's name
    """Zeros with the shape (and dtype, unless given) of ``input``."""
    x = _t(input)
    dt = x.dtype if dtype is None else dtypes.as_dtype(dtype)
    return execute.execute("ZerosLike", [x], _zeros_value(x._value.shape, dt))


def ones_like(input, dtype=None, name=None) -> Tensor:  # noqa: A002 - TF's name
    """Ones with the shape (and dtype, unless given) of ``input``."""
    x = _t(input)
    op_types.refuse_strings("OnesLike", x)
    dt = x.dtype if dtype is None else dtypes.as_dtype(dtype)
    xp = backend.xp
    return execute.execute("OnesLike", [x], xp.ones(x._value.shape, dtype=dt.as_numpy_dtype))


def one_hot_vector(i: int, n: int, dtype) -> Tensor:
    """A length-``n`` vector with 1 at ``i`` and 0 elsewhere (seeds for jacobians)."""
    xp = backend.xp
    v = xp.zeros((n,), dtype=dtypes.as_dtype(dtype).as_numpy_dtype)
    v[i] = 1
    return execute.execute("Const", [], v)


def identity(input, name=None) -> Tensor:  # noqa: A002 - TF's name
    """The same value as a new tensor (``tf.identity``)."""
    x = _t(input)
    return execute.execute("Identity", [x], x._value, flops=0)


def identity_n(input, name=None) -> list:  # noqa: A002 - TF's name
    """The same values as new tensors, by one op (``tf.identity_n``): a list of tensors,
    each element of ``input`` converted as it is (a tensor's rows, where it is one)."""
    xs = [_t(x) for x in input]
    if not xs:
        raise errors.InvalidArgumentError(
            None, None, "Length for attr 'T' of 0 must be at least minimum 1\n\t; NodeDef: "
            "{{node IdentityN}}; Op<name=IdentityN; signature=input: -> output:; "
            "attr=T:list(type),min=1> [Op:IdentityN] name: ")
    return list(execute.execute_multi("IdentityN", xs, [x._value for x in xs], flops=0))


def stop_gradient(input, name=None) -> Tensor:  # noqa: A002 - TF's name
    """The same value, but gradients do not flow through it (``tf.stop_gradient``)."""
    x = _t(input)
    return execute.execute("StopGradient", [x], x._value, flops=0)


def _cast_shortcut(x, dtype, name=None):
    """``x`` itself where ``tf.cast(x, dtype)`` makes no op (a tensor of that dtype: TF's
    math_ops.cast returns it), else None."""
    if isinstance(x, Tensor) and not hasattr(x, "assign") and \
            x.dtype == dtypes.as_dtype(dtype):
        return x
    if isinstance(x, (bool, int, float)):
        # a Python value is converted in the Cast scope ('Cast/x'): one of the dtype is
        # that Const alone
        from simdist.framework import func_graph
        from simdist.framework.name_scope import name_scope

        own = dtypes.bool_ if isinstance(x, bool) else dtypes.float32 if \
            isinstance(x, float) else dtypes.int32 if -2**31 <= x < 2**31 else dtypes.int64
        if func_graph.recorded_op_variant() is None and own == dtypes.as_dtype(dtype):
            with name_scope("Cast"):
                return constant(x, name="x")
    return None


def cast(x, dtype, name=None) -> Tensor:
    """``x`` converted to ``dtype`` (float16 overflow gives inf, floats to ints truncate)."""
    x = _t(x)
    dt = dtypes.as_dtype(dtype)
    if x.dtype == dt:
        return x
    if x.dtype.is_string or dt.is_string:
        raise errors.UnimplementedError(
            None, None, f"Cast {execute.kernel_dtype_name(x.dtype)} to "
                        f"{execute.kernel_dtype_name(dt)} is not supported [Op:Cast]\nUse "
                        "tf.strings.to_number / tf.strings.as_string to convert text.")
    with np.errstate(all="ignore"):
        value = array_api.astype(x._value, dt.as_numpy_dtype)
    return execute.execute("Cast", [x], value, attrs={"SrcT": x.dtype, "DstT": dt})


# --- shapes ------------------------------------------------------------------------------
def shape(input, out_type=dtypes.int32, name=None) -> Tensor:  # noqa: A002 - TF's name
    """The shape of ``input`` as a 1-D int tensor (``tf.shape``)."""
    x = _t(input)
    xp = backend.xp
    dt = dtypes.as_dtype(out_type).as_numpy_dtype
    return execute.execute("Shape", [x], xp.asarray(x._value.shape, dtype=dt))


def size(input, out_type=dtypes.int32, name=None) -> Tensor:  # noqa: A002 - TF's name
    """The number of elements of ``input`` (``tf.size``)."""
    x = _t(input)
    xp = backend.xp
    return execute.execute("Size", [x], xp.asarray(x._value.size,
                                                  dtype=dtypes.as_dtype(out_type).as_numpy_dtype))


def rank(input, name=None) -> Tensor:  # noqa: A002 - TF's name
    """The number of dimensions of ``input`` (``tf.rank``)."""
    x = _t(input)
    xp = backend.xp
    return execute.execute("Rank", [x], xp.asarray(x._value.ndim, dtype=np.int32))


def reshape(tensor, shape, name=None) -> Tensor:
    """The same elements in a new shape; one dimension may be -1 (``tf.reshape``)."""
    x = _t(tensor)
    new = _reshape_target(x._value.shape, _ints(shape))
    n = x._value.size
    if int(np.prod(new)) != n:
        raise errors.InvalidArgumentError(
            None, None, f"Input to reshape is a tensor with {n} values, but the requested "
                        f"shape has {int(np.prod(new))} [Op:Reshape]")
    return execute.execute("Reshape", [x], array_api.namespace(x._value).reshape(
        x._value, tuple(new)), flops=0)


def _reshape_target(old, new):
    """``new`` with its -1 inferred as TF's Reshape kernel does (reshape_op.h).

    Zero sizes in ``new`` are left out of the product, and then so are the input's zero
    dimensions: ``[0, 4] -> [0, -1]`` gives ``[0, 4]`` where NumPy refuses.
    """
    product, has_zero, unknown = 1, False, None
    for d, size in enumerate(new):
        if size == -1:
            if unknown is not None:
                raise errors.InvalidArgumentError(
                    None, None, f"Only one input size may be -1, not both {unknown} and {d} "
                                "[Op:Reshape]")
            unknown = d
        elif size < 0:
            raise errors.InvalidArgumentError(
                None, None, f"Size {d} must be non-negative, not {size} [Op:Reshape]")
        elif size == 0:
            has_zero = True
        else:
            product *= size
    if unknown is None:
        return new
    elements, input_has_zero = 1, False
    for dim in old:
        if dim > 0 or not has_zero:
            elements *= dim
        else:
            input_has_zero = True
    missing = elements // product
    if not input_has_zero and product * missing != elements:
        raise errors.InvalidArgumentError(
            None, None, f"Input to reshape is a tensor with {elements} values, but the "
                        f"requested shape requires a multiple of {product} [Op:Reshape]")
    return [missing if d == unknown else size for d, size in enumerate(new)]


def transpose(a, perm=None, conjugate=False, name="transpose") -> Tensor:
    """Permute the dimensions of ``a`` (reverses them when ``perm`` is None)."""
    x = _t(a)
    perm = list(builtins.range(x.ndim))[::-1] if perm is None else _ints(perm)
    if len(perm) != x.ndim:
        raise errors.InvalidArgumentError(
            None, None, f"transpose expects a vector of size {x.ndim}. But input(1) is a "
                        f"vector of size {len(perm)} [Op:Transpose]")
    seen = [p % builtins.max(x.ndim, 1) for p in perm]
    missing = next((d for d in builtins.range(x.ndim) if d not in seen), None)
    if missing is not None:   # TF's kernel names the first dimension no entry selects
        raise errors.InvalidArgumentError(
            None, None, f"{missing} is missing from {{{','.join(map(str, perm))}}}. "
                        "[Op:Transpose]")
    return execute.execute("Transpose", [x], array_api.permute_dims(x._value, perm),
                          attrs={"perm": perm})


def reverse(tensor, axis, name=None) -> Tensor:
    """``tf.reverse``: ``tensor`` with the order of its entries along each of ``axis``
    reversed (TF's ReverseV2)."""
    x = _t(tensor)
    axes = _ints(axis)
    seen = set()
    for i, a in enumerate(axes):
        if not -x.ndim <= a < x.ndim:   # (TF's kernel text lacks the closing bracket)
            raise errors.InvalidArgumentError(
                None, None, f"'axis'[{i}] = {a} is out of valid range [0, {x.ndim - 1} "
                            "[Op:ReverseV2]")
        if a % x.ndim in seen:
            raise errors.InvalidArgumentError(
                None, None, f"axis {a % x.ndim} specified more than once. [Op:ReverseV2]")
        seen.add(a % x.ndim)
    xp = array_api.namespace(x._value)
    return execute.execute("ReverseV2", [x], xp.flip(x._value, axis=tuple(axes)), flops=0,
                           attrs={"axis": axes})


def expand_dims(input, axis, name=None) -> Tensor:  # noqa: A002 - TF's name
    """Insert a dimension of size 1 at ``axis``."""
    x = _t(input)
    a = int(axis)
    if not -x.ndim - 1 <= a <= x.ndim:
        raise errors.InvalidArgumentError(
            None, None, f"Tried to expand dim index {a} for tensor with {x.ndim} dimensions. "
                        "[Op:ExpandDims]")
    xp = array_api.namespace(x._value)
    return execute.execute("ExpandDims", [x], xp.expand_dims(x._value, a), flops=0)


def squeeze(input, axis=None, name=None) -> Tensor:  # noqa: A002 - TF's name
    """Remove dimensions of size 1 (all, or those in ``axis``)."""
    x = _t(input)
    xp = array_api.namespace(x._value)
    if axis is None:
        value = xp.squeeze(x._value)
    else:
        axes = [_axis(a, x.ndim, "Squeeze") for a in _ints(axis)]
        for a in axes:
            if x._value.shape[a] != 1:
                raise errors.InvalidArgumentError(
                    None, None, f"Can not squeeze dim[{a}], expected a dimension of 1, got "
                                f"{x._value.shape[a]} [Op:Squeeze]")
        value = xp.squeeze(x._value, axis=tuple(axes))
    return execute.execute("Squeeze", [x], value, flops=0)


def broadcast_to(input, shape, name=None) -> Tensor:  # noqa: A002 - TF's name
    """``input`` broadcast to ``shape`` (``tf.broadcast_to``)."""
    x = _t(input)
    target = tuple(_ints(shape))
    xp = array_api.namespace(x._value)
    try:
        value = xp.broadcast_to(x._value, target)
    except ValueError:   # TF's BroadcastTo kernel's texts
        problem = f"Incompatible shapes: {_shape_text(x)} vs. [{','.join(map(str, target))}]" \
            if x.ndim <= len(target) else \
            f"Rank of input ({x.ndim}) must be no greater than rank of output shape " \
            f"({len(target)})."
        raise errors.InvalidArgumentError(None, None,
                                          f"{problem} [Op:BroadcastTo]") from None
    execute.check_output_fits("BroadcastTo", target, x._value.dtype, [x])
    return execute.execute("BroadcastTo", [x], array_api.copy(value))


def tile(input, multiples, name=None) -> Tensor:  # noqa: A002 - TF's name
    """Repeat ``input`` ``multiples[i]`` times along dimension i."""
    x = _t(input)
    m = _ints(multiples)
    if len(m) != x.ndim:
        raise errors.InvalidArgumentError(
            None, None, f"Expected multiples argument to be a vector of length {x.ndim} but "
                        f"got length {len(m)} [Op:Tile]")
    execute.check_output_fits("Tile", [d * k for d, k in zip(x._value.shape, m)],
                             x._value.dtype, [x])
    xp = array_api.namespace(x._value)
    return execute.execute("Tile", [x], xp.tile(x._value, m), attrs={"multiples": m})


# --- joining and splitting ---------------------------------------------------------------
def _shape_text(t) -> str:
    return "[" + ",".join(str(d) for d in t._value.shape) + "]"


def _same_dtype(op_type, ts):
    execute.check_same_dtype(op_type, *ts)


def _matching(values) -> list[Tensor]:
    """A list op's inputs as TF's ``args_to_matching_eager`` converts them: tensors as they
    are, other values to the dtype of the first tensor among them (else of the first value
    converted), so ``tf.stack([x, 1])`` is of ``x``'s dtype."""
    dtype = next((v.dtype for v in values if isinstance(v, Tensor)), None)
    out = []
    for v in values:
        out.append(v if isinstance(v, Tensor) else _t(v, dtype))
        dtype = dtype or out[-1].dtype
    return out


def concat(values, axis, name="concat") -> Tensor:
    """Join tensors along an existing ``axis`` (``tf.concat``)."""
    ts = _matching(values)
    _same_dtype("ConcatV2", ts)
    a = _axis(axis, ts[0].ndim, "ConcatV2")
    for j, t in enumerate(ts[1:], start=1):
        if t.ndim != ts[0].ndim or any(
                d1 != d2 for i, (d1, d2) in enumerate(zip(t.shape, ts[0].shape)) if i != a):
            bad = next((i for i, (d1, d2) in enumerate(zip(t.shape, ts[0].shape))
                        if d1 != d2 and i != a), 0)
            raise errors.InvalidArgumentError(
                None, None, f"ConcatOp : Dimension {bad} in both shapes must be equal: "
                            f"shape[0] = {_shape_text(ts[0])} vs. shape[{j}] = "
                            f"{_shape_text(t)} [Op:ConcatV2]")
    value = array_api.concat([t._value for t in ts], axis=a)
    return execute.execute("ConcatV2", ts, value,
                          attrs={"axis": a, "sizes": [t._value.shape[a] for t in ts]})


def stack(values, axis=0, name="stack") -> Tensor:
    """Join same-shape tensors along a new ``axis`` (``tf.stack``).

    Raises:
      ValueError: ``axis`` is not a dimension of the result (TF's Python check).
      InvalidArgumentError: the tensors' shapes differ.
    """
    ts = _matching(values)
    rank = ts[0].ndim + 1 if ts else 1
    if not -rank <= int(axis) < rank:
        raise ValueError(f"Argument `axis` = {int(axis)} not in range [{-rank}, {rank})")
    _same_dtype("Pack", ts)
    for j, t in enumerate(ts[1:], start=1):
        if t.shape != ts[0].shape:
            raise errors.InvalidArgumentError(
                None, None, f"Shapes of all inputs must match: values[0].shape = "
                            f"{_shape_text(ts[0])} != values[{j}].shape = "
                            f"{_shape_text(t)} [Op:Pack]")
    a = int(axis) % (ts[0].ndim + 1)
    xp = array_api.namespace(*(t._value for t in ts))
    return execute.execute("Pack", ts, xp.stack([t._value for t in ts], axis=a),
                          attrs={"axis": a})


def unstack(value, num=None, axis=0, name="unstack") -> list[Tensor]:
    """Cut ``value`` into its slices along ``axis`` (``tf.unstack``)."""
    x = _t(value)
    if not -x.ndim <= int(axis) < x.ndim:   # TF's Python check, before the op
        raise ValueError(f"Argument `axis` = {int(axis)} not in range [{-x.ndim}, {x.ndim})")
    a = _axis(axis, x.ndim, "Unpack")
    lead = (builtins.slice(None),) * a  # the standard's take needs index arrays: slices
    parts = [x._value[lead + (i, ...)] for i in builtins.range(x._value.shape[a])]
    return list(execute.execute_multi("Unpack", [x], parts, attrs={"axis": a}))


def split(value, num_or_size_splits, axis=0, num=None, name="split") -> list[Tensor]:
    """Cut ``value`` into pieces along ``axis`` (equal count, or the given sizes)."""
    x = _t(value)
    a = _axis(axis, x.ndim, "Split")
    dim = x._value.shape[a]
    if np.ndim(num_or_size_splits) == 0 and not isinstance(num_or_size_splits, (list, tuple)):
        n = int(num_or_size_splits)
        if n <= 0 or dim % n:
            raise errors.InvalidArgumentError(
                None, None, f"Number of ways to split should evenly divide the split dimension,"
                            f" but got split_dim {a} (size = {dim}) and num_split {n} "
                            "[Op:Split]")
        sizes, op_type = [dim // n] * n, "Split"
    else:
        sizes, op_type = _ints(num_or_size_splits), "SplitV"
        if sizes.count(-1) == 1:
            sizes[sizes.index(-1)] = dim - (builtins.sum(sizes) + 1)
        if builtins.sum(sizes) != dim or builtins.min(sizes) < 0:
            raise errors.InvalidArgumentError(
                None, None, "Determined shape must either match input shape along split_dim "
                            f"exactly if fully specified, or be less than the size of the input"
                            f" along split_dim if not fully specified.  Got: "
                            f"{builtins.sum(sizes)} [Op:SplitV]")
    ends = np.cumsum(sizes).tolist()  # the standard has no split: one slice per piece
    lead = (builtins.slice(None),) * a
    parts = [x._value[lead + (builtins.slice(e - n, e), ...)] for n, e in zip(sizes, ends)]
    return list(execute.execute_multi(op_type, [x], parts, attrs={"axis": a, "sizes": sizes}))


# --- selection ---------------------------------------------------------------------------
def where(condition, x=None, y=None, name=None) -> Tensor:
    """Elements of ``x`` where ``condition`` is true, else of ``y`` (broadcasting).

    With only ``condition``, the int64 coordinates of its true elements.
    """
    c = _t(condition)
    xp = backend.xp
    if x is None and y is None:
        if c._value.ndim == 0:  # the standard's nonzero needs an axis: NumPy's argwhere
            host = np.argwhere(backend.to_host(c._value)).astype(np.int64)
            return execute.execute("Where", [c], array_api.from_host(host))
        coords = xp.stack(xp.nonzero(c._value), axis=-1)  # argwhere, in the standard's terms
        return execute.execute("Where", [c], array_api.astype(coords, np.int64))
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    from simdist.framework import func_graph
    from simdist.framework.ops.math_ops import convert_pair

    xt, yt = convert_pair(x, y)
    traced = any(func_graph.is_symbolic(t) for t in (c, xt, yt))   # TF's op builder's text
    if not c.dtype.is_bool:
        if traced:
            raise TypeError(f"Input 'condition' of 'SelectV2' Op has type {c.dtype.name} "
                            "that does not match expected type of bool.")
        raise execute.input_dtype_error("SelectV2", 0, "bool", c.dtype)
    if xt.dtype != yt.dtype:
        if traced:
            raise TypeError(f"Input 'e' of 'SelectV2' Op has type {yt.dtype.name} that does "
                            f"not match type {xt.dtype.name} of argument 't'.")
        raise execute.input_dtype_error("SelectV2", 2, xt.dtype, yt.dtype)
    xp = array_api.namespace(xt._value, yt._value)
    cond = array_api.to_host(c._value) if xp is np else c._value  # host values: host where
    try:
        value = xp.where(cond, xt._value, yt._value)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, f"condition [{','.join(map(str, c.shape))}], then "
                        f"[{','.join(map(str, xt.shape))}], and else "
                        f"[{','.join(map(str, yt.shape))}] must be broadcastable "
                        "[Op:SelectV2]") from None
    return execute.execute("SelectV2", [c, xt, yt], value)


_ONE_HOT_INDICES = (dtypes.uint8, dtypes.int8, dtypes.int32, dtypes.int64)
_ONE_HOT_TI_ERROR = (
    "Value for attr 'TI' of {} is not in the list of allowed values: uint8, int8, int32, "
    "int64\n\t; NodeDef: {{{{node OneHot}}}}; Op<name=OneHot; signature=indices:TI, "
    "depth:int32, on_value:T, off_value:T -> output:T; attr=axis:int,default=-1; "
    "attr=T:type; attr=TI:type,default=DT_INT64,allowed=[DT_UINT8, DT_INT8, DT_INT32, "
    "DT_INT64]> [Op:OneHot]")


def _one_hot_indices(indices) -> Tensor:
    """``indices`` as a tensor of one of OneHot's index dtypes.

    Raises:
      TypeError: another dtype while tracing (TF's op builder).
      InvalidArgumentError: another dtype eagerly (TF's kernel attr check).
    """
    from simdist.framework import func_graph

    idx = _t(indices)
    if idx.dtype not in _ONE_HOT_INDICES:
        if func_graph.is_symbolic(idx):
            raise TypeError(f"Value passed to parameter 'indices' has DataType "
                            f"{idx.dtype.name} not in list of allowed values: uint8, int8, "
                            "int32, int64")
        raise errors.InvalidArgumentError(None, None, _ONE_HOT_TI_ERROR.format(
            execute.kernel_dtype_name(idx.dtype)))
    return idx


def one_hot_spec(graph, indices, depth, on_value=None, off_value=None, axis=None,
                 dtype=None, name=None):
    """``tf.one_hot`` of a symbolic ``depth`` while tracing: that dimension is unknown (the
    others, and known depths, run on the placeholders)."""
    from simdist.framework import func_graph

    if not func_graph.is_symbolic(depth):
        return NotImplemented
    idx = _one_hot_indices(indices)
    with func_graph.recorded_op_scope(0):   # on / off values made as the op makes them
        dt = _one_hot_values(on_value, off_value, dtype)[0]
    a = -1 if axis is None else int(axis)
    if idx.shape.rank is None or a < -1:
        return NotImplemented
    at = (a + idx.shape.rank + 1) % (idx.shape.rank + 1)
    dims = idx.shape.dims[:at] + [None] + idx.shape.dims[at:]
    return graph.symbolic_like(dims, dt, context.current_device(), "one_hot")


def _one_hot_values(on_value, off_value, dtype):
    """(output dtype, on tensor, off tensor): the dtype comes from ``dtype``, else from
    on_value / off_value (tf.one_hot's rules).

    Raises:
      TypeError: they disagree.
    """
    hint = None if dtype is None else dtypes.as_dtype(dtype)
    given = {k: execute.convert_to_tensor(v, dtype_hint=hint)
             for k, v in (("on_value", on_value), ("off_value", off_value)) if v is not None}
    for k, t in given.items():
        if hint is not None and t.dtype != hint:
            raise TypeError(f"dtype <dtype: '{t.dtype.name}'> of {k} does not match dtype "
                            f"parameter <dtype: '{hint.name}'>")
    if len(given) == 2 and given["on_value"].dtype != given["off_value"].dtype:
        raise TypeError(f"dtype <dtype: '{given['on_value'].dtype.name}'> of on_value does not "
                        f"match dtype <dtype: '{given['off_value'].dtype.name}'> of off_value")
    dt = hint or (next(iter(given.values())).dtype if given else dtypes.float32)
    return dt, given.get("on_value", _t(1, dt)), given.get("off_value", _t(0, dt))


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None,
            name=None) -> Tensor:
    """A one-hot encoding of ``indices`` (out-of-range indices give all ``off_value``).

    Raises:
      InvalidArgumentError: indices of a dtype OneHot does not take, a negative depth, an
        axis other than -1 or ``[0, rank]`` (the output's rank: TF's kernel).
      TypeError: ``dtype``, ``on_value`` and ``off_value`` disagree.
    """
    idx = _one_hot_indices(indices)
    dt, on, off = _one_hot_values(on_value, off_value, dtype)
    depth = int(backend.to_host(depth._value)) if isinstance(depth, Tensor) else int(depth)
    a = -1 if axis is None else int(axis)
    if a != -1 and not 0 <= a < idx.ndim + 1:
        raise errors.InvalidArgumentError(
            None, None, f"Expected axis to be -1 or between [0, {idx.ndim + 1}).  But "
                        f"received: {a} [Op:OneHot]")
    if depth < 0:
        raise errors.InvalidArgumentError(
            None, None, f"depth must be non-negative, got: {depth} [Op:OneHot]")
    xp = backend.xp
    hot = idx._value[..., None] == xp.arange(depth, dtype=array_api.numpy_dtype(idx._value))
    value = array_api.astype(xp.where(hot, on._value, off._value), dt.as_numpy_dtype)
    if a != -1:
        value = xp.moveaxis(value, -1, a)
    return execute.execute("OneHot", [idx, on, off], value, attrs={"depth": depth, "axis": a})


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0,
           name=None) -> Tensor:
    """Slices of ``params`` at ``indices`` along ``axis`` (``tf.gather``, batch_dims=0)."""
    p = _t(params)
    idx = _t(indices)
    if not idx.dtype.is_integer:
        raise TypeError(f"Value passed to parameter 'indices' has DataType "
                        f"{idx.dtype.name} not in list of allowed values: int32, int64")
    if batch_dims != 0:
        raise NotImplementedError("simdist's gather supports batch_dims=0 only.")
    a = _axis(0 if axis is None else axis, p.ndim, "GatherV2")
    dim = p._value.shape[a]
    host = np.asarray(backend.to_host(idx._value))
    bad = host[(host < 0) | (host >= dim)]
    if bad.size:
        where = ",".join(str(int(i)) for i in np.argwhere((host < 0) | (host >= dim))[0])
        op = "ResourceGather" if hasattr(params, "assign") else "GatherV2"  # a variable's
        raise errors.InvalidArgumentError(
            None, None, f"indices{f'[{where}]' if host.ndim else ''} = {int(bad.flat[0])} "
                        f"is not in [0, {dim}) [Op:{op}]")   # a scalar's: "indices = 5"
    xp = array_api.namespace(p._value)
    ids = host if xp is np else idx._value  # host params (strings) take the host indices
    if idx.ndim == 1:
        value = xp.take(p._value, ids, axis=a)
    else:  # the standard's take reads 1-D indices: take them flat, then shape the result
        flat = xp.take(p._value, xp.reshape(ids, (-1,)), axis=a)
        shape = p._value.shape
        value = xp.reshape(flat, shape[:a] + tuple(ids.shape) + shape[a + 1:])
    return execute.execute("GatherV2", [p, idx], value, attrs={"axis": a})


# --- slicing -----------------------------------------------------------------------------
_INDEX_HELP = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
               "tf.int32/tf.int64 tensors are valid indices")


def _index_int(v, bound=True):
    """An index as an int. A scalar index (not a slice ``bound``) may be a symbolic tensor
    while tracing: the output's shape does not depend on its value (its placeholder's)."""
    if isinstance(v, bool):
        raise TypeError(f"{_INDEX_HELP}, got {v!r}")
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, Tensor) and v.ndim == 0 and v.dtype.is_integer:
        return int(v) if bound else int(backend.to_host(v._value))
    raise TypeError(f"{_INDEX_HELP}, got {v!r}")


def _normalize_key(key) -> tuple:
    """The index as a tuple of ints, slices of ints, ``None`` and ``...``."""
    if isinstance(key, list):  # TF reads a list index as a tuple of per-dimension indices
        key = tuple(key)
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    for k in key:
        if k is None or k is Ellipsis:
            out.append(k)
        elif isinstance(k, slice):
            out.append(slice(*(None if v is None else _index_int(v)
                               for v in (k.start, k.stop, k.step))))
        else:
            out.append(_index_int(k, bound=False))
    return tuple(out)


def _check_key(x: Tensor, key: tuple) -> None:
    """TF's errors for integer indices out of range (slices clamp instead)."""
    dims = [k for k in key if k is not None]
    if dims.count(Ellipsis) > 1:
        raise ValueError("Multiple ellipses in slice spec not allowed")
    if Ellipsis in dims:
        i = dims.index(Ellipsis)
        dims = dims[:i] + [slice(None)] * (x.ndim - len(dims) + 1) + dims[i + 1:]
    if len(dims) > x.ndim:
        raise errors.InvalidArgumentError(
            None, None, f"Index out of range using input dim {x.ndim}; input has only "
                        f"{x.ndim} dims [Op:StridedSlice]")
    for axis, k in enumerate(dims):
        n = x._value.shape[axis]
        if isinstance(k, int) and not -n <= k < n:
            raise errors.InvalidArgumentError(
                None, None, f"slice index {k} of dimension {axis} out of bounds. "
                            "[Op:StridedSlice]")


def _clamped(key: tuple, shape) -> tuple:
    """``key`` with each slice's bounds inside its axis, as Python and TF clamp them (the
    standard leaves out-of-range slice bounds unspecified; array_api_strict refuses them)."""
    consuming = builtins.sum(1 for k in key if k is not None and k is not Ellipsis)
    out, axis = [], 0
    for k in key:
        if k is Ellipsis:
            axis += len(shape) - consuming
        elif k is not None:
            if isinstance(k, builtins.slice):
                k = _clamp_slice(k, shape[axis])
            axis += 1
        out.append(k)
    return tuple(out)


def _clamp_slice(s: slice, n: int) -> slice:
    start, stop, step = s.indices(n)
    if step > 0:
        return builtins.slice(start, stop, step)
    if start < 0:  # a backward slice that starts before the axis: empty
        return builtins.slice(0, 0, 1)
    return builtins.slice(start, None if stop < 0 else stop, step)  # -1: through index 0


def strided_slice(tensor, key) -> Tensor:
    """``tensor[key]`` as TF's ``StridedSlice`` (basic indexing only)."""
    x = _t(tensor)
    k = _normalize_key(key)
    _check_key(x, k)
    if Ellipsis not in k:  # the standard indexes every axis: a trailing ... says "the rest"
        k = k + (Ellipsis,)
    k = _clamped(k, x._value.shape)
    value = x._value[k]
    return execute.execute("StridedSlice", [x], array_api.copy(value),
                          attrs={"key": k, "shape": tuple(x._value.shape)})


def strided_slice_grad(grad, key, shape) -> Tensor:
    """Zeros of ``shape`` with ``grad`` written at ``key`` (the gradient of a slice)."""
    g = _t(grad)
    xp = array_api.namespace(g._value)
    out = xp.zeros(tuple(shape), dtype=g._value.dtype)
    out[key] = g._value
    return execute.execute("StridedSliceGrad", [g], out, attrs={"key": key, "shape": shape})


def _getitem(self, slice_spec):
    # TF's _slice_helper(tensor, slice_spec): an op layer's saved node names the argument
    return strided_slice(self, slice_spec)
