"""AutoGraph's stand-ins for variables that have no value yet.

Glossary:
  Undefined            -- the value of a symbol a converted block may define but that has no
                          definition before it (``x`` assigned only inside an ``if``); TF's
                          staged control flow names it in its errors.
  UndefinedReturnValue -- the return value of a function that has not returned yet.
  ld / ldu             -- load a symbol: ``ld`` raises Python's UnboundLocalError for an
                          Undefined one (as unconverted code would), ``ldu`` passes it on.

Mirrors tensorflow/python/autograph/operators/variables.py.
"""

from __future__ import annotations


class Undefined:
    """A symbol with no value yet (``Undefined('x')``)."""

    __slots__ = ("symbol_name",)

    def __init__(self, symbol_name):
        self.symbol_name = symbol_name

    def read(self):
        raise UnboundLocalError(f"local variable '{self.symbol_name}' referenced before assignment")

    def __repr__(self):
        return self.symbol_name

    def __getattribute__(self, name):
        if name in ("symbol_name", "read", "__class__", "__repr__"):
            return object.__getattribute__(self, name)
        return self

    def __getitem__(self, i):
        return self


class UndefinedReturnValue:
    """The return value of a function that has not returned yet."""


def ld(v):
    """Load ``v``; raise UnboundLocalError if it is Undefined (Python's own behaviour)."""
    if isinstance(v, Undefined):
        return v.read()
    return v


def ldu(load_v, name):
    """Load ``load_v()``, giving Undefined(name) when it is unbound."""
    try:
        return load_v()
    except (KeyError, AttributeError, NameError):
        return Undefined(name)
