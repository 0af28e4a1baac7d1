"""``tf.debugging``'s element-wise assertions: ``assert_equal``, ``assert_less``, ...,
``assert_positive``, ``assert_near``, ``assert_rank``, ``assert_type``, ``assert_scalar``.

Glossary:
  binary assert -- ``assert_<op>(x, y)`` holds when ``x <op> y`` for every (broadcast) pair.
  eager        -- checked now: None, or InvalidArgumentError whose lines are ``message``,
                  "Condition x == y did not hold.", for same-shape non-scalar inputs the
                  indices and values of the first ``summarize`` (3) pairs that fail, then the
                  first ``summarize`` elements of x and of y (negative: all).
  traced       -- a graph Assert node (control_flow_ops.Assert) of the condition, its data
                  naming the tensors ("x (a:0) = "), checked at each execution; inputs that
                  are both constants are checked while tracing (TF's _assert_static).
  unary assert -- ``assert_positive(x)`` and the like compare ``x`` with a zero of its dtype;
                  their data reads "Condition x > 0 did not hold element-wise:" then
                  "x (shape=(2,) dtype=int32) = " (the tensor's name when traced) and its
                  first elements as a list of strings.
  static       -- assert_rank, assert_type and assert_scalar read the static shape or dtype:
                  ValueError / TypeError at once, eager or traced.

Mirrors tensorflow/python/ops/check_ops.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import context, dtypes, errors, execute, func_graph
from simdist.framework.ops import array_ops, control_flow_ops, math_ops, selection_ops


def _prefix(message) -> str:
    """TF's _message_prefix: 'message.  ' before a unary or static assert's text."""
    return f"{message}.  " if message else ""


def _pretty(item, summarize) -> str:
    """A data item in an eager assert's message (TF's _pretty_print)."""
    if isinstance(item, execute.Tensor):
        value = item.numpy()
        if np.ndim(value) == 0:
            return str(value)
        flat = [str(x) for x in np.asarray(value).reshape(-1)[:summarize]]
        if len(flat) < np.size(value):
            flat.append("...")
        return str(flat)
    return str(item)


def _failed_data(sym, x, y, summarize, test) -> list:
    """The default lines of a failed eager binary assert (TF's _make_assert_msg_data)."""
    data = [f"Condition x {sym} y did not hold."]
    if summarize <= 0:
        return data
    if x.shape == y.shape and x.shape.rank:
        mask = math_ops.logical_not(test)
        indices = array_ops.where(mask).numpy()
        n = min(summarize, indices.shape[0])
        data += [f"Indices of first {n} different values:", indices[:n],
                 "Corresponding x values:",
                 selection_ops.boolean_mask(x, mask).numpy().reshape(-1)[:n],
                 "Corresponding y values:",
                 selection_ops.boolean_mask(y, mask).numpy().reshape(-1)[:n]]
    xs, ys = x.numpy().reshape(-1), y.numpy().reshape(-1)
    nx, ny = min(xs.size, summarize), min(ys.size, summarize)
    return data + [f"First {nx} elements of x:", xs[:nx], f"First {ny} elements of y:", ys[:ny]]


def _constant(t):
    """``t``'s value when it is known while tracing (TF's tensor_util.constant_value, for
    constants): an eager tensor's, or a Const node's (``tf.constant``, a converted value)."""
    if not func_graph.is_symbolic(t):
        return np.asarray(t.numpy())
    makers = (array_ops.constant, array_ops._converted_constant)
    made_by = {getattr(f, "__recorded_op__", f) for f in makers}
    for node in reversed(t._graph.nodes):
        if any(tid == t._id for _, tid in getattr(node, "out_slots", ())):
            if getattr(node, "fn", None) in made_by and not node.slots:
                return np.asarray(t._placeholders[0])
            return None
    return None


def _static_text(item) -> str:
    """A data item of a failed check of constants while tracing (_maybe_constant_value_string)."""
    value = _constant(item) if isinstance(item, execute.Tensor) else None
    return str(item) if value is None else str(value)


def _binary(sym, op, static, x, y, data=None, summarize=None, message=None):
    """Check ``op(x, y)`` everywhere (TF's _binary_assert); None, or the graph's Assert."""
    x = array_ops.convert_to_tensor(x)
    y = array_ops.convert_to_tensor(y)
    if not func_graph.is_symbolic(x) and not func_graph.is_symbolic(y) and \
            context.executing_eagerly():
        test = op(x, y)
        if bool(math_ops.reduce_all(test).numpy()):
            return None
        summarize = 3 if summarize is None else (10**9 if summarize < 0 else summarize)
        if data is None:
            data = _failed_data(sym, x, y, summarize, test)
        if message is not None:
            data = [message, *data]
        raise errors.InvalidArgumentError(
            None, None, "\n".join(_pretty(d, summarize) for d in data))
    if data is None:
        data = [f"Condition x {sym} y did not hold element-wise:", f"x ({x.name}) = ", x,
                f"y ({y.name}) = ", y]
    if message is not None:
        data = [message, *data]
    xs, ys = _constant(x), _constant(y)
    if xs is not None and ys is not None and not np.all(static(xs, ys)):
        raise errors.InvalidArgumentError(None, None,
                                          "\n".join(_static_text(d) for d in data))
    return control_flow_ops.Assert(math_ops.reduce_all(op(x, y)), data, summarize=summarize)


def _shown_name(x) -> str:
    return (f"shape={x.shape} dtype={x.dtype.name}" if not func_graph.is_symbolic(x)
            else x.name)


def _unary(sym, compare, zero_first, x, data=None, summarize=None, message=None):
    """``x <sym>`` everywhere, as a binary assert against a zero of x's dtype."""
    x = array_ops.convert_to_tensor(x)
    if data is None:
        # TF's assert_non_positive joins these two lines (a missing comma in check_ops.py)
        head = f"Condition x {sym} did not hold element-wise:"
        shown = f"x ({_shown_name(x)}) = "
        lines = [head + shown] if sym == "<= 0" else [head, shown]
        data = [_prefix(message), *lines, x]
    zero = array_ops.convert_to_tensor(0, dtype=x.dtype)
    args = (zero, x) if zero_first else (x, zero)
    return compare(*args, data=data, summarize=summarize)


def _binary_assert(sym, op, static):
    def check(x, y, message=None, summarize=None, name=None):
        if x is y:
            return None
        return _binary(sym, op, static, x, y, summarize=summarize, message=message)

    def with_data(x, y, data=None, summarize=None, message=None):
        return _binary(sym, op, static, x, y, data, summarize, message)

    return check, with_data


assert_equal, _equal = _binary_assert("==", math_ops.equal, np.equal)
assert_none_equal, _none_equal = _binary_assert("!=", math_ops.not_equal, np.not_equal)
assert_less, _less = _binary_assert("<", math_ops.less, np.less)
assert_less_equal, _less_equal = _binary_assert("<=", math_ops.less_equal, np.less_equal)
assert_greater, _greater = _binary_assert(">", math_ops.greater, np.greater)
assert_greater_equal, _greater_equal = _binary_assert(">=", math_ops.greater_equal,
                                                      np.greater_equal)


def assert_positive(x, message=None, summarize=None, name=None):
    """Assert ``x > 0`` element-wise."""
    return _unary("> 0", _less, True, x, summarize=summarize, message=message)


def assert_negative(x, message=None, summarize=None, name=None):
    """Assert ``x < 0`` element-wise."""
    return _unary("< 0", _less, False, x, summarize=summarize, message=message)


def assert_non_negative(x, message=None, summarize=None, name=None):
    """Assert ``x >= 0`` element-wise."""
    return _unary(">= 0", _less_equal, True, x, summarize=summarize, message=message)


def assert_non_positive(x, message=None, summarize=None, name=None):
    """Assert ``x <= 0`` element-wise."""
    return _unary("<= 0", _less_equal, False, x, summarize=summarize, message=message)


def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """Assert ``|x - y| < atol + rtol * |y|`` element-wise (tolerances 10 eps of x's dtype
    by default); an Assert eagerly too, as TF's."""
    x = array_ops.convert_to_tensor(x)
    y = array_ops.convert_to_tensor(y, dtype=x.dtype)
    dtype = x.dtype   # simdist has no complex dtypes (TF takes a complex x's real dtype)
    eps = np.finfo(dtype.as_numpy_dtype).eps
    rtol = array_ops.convert_to_tensor(10 * eps if rtol is None else rtol, dtype=dtype)
    atol = array_ops.convert_to_tensor(10 * eps if atol is None else atol, dtype=dtype)
    data = [_prefix(message), f"x and y not equal to tolerance rtol = {rtol!s}, atol = {atol!s}",
            f"x ({_shown_name(x)}) = ", x, f"y ({_shown_name(y)}) = ", y]
    tol = atol + rtol * math_ops.abs(y)
    condition = math_ops.reduce_all(math_ops.less(math_ops.abs(x - y), tol))
    return control_flow_ops.Assert(condition, data, summarize=summarize)


def assert_rank(x, rank, message=None, name=None):
    """Assert ``x`` has rank ``rank`` (static: ValueError at once; an unknown rank in a
    trace: a graph Assert).

    Raises:
      ValueError: the static rank is not ``rank``.
    """
    x = array_ops.convert_to_tensor(x)
    want = int(rank)
    shown = x.name if func_graph.is_symbolic(x) else ""
    if x.shape.rank is None:
        data = [_prefix(message), f"Tensor {shown} must have rank", want,
                "Received shape: ", array_ops.shape(x)]
        return control_flow_ops.Assert(math_ops.equal(array_ops.rank(x), want), data)
    if x.shape.rank != want:
        raise ValueError(f"{_prefix(message)}Tensor {shown} must have rank {want}.  Received "
                         f"rank {x.shape.rank}, shape {x.shape}")
    return None


def assert_type(tensor, tf_type, message=None, name=None):
    """Assert ``tensor``'s dtype is ``tf_type``.

    Raises:
      TypeError: it is another dtype.
    """
    want = dtypes.as_dtype(tf_type)
    t = array_ops.convert_to_tensor(tensor)
    if t.dtype != want:
        shown = t.name if func_graph.is_symbolic(t) else "tensor"
        raise TypeError(f"{_prefix(message)}{shown} must be of type {want!r}; got {t.dtype!r}")
    return None


def assert_scalar(tensor, message=None, name=None):
    """Check ``tensor``'s static shape is a scalar's; None, as TF 2's endpoint returns.

    Raises:
      ValueError: its shape is not ``()``.
    """
    t = array_ops.convert_to_tensor(tensor)
    if t.shape.rank != 0:
        if func_graph.is_symbolic(t):
            raise ValueError(f"{_prefix(message)}Expected scalar shape for {t.name}, saw "
                             f"shape: {t.shape}.")
        raise ValueError(f"{_prefix(message)}Expected scalar shape, saw shape: {t.shape}.")
    return None


def assert_all_finite(x, message, name=None):
    """``x``, once checked to hold no NaN or Inf (``tf.debugging.check_numerics``)."""
    from simdist.framework.ops.numerics import check_numerics

    return check_numerics(x, message)
