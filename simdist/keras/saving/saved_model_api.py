"""``tf.saved_model.save`` / ``load`` for Keras models: the low-level API of TF's "Save and
load a model using a distribution strategy" tutorial.

Glossary:
  save          -- the SavedModel directory ``model.save`` writes (saving_api.py), without
                   the compile config: a low-level save keeps no Keras training setup.
  loaded object -- what ``load`` returns: not a Keras model but an object with
                   ``signatures``, ``variables`` / ``trainable_variables`` and ``__call__``
                   (TF's ``_UserObject``). Loaded under a strategy's scope, its variables are
                   that strategy's, and ``strategy.run(signature, (batch,))`` works.
  signature     -- ``signatures['serving_default']``: called with its input as a tensor
                   (positionally, or by input name), it returns ``{output_name: tensor}``.
  not built     -- a subclassed model never called nor built: TF logs "Skipping full
                   serialization" and saves it without variables or signatures; loaded, its
                   ``signatures`` are empty.

Mirrors tensorflow/python/saved_model/save.py and load.py (for Keras models).
"""

from __future__ import annotations

import os

from simdist.framework import execute, nest
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_spec import TensorSpec
from simdist.keras.engine.training import Model
from simdist.keras.saving import model_config, saving_api
from simdist.keras.saving.options import check_io_device
from simdist.platform.tf_logging import get_logger
from simdist.train import saved_model_module

DEFAULT_SIGNATURE_KEY = "serving_default"


def save(obj, export_dir, signatures=None, options=None) -> None:
    """Save a Keras model, or a tf.Module (train/saved_model_module), as a SavedModel
    directory (``tf.saved_model.save``).

    Raises:
      NotImplementedError: explicit ``signatures``.
    """
    if signatures is not None:
        raise NotImplementedError("simdist's tf.saved_model.save writes the model's default "
                                  "'serving_default' signature only; leave signatures=None.")
    check_io_device(options)
    if not isinstance(obj, Model):   # a tf.Module: its variables and traced functions
        saved_model_module.save(obj, export_dir)
        return
    if model_config.is_unbuilt_subclass(obj):
        get_logger().warning(
            "Skipping full serialization of TF-Keras layer %r, because it is not built.", obj)
        meta = {"format": model_config.FORMAT, "architecture": None, "compile_config": None,
                "signature": None}
    else:
        meta = saving_api.metadata(obj, include_optimizer=False)
    saving_api.write_dir(obj, os.fspath(export_dir), meta)


class SignatureFunction:
    """A serving signature: the model's forward pass from named inputs to named outputs."""

    def __init__(self, model, input_names, output_names):
        self._model = model
        self._input_names = list(input_names)
        self._output_names = output_names

    @property
    def structured_input_signature(self):
        specs = nest.flatten(self._model.save_spec()[0]) if self._model.save_spec() else []
        return (), {name: TensorSpec(s.shape, s.dtype, name)
                    for name, s in zip(self._input_names, specs)}

    def _inputs(self, args, kwargs):
        if args and kwargs or len(args) > len(self._input_names):
            raise TypeError("Binding inputs to tf.function failed due to `too many positional "
                            f"arguments`. Received args: {args} and kwargs: {kwargs}")
        if any(not isinstance(a, Tensor) and not hasattr(a, "values") for a in args):
            raise TypeError("Binding inputs to tf.function failed due to `too many positional "
                            f"arguments`. Received args: {args} and kwargs: {kwargs} "
                            "(a signature takes tensors: wrap arrays in tf.constant).")
        values = list(args) or [kwargs.get(n) for n in self._input_names]
        missing = [n for n, v in zip(self._input_names, values) if v is None]
        if missing:
            raise TypeError(f"Binding inputs to tf.function failed: missing required "
                            f"arguments: {', '.join(missing)}")
        return values[0] if len(values) == 1 else values

    def __call__(self, *args, **kwargs):
        out = nest.flatten(self._model(self._inputs(args, kwargs), training=False))
        names = self._output_names or [f"output_{i + 1}" for i in range(len(out))]
        return dict(zip(names, out))

    def __repr__(self):
        ins = ", ".join(f"{n}: {s}" for n, s in self.structured_input_signature[1].items())
        return f"<ConcreteFunction (*, {ins}) at {id(self):#X}>"


class _SignatureMap(dict):
    """The signatures of a loaded object by key."""

    def __repr__(self):
        return f"_SignatureMap({dict.__repr__(self)})"


class _UnbuiltUserObject:
    """What ``load`` returns for a model saved unbuilt: no signatures, variables nor call."""

    def __init__(self):
        self.signatures = _SignatureMap({})


class _UserObject:
    """What ``tf.saved_model.load`` returns for a saved Keras model."""

    def __init__(self, model, signature):
        self._model = model
        self.signatures = _SignatureMap({DEFAULT_SIGNATURE_KEY: SignatureFunction(
            model, signature["inputs"], signature["outputs"])})

    @property
    def variables(self) -> list:
        return list(self._model.weights)

    @property
    def trainable_variables(self) -> list:
        return list(self._model.trainable_weights)

    def __call__(self, inputs, training=False):
        x = nest.map_structure(lambda v: v if isinstance(v, Tensor) or hasattr(v, "values")
                               else execute.convert_to_tensor(v), inputs)
        return self._model(x, training=training)


def load(export_dir, tags=None, options=None):
    """Load a SavedModel directory saved by simdist (``tf.saved_model.load``).

    Raises:
      OSError: nothing saved there by simdist.
    """
    path = os.fspath(export_dir)
    check_io_device(options)
    if not os.path.isdir(path):
        raise OSError(f"SavedModel file does not exist at: {path}"
                      "/{saved_model.pbtxt|saved_model.pb}")
    if saved_model_module.is_saved_module(path):
        return saved_model_module.load(path)
    meta = saving_api.read_metadata(path)
    if meta["architecture"] is None:
        return _UnbuiltUserObject()
    model = model_config.rebuild(meta["architecture"])
    saving_api.restore(saving_api.WithoutOptimizer(model), path)
    return _UserObject(model, meta["signature"])
