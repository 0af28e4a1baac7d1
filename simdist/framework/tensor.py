"""``Tensor``: an immutable value that lives on one simulated device.

Glossary:
  _value   -- the backend array (read-only); ``numpy()`` returns a host copy.
  device   -- the canonical name of the device that holds it; its bytes are accounted
              in that device's memory for as long as the tensor lives.
  _id      -- a unique number the gradient tape uses to follow the tensor.
  copy_to  -- a new Tensor with the same value on another device; both devices are busy
              for the transfer (hardware.transfer prices it), as EagerTensor's
              ``_copy_to_device``.

Operators (``+``, ``@``, ``<`` ...) are attached by ``simdist.framework.ops`` as TF's
``math_ops`` does, so this file holds no maths. Mirrors tensorflow/python/framework/ops.py
(``_EagerTensorBase``).
"""

from __future__ import annotations

import itertools

import numpy as np

from simdist.framework import dtypes
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.thread_local import ThreadLocalValue
from simdist.hardware import array_api, backend
from simdist.hardware.transfer import charge_transfer

_ids = itertools.count(1)
_new = object.__new__
_DTYPE_OF_NUMPY = dtypes.by_numpy_dtype()

# The FuncGraph this thread is tracing outside any recorded op, else None (see func_graph):
# a concrete tensor made then was made by code the graph did not record.
tracing = ThreadLocalValue(None)
# Keras's ``_keras_mask`` attribute of a tensor, kept by simdist.keras.backend (a table a
# traced function's replay marks too): [getter, setter], installed when Keras is imported.
KERAS_MASK_HOOKS: list = [lambda t: None, None]
# How many traces are in progress in any thread: the hot paths (every op, every tensor) look
# at this plain counter first and at the thread-local only while some trace runs.
active = [0]


def _caller() -> str:
    """The first function up the stack outside tensor.py and execute.py (for messages)."""
    import sys

    f = sys._getframe(2)
    while f is not None and f.f_globals.get("__name__") in (
            __name__, "simdist.framework.execute"):
        f = f.f_back
    if f is None:
        return "code"
    return f"{f.f_globals.get('__name__')}.{f.f_code.co_name}"


class NotTraceable(Exception):
    """Raised while tracing by code whose effect a graph could not replay (simdist-internal:
    ``tf.function`` catches it and runs that function eagerly, with a warning)."""


class Tensor:
    """An immutable multi-dimensional array on a simulated device."""

    # _teach_tag: set only by simdist.warnings.tag (unset reads as None through getattr).
    __slots__ = ("_value", "_device", "_id", "_nbytes", "_teach_tag", "__weakref__")
    # NumPy must defer to our reflected operators (np.float32(2) * tensor -> Tensor).
    __array_priority__ = 100

    def __init__(self, value, device):
        if active[0] and tracing.value is not None:
            raise NotTraceable(f"{_caller()} made a tensor outside the ops a graph records")
        if backend.placer is not None:  # CuPy: the array lives on the device's real GPU
            value = backend.placer(value, device)
        if type(value) is np.ndarray:
            value.setflags(write=False)
        elif getattr(getattr(value, "flags", None), "writeable", False):
            value.flags.writeable = False   # CuPy's flags have no writeable: its arrays stay so
        self._value = value
        self._device = device
        self._id = next(_ids)
        # Only once accounted: __del__ frees what was allocated.
        self._nbytes = device.allocate_array(value)

    def __del__(self):
        try:
            self._device.free(self._nbytes)
        except Exception:  # interpreter shutdown: nothing left to account
            pass

    # --- properties -------------------------------------------------------------------
    @property
    def dtype(self) -> dtypes.DType:
        # A NumPy value's dtype is looked up directly (read for nearly every op); other
        # backends' dtype objects go through the general conversion.
        value = self._value
        if type(value) is np.ndarray:
            found = _DTYPE_OF_NUMPY.get(value.dtype)
            if found is not None:
                return found
        return dtypes.as_dtype(array_api.numpy_dtype(value))

    @property
    def _keras_mask(self):
        """The mask a Keras layer gave this output (tf-keras's ``_keras_mask``); a tensor
        without one has no such attribute, as TF's EagerTensor."""
        mask = KERAS_MASK_HOOKS[0](self)
        if mask is None:
            raise AttributeError("'tensorflow.python.framework.ops.EagerTensor' object has no "
                                 "attribute '_keras_mask'")
        return mask

    @_keras_mask.setter
    def _keras_mask(self, mask):
        KERAS_MASK_HOOKS[1](self, mask)

    @property
    def shape(self) -> TensorShape:
        value = self._value
        if type(value) is np.ndarray:  # NumPy's shape: a tuple of Python ints already
            return TensorShape.from_ints(value.shape)
        return TensorShape(value.shape)

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def name(self):
        """TF's eager tensors have no name (a graph's tensors do: func_graph)."""
        raise AttributeError("Tensor.name is undefined when eager execution is enabled.")

    def set_shape(self, shape) -> None:
        """TF's eager ``set_shape``: a check that ``shape`` fits (a graph tensor's refines
        its static shape: simdist.framework.func_graph.SymbolicTensor).

        Raises:
          ValueError: the tensor's shape is not compatible with ``shape``.
        """
        given = TensorShape(shape)
        if not self.shape.is_compatible_with(given):
            raise ValueError(f"Tensor's shape {self.shape} is not compatible with supplied "
                             f"shape {given}.")

    @property
    def ndim(self) -> int:
        return self._value.ndim

    @property
    def device(self) -> str:
        return self._device.name

    @property
    def backing_device(self) -> str:
        return self._device.name

    def numpy(self):
        """A NumPy copy of the value (a NumPy scalar for rank 0, as TF returns)."""
        host = backend.to_host(self._value)
        if host.ndim == 0:
            if host.dtype.names:   # a variant (a TensorList's flow) has no NumPy value
                from simdist.framework import errors

                raise errors.InvalidArgumentError(
                    None, None, "Cannot convert a Tensor of dtype variant to a NumPy array.")
            return host[()]
        return host.copy()

    def ref(self):
        """A hashable reference to this tensor (tensors themselves are unhashable, as in TF)."""
        return _Reference(self)

    # --- Python protocols -------------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        host = np.asarray(backend.to_host(self._value))
        if dtype is not None:
            host = host.astype(dtype)
        return host.copy() if copy else host

    def __len__(self) -> int:
        if self._value.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return self._value.shape[0]

    def __iter__(self):
        if self._value.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        for i in range(self._value.shape[0]):
            yield self[i]

    def __bool__(self) -> bool:
        return bool(self._value)

    def __float__(self) -> float:
        return float(self._value)

    def __int__(self) -> int:
        return int(self._value)

    def __index__(self) -> int:
        if not self.dtype.is_integer or self._value.ndim != 0:
            raise TypeError("Only integer scalar tensors can be used as an index.")
        return int(self._value)

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def __setitem__(self, key, value):
        raise TypeError(
            "'Tensor' object does not support item assignment: tensors are immutable. "
            "Use a tf.Variable and assign(), or build a new tensor (e.g. tf.where)."
        )

    def __format__(self, spec: str) -> str:
        return backend.to_host(self._value).__format__(spec)

    def __str__(self) -> str:
        if _is_variant(self._value):   # a variant: TF names what it holds
            return f"tf.Tensor(<TensorList>, shape={self.shape}, dtype={self.dtype.name})"
        return f"tf.Tensor({_numpy_text(self)}, shape={self.shape}, dtype={self.dtype.name})"

    def __repr__(self) -> str:
        if _is_variant(self._value):
            return (f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, "
                    "value=<TensorList>>")
        return (f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, "
                f"numpy={_numpy_text(self, is_repr=True)}>")


def _is_variant(value) -> bool:
    """Whether a tensor's array is a variant record (NumPy only: the strict Array API
    backend's dtypes have no ``names``)."""
    return bool(getattr(value.dtype, "names", None))


def _numpy_text(t: Tensor, is_repr: bool = False) -> str:
    """The value's NumPy text, as TF's ``numpy_text``: text of several lines starts on a
    line of its own (``numpy=`` ends its line), so a matrix's rows line up; a repr shows a
    scalar as the Python number it is (float32 0.1 as 0.10000000149011612)."""
    value = t.numpy()
    if is_repr and np.ndim(value):
        text = repr(value)
    elif is_repr and not isinstance(value, bytes) and hasattr(value, "item"):
        text = repr(value.item())
    else:
        text = str(value)
    return "\n" + text if "\n" in text else text


class _Reference:
    """A hashable handle on a tensor or variable (``x.ref()``); ``deref()`` gives it back."""

    __slots__ = ("_obj",)

    def __init__(self, obj):
        self._obj = obj

    def deref(self):
        return self._obj

    def __hash__(self):
        return id(self._obj)

    def __eq__(self, other):
        return isinstance(other, _Reference) and other._obj is self._obj

    def __repr__(self):
        return f"<Reference wrapping {self._obj!r}>"


def copy_to(tensor: Tensor, device) -> Tensor:
    """``tensor``'s value on ``device`` (the same tensor when it already lives there)."""
    if tensor._device is device:
        return tensor
    charge_transfer(tensor._device, device, tensor._nbytes)
    return Tensor(array_api.copy(tensor._value), device)  # CuPy: onto device's GPU (Tensor)


def made(values, device) -> list:
    """``[Tensor(v, device) for v in values]``: the same tensors (each array made read-only,
    ids drawn in turn, bytes accounted), made without a call each where the values are
    NumPy arrays and all their bytes fit (accounted at once: Device.allocate_all, the peak
    the last one reaches); else each by ``Tensor`` (its error where one does not fit)."""
    if active[0] and tracing.value is not None or backend.placer is not None or \
            not all(type(v) is np.ndarray for v in values) or \
            not device.allocate_all(sum(v.nbytes for v in values)):
        return [Tensor(v, device) for v in values]
    out = []
    for value in values:
        value.setflags(write=False)
        t = _new(Tensor)
        t._value, t._device, t._id, t._nbytes = value, device, next(_ids), value.nbytes
        out.append(t)
    return out
