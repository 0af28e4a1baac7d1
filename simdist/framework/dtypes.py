"""TensorFlow's dtypes over NumPy's.

Glossary:
  DType          -- a TF dtype: ``name`` (``"float32"``), ``as_numpy_dtype``, ``is_floating``.
  as_dtype       -- turn a DType, NumPy dtype, Python type or name into a DType.
  infer_dtype    -- the dtype TF gives a Python or NumPy value (Python float -> float32,
                    Python int -> int32, NumPy arrays keep theirs).
  bfloat16       -- TPUs' 16-bit float (8 exponent bits like float32, 7 mantissa bits);
                    values are ml_dtypes.bfloat16 arrays, so casts round to nearest even as
                    TF's do. NumPy calls its kind 'V', so ``np_kind`` reads it as 'f'.
                    ml_dtypes loads on bfloat16's first use (its NumPy dtype, an array of
                    it): its import costs as much as the rest of the eager core's.
  complex64/128  -- complex numbers (pairs of float32 / float64); a Python ``complex`` is
                    complex128, as in TF.
  string         -- byte strings of any length (TF's ``tf.string``): values are NumPy
                    ``object`` arrays of ``bytes``, as TF's ``numpy()`` gives them; ``str``
                    is stored UTF-8 encoded. ``as_numpy_dtype`` is ``object`` and ``size``
                    is 0, as in TF; NumPy's text kinds ('U', 'S') read as string.
  resource       -- a variable's handle as a traced graph lists it (its resource
                    Placeholder's dtype), opaque as ``variant`` is.
  datatype enum  -- TF's DataType number of a dtype (types.proto: DT_FLOAT = 1), what a
                    FunctionDef's signature holds; ``as_dtype`` takes it too.

Mirrors tensorflow/python/framework/dtypes.py.
"""

from __future__ import annotations

import numpy as np

_BF16 = None   # np.dtype(ml_dtypes.bfloat16), once loaded (``_bfloat16_numpy``)


def _bfloat16_numpy() -> np.dtype:
    """bfloat16's NumPy dtype, importing ml_dtypes the first time (and indexing it)."""
    global _BF16
    if _BF16 is None:
        import ml_dtypes

        _BY_NUMPY[np.dtype(ml_dtypes.bfloat16)] = bfloat16
        _BF16 = np.dtype(ml_dtypes.bfloat16)
    return _BF16


def is_bfloat16(np_dtype: np.dtype) -> bool:
    """Whether the NumPy dtype ``np_dtype`` is bfloat16 (no other kind than NumPy's 'V' can
    be: a float32 or int array never loads ml_dtypes)."""
    return np_dtype.kind == "V" and np_dtype.name == "bfloat16" and np_dtype == _bfloat16_numpy()


def _other_namespace_dtype(value):
    from simdist.hardware import array_api

    try:
        return array_api.numpy_dtype(value)
    except TypeError:
        return None


def np_kind(np_dtype) -> str:
    """NumPy's kind letter of ``np_dtype``, with bfloat16 a float ('f') as in TF."""
    np_dtype = np.dtype(np_dtype)
    return "f" if is_bfloat16(np_dtype) else np_dtype.kind


def finfo(np_dtype):
    """``np.finfo`` that knows bfloat16."""
    if is_bfloat16(np.dtype(np_dtype)):
        import ml_dtypes

        return ml_dtypes.finfo(np_dtype)
    return np.finfo(np_dtype)


class DType:
    """A TensorFlow element type."""

    __slots__ = ("name", "as_numpy_dtype", "_np")

    def __init__(self, name: str, np_dtype):
        self.name = name
        self._np = np.dtype(np_dtype)
        self.as_numpy_dtype = object if self._np.kind == "O" else self._np.type

    @property
    def is_floating(self) -> bool:
        return np_kind(self._np) == "f"

    @property
    def is_integer(self) -> bool:
        return self._np.kind in "iu"

    @property
    def is_complex(self) -> bool:
        return self._np.kind == "c"

    @property
    def is_bool(self) -> bool:
        return self._np.kind == "b"

    @property
    def is_numpy_compatible(self) -> bool:
        return True

    @property
    def is_string(self) -> bool:
        return self._np.kind == "O"

    @property
    def size(self) -> int:
        return 0 if self.is_string else self._np.itemsize

    @property
    def base_dtype(self) -> DType:
        return self

    @property
    def min(self):
        return finfo(self._np).min if self.is_floating else np.iinfo(self._np).min

    @property
    def max(self):
        return finfo(self._np).max if self.is_floating else np.iinfo(self._np).max

    @property
    def as_datatype_enum(self) -> int:
        """TF's DataType enum value (types.proto: ``DT_FLOAT`` = 1)."""
        return _ENUMS[self.name]

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: {self.name!r}>"

    def __eq__(self, other) -> bool:
        if isinstance(other, DType):   # one DType per name (half is float16 ...)
            return self.name == other.name
        try:
            return self.name == as_dtype(other).name
        except (TypeError, ValueError):
            return False

    def __hash__(self) -> int:
        return hash(self._np)

    def __reduce__(self):   # unpickled as the one DType of its name, as TF's
        return as_dtype, (self.name,)


class _BFloat16(DType):
    """bfloat16: its NumPy dtype is ml_dtypes', loaded on first use (``_bfloat16_numpy``)."""

    __slots__ = ()

    def __init__(self):
        self.name = "bfloat16"

    @property
    def _np(self) -> np.dtype:
        return _bfloat16_numpy()

    @property
    def as_numpy_dtype(self):
        return _bfloat16_numpy().type


float16 = DType("float16", np.float16)
half = float16
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
bfloat16 = _BFloat16()
double = float64
int8 = DType("int8", np.int8)
uint8 = DType("uint8", np.uint8)
int16 = DType("int16", np.int16)
uint16 = DType("uint16", np.uint16)
int32 = DType("int32", np.int32)
uint32 = DType("uint32", np.uint32)
int64 = DType("int64", np.int64)
uint64 = DType("uint64", np.uint64)
bool_ = DType("bool", np.bool_)
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)
string = DType("string", np.object_)
# TF's opaque handle type (a TensorList's value, simdist.framework.ops.list_ops): a NumPy
# record of one object field, so its NumPy dtype is its own (not string's ``object``).
variant = DType("variant", np.dtype([("variant", np.object_)]))
resource = DType("resource", np.dtype([("resource", np.object_)]))   # a variable's handle

DTYPES = {d.name: d for d in (float16, bfloat16, float32, float64, int8, uint8, int16, uint16,
                               int32, uint32, int64, uint64, bool_, complex64, complex128,
                               string, variant, resource)}
_BY_NUMPY = {d._np: d for d in DTYPES.values() if d is not bfloat16}   # + bfloat16 once loaded
# types.proto's DataType numbers
_ENUMS = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6,
          "string": 7, "complex64": 8, "int64": 9, "bool": 10, "bfloat16": 14, "uint16": 17,
          "complex128": 18, "float16": 19, "resource": 20, "variant": 21, "uint32": 22,
          "uint64": 23}
_BY_ENUM = {n: DTYPES[name] for name, n in _ENUMS.items()}


def by_numpy_dtype() -> dict:
    """``numpy.dtype -> DType`` for the dtypes simdist supports (the table itself, for hot
    paths' lookups: not to be modified)."""
    return _BY_NUMPY


# TF's DataType enum names that are not "DT_" + the dtype's name in capitals.
_DATATYPE_NAMES = {"float64": "DT_DOUBLE", "float32": "DT_FLOAT", "float16": "DT_HALF"}


def datatype_name(name: str) -> str:
    """TF's DataType enum name of a dtype name, as its NodeDefs and kernel lists print it
    (``float32`` -> ``DT_FLOAT``, ``int64`` -> ``DT_INT64``)."""
    return _DATATYPE_NAMES.get(name, "DT_" + name.upper())


def as_dtype(value) -> DType:
    """Convert ``value`` (a DType, NumPy dtype, Python type or name) to a DType.

    Raises:
      TypeError: if the value names no dtype simdist supports.
    """
    if isinstance(value, DType):
        return value
    found = _BY_NUMPY.get(value) if isinstance(value, np.dtype) else None
    if found is not None:
        return found
    if isinstance(value, str) and value in DTYPES:
        return DTYPES[value]
    if type(value) is int and value in _BY_ENUM:   # a DataType enum value
        return _BY_ENUM[value]
    if value is float:
        return float32
    if value is int:
        return int32
    if value is bool:
        return bool_
    if value is complex:
        return complex128
    try:
        npd = np.dtype(value)
    except TypeError:  # another array namespace's dtype object (array_api_strict.float32)
        npd = _other_namespace_dtype(value)
    if npd is not None and npd in _BY_NUMPY:
        return _BY_NUMPY[npd]
    if npd is not None and is_bfloat16(npd):   # the first bfloat16 array seen
        return bfloat16
    if npd is not None and npd.kind in "US":
        return string
    raise TypeError(
        f"Cannot convert {value!r} to a simdist DType. Supported: {sorted(DTYPES)}."
    )


def leaves(value):
    """The non-sequence leaves of a nested Python list / tuple, in order."""
    for v in value:
        if isinstance(v, (list, tuple)):
            yield from leaves(v)
        else:
            yield v


def text_array(value):
    """A Python sequence holding text as a NumPy ``object`` array of its own leaves (NumPy's
    text kinds would strip trailing NUL bytes, mix ``str`` with ``bytes`` badly and turn
    numbers into text); None for a value holding no text.

    Raises:
      ValueError: a non-rectangular sequence.
    """
    if not isinstance(value, (list, tuple)) or not any(
            isinstance(v, (str, bytes)) for v in leaves(value)):
        return None
    arr = np.array(value, dtype=object)
    if any(isinstance(v, (list, tuple)) for v in arr.flat):
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
    return arr


def infer_dtype(value) -> DType:
    """The dtype TensorFlow infers for a Python or NumPy value (as ``tf.constant`` does)."""
    if hasattr(value, "dtype"):
        dt = value.dtype
        if isinstance(dt, DType):
            return dt
        return as_dtype(dt)
    arr = text_array(value)
    try:
        arr = np.asarray(value) if arr is None else arr
    except ValueError:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
    if arr.dtype.kind == "f":
        return float32
    if arr.dtype.kind in "iu":
        if arr.size and (arr.max() > np.iinfo(np.int32).max or arr.min() < np.iinfo(np.int32).min):
            return int64
        return int32
    if arr.dtype.kind == "b":
        return bool_
    if arr.dtype.kind == "c":   # Python complex numbers are complex128, as in TF
        return complex128
    if arr.dtype.kind in "US" or (arr.dtype.kind == "O" and arr.size
                                  and any(isinstance(v, (str, bytes)) for v in arr.flat)):
        return string
    raise unsupported_type_error(value, arr)


def unsupported_type_error(value, arr=None) -> ValueError:
    """TF's error for a value no tensor can hold, naming the first element that cannot be one
    (``tf.constant([object()])`` names the object)."""
    if arr is not None and arr.dtype.kind == "O" and isinstance(value, (list, tuple)):
        value = next((v for v in arr.flat if not isinstance(v, (str, bytes))), value)
    return ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                      f"({type(value)}) to a Tensor.")
