"""``model.save`` / ``tf.keras.models.load_model``: a whole model (architecture, variables,
optimizer state, compile config) in one of the three places TF's Keras 2 writes it.

Glossary:
  SavedModel  -- a directory (any name without .keras/.h5/.hdf5): ``keras_metadata.json``
                 and ``variables/variables`` (a TF-format checkpoint, the same keys as
                 ``save_weights``), plus an empty ``assets/``. simdist's own contents; TF's
                 directory holds protobufs and traced graphs instead.
  .keras/.h5  -- one zip file holding the same two parts.
  load        -- rebuild the model (in the current strategy's scope, so its variables are
                 that strategy's), compile it again, restore its variables and, from a
                 .keras/.h5 file, the optimizer's (slots wait until the optimizer builds
                 them); from a SavedModel directory the optimizer starts afresh, as in
                 TF's Keras 2.
  options     -- ``tf.saved_model.SaveOptions`` / ``LoadOptions``: their
                 ``experimental_io_device`` must name a device of the cluster.

Mirrors tf_keras/src/saving/saving_api.py and legacy/save.py.
"""

from __future__ import annotations

import json
import os

from simdist.framework import errors, trackable
from simdist.keras.saving import model_config, object_registration
from simdist.keras.saving.options import check_io_device

METADATA = "keras_metadata.json"
VARIABLES = os.path.join("variables", "variables")
_FILE_SUFFIXES = (".keras", ".h5", ".hdf5")


def is_single_file(path, save_format=None) -> bool:
    """Keras 2's choice: a zip file by suffix or ``save_format`` ('h5', 'keras'), else a
    SavedModel directory."""
    if save_format is not None:
        return str(save_format).lower() in ("h5", "hdf5", "keras")
    return str(path).endswith(_FILE_SUFFIXES)


def metadata(model, include_optimizer=True, signature=True) -> dict:
    """The JSON a saved model carries besides its variables."""
    meta = {"format": model_config.FORMAT, "architecture": model_config.architecture(model),
            "compile_config": model_config.compile_config(model) if include_optimizer
            else None}
    if signature:
        meta["signature"] = model_config.signature(model)
    return meta


def write_dir(model, directory, meta, keras_v3=False) -> None:
    """A SavedModel-style directory: the metadata, the variables, assets/ (a folder per
    layer with assets: an adapted lookup's vocabulary)
    (``keras_v3``: for a .keras file, whose config cannot hold ``...``, as TF's)."""
    from simdist.train import checkpoint

    os.makedirs(os.path.join(directory, "variables"), exist_ok=True)
    os.makedirs(os.path.join(directory, "assets"), exist_ok=True)
    for layer in _asset_layers(model):   # an adapted lookup's vocabulary
        folder = os.path.join(directory, "assets", layer.name)
        os.makedirs(folder, exist_ok=True)
        layer.save_assets(folder)
    checkpoint.write_graph(model if meta.get("compile_config") else WithoutOptimizer(model),
                           os.path.join(directory, VARIABLES))
    with open(os.path.join(directory, METADATA), "w") as f:
        json.dump(meta, f, indent=1, default=_jsonable_v3 if keras_v3 else _jsonable)


_ELLIPSIS = {"class_name": "__ellipsis__"}  # tf-keras's legacy json_utils form of ``...``


def _decode(obj):
    return Ellipsis if obj == _ELLIPSIS else obj


def _jsonable_v3(value):
    """As ``_jsonable``, but ``...`` (an op layer's ``x[..., 1:]``) is refused as TF's .keras
    format refuses it."""
    if value is Ellipsis:
        raise TypeError("Cannot serialize object Ellipsis of type <class 'ellipsis'>. To be "
                        "serializable, a class must implement the `get_config()` method.")
    return _jsonable(value)


def _jsonable(value):
    """NumPy scalars and arrays in configs (an optimizer's float32 learning rate) and ``...``
    as JSON.

    Raises:
      TypeError: anything else that JSON cannot hold.
    """
    if value is Ellipsis:
        return _ELLIPSIS
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "as_numpy_dtype"):  # a DType
        return value.name
    raise TypeError(f"Cannot save {value!r} ({type(value).__name__}) in a model's config: "
                    "give plain Python values (or Keras objects) to its layers and compile.")


class WithoutOptimizer(trackable.Trackable):
    """The model without its optimizer (``include_optimizer=False``, tf.saved_model)."""

    def __init__(self, model):
        self._model = model

    def _trackable_children(self):
        return {k: v for k, v in self._model._trackable_children().items()
                if k != "optimizer"}


def save_model(model, filepath, overwrite=True, save_format=None, options=None,
               include_optimizer=True, **kwargs) -> None:
    """Save ``model`` whole (``model.save``).

    Raises:
      ValueError: a subclassed model never called, or an unknown ``save_format``.
      InvalidArgumentError: an ``experimental_io_device`` that is not a device.
    """
    path = os.fspath(filepath)
    if save_format is not None and str(save_format).lower() not in ("h5", "hdf5", "keras",
                                                                     "tf"):
        raise ValueError(f"Unknown format. Received: `save_format`={save_format}")
    check_io_device(options)
    meta = metadata(model, include_optimizer)
    if not overwrite and os.path.exists(path):
        raise FileExistsError(f"{path} exists and overwrite=False (simdist asks instead of "
                              "prompting).")
    if not is_single_file(path, save_format):
        write_dir(model, path, meta)
        return
    import tempfile  # (and zipfile: with pathlib, ~10 ms) loaded by a first save
    import zipfile

    with tempfile.TemporaryDirectory() as tmp:
        write_dir(model, tmp, meta, keras_v3=path.endswith(".keras")
                  and str(save_format or "keras").lower() == "keras")
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with zipfile.ZipFile(path, "w") as zf:
            for root, _, files in os.walk(tmp):
                for name in files:
                    full = os.path.join(root, name)
                    zf.write(full, os.path.relpath(full, tmp))


def read_metadata(directory) -> dict:
    """The metadata of a saved directory.

    Raises:
      OSError: there is none (not saved by simdist, or not a saved model).
    """
    try:
        with open(os.path.join(directory, METADATA)) as f:
            meta = json.load(f, object_hook=_decode)
    except FileNotFoundError:
        raise OSError(f"No file or directory found at {directory}") from None
    if meta.get("format") != model_config.FORMAT:
        raise OSError(f"{directory} was not saved by simdist's model.save / "
                      "tf.saved_model.save (its keras_metadata.json has another format).")
    return meta


class _Unpacked:
    """A saved model's directory: the directory itself, or a zip file extracted for a while."""

    def __init__(self, path):
        self._path, self._tmp = path, None

    def __enter__(self):
        if not os.path.exists(self._path):
            raise OSError(f"No file or directory found at {self._path}")
        if os.path.isdir(self._path):
            return self._path
        import tempfile  # (and zipfile) loaded by a first load of a zipped model
        import zipfile

        self._tmp = tempfile.mkdtemp()
        try:
            with zipfile.ZipFile(self._path) as zf:
                zf.extractall(self._tmp)
        except zipfile.BadZipFile:
            raise OSError(f"Unable to load {self._path}: it is not a model saved by "
                          "simdist's model.save.") from None
        return self._tmp

    def __exit__(self, *exc):
        if self._tmp is not None:
            import shutil

            shutil.rmtree(self._tmp, ignore_errors=True)


def restore(model, directory) -> None:
    """Assign the saved variables to ``model`` (deferred for optimizer slots)."""
    from simdist.train import checkpoint

    checkpoint.restore_graph(model, os.path.join(directory, VARIABLES))
    for layer in _layers(getattr(model, "_model", model)):   # a WithoutOptimizer's model
        layer._variables_restored()
    for layer in _asset_layers(model):
        layer.load_assets(os.path.join(directory, "assets", layer.name))


def _layers(model) -> list:
    return list(model._flatten_layers()) if hasattr(model, "_flatten_layers") else []


def _asset_layers(model):
    """The model's layers with assets (Keras's save_assets / load_assets protocol)."""
    return [layer for layer in _layers(model) if hasattr(layer, "save_assets")]


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True,  # noqa: A002
               options=None, **kwargs):
    """A model saved by ``model.save`` (``tf.keras.models.load_model``).

    Raises:
      OSError: nothing at ``filepath``, or not a simdist-saved model.
      TypeError: a subclassed model whose class cannot be found.
    """
    path = os.fspath(filepath)
    check_io_device(options)
    with _Unpacked(path) as directory:
        meta = read_metadata(directory)
        # Keras's safe mode guards the .keras format only (saving_lib's SafeModeScope)
        safe = safe_mode if path.endswith(".keras") else None
        with object_registration.SafeModeScope(safe):
            model = model_config.rebuild(meta["architecture"], custom_objects,
                                         subclass_lookup=os.path.isdir(path))
        if compile and meta.get("compile_config"):
            model_config.recompile(model, meta["compile_config"], custom_objects)
        try:
            # Keras 2 restores a SavedModel directory's optimizer from its config only: its
            # state (iterations, slots) starts afresh; the .keras/.h5 files keep it.
            restore(WithoutOptimizer(model) if os.path.isdir(path) else model, directory)
        except errors.NotFoundError as e:
            raise OSError(f"Unable to load the variables of {path}: {e}") from None
    return model
