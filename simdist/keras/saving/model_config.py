"""What a saved model records besides its variables: its architecture, how it was compiled,
the input it was built for, and its serving signature.

Glossary:
  architecture   -- a Sequential's or functional model's ``get_config`` (its layers by class
                    name), or for a subclassed model its class's ``module:qualname``: simdist
                    rebuilds that by calling the class, which must be defined in the process
                    (or importable, or given in ``custom_objects``), where TF revives its
                    traced graph instead. A .keras/.h5 file needs ``custom_objects``, as TF.
  compile config -- the optimizer's config and the losses, loss weights and metrics by
                    name or config, so a loaded model trains on without ``compile``.
  save spec      -- the input a subclassed model was first called with (batch dimension
                    None): without it the model cannot be rebuilt, and saving raises TF's
                    ValueError.
  signature      -- 'serving_default': the inputs by name (``dense_input``, an Input's name,
                    ``input_1``) and the outputs by name (the output layers, ``output_1``).

Mirrors tf_keras/src/saving/legacy/saved_model/ (metadata) and saving_lib.py.
"""

from __future__ import annotations

import importlib

from simdist.framework import nest
from simdist.framework.tensor_spec import TensorSpec
from simdist.keras import losses as losses_mod
from simdist.keras import metrics as metrics_mod
from simdist.keras import optimizers
from simdist.keras.engine import training
from simdist.keras.engine.functional import Functional
from simdist.keras.engine.sequential import Sequential
from simdist.keras.layers import serialization
from simdist.keras.saving import object_registration

FORMAT = "simdist.keras.model/1"


def _no_spec_error(model):
    return ValueError(
        f"Model {model!r} cannot be saved either because the input shape is not available or "
        "because the forward pass of the model is not defined.To define a forward pass, please "
        "override `Model.call()`. To specify an input shape, either call `build(input_shape)` "
        "directly, or call the model on actual data using `Model()`, `Model.fit()`, or "
        "`Model.predict()`. If you have a custom training step, please make sure to invoke the "
        "forward pass in train step through `Model.__call__`, i.e. `model(inputs)`, as "
        "opposed to `model.call()`.")


def is_unbuilt_subclass(model) -> bool:
    """A subclassed model with no input shape yet: nothing to trace or rebuild."""
    return not isinstance(model, (Sequential, Functional)) and model.save_spec() is None


def architecture(model) -> dict:
    """The model's class and config.

    Raises:
      ValueError: a subclassed model never called nor built (TF's message).
    """
    if isinstance(model, (Sequential, Functional)):
        return serialization.serialize(model)
    spec = model.save_spec()
    if spec is None:
        raise _no_spec_error(model)
    cls = type(model)
    return {"class_name": cls.__name__, "subclass": f"{cls.__module__}:{cls.__qualname__}",
            "registered_name": object_registration.get_registered_name(cls),
            "build_input_shape": [list(s.shape.as_list()) for s in nest.flatten(spec[0])]}


def _named(obj, kind):
    """A loss or metric as a name, or ``{class_name, config}`` for an object."""
    if obj is None or isinstance(obj, str):
        return obj
    if hasattr(obj, "get_config") and not isinstance(obj, type):
        return {"class_name": type(obj).__name__, "config": obj.get_config()}
    name = getattr(obj, "__name__", None)
    if name is None:
        raise ValueError(f"Cannot save the {kind} {obj!r}: give it by name or as a Keras "
                         "object.")
    return name


def compile_config(model):
    """How ``model`` was compiled (None when it was not)."""
    if not model._is_compiled:
        return None
    args = model._compile_args
    return {"optimizer": optimizers.serialize(model.optimizer),
            "loss": nest.map_structure(lambda v: _named(v, "loss"), args["loss"]),
            "loss_weights": args["loss_weights"],
            "metrics": nest.map_structure(lambda v: _named(v, "metric"), args["metrics"]),
            "weighted_metrics": nest.map_structure(lambda v: _named(v, "metric"),
                                                   args["weighted_metrics"])}


def _revive(value, table, kind, custom_objects):
    if isinstance(value, dict) and set(value) == {"class_name", "config"}:
        cls = (custom_objects or {}).get(value["class_name"]) or table.get(value["class_name"])
        if cls is None:
            raise ValueError(f"Unknown {kind}: '{value['class_name']}'. Please ensure you are "
                             "using a `keras.utils.custom_object_scope` and that this object is "
                             "included in the scope.")
        return cls.from_config(value["config"])
    if isinstance(value, str) and custom_objects and value in custom_objects:
        return custom_objects[value]
    return value


def _map_objects(structure, fn):
    """Map ``fn`` over the leaves of a saved structure, a saved object being one leaf."""
    if isinstance(structure, dict) and set(structure) != {"class_name", "config"}:
        return {k: _map_objects(v, fn) for k, v in structure.items()}
    if isinstance(structure, list):
        return [_map_objects(v, fn) for v in structure]
    return fn(structure)


def recompile(model, config, custom_objects=None) -> None:
    """Compile ``model`` as its saved compile config says."""
    losses = {**losses_mod.LOSSES}
    metrics = {**metrics_mod.METRICS}
    model.compile(
        optimizer=optimizers.deserialize(config["optimizer"]),
        loss=_map_objects(config["loss"], lambda v: _revive(v, losses, "loss",
                                                             custom_objects)),
        loss_weights=config["loss_weights"],
        metrics=_map_objects(config["metrics"], lambda v: _revive(v, metrics, "metric",
                                                                   custom_objects)),
        weighted_metrics=_map_objects(config["weighted_metrics"], lambda v: _revive(
            v, metrics, "metric", custom_objects)))


def rebuild(arch, custom_objects=None, subclass_lookup=True):
    """A new model from its saved architecture, built, with fresh weights.

    Raises:
      TypeError: a subclassed model whose class cannot be found (TF's .keras message).
    """
    if "subclass" not in arch:
        return serialization.deserialize(arch, custom_objects)
    cls = (custom_objects or {}).get(arch["class_name"]) or \
        object_registration.get_registered_object(arch.get("registered_name"))
    if cls is None and subclass_lookup:
        cls = training.SUBCLASSES.get(arch["subclass"])
    if cls is None and subclass_lookup:
        module, _, qualname = arch["subclass"].partition(":")
        try:
            cls = importlib.import_module(module)
            for part in qualname.split("."):
                cls = getattr(cls, part)
        except (ImportError, AttributeError):
            cls = None
    if cls is None:
        raise TypeError(f"Could not locate class '{arch['class_name']}'. Make sure custom "
                        "classes are decorated with "
                        "`@keras.saving.register_keras_serializable()`.\nsimdist rebuilds a "
                        "subclassed model from its class: pass it in custom_objects (or, for a "
                        "SavedModel directory, keep it importable).")
    model = cls()
    shapes = arch["build_input_shape"]
    model.build(tuple(shapes[0]) if len(shapes) == 1 else [tuple(s) for s in shapes])
    specs = [TensorSpec(s, "float32", "input_1") for s in shapes]
    model._saved_model_inputs_spec = specs[0] if len(specs) == 1 else specs
    return model


def signature(model) -> dict:
    """The serving signature's input and output names, as TF names them."""
    if isinstance(model, Functional):
        inputs = model.input_names
        outputs = model.output_names
    elif isinstance(model, Sequential):
        inputs = [f"{model.layers[0].name}_input"] if model.layers else ["input_1"]
        outputs = [model.layers[-1].name] if model.layers else ["output_1"]
    else:
        n_in = len(nest.flatten(model.save_spec()[0])) if model.save_spec() else 1
        inputs = [f"input_{i + 1}" for i in range(n_in)]
        outputs = None  # output_1 ... once the outputs are known
    return {"inputs": inputs, "outputs": outputs}
