"""The extras device code needs that the Array API standard lacks: one adapter for every backend.

Code on device values uses the standard namespace (``backend.xp``: ``xp.reshape(a, s)``,
``xp.concat``, ``xp.asarray(a, copy=True)``, ``xp.astype`` ...) plus only the functions
below. Each says why the standard does not cover it. On NumPy they cost nothing.

Glossary:
  host array  -- a NumPy array in host memory. Values whose dtype the backend cannot hold
                 (strings; float16 and bfloat16 on array_api_strict, bfloat16 on CuPy)
                 stay host arrays on every backend, and ``namespace`` sends their maths to
                 NumPy.
  namespace   -- the namespace that computes on some arrays: NumPy for host arrays, the
                 active backend's otherwise.
  numpy dtype -- the ``numpy.dtype`` of an array: the Array API's dtype objects have no
                 ``itemsize`` / ``kind``, and simdist's DTypes are keyed by NumPy dtypes.

The extras (why each exists):
  to_host / from_host -- host transfer. The standard has ``from_dlpack`` only, which need
                 not cross devices (a CuPy array cannot become a NumPy one through it).
  numpy_dtype / nbytes / kind -- dtype facts the standard leaves out (``nbytes``,
                 ``itemsize`` and ``dtype.kind`` are NumPy attributes).
  keeps_on_host -- the 16-bit floats: the standard has no float16 and no bfloat16
                 (array_api_strict refuses both; CuPy has float16 but no bfloat16), and
                 bfloat16 in NumPy comes from ml_dtypes. Such values are host arrays.
  combiner    -- ``op(a, b)`` written into ``out`` without a temporary: the standard has
                 no ``out=``; NumPy and CuPy ufuncs do (the executor's hot loop), so only
                 the strict backend pays the temporary plus a copy. Bits are the same.
  astype / concat / matrix_transpose / permute_dims -- the standard's functions under
                 names every supported NumPy (>= 1.24) and CuPy have (``a.astype``,
                 ``concatenate``, ``swapaxes``, ``transpose``), with NumPy dtypes.
  mover       -- a transfer between two real devices (CuPy: a peer copy); None where all
                 arrays share one device, so the executor's loop pays nothing.
  add_at      -- a scatter-add (segment sums, embedding gradients): the standard has none.
  contiguous  -- C order, for buffers packed for a transfer: the standard has no memory
                 layout (``ascontiguousarray`` is NumPy's/CuPy's); strict arrays are returned
                 as they are.
  is_array    -- whether a value is an array of the active backend or a host array: the
                 standard has no common array type to test with ``isinstance``.
  pad         -- ``numpy.pad`` with a constant: the standard has no pad (strict: a
                 ``full`` array with the input written into its middle). CuPy: ``cupy.pad``.
  windows     -- the sliding windows ``[N, OH, OW, KH, KW, C]`` of an NHWC image (im2col
                 for convolutions and pooling): NumPy and CuPy give a view without copying
                 (``lib.stride_tricks.as_strided``; the standard has no strides); strict
                 arrays stack the ``KH * KW`` strided slices (the same values, copied).
  synchronize -- wait until the device has finished the work queued on ``arrays`` (a
                 wall clock around device work must stop after it): the standard has no
                 streams. CuPy: each array's device's ``synchronize()``; NumPy and the
                 strict backend compute eagerly, so nothing to wait for.
"""

from __future__ import annotations

import contextlib

import numpy as np

from simdist.hardware import backend

# Binary ops a combine step applies, by their standard names (also NumPy/CuPy ufuncs).
_COMBINE = ("add", "multiply", "minimum", "maximum")
_BOOL_COMBINE = {"minimum": "logical_and", "maximum": "logical_or"}


def namespace(*arrays):
    """The namespace that computes on ``arrays``: NumPy if any is a host array, else xp."""
    for a in arrays:
        if isinstance(a, np.ndarray | np.generic):
            return np
    return backend.xp


def is_array(value) -> bool:
    """Whether ``value`` is an array of the active backend or a host (NumPy) array."""
    if isinstance(value, np.ndarray):
        return True
    xp = backend.xp
    return xp is not np and _array_type(xp) is not None and isinstance(value, _array_type(xp))


def _array_type(xp):
    t = getattr(backend.native, "ndarray", None)  # NumPy, CuPy
    if t is None:
        t = getattr(xp, "Array", None)
        if t is None:  # array_api_strict keeps its Array class in a private module
            t = type(xp.asarray(0))
            xp.Array = t
    return t


def to_host(array) -> np.ndarray:
    """``array`` as a NumPy array in host memory (the array itself when it is one)."""
    if isinstance(array, np.ndarray | np.generic):
        return np.asarray(array)
    name = backend.get_backend()
    if name == "cupy":  # a device-to-host copy
        return array.get()
    if name == "array_api_strict":  # off its device1 onto the CPU, which NumPy can read
        strict = backend.native
        return np.asarray(strict.asarray(array, device=strict.Device("CPU_DEVICE")))
    return np.asarray(array)


def keeps_on_host(dtype) -> bool:
    """Whether values of NumPy ``dtype`` stay host arrays on the active backend."""
    dtype = np.dtype(dtype)
    if dtype.kind in "OUSV":
        return True
    name = backend.get_backend()
    if name == "numpy":
        return False
    return name == "array_api_strict" and dtype == np.float16


def from_host(host):
    """A host array (or scalar, list ...) as an array of the active backend.

    Values whose dtype the backend lacks stay host arrays (see ``keeps_on_host``).
    """
    xp = backend.xp
    if xp is np:
        return np.asarray(host)
    if not isinstance(host, np.ndarray):
        if is_array(host):
            return host
        host = np.asarray(host)
    if keeps_on_host(host.dtype):
        return host
    return xp.asarray(host)


def numpy_dtype(dtype_or_array) -> np.dtype:
    """The ``numpy.dtype`` of an array, or of a dtype object of any backend."""
    dt = dtype_or_array
    if type(dt) is np.ndarray:  # the common case first (every op asks)
        return dt.dtype
    if not isinstance(dt, type | str | np.dtype):  # an array or a scalar: its dtype
        dt = getattr(dt, "dtype", dt)
    if isinstance(dt, np.dtype):
        return dt
    try:
        return np.dtype(dt)
    except TypeError:  # array_api_strict's dtypes print as 'array_api_strict.float32'
        return np.dtype(str(dt).rsplit(".", 1)[-1])


def backend_dtype(dtype, xp=None):
    """The dtype object of namespace ``xp`` (default: the active one) for a NumPy dtype."""
    xp = xp or backend.xp
    dtype = np.dtype(dtype)
    if xp is np:
        return dtype
    if dtype == np.bool_:
        return xp.bool
    return getattr(xp, dtype.name)


def kind(array) -> str:
    """NumPy's one-letter dtype kind of ``array`` ('b', 'i', 'u', 'f', 'c', ...)."""
    return numpy_dtype(array).kind


def itemsize(array) -> int:
    """Bytes per element of ``array``."""
    return numpy_dtype(array).itemsize


def nbytes(array) -> int:
    """Bytes ``array`` holds (``size * itemsize``)."""
    n = getattr(array, "nbytes", None)
    if n is not None:
        return int(n)
    return int(array.size) * itemsize(array)


def combiner(op: str, xp=None, dtype=None):
    """``f(a, b, out=dst)`` writing ``op(a, b)`` into ``dst``, for ``op`` one of add /
    multiply / minimum / maximum, on namespace ``xp`` (default: the active one), for
    arrays of NumPy ``dtype``.

    NumPy and CuPy give their ufunc itself (``out=``: no temporary, no overhead); the
    standard has no ``out=``, so other namespaces compute, then copy into ``dst``. On bools
    the standard has no minimum / maximum: they are logical_and / logical_or (NumPy's
    result on bools, bit for bit).
    """
    if op not in _COMBINE:
        raise ValueError(f"Unknown combine op {op!r}; use one of {list(_COMBINE)}.")
    xp = xp or backend.xp
    if xp is np:
        return getattr(np, op)
    if _is_cupy(xp):
        return getattr(backend.native, op)  # CuPy's own ufunc (a wrapper may drop out=)
    if dtype is not None and np.dtype(dtype) == np.bool_:
        op = _BOOL_COMBINE.get(op, op)
    fn = getattr(xp, op)

    def combine(a, b, out):
        out[...] = fn(a, b)

    return combine


def _is_cupy(xp) -> bool:
    return xp.__name__.split(".")[0] in ("cupy",) or xp.__name__.endswith(".cupy")


def astype(array, dtype):
    """``array`` cast to NumPy ``dtype`` (no copy when it already has it): the standard's
    ``xp.astype`` with a dtype of the array's own namespace (NumPy < 2.1 has no function)."""
    xp = namespace(array)
    if xp is np or _is_cupy(xp):
        if xp is not np and keeps_on_host(dtype):  # e.g. to bfloat16: a host array
            return to_host(array).astype(dtype)
        return array.astype(dtype, copy=False)
    if keeps_on_host(dtype):  # float16 / bfloat16 on the strict backend: a host array
        return to_host(array).astype(dtype)
    return xp.astype(array, backend_dtype(dtype, xp), copy=False)


def concat(arrays, axis=0):
    """The standard's ``xp.concat`` (NumPy < 2.0 and CuPy name it ``concatenate``)."""
    xp = namespace(*arrays)
    fn = getattr(xp, "concat", None) or xp.concatenate
    return fn(list(arrays), axis=axis)


def matrix_transpose(array):
    """The standard's ``matrix_transpose`` (NumPy < 2.0 and CuPy: ``swapaxes(a, -1, -2)``)."""
    xp = namespace(array)
    fn = getattr(xp, "matrix_transpose", None)
    return fn(array) if fn is not None else xp.swapaxes(array, -1, -2)


def permute_dims(array, axes):
    """The standard's ``permute_dims`` (NumPy < 2.0 and CuPy: ``transpose``)."""
    xp = namespace(array)
    fn = getattr(xp, "permute_dims", None) or xp.transpose
    return fn(array, tuple(axes))


def add_at(out, indices, values):
    """``out`` with ``values[i]`` added at row ``indices[i]``, repeats accumulating in order
    (a scatter-add; returns ``out``, updated in place where the namespace can).

    The standard has no scatter-add: NumPy's ``add.at``, CuPy's ``add.at`` (``cupyx.
    scatter_add`` before CuPy 13; both add atomically, in no fixed order, as TF's GPU
    kernels do); other namespaces go through the host (NumPy's order, NumPy's bits).
    """
    xp = namespace(out, values)
    if xp is np:
        np.add.at(out, indices, values)
        return out
    if _is_cupy(xp):
        import cupy

        scatter_add = getattr(cupy.add, "at", None)
        if scatter_add is None:  # CuPy < 13
            import cupyx

            scatter_add = cupyx.scatter_add
        scatter_add(out, indices, values)
        return out
    host = np.array(to_host(out))
    np.add.at(host, to_host(indices), to_host(values))
    return from_host(host)


def raising_linalg_errors(xp):
    """A context in which ``xp.linalg`` raises ``numpy.linalg.LinAlgError`` on a singular
    matrix as NumPy does: CuPy returns NaNs unless ``cupyx.errstate(linalg="raise")``."""
    if _is_cupy(xp):
        import cupyx

        return cupyx.errstate(linalg="raise")
    return contextlib.nullcontext()


def mover(arrays):
    """``move(payload, target)`` giving ``payload`` on ``target``'s device, or None when
    every array lives on one device (NumPy, the strict backend: no call in the hot loop).

    CuPy arrays of simulated GPUs live on different real GPUs: a transfer is then a real
    device-to-device copy (the standard's ``asarray(x, device=...)``; CuPy takes it as a
    peer copy under the target's device).
    """
    if backend.get_backend() != "cupy" or not arrays:
        return None

    def move(payload, target):
        if payload.device == target.device:
            return payload
        with target.device:  # CuPy's copy() allocates on the current device: a peer copy
            return payload.copy()

    return move


def contiguous(array):
    """``array`` in C order (a copy only when it is not): for buffers a transfer packs."""
    xp = namespace(array)
    f = getattr(xp, "ascontiguousarray", None)
    return array if f is None else f(array)


def copy(array):
    """A copy of ``array`` in its own namespace (``asarray(copy=True)`` of the standard)."""
    return namespace(array).asarray(array, copy=True)


def pad(array, widths, fill=0):
    """``array`` with ``widths[d] = (before, after)`` elements of ``fill`` around axis d."""
    xp = namespace(array)
    f = getattr(xp, "pad", None)
    if f is not None:  # NumPy, CuPy
        return f(array, widths, constant_values=fill)
    shape = tuple(n + a + b for n, (a, b) in zip(array.shape, widths))
    out = xp.full(shape, fill, dtype=array.dtype)
    out[tuple(slice(a, a + n) for n, (a, _) in zip(array.shape, widths))] = array
    return out


def windows(padded, out_hw, k_hw, s_hw, d_hw):
    """The windows of ``padded`` [N, H, W, C]: ``[N, OH, OW, KH, KW, C]``, window ``(y, x)``
    starting at ``(y * s_hw[0], x * s_hw[1])``, its taps ``d_hw`` apart (read-only)."""
    n, _, _, c = padded.shape
    (oh, ow), (kh, kw) = out_hw, k_hw
    shape = (n, oh, ow, kh, kw, c)
    if isinstance(padded, np.ndarray) or backend.get_backend() == "cupy":
        lib = np.lib if isinstance(padded, np.ndarray) else backend.native.lib
        sn, sh, sw, sc = padded.strides
        strides = (sn, sh * s_hw[0], sw * s_hw[1], sh * d_hw[0], sw * d_hw[1], sc)
        view = lib.stride_tricks.as_strided(padded, shape, strides)
        if isinstance(view, np.ndarray):
            view.flags.writeable = False
        return view
    xp = namespace(padded)
    if 0 in shape:  # no window fits: a tap's start may lie past the axis (unspecified)
        return xp.zeros(shape, dtype=padded.dtype)

    def tap(i, j):
        r, q = i * d_hw[0], j * d_hw[1]
        return padded[:, r:r + (oh - 1) * s_hw[0] + 1:s_hw[0],
                      q:q + (ow - 1) * s_hw[1] + 1:s_hw[1], :]

    return xp.stack([xp.stack([tap(i, j) for j in range(kw)], axis=3) for i in range(kh)],
                    axis=3)


def synchronize(arrays) -> None:
    """Return once the work that makes ``arrays`` has finished on their devices."""
    if backend.get_backend() != "cupy":
        return
    devices = {a.device.id: a.device for a in arrays if a is not None
               and not isinstance(a, np.ndarray | np.generic)}  # host arrays: done already
    for device in devices.values():
        device.synchronize()

