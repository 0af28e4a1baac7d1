"""Dispatch: a public op called on values it cannot convert asks the registered dispatchers
whether another library handles them (Keras's symbolic tensors become op layers).

Glossary:
  public op         -- a function of the ``tf``, ``tf.math``, ``tf.nn``, ``tf.linalg``,
                       ``tf.strings`` or ``tf.__operators__`` namespace that TF decorates with
                       ``add_dispatch_support`` (api_names.DISPATCHED lists them, recorded
                       from TF); simdist's own code calls the undecorated op.
  GlobalOpDispatcher -- ``handle(op, args, kwargs)``: the result, or ``NOT_SUPPORTED``;
                       ``register()`` adds it for every public op (Keras's KerasOpDispatcher).
  fallback          -- dispatchers are asked only when the op raised TypeError or
                       ValueError, as in TF: a call on tensors pays nothing more.
  api name          -- the op's TF canonical name ('math.reduce_mean' for tf.reduce_mean),
                       which names the Keras layer made from it ('tf.math.reduce_mean').

Mirrors tensorflow/python/util/dispatch.py.
"""

from __future__ import annotations

import functools

from simdist.framework import api_names

NOT_SUPPORTED = object()
_GLOBAL_DISPATCHERS: list = []
_WRAPPERS: dict = {}  # id of the op -> its public, dispatching function


class GlobalOpDispatcher:
    """Handles any public op called on values the op itself does not take."""

    NOT_SUPPORTED = NOT_SUPPORTED

    def handle(self, op, args, kwargs):
        """The op's result for these arguments, or ``NOT_SUPPORTED``."""
        return NOT_SUPPORTED

    def register(self) -> None:
        """Ask this dispatcher on every public op's failure from now on."""
        _GLOBAL_DISPATCHERS.append(self)


def _dispatch(op, args, kwargs):
    for dispatcher in _GLOBAL_DISPATCHERS:
        result = dispatcher.handle(op, args, kwargs)
        if result is not NOT_SUPPORTED:
            return result
    return NOT_SUPPORTED


def add_dispatch_support(fn, api_name: str, home=None):
    """``fn`` as a public op named ``api_name`` (one function however many paths it has).
    ``home``: the (module, name) the first path binds it to, where pickle finds it (the
    module's ``fn`` is the undispatched function, not this one)."""
    if id(fn) in _WRAPPERS:
        wrapper = _WRAPPERS[id(fn)]
        if home is not None and not getattr(wrapper, "_tf_home", False):   # made by public
            wrapper.__module__, wrapper.__qualname__ = home
            wrapper._tf_home = True
        return wrapper

    @functools.wraps(fn)
    def op_dispatch_handler(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError):
            result = _dispatch(op_dispatch_handler, args, kwargs)
            if result is NOT_SUPPORTED:
                raise
            return result

    op_dispatch_handler._tf_api_name = api_name
    op_dispatch_handler._tf_home = home is not None
    if home is not None:
        op_dispatch_handler.__module__, op_dispatch_handler.__qualname__ = home
    _WRAPPERS[id(fn)] = op_dispatch_handler
    _WRAPPERS[id(op_dispatch_handler)] = op_dispatch_handler
    return op_dispatch_handler


def public(fn, path: str):
    """The public, dispatching op of ``fn`` (TF's ``tf.<path>``), for a composite op that
    calls it as TF's Python does (``reduce_mean`` inside ``tf.nn.moments``): on a value the
    op does not take, the dispatchers get this op rather than the composite (a KerasTensor
    makes this op's own layer, as in TF)."""
    return add_dispatch_support(fn, api_names.DISPATCHED[path])


def export_ops(namespace: dict, module: str, home: str | None = None) -> None:
    """Make the public ops of one namespace (``globals()`` of simdist/math.py ...) dispatch.

    ``module`` is the namespace's path below ``tf`` ('' for ``tf`` itself); ``home`` the
    Python module it is (by default its ``__name__``).
    """
    prefix = f"{module}." if module else ""
    home = home or namespace.get("__name__")
    for name, fn in list(namespace.items()):
        api_name = api_names.DISPATCHED.get(prefix + name)
        if api_name is not None and callable(fn):
            namespace[name] = add_dispatch_support(fn, api_name, home and (home, name))


def api_name(fn):
    """The TF canonical name of a public op, or None for another function."""
    return getattr(fn, "_tf_api_name", None)
