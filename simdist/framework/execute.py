"""How an op runs: conversion of inputs, placement, cost, recording, and the gradient table.

Glossary:
  GRADIENTS          -- op type -> gradient rule ``fn(op, *output_grads) -> input grads``
                        (``None`` registered means "not differentiable"); one table, read by
                        backprop and by the finite-difference tests.
  RegisterGradient   -- decorator that puts a rule in the table (TF's ``ops.RegisterGradient``).
  execute            -- run one op: place it, wrap its value as a Tensor, advance the
                        device clock by its cost, record it on the active tapes.
  convert_to_tensor  -- Python / NumPy / Variable / distributed value -> Tensor, with TF's
                        dtype rules and errors.
  shape_inference    -- a scope whose ops are run for their output shapes only: they take
                        no device time and leave no trace (Keras's scratch graph).
  log_device_placement -- ``tf.debugging.set_log_device_placement(True)``: each eager op
                        writes TF's "Executing op <type> in device <device>" line to stderr
                        (a Python value made a tensor is TF's ``_EagerConst``).
  check_output_fits  -- an op whose output shape is known before it computes (tf.zeros, a
                        random draw, a matmul, a broadcast) raises TF's OOM error when the
                        output cannot fit on its device, before the host builds anything.

Mirrors tensorflow/python/framework/ops.py and python/eager/execute.py.
"""

from __future__ import annotations

import sys

import numpy as np

from simdist.framework import context, dtypes, errors, tape
from simdist.framework.tensor import Tensor
from simdist.framework.thread_local import ThreadLocalValue
from simdist.hardware import array_api, backend
from simdist.hardware.device import KERNEL_DTYPE_NAMES

GRADIENTS: dict[str, object] = {}
_device_scopes = context._devices


def RegisterGradient(op_type: str):  # noqa: N802 - TF's name
    """Register the decorated function as the gradient rule of ``op_type``."""

    def wrap(fn):
        if op_type in GRADIENTS:
            raise KeyError(f"Registering two gradient rules with name {op_type!r}")
        GRADIENTS[op_type] = fn
        return fn

    return wrap


# The modules of the core ops' gradient rules, loaded by the first gradient (backprop) or
# by a look at the whole table (``gradient_rules``): an eager program that never
# differentiates never loads them. Other ops' modules register their own rules as they load
# (an op can only be on a tape once its module is).
_RULE_MODULES = ("array_grad", "math_grad", "nn_grad", "conv_grad", "linalg_grad",
                 "image_resize_grad")


def gradient_rules() -> dict:
    """``GRADIENTS`` with the core ops' rule modules loaded (op type -> rule, or None)."""
    import importlib

    for name in _RULE_MODULES:
        importlib.import_module(f"simdist.framework.ops.{name}")
    return GRADIENTS


def NotDifferentiable(op_type: str) -> None:  # noqa: N802 - TF's name
    """Declare ``op_type`` as having no gradient (its inputs get ``None``)."""
    GRADIENTS[op_type] = None


_scratch = ThreadLocalValue(False)


def shape_inference():
    """Run ops for their shapes only: no device time, no trace events."""
    return _scratch.scope(True)


_log_placement = [False]  # context-wide, as TF's flag


def set_log_device_placement(enabled) -> None:
    """Log the device of every op run from now on (``tf.debugging.set_log_device_placement``)."""
    _log_placement[0] = bool(enabled)


def _log(op_type, dev) -> None:
    if _log_placement[0] and not _scratch.value:
        sys.stderr.write(f"Executing op {op_type} in device {dev.name}\n")


def in_shape_inference() -> bool:
    """Whether ops run for their shapes only (a symbolic Keras call)."""
    return bool(_scratch.value)


def placement(inputs):
    """The device an op runs on: the ``tf.device`` scope, else its first input's device."""
    scopes = _device_scopes.items  # context.explicit_device, inline (every op asks)
    if scopes and scopes[-1] is not None:
        return scopes[-1]
    for i in inputs:
        d = getattr(i, "_device", None)
        if d is not None:
            return d
    return context.default_device()


def check_output_fits(op_type, shape, dtype, inputs=(), device=None) -> None:
    """Raise TF's ``ResourceExhaustedError`` ("OOM when allocating tensor with shape[..]")
    now if an output of ``shape`` and ``dtype`` would not fit on the op's device.

    Called before the value is computed, so a tensor bigger than the simulated device is
    never built on the host (no MemoryError, no out-of-memory kill).
    """
    dt = dtype if isinstance(dtype, np.dtype) else array_api.numpy_dtype(
        getattr(dtype, "as_numpy_dtype", dtype))
    nbytes = dt.itemsize
    for d in shape:
        if d < 0:
            return  # the op reports its own shape error
        nbytes *= int(d)
    dev = device if device is not None else placement(inputs)
    if dev.memory_in_use + nbytes > dev.memory_limit:
        dev.check_fits(nbytes, shape=tuple(int(d) for d in shape), dtype=dt, op=op_type)


def broadcast_shape(a: tuple, b: tuple) -> tuple:
    """NumPy's broadcast of two shapes (np.broadcast_shapes, without its cost per op).

    Raises:
      ValueError: shapes that do not broadcast.
    """
    if len(a) < len(b):
        a, b = b, a
    out = list(a)
    offset = len(a) - len(b)
    for i, d in enumerate(b):
        e = out[offset + i]
        if d != e and d != 1:
            if e != 1:
                raise ValueError(f"shapes {a} and {b} do not broadcast")
            out[offset + i] = d
    return tuple(out)


# graph_plan's lowering watches the ops a node runs (at a plan's first execution only):
# callables ``(op_type, inputs, out, attrs, flops, device)``; empty otherwise.
observers: list = []


def execute(op_type, inputs, value, attrs=None, flops=None, device=None):
    """Wrap ``value`` (already computed with ``xp``) as the op's output Tensor."""
    dev = device if device is not None else placement(inputs)
    if type(value) is np.ndarray:  # the common case: one test
        if backend.xp is not np:
            value = array_api.from_host(value)  # computed on the host: onto the device
    elif not isinstance(value, np.ndarray) and not array_api.is_array(value):
        # An element taken out of a string array is bytes, which NumPy would read as 'S'.
        value = (np.array(value, dtype=object) if isinstance(value, bytes)
                 else array_api.from_host(value))
    elif isinstance(value, np.ndarray) and backend.xp is not np:
        value = array_api.from_host(value)  # computed on the host: onto the device
    out = Tensor(value, dev)
    if _log_placement[0]:
        _log(op_type, dev)
    _charge(dev, op_type, inputs, (out,), flops)
    if tape.active():
        tape.record(op_type, inputs, (out,), attrs)
    for watch in observers:   # each watches its own thread's ops
        watch(op_type, inputs, out, attrs, flops, dev)
    return out


def execute_multi(op_type, inputs, values, attrs=None, flops=None, device=None):
    """Like :func:`execute` for an op with several outputs (``split``, ``unstack``)."""
    dev = device if device is not None else placement(inputs)
    outs = tuple(Tensor(array_api.from_host(v), dev) for v in values)
    if _log_placement[0]:
        _log(op_type, dev)
    _charge(dev, op_type, inputs, outs, flops)
    if tape.active():
        tape.record(op_type, inputs, outs, attrs)
    for watch in observers:
        watch(op_type, inputs, outs, attrs, flops, dev)
    return outs


def _charge(dev, op_type, inputs, outs, flops) -> None:
    if not dev.trace.enabled and dev.spec.launch_s == 0 or _scratch.value:
        return
    # Plain loops: this runs for every op, and generator expressions cost more here.
    nbytes = 0
    for i in inputs:
        nbytes += getattr(i, "_nbytes", 0)
    size = 0
    for o in outs:
        nbytes += o._nbytes
        size += o._value.size
    low = low_precision(outs[0]._value.dtype) if outs else False
    dev.run_op(op_type, size if flops is None else flops, nbytes, low)


# dtype -> whether it is float16 or bfloat16: a dtype is found by hash (this runs for every
# op), each one's answer computed once (bfloat16's without loading ml_dtypes before an
# array of it exists).
_LOW_PRECISION: dict = {}


def low_precision(dtype) -> bool:
    """Whether values of ``dtype`` (a NumPy or backend dtype) are float16 or bfloat16."""
    low = _LOW_PRECISION.get(dtype)
    if low is None:
        numpy_dtype = array_api.numpy_dtype(dtype)
        low = _LOW_PRECISION.setdefault(
            dtype, numpy_dtype == np.float16 or dtypes.is_bfloat16(numpy_dtype))
    return low


# --- conversion -------------------------------------------------------------------------
_CONVERSION_HOOK = "_as_tensor"  # distributed values and variables implement this
# The types converted as they are when no dtype is asked (a hash test, for every op's
# inputs): Tensor, and a trace's symbolic tensors (func_graph adds its type).
AS_IS = {Tensor}


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None) -> Tensor:
    """Convert ``value`` to a Tensor (``tf.convert_to_tensor``).

    Raises:
      ValueError: a Tensor or Variable of another dtype than ``dtype``.
      TypeError: a Python value that cannot be represented in ``dtype``.
    """
    if dtype is None and type(value) in AS_IS:  # already a tensor: nothing to convert
        return value
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    if isinstance(value, Tensor):
        if dtype is not None and value.dtype != dtype:
            raise ValueError(
                f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
                f"{value.dtype.name}: {value!r}. Use tf.cast to change a tensor's dtype."
            )
        return value
    hook = getattr(value, _CONVERSION_HOOK, None)
    if hook is not None:
        t = hook()
        return convert_to_tensor(t, dtype=dtype)
    if dtype is None and dtype_hint is not None:
        # TF's preferred dtype: use the hint when the value fits it, else infer its own.
        try:
            return constant_value(value, dtype_hint, strict=True)
        except (TypeError, ValueError):
            return constant_value(value, None)
    return constant_value(value, dtype, strict=dtype is not None)


def constant_value(value, dtype=None, strict=True, shape=None) -> Tensor:
    """A new Tensor from a Python or NumPy value on the current device."""
    key = _scalar_key(value, dtype, strict) if shape is None else None
    arr = _scalars.get(key) if key is not None else None
    if arr is None:
        packed = None   # a list of tensors packs them: their dtype, as TF's auto-packing
        if isinstance(value, (list, tuple)):
            packed = next((v.dtype for v in dtypes.leaves(value) if isinstance(v, Tensor)),
                          None)
            if packed is not None:
                _check_pack(value, packed)
                if tape.active() and dtype in (None, packed):
                    stacked = _autopacked(value, packed)
                    if stacked is not None:
                        return stacked
                value = _tensor_values(value)
        target = (packed if packed is not None else dtypes.infer_dtype(value)) \
            if dtype is None else dtypes.as_dtype(dtype)
        arr = _to_numpy(value, target, strict)
        if key is not None and len(_scalars) < _SCALARS_KEPT and _quiet(arr, value):
            arr.setflags(write=False)   # shared by every tensor made from it
            _scalars[key] = arr
    dev = context.current_device()
    if shape is not None:
        if arr.size == 1:  # a scalar filled out to ``shape``: TF's Fill
            check_output_fits("Fill", (int(shape),) if np.ndim(shape) == 0 else shape,
                              arr.dtype, device=dev)
        arr = _fit_shape(arr, shape)
    if _log_placement[0]:
        _log("_EagerConst", dev)
    return Tensor(array_api.from_host(arr), dev)


# A Python scalar's converted array, by (type, value, dtype asked, strict): an optimizer's
# or a metric's constants convert the same few numbers at every step. Float zeros are left
# out (0.0 == -0.0 as keys), as is NaN (never equal to itself), and conversions that may
# warn (an overflow): each of those converts afresh, warning as it did.
_scalars: dict = {}
_SCALARS_KEPT = 512
_SCALAR_TYPES = (int, float, bool)


def _scalar_key(value, dtype, strict):
    kind = type(value)
    if kind not in _SCALAR_TYPES or (kind is float and (value == 0 or value != value)):
        return None
    try:
        key = (kind, value, dtype, strict)
        hash(key)
    except TypeError:   # an unhashable dtype argument: converted as usual
        return None
    return key


def _quiet(arr, value) -> bool:
    """Whether converting ``value`` to ``arr`` could not have warned (no overflow to an
    infinity, no integer wrap-around): only such conversions are kept."""
    if arr.dtype.kind == "f":
        return bool(np.isfinite(arr))
    return arr.dtype.kind == "b" or arr.item() == value


def _is_host_strings(value) -> bool:
    """String values stay NumPy ``object`` arrays (TF keeps strings in host memory too)."""
    return isinstance(value, np.ndarray) and value.dtype.kind == "O"


def _check_pack(values, dtype) -> None:
    """TF's Pack of a list holding tensors of different dtypes.

    Raises:
      InvalidArgumentError: an element of the list is a tensor of another dtype.
    """
    for i, v in enumerate(values):
        if isinstance(v, Tensor) and v.dtype != dtype:
            raise errors.InvalidArgumentError(
                None, None, f"cannot compute Pack as input #{i}(zero-based) was expected to "
                f"be a {dtype.name} tensor but is a {v.dtype.name} tensor [Op:Pack] name: "
                "packed")


def _autopacked(value, dtype):
    """A list holding tensors as TF's ``_autopacking_helper`` converts it while a tape
    records: a Pack of its elements (a tensor as it is, a nested list packed again, any
    other value a constant of ``dtype``), so the tape's gradients reach the tensors (a
    constant would end them: ``tf.reduce_sum([a * a, b])`` had no gradient). None when the
    elements' shapes differ: the caller's conversion gives its error. Only under a tape:
    without one the constant is the same value and keeps the eager path cheap."""
    # a nested list holding tensors comes back through constant_value packed in turn
    elems = [v if isinstance(v, Tensor) else constant_value(v, dtype) for v in value]
    if not elems or any(e._value.shape != elems[0]._value.shape for e in elems):
        return None
    xp = array_api.namespace(*(e._value for e in elems))
    return execute("Pack", elems, xp.stack([e._value for e in elems]), attrs={"axis": 0})


def _tensor_values(value):
    """A Python sequence with its tensors as NumPy values (a string scalar as bytes)."""
    if isinstance(value, Tensor):
        if hasattr(value, "_placeholders"):   # symbolic, inside a recorded op: its placeholder
            return backend.to_host(value._value)
        return value.numpy()
    if isinstance(value, (list, tuple)):
        return [_tensor_values(v) for v in value]
    return value


def _to_numpy(value, target: dtypes.DType, strict: bool):
    arr = dtypes.text_array(value)
    try:
        arr = np.asarray(value) if arr is None else arr
    except ValueError as e:
        raise ValueError(
            f"Can't convert non-rectangular Python sequence to Tensor: {value!r}"
        ) from e
    if target.is_string or arr.dtype.kind in "USO":
        return _to_strings(value, arr, target)
    if arr.dtype.kind == "f" and target.is_integer and strict:
        # TF refuses Python floats for an integer dtype, even whole ones (1.0); NumPy
        # floats it casts, when whole
        if _python_floats(value) or not np.all(np.isfinite(arr)) or np.any(
                arr != np.round(arr)):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {target.name}")
    if arr.dtype.kind == "f" and target.is_bool and strict:
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype bool")
    return arr.astype(target.as_numpy_dtype, copy=False)


def _python_floats(value) -> bool:
    """Whether ``value`` is a Python float or a Python sequence holding one (not NumPy's)."""
    if isinstance(value, (list, tuple)):
        return any(type(v) is float for v in dtypes.leaves(value))
    return type(value) is float


def _is_text(v) -> bool:
    return isinstance(v, (str, bytes))


def _to_strings(value, arr, target: dtypes.DType):
    """TF's conversion of text: a ``tf.string`` array of ``bytes`` (``str`` UTF-8 encoded).

    Raises:
      ValueError: a Python sequence mixing text and numbers, or another Python object.
      TypeError: text for a numeric ``target``, or numbers for ``tf.string``.
    """
    texts = [_is_text(v) for v in arr.flat]
    if texts and any(texts) and not all(texts):
        if isinstance(value, (list, tuple)):
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
        texts = []
    if arr.dtype.kind == "O" and not (texts and all(texts)) and not (
            arr.size == 0 and target.is_string):
        raise dtypes.unsupported_type_error(value, arr)
    if not target.is_string:
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype "
                        f"{kernel_dtype_name(target)}")
    if arr.dtype.kind not in "USO" and arr.size:
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype string")
    out = np.empty(arr.shape, dtype=object)
    for i, v in enumerate(arr.flat):
        out.flat[i] = bytes(v) if isinstance(v, bytes) else str(v).encode("utf-8")
    return out


def _fit_shape(arr, shape):
    shape = (int(shape),) if np.ndim(shape) == 0 else tuple(int(d) for d in shape)
    if arr.ndim == 0 or arr.size == 1:
        return np.broadcast_to(arr.reshape(()), shape).copy()
    if arr.size == int(np.prod(shape)):
        return arr.reshape(shape)
    raise TypeError(
        f"Eager execution of tf.constant with unsupported shape. Tensor {arr} "
        f"(converted from {arr.tolist()!r}) has {arr.size} elements, but got `shape` "
        f"{shape} with {int(np.prod(shape))} elements)."
    )


# TF's C++ names of dtypes (DataTypeString), which its kernel error messages use.
_KERNEL_NAMES = KERNEL_DTYPE_NAMES


def kernel_dtype_name(dtype) -> str:
    """The name TF's C++ kernels print for ``dtype`` or a dtype name (``float`` for float32)."""
    name = dtype if isinstance(dtype, str) else dtype.name
    return _KERNEL_NAMES.get(name, name)


def input_dtype_error(op_type: str, index: int, expected, got, advice: str = ""):
    """TF's kernel error for input ``index`` of ``op_type`` having dtype ``got``, not
    ``expected`` (a dtype or a name such as ``"string"``)."""
    return errors.InvalidArgumentError(
        None, None,
        f"cannot compute {op_type} as input #{index}(zero-based) was expected to be a "
        f"{kernel_dtype_name(expected)} tensor but is a {kernel_dtype_name(got)} "
        f"tensor [Op:{op_type}]" + advice)


def _in_graph(tensors) -> bool:
    from simdist.framework import func_graph

    return any(func_graph.is_symbolic(t) for t in tensors)


def check_same_dtype(op_type: str, *tensors: Tensor) -> None:
    """TF's error when the inputs of a binary op have different dtypes: the kernel's
    InvalidArgumentError eagerly; in a graph being traced, the TypeError TF's op builder
    (op_def_library) raises for the inputs ``x`` and ``y``."""
    first_np = tensors[0]._value.dtype
    if all(t._value.dtype == first_np for t in tensors[1:]):
        return
    first = tensors[0].dtype
    for i, t in enumerate(tensors[1:], start=1):
        if t.dtype != first:
            if len(tensors) == 2 and _in_graph(tensors):
                raise TypeError(f"Input 'y' of '{op_type}' Op has type {t.dtype.name} that "
                                f"does not match type {first.name} of argument 'x'.")
            raise input_dtype_error(
                op_type, i, first, t.dtype,
                "\nCast one operand with tf.cast so both have the same dtype.")
