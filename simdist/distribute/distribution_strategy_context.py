"""Which strategy is current, and whether code runs in replica or cross-replica context.

Glossary:
  thread mode           -- per thread: the current strategy, and either a ReplicaContext
                           (replica context) or the strategy itself (cross-replica context).
  default mode          -- outside any scope: the default strategy, in *replica* context
                           (so ``in_cross_replica_context()`` is False at top level, as in TF).
  strategy.scope()      -- pushes cross-replica mode; ``strategy.run`` pushes replica mode
                           in each replica's thread; ``merge_call`` pushes cross-replica mode.
  enter_or_assert_strategy -- enter a variable's strategy's scope unless one is current
                           (Keras and checkpoints read and write variables under it).

Mirrors tensorflow/python/distribute/distribution_strategy_context.py.
"""

from __future__ import annotations

import contextlib

from simdist._world import register_resetter
from simdist.framework.thread_local import ThreadLocalStack

_modes = ThreadLocalStack()


class ThreadMode:
    """The strategy and context of one entry of a thread's mode stack."""

    __slots__ = ("strategy", "cross_replica_context", "replica_context")

    def __init__(self, strategy, cross_replica_context, replica_context):
        self.strategy = strategy
        self.cross_replica_context = cross_replica_context
        self.replica_context = replica_context


def cross_replica_mode(strategy) -> ThreadMode:
    return ThreadMode(strategy, strategy, None)


def replica_mode(replica_context) -> ThreadMode:
    return ThreadMode(replica_context.strategy, None, replica_context)


_default_mode: ThreadMode | None = None


def _get_default_mode() -> ThreadMode:
    global _default_mode
    if _default_mode is None:
        from simdist.distribute.default_strategy import DefaultDistributionStrategy

        strategy = DefaultDistributionStrategy()
        _default_mode = replica_mode(strategy.extended._default_replica_context)
    return _default_mode


def _stack() -> list[ThreadMode]:
    return _modes.items


def get_per_thread_mode() -> ThreadMode:
    s = _stack()
    return s[-1] if s else _get_default_mode()


def push_mode(mode: ThreadMode) -> None:
    _stack().append(mode)


def pop_mode() -> None:
    _stack().pop()


def get_strategy():
    """The current strategy (the default strategy outside any scope)."""
    return get_per_thread_mode().strategy


def has_strategy() -> bool:
    """Whether a non-default strategy is current."""
    return get_strategy() is not _get_default_mode().strategy


def in_cross_replica_context() -> bool:
    """True inside ``strategy.scope()`` (and merge functions), False in replica context."""
    return get_per_thread_mode().cross_replica_context is not None


def get_replica_context():
    """The current ReplicaContext, or None in cross-replica context."""
    return get_per_thread_mode().replica_context


def get_cross_replica_context():
    """The current strategy in cross-replica context, else None."""
    return get_per_thread_mode().cross_replica_context


def strategy_of(variable):
    """The strategy whose scope made ``variable`` (None for one made outside any)."""
    return getattr(variable, "_distribute_strategy", None)


@contextlib.contextmanager
def enter_or_assert_strategy(strategy):
    """Enter ``strategy``'s scope when no strategy is current (TF's
    distribute_lib.enter_or_assert_strategy)."""
    if strategy is None or has_strategy():
        yield
        return
    with strategy.scope():
        yield


def get_default_strategy():
    return _get_default_mode().strategy


_global_scope = {"scope": None}


def experimental_set_strategy(strategy) -> None:
    """Make ``strategy`` current without a ``with`` block (``None`` clears it).

    Raises:
      RuntimeError: when called inside a strategy's scope.
    """
    old = _global_scope["scope"]
    if old is not None:
        old.__exit__(None, None, None)
        _global_scope["scope"] = None
    if has_strategy():
        raise RuntimeError("Must not be called inside a `tf.distribute.Strategy` scope.")
    if strategy is not None:
        new = strategy.scope()
        new.__enter__()
        _global_scope["scope"] = new


@register_resetter
def _reset() -> None:
    global _default_mode
    _stack().clear()
    _global_scope["scope"] = None
    _default_mode = None

