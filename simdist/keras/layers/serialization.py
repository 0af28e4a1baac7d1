"""``tf.keras.layers.serialize`` / ``deserialize``: a layer as ``{class_name, config}`` and
back, through one table of the layer classes simdist has (models included).

Glossary:
  LAYERS          -- class name -> class: every public layer, InputLayer, Sequential,
                     Functional (and 'Model', Keras's name for a functional config), the
                     op layers (TFOpLambda, SlicingOpLambda), and the AddLoss / AddMetric
                     layers of a functional model's own losses and metrics.
  custom_objects  -- the user's classes by name, looked up before the table (a subclassed
                     layer or model needs them, as in Keras).

Mirrors tf_keras/src/layers/serialization.py.
"""

from __future__ import annotations

import inspect

from simdist.keras import layers as layers_module
from simdist.keras.engine.add_loss_layers import AddLoss, AddMetric
from simdist.keras.engine.base_layer import Layer
from simdist.keras.engine.functional import Functional
from simdist.keras.engine.sequential import Sequential
from simdist.keras.layers.tf_op_layer import SlicingOpLambda, TFOpLambda
from simdist.keras.utils.serialization import lookup

LAYERS = {name: obj for name, obj in vars(layers_module).items()
          if inspect.isclass(obj) and issubclass(obj, Layer)}
LAYERS.update(Sequential=Sequential, Functional=Functional, Model=Functional,
              TFOpLambda=TFOpLambda, SlicingOpLambda=SlicingOpLambda, AddLoss=AddLoss,
              AddMetric=AddMetric)


def serialize(layer) -> dict:
    """``{"class_name", "config"}`` of ``layer`` (``tf.keras.layers.serialize``)."""
    return {"class_name": type(layer).__name__, "config": layer.get_config()}


def deserialize(config, custom_objects=None):
    """A new layer from its serialized form (``tf.keras.layers.deserialize``).

    Raises:
      ValueError: an unknown class name (Keras's message, naming custom_object_scope).
    """
    table = {**LAYERS, **(custom_objects or {})}
    cls = lookup(table, config["class_name"], "layer")
    cfg = config.get("config", {})
    if hasattr(cls, "_from_config_with"):  # models: their layers need custom_objects too
        return cls._from_config_with(cfg, custom_objects)
    return cls.from_config(cfg)
