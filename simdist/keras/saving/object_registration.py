"""Keras's registry of custom classes and functions, by 'package>name'.

Glossary:
  register_keras_serializable -- a decorator: the class (which must have ``get_config``) or
                     function is kept under 'package>name' ('Custom>MyModel' by default), so
                     ``load_model`` finds it without ``custom_objects``.
  registered name -- ``get_registered_name(obj)``: its key, or its ``__name__`` if none.
  safe mode     -- while a .keras file loads with ``safe_mode=True`` (``SafeModeScope``),
                   objects that would run saved bytecode (a Lambda's lambda) are refused;
                   outside any scope, ``in_safe_mode()`` is None (allowed).

Mirrors tf_keras/src/saving/object_registration.py.
"""

from __future__ import annotations

import inspect

from simdist.framework.thread_local import ThreadLocalValue

_GLOBAL_CUSTOM_OBJECTS: dict = {}
_GLOBAL_CUSTOM_NAMES: dict = {}


def register_keras_serializable(package="Custom", name=None):
    """A decorator that registers a class or function under 'package>name'.

    Raises:
      ValueError: (when decorating) a class without ``get_config``.
    """

    def decorator(arg):
        registered_name = f"{package}>{name if name is not None else arg.__name__}"
        if inspect.isclass(arg) and not hasattr(arg, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() "
                             "method.")
        _GLOBAL_CUSTOM_OBJECTS[registered_name] = arg
        _GLOBAL_CUSTOM_NAMES[arg] = registered_name
        return arg

    return decorator


def get_registered_name(obj) -> str:
    """The name ``obj`` is registered under, else its ``__name__``."""
    return _GLOBAL_CUSTOM_NAMES.get(obj, obj.__name__)


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The object registered (or given in ``custom_objects`` / ``module_objects``) as
    ``name``, else None."""
    for table in (custom_objects, _GLOBAL_CUSTOM_OBJECTS, module_objects):
        if table and name in table:
            return table[name]
    return None


_safe_mode = ThreadLocalValue(None)


def in_safe_mode():
    """True / False inside a SafeModeScope, else None."""
    return _safe_mode.value


def SafeModeScope(safe_mode=True):  # noqa: N802 - Keras's name
    """A ``with`` block that loads in (or out of) safe mode."""
    return _safe_mode.scope(safe_mode)
