"""Keras objects by name: one lookup, and Keras's error for a name it does not know.

Glossary:
  table                 -- a registry of one kind of object by name (``OPTIMIZERS``,
                           ``LOSSES`` ...), read by that kind's ``get``.
  printable module name -- what the error calls the kind ('optimizer', 'loss function' ...).

Mirrors keras/src/saving/legacy/serialization.py
(``class_and_config_for_serialized_keras_object``).
"""

from __future__ import annotations


def lookup(table, name, printable_module_name):
    """``table[name]``.

    Raises:
      ValueError: no such name (Keras's text, which points at ``custom_object_scope``).
    """
    try:
        return table[name]
    except KeyError:
        raise ValueError(
            f"Unknown {printable_module_name}: '{name}'. Please ensure you are using a "
            "`keras.utils.custom_object_scope` and that this object is included in the "
            "scope. See https://www.tensorflow.org/guide/keras/save_and_serialize"
            "#registering_the_custom_object for details.") from None
