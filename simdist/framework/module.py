"""``tf.Module``: a named container that finds the variables and modules it holds.

Glossary:
  name          -- given (a Python identifier) or the class name in snake_case ('MyModule'
                   -> 'my_module').
  name_scope    -- the scope opened once at construction, under the scope then current
                   ('outer/my_module/'); ``with self.name_scope`` and methods decorated with
                   ``tf.Module.with_name_scope`` re-enter it, so variables made there are
                   named 'my_module/w:0'.
  flatten       -- attributes in sorted name order (by TF's name where simdist's differs),
                   each walked as a nest (lists, tuples, dicts by sorted key); every object
                   is found once; a module's own attributes come before those of its
                   submodules (TF's _flatten_module).
  variables / trainable_variables / non_trainable_variables / submodules -- tuples of
                   what flatten finds.
  checkpoint    -- its attributes that hold variables or trackables are its children; a
                   value restored before its variable existed (a module that makes its
                   variables at its first call) is assigned when the attribute is set
                   (TF's AutoTrackable.__setattr__, deferred restoration).

Mirrors tensorflow/python/module/module.py.
"""

from __future__ import annotations

import functools
import re

from simdist.framework import name_scope as name_scope_lib
from simdist.framework import nest, trackable
from simdist.framework.variables import Variable

_CAMEL_TO_SNAKE = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")
_VALID_IDENTIFIER = re.compile(r"^[a-zA-Z_]([a-zA-Z0-9_])*$")


def camel_to_snake(value: str) -> str:
    """'MyModule' -> 'my_module' (TF's rule)."""
    return _CAMEL_TO_SNAKE.sub(r"_\1", value).lower()


class Module(trackable.Trackable):
    """Base class of objects that hold variables and other modules (``tf.Module``)."""

    # Attributes flatten skips (subclasses add their bookkeeping, as Keras's Layer does).
    _TF_MODULE_IGNORED_PROPERTIES = frozenset()
    # Attributes flatten sorts under TF's name for them, where simdist names one otherwise.
    _TF_MODULE_SORT_NAMES: dict = {}

    def __init__(self, name=None):
        if name is None:
            name = camel_to_snake(type(self).__name__)
        elif not isinstance(name, str) or not _VALID_IDENTIFIER.match(name):
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid "
                             "Python identifiers (e.g. a valid class name).")
        self._name = name
        with name_scope_lib.name_scope(name) as scope:
            self._name_scope = name_scope_lib.name_scope(scope)

    @property
    def name(self) -> str:
        return self._name

    @property
    def name_scope(self):
        """The module's scope (enter it with ``with module.name_scope:``)."""
        return self._name_scope

    @property
    def variables(self) -> tuple:
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self) -> tuple:
        return tuple(self._flatten(predicate=lambda v: _is_variable(v) and v.trainable))

    @property
    def non_trainable_variables(self) -> tuple:
        return tuple(self._flatten(predicate=lambda v: _is_variable(v) and not v.trainable))

    @property
    def submodules(self) -> tuple:
        return tuple(self._flatten(predicate=_is_module))

    def _flatten(self, recursive=True, predicate=None):
        return _flatten_module(self, recursive, predicate or (lambda _: True), {id(self)}, [])

    @classmethod
    def with_name_scope(cls, method):
        """Decorate ``method`` to run inside the module's name scope."""

        @functools.wraps(method)
        def method_with_name_scope(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)

        return method_with_name_scope

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if trackable.waiting() and trackable.is_trackable(value):
            trackable.restore_deferred()

    def _trackable_children(self) -> dict:
        return {k: v for k, v in vars(self).items() if trackable.is_trackable(v)}


def _is_variable(obj) -> bool:
    return isinstance(obj, Variable)


def _is_module(obj) -> bool:
    return isinstance(obj, Module)


def _flatten_module(module, recursive, predicate, seen, recursion_stack):
    """Yield what ``predicate`` accepts among ``module``'s attributes, then its submodules'."""
    if id(module) in recursion_stack:  # a cycle: do not follow the back edge
        recursive = False
    module_dict = vars(module)
    submodules = []
    rename = module._TF_MODULE_SORT_NAMES
    for key in sorted(module_dict, key=lambda k: rename.get(k, k)):
        if key in module._TF_MODULE_IGNORED_PROPERTIES:
            continue
        for leaf in nest.flatten(module_dict[key]):
            if id(leaf) in seen:
                continue
            seen.add(id(leaf))
            if predicate(leaf):
                yield leaf
            if recursive and _is_module(leaf):
                submodules.append(leaf)
    recursion_stack.append(id(module))
    for sub in submodules:
        yield from _flatten_module(sub, recursive, predicate, seen, recursion_stack)
    recursion_stack.pop()
