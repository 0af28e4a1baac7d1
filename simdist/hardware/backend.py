"""Array backends: where the bytes of simulated devices really live.

Glossary:
  xp               -- the array namespace of the active backend. Code that works on device
                      values calls ``backend.xp`` (the Array API standard) plus the few
                      extras of ``simdist.hardware.array_api``, and never ``numpy`` itself, so
                      every backend runs the same code.
  numpy            -- the default: NumPy arrays on the host.
  array_api_strict -- the strict Array API namespace (a test-only dependency): it refuses
                      everything the standard lacks, so a run on it catches NumPy-only calls.
  cupy             -- CuPy arrays on real CUDA GPUs (the ``gpu`` extra, ``cupy-cuda12x``;
                      ``gpu-cuda13``: ``cupy-cuda13x``);
                      see ``simdist.hardware.cupy_adapter`` for the device mapping and NCCL.
  SIMDIST_BACKEND  -- the environment variable read once, when this module is imported.
  to_host          -- convert a backend array to a NumPy array (a no-op for NumPy).

Importing simdist never imports CuPy or array_api_strict: a backend's package loads only
when that backend is selected.
"""

from __future__ import annotations

import importlib
import os

import numpy

ENV_VAR = "SIMDIST_BACKEND"
DEFAULT = "numpy"
# name -> the module that provides its namespace (registry: one row per backend).
BACKENDS = {"numpy": "numpy", "array_api_strict": "array_api_strict", "cupy": "cupy"}
# What to install when a backend's package is missing.
_INSTALL = {
    "array_api_strict": "pip install array-api-strict (or simdist[test])",
    "cupy": ("pip install 'simdist[gpu]' (cupy-cuda12x, for CUDA 12) or "
             "'simdist[gpu-cuda13]' (cupy-cuda13x, for CUDA 13)"),
}

xp = numpy
_name = DEFAULT
# ``placer(array, device)`` puts a new tensor's array where its simulated device lives
# (CuPy: that device's real GPU); None where arrays need no placing.
placer = None
# The backend's own package (``cupy``, ``array_api_strict``): for the adapters' extras only.
native = numpy


def set_backend(name: str) -> None:
    """Select the array namespace used by every simulated device.

    Tensors made before the switch keep their arrays: select the backend before building
    values (``SIMDIST_BACKEND`` does it before anything is built).

    Raises:
      ValueError: if ``name`` is not a known backend (the message lists them).
      ImportError: if the backend's package is not installed (says what to install).
      RuntimeError: cupy without a usable CUDA GPU (says what is missing).
    """
    global xp, _name, placer, native
    if not isinstance(name, str) or name not in BACKENDS:
        raise ValueError(f"Unknown backend {name!r}; choose one of {sorted(BACKENDS)} "
                         f"(set_backend(name) or the {ENV_VAR} environment variable).")
    module = _load(name)
    raw, place = getattr(module, "_module", module), None
    if name == "cupy":
        from simdist.hardware import cupy_adapter

        cupy_adapter.check_gpus(module)
        module, place = HostAware(cupy_adapter.namespace(module)), \
            cupy_adapter.place_tensor_value
    xp, _name, placer, native = module, name, place, raw


def _load(name: str):
    try:
        module = importlib.import_module(BACKENDS[name])
    except ImportError as e:
        raise ImportError(f"The {name!r} backend needs the {BACKENDS[name]!r} package, "
                          f"which is not installed ({e}); {_INSTALL.get(name, '')}.") from e
    if name == "array_api_strict":
        return OnDevice(module, module.Device("device1"))
    return module


class HostAware:
    """``module``'s namespace, whose functions hand host arrays of host-only dtypes
    (float16/bfloat16/strings the backend lacks, ``array_api.keeps_on_host``) to NumPy.

    Such values are host arrays on purpose; an op on them computes on the host, and a device
    array beside them (a mask, a scalar tensor) is copied to the host first. Host arrays of
    dtypes the backend has are not rerouted, so NumPy-made values in device code still fail
    on the strict backend.
    """

    def __init__(self, module):
        self._module = module
        self.__name__ = module.__name__

    def __getattr__(self, name):
        attr = self._wrap(name, getattr(self._module, name))
        setattr(self, name, attr)  # looked up once
        return attr

    def _wrap(self, name, attr):
        host_fn = getattr(numpy, name, None)
        if not callable(attr) or not callable(host_fn) or isinstance(attr, type):
            return attr
        return _host_aware(attr, host_fn)


def _host_aware(fn, host_fn):
    def call(*args, **kwargs):
        dtype = kwargs.get("dtype")  # zeros(shape, dtype=object): a host array, as strings are
        if (dtype is not None and _host_only(dtype)) or any(_is_host_value(a) for a in args):
            from simdist.hardware import array_api

            return host_fn(*(array_api.to_host(a) if _is_device(a) else a for a in args),
                           **{k: v for k, v in kwargs.items() if k != "device"})
        return fn(*args, **kwargs)

    call.__name__ = fn.__name__ if hasattr(fn, "__name__") else host_fn.__name__
    return call


def _is_host_value(a) -> bool:
    if isinstance(a, (list, tuple)):
        return any(_is_host_value(b) for b in a)
    return isinstance(a, numpy.ndarray) and _host_only(a.dtype)


def _is_device(a) -> bool:
    from simdist.hardware import array_api

    return not isinstance(a, (numpy.ndarray, numpy.generic)) and array_api.is_array(a)


class OnDevice(HostAware):
    """``module``'s namespace with its creation functions defaulting to ``device``.

    The strict backend keeps device values on array_api_strict's ``device1``, a device that
    is not the host: NumPy cannot read its arrays (``np.exp(a)`` raises), so a NumPy-only
    call on a device value fails there as it would on a GPU. New arrays default to that
    device as CuPy's default to the current GPU; ``array_api.to_host`` copies to the host.
    """

    _CREATION = ("arange", "asarray", "empty", "eye", "full", "linspace", "ones", "zeros")
    _TAKES_DTYPE = ("sum", "prod", "cumulative_sum", "cumulative_prod", "empty_like",
                    "full_like", "ones_like", "zeros_like")

    def __init__(self, module, device):
        super().__init__(module)
        self.device = device

    def _wrap(self, name, attr):
        if name in self._CREATION:
            return self._on_device(attr)
        if name in self._TAKES_DTYPE:
            attr = self._dtype_arg(attr)
        return super()._wrap(name, attr)

    def _on_device(self, fn):
        device, dtype_of = self.device, self._dtype

        host_fn = getattr(numpy, fn.__name__)

        def create(*args, **kwargs):
            dtype = kwargs.get("dtype")
            if dtype is not None and _host_only(dtype):  # float16, bfloat16: host arrays
                kwargs.pop("device", None)
                return host_fn(*args, **kwargs)
            if kwargs.get("device") is None:
                kwargs["device"] = device
            if dtype is not None:
                kwargs["dtype"] = dtype_of(dtype)
            return fn(*args, **kwargs)

        create.__name__ = fn.__name__
        return create

    def _dtype_arg(self, fn):
        dtype_of = self._dtype

        def call(*args, **kwargs):
            if kwargs.get("dtype") is not None:
                kwargs["dtype"] = dtype_of(kwargs["dtype"])
            return fn(*args, **kwargs)

        call.__name__ = fn.__name__
        return call

    def astype(self, x, dtype, /, *, copy=True, device=None):
        """The standard's ``astype``, also given a NumPy dtype (as CuPy takes them)."""
        return self._module.astype(x, self._dtype(dtype), copy=copy,
                                   device=x.device if device is None else device)

    def _dtype(self, dtype):
        """simdist keys its DTypes by NumPy dtypes, which CuPy takes as they are: the strict
        namespace gets its own dtype object of the same name (an unknown one is refused)."""
        if isinstance(dtype, numpy.dtype) or isinstance(dtype, type) or isinstance(dtype, str):
            name = numpy.dtype(dtype).name
            return self._module.bool if name == "bool" else getattr(self._module, name)
        return dtype

    def __repr__(self):
        return f"<{self.__name__} namespace on {self.device}>"


def _host_only(dtype) -> bool:
    """Whether values of ``dtype`` stay host arrays on the active backend."""
    from simdist.hardware import array_api

    try:
        return array_api.keeps_on_host(dtype)
    except TypeError:  # the namespace's own dtype object: it has it
        return False


def get_backend() -> str:
    """The name of the active backend (a key of ``BACKENDS``)."""
    return _name


def to_host(array):
    """Return ``array`` as a NumPy array (copies from a GPU when needed)."""
    from simdist.hardware import array_api

    return array_api.to_host(array)


def _from_environment() -> None:
    name = os.environ.get(ENV_VAR, "").strip()
    if name and name != DEFAULT:
        set_backend(name)


_from_environment()
