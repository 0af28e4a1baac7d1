"""simdist: TensorFlow's ``tf.distribute``, simulated step by step in NumPy.

``import simdist as tf`` gives the names TensorFlow code uses, each loaded on first use, as
TF's lazy loader does (tensorflow/python/util/lazy_loader.py):
  framework     -- ``tf.constant``, ``tf.float32``, ``tf.Tensor``, ``tf.GradientTape`` ...:
                   the first of them loads simdist._api (the framework's eager core) and
                   then they are plain attributes; a less common one (``tf.function``,
                   ``tf.RaggedTensor``, ``tf.einsum`` ...) loads its own module first;
  submodules    -- ``tf.distribute``, ``tf.keras``, ``tf.data``, ``tf.math`` ...: each
                   loads its own module (and with it the framework);
  the import    -- binds only these loaders and ``__version__``.
"""

__version__ = "2.15.0+simdist.0.1.0"  # the TF API level simdist follows, then its own version

import importlib as _importlib  # noqa: I001 - loaded by every interpreter
import os as _os

newaxis = None

# A backend named by SIMDIST_BACKEND is checked and loaded at the import, as before the
# names loaded lazily: a wrong name fails at ``import simdist``, not at a first op later.
if "SIMDIST_BACKEND" in _os.environ:
    _importlib.import_module("simdist.hardware.backend")

# Names that load their own module (tf.distribute, Keras, tf.data ... cost most; each
# loads the framework first). Any other submodule loads the same way (tf.math, tf.errors).
_LAZY_MODULES = ("autograph", "compat", "data", "distribute", "experimental", "faults", "keras",
                 "profiler",
                 "ragged", "saved_model", "sparse", "summary", "tpu", "train")
# TF 2's short names of Keras's modules (tf.metrics.SparseCategoricalAccuracy() ...).
_KERAS_ALIASES = ("metrics", "losses", "optimizers")


def __getattr__(name):
    if name == "__all__":   # ``from simdist import *``: the names the old import bound
        api = _importlib.import_module("simdist._api")
        return sorted({n for n in globals() if not n.startswith("_")} | set(api._LAZY))
    if name.startswith("_") and name != "__operators__":   # probes (__path__ ...), _world ...
        raise AttributeError(f"module 'simdist' has no attribute {name!r}")
    if name in _KERAS_ALIASES:
        value = getattr(__getattr__("keras"), name)
    elif _is_submodule(name):   # tf.distribute, tf.math ...; simdist's own
        value = _importlib.import_module(f"simdist.{name}")   # from-imports come here too
    else:
        # The framework publishes its names here (a call made while it loads gets the
        # half-loaded module, and no name; another thread waits on the import lock).
        api = _importlib.import_module("simdist._api")
        if name in globals():
            return globals()[name]
        if name in api._LAZY:   # a less common name: its own module loads now
            return api._load(name)
        raise AttributeError(f"module 'simdist' has no attribute {name!r}")
    globals()[name] = value
    return value


def _is_submodule(name: str) -> bool:
    # A look at the package's folder (importlib.util.find_spec's import and path search
    # would cost the first ``tf.constant`` a millisecond).
    if not name.isidentifier():
        return False
    path = _os.path.join(_os.path.dirname(__file__), name)
    return _os.path.isfile(path + ".py") or _os.path.isfile(_os.path.join(path, "__init__.py"))


def __dir__():
    api = _importlib.import_module("simdist._api")
    return sorted(set(globals()) | set(_LAZY_MODULES) | set(_KERAS_ALIASES) | set(api._LAZY))
