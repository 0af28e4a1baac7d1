"""Python's builtins as converted code calls them (``abs``, ``float``, ``int``, ``len``,
``range``, ``enumerate``, ``zip``, ``map``, ``filter``, ``any``, ``all``, ``sorted``).

Glossary:
  overload_of  -- ``converted_call`` of one of these builtins calls its overload instead;
                  other builtins (and ``print``, which call_trees leaves alone) run as they
                  are, as TF's SUPPORTED_BUILTINS.
  tensor       -- a Tensor or Variable: ``abs`` -> tf.abs, ``float`` / ``int`` -> a cast
                  (a string parsed), ``len`` -> its static first dimension or
                  ``tf.shape(x)[0]`` (ValueError for a scalar), ``range`` of tensors ->
                  ``tf.range`` (TF's maximum for stop < start), ``sorted`` -> ``tf.sort``.
  registry     -- what layers above register per type (TF's ``*_registry``): tf.data
                  registers datasets (``enumerate(ds)`` -> ``ds.enumerate()``, ``zip`` ->
                  ``Dataset.zip``, ``len`` -> the cardinality, ``any`` / ``all`` -> reduces),
                  so ``for i, x in enumerate(ds)`` in a tf.function is a dataset loop.
  Python value -- the builtin itself.

Mirrors tensorflow/python/autograph/operators/py_builtins.py.
"""

from __future__ import annotations

import builtins

from simdist.framework import dtypes, execute, func_graph

UNSPECIFIED = object()

# name -> [(class, overload)]: registered by the layers above (simdist.data)
_REGISTRY: dict = {}


def register(name: str, cls, overload) -> None:
    """Call ``overload`` for builtin ``name`` on instances of ``cls`` (TF's
    ``<name>_registry.register``)."""
    _REGISTRY.setdefault(name, []).append((cls, overload))


def _lookup(name: str, obj):
    for cls, overload in _REGISTRY.get(name, ()):
        if isinstance(obj, cls):
            return overload
    return None


def _is_tensor(x) -> bool:
    return isinstance(x, execute.Tensor) or func_graph.is_symbolic(x) or (
        hasattr(x, "assign") and hasattr(x, "dtype") and hasattr(x, "shape"))


def abs_(x):
    found = _lookup("abs", x)
    if found is not None:
        return found(x)
    if _is_tensor(x):
        from simdist.framework.ops import math_ops

        return math_ops.abs(x)
    return builtins.abs(x)


def _number(x, dtype):
    from simdist.framework.ops import array_ops, string_ops

    if x.dtype == dtypes.string:
        return string_ops.to_number(x, out_type=dtype)
    return array_ops.cast(x, dtype)


def float_(x=0):
    return _number(x, dtypes.float32) if _is_tensor(x) else builtins.float(x)


def int_(x=0, base=UNSPECIFIED):
    if _is_tensor(x):
        if base not in (10, UNSPECIFIED):
            raise NotImplementedError(f"base {base} not supported for int")
        return _number(x, dtypes.int32)
    return builtins.int(x) if base is UNSPECIFIED else builtins.int(x, base)


def len_(s):
    found = _lookup("len", s)
    if found is not None:
        return found(s)
    if hasattr(s, "size") and hasattr(s, "stack") and hasattr(s, "write"):   # TensorArray
        return s.size()
    if _is_tensor(s):
        return _tensor_len(s)
    return builtins.len(s)


def _tensor_len(s):
    """A tensor's first dimension: static when known, else ``tf.shape(s)[0]``."""
    from simdist.framework.ops import array_ops

    if s.shape.rank == 0:   # TF's text shows the shape tensor
        raise ValueError("len requires a non-scalar tensor, got one of shape "
                         f"{array_ops.shape(s)}")
    if s.shape.rank and s.shape[0] is not None:
        return s.shape[0]
    return array_ops.shape(s)[0]


def range_(start_or_stop, stop=UNSPECIFIED, step=UNSPECIFIED):
    if any(_is_tensor(x) for x in (start_or_stop, stop, step)):
        from simdist.framework.ops import array_ops, math_ops

        if step is not UNSPECIFIED:
            return array_ops.range(start_or_stop, stop, step)
        if stop is not UNSPECIFIED:
            return array_ops.range(start_or_stop, math_ops.maximum(start_or_stop, stop))
        return array_ops.range(math_ops.maximum(start_or_stop, 0))
    args = [a for a in (start_or_stop, stop, step) if a is not UNSPECIFIED]
    return builtins.range(*args)


def enumerate_(s, start=0):
    found = _lookup("enumerate", s)
    return found(s, start) if found is not None else builtins.enumerate(s, start)


def _common(name: str, iterables):
    """The overload every one of ``iterables`` registers alike, else None (TF's rule)."""
    chosen = None
    for x in iterables:
        found = _lookup(name, x)
        if found is None or (chosen is not None and found is not chosen):
            return None
        chosen = found
    return chosen


def zip_(*iterables, strict=False):
    found = _common("zip", iterables)
    if found is not None:
        return found(*iterables, strict=strict)
    return builtins.zip(*iterables, strict=strict)


def map_(fn, *iterables):
    found = _common("map", iterables)
    return found(fn, *iterables) if found is not None else builtins.map(fn, *iterables)


def filter_(function, iterable):
    found = _lookup("filter", iterable)
    if found is not None:
        return found(function, iterable)
    return builtins.filter(function, iterable)


def any_(iterable):
    found = _lookup("any", iterable)
    return found(iterable) if found is not None else builtins.any(iterable)


def all_(iterable):
    found = _lookup("all", iterable)
    return found(iterable) if found is not None else builtins.all(iterable)


def sorted_(iterable, key=UNSPECIFIED, reverse=UNSPECIFIED):
    if _is_tensor(iterable):
        return _tensor_sorted(iterable, key, reverse)
    kwargs = {k: v for k, v in (("key", key), ("reverse", reverse)) if v is not UNSPECIFIED}
    return builtins.sorted(iterable, **kwargs)


def _tensor_sorted(iterable, key, reverse):
    """``sorted`` of a 1-D tensor: ``tf.sort`` (by ``key`` of each element: ``tf.argsort``
    of the keys, then a gather), as TF's autograph_ops._tf_sorted."""
    from simdist.framework.ops import array_ops, sort_ops

    direction = "DESCENDING" if reverse is not UNSPECIFIED and reverse else "ASCENDING"
    if iterable.shape.rank is not None and iterable.shape.rank != 1:
        raise ValueError("sort only supports only 1D tensors")
    if key is UNSPECIFIED:
        return sort_ops.sort(iterable, direction=direction)
    mapped = key(iterable)
    return array_ops.gather(iterable, sort_ops.argsort(mapped, direction=direction))


_OVERLOADS = {builtins.abs: abs_, builtins.float: float_, builtins.int: int_,
              builtins.len: len_, builtins.range: range_, builtins.enumerate: enumerate_,
              builtins.zip: zip_, builtins.map: map_, builtins.filter: filter_,
              builtins.any: any_, builtins.all: all_, builtins.sorted: sorted_}


def overload_of(f):
    """The overload converted code calls for ``f`` (``f`` itself for other functions)."""
    try:
        return _OVERLOADS.get(f, f)
    except TypeError:   # an unhashable callable
        return f
