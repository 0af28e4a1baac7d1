"""A bounded memo: a dict of values kept by key that starts over when it is full.

Glossary:
  kept  -- ``kept(cache, key, compute, limit)``: ``cache[key]``, computed by ``compute()``
           and kept at the first call for ``key`` (a value of None is kept too).
  keep  -- ``keep(cache, key, value, limit)``: keep ``value``.
  limit -- how many keys a cache holds; at the limit it is cleared before the next is kept
           (a program has a few structures, sizes or layouts, not many: what recurs is
           kept again at once). None: no limit.
"""

from __future__ import annotations

_MISSING = object()


def kept(cache: dict, key, compute, limit: int | None = None):
    """``cache[key]``, or ``compute()`` kept there (see the module docstring)."""
    hit = cache.get(key, _MISSING)
    if hit is _MISSING:
        hit = compute()
        keep(cache, key, hit, limit)
    return hit


def keep(cache: dict, key, value, limit: int | None = None) -> None:
    """``cache[key] = value`` (see the module docstring)."""
    if limit is not None and len(cache) >= limit:
        cache.clear()
    cache[key] = value
