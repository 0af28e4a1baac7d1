"""Saving and loading whole Keras models (``model.save``, ``tf.keras.models.load_model``,
``tf.saved_model.save`` / ``load``).

Glossary:
  model_config    -- what is saved besides the variables (architecture, compile config,
                     serving signature).
  saving_api      -- the SavedModel directory and the .keras / .h5 file.
  saved_model_api -- ``tf.saved_model``: the loaded object with its serving signature.
  options         -- SaveOptions / LoadOptions.
  object_registration -- ``register_keras_serializable`` and its registry.
"""

from simdist.keras.saving.object_registration import (  # noqa: F401
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
)
from simdist.keras.saving.options import LoadOptions, SaveOptions  # noqa: F401
from simdist.keras.saving.saving_api import load_model, save_model  # noqa: F401
