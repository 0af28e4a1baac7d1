"""Nested structures (lists, tuples, namedtuples, dicts) flattened and rebuilt.

Glossary:
  flatten              -- the leaves in TF's order (dict values by sorted key).
  pack_sequence_as     -- rebuild a structure from its flat leaves.
  map_structure        -- apply a function leaf-wise over structures of the same shape.
  assert_same_structure -- TF's check and text ("The two structures don't have the same
                          nested structure." ... "Entire first structure: (., [.])").

Mirrors tensorflow/python/util/nest.py.
"""

from __future__ import annotations


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


NESTED = (list, tuple, dict)   # what nest walks into (the rest are leaves)


def is_nested(x) -> bool:
    return isinstance(x, NESTED)


def _children(x):
    if isinstance(x, dict):
        return [x[k] for k in sorted(x)]
    return list(x)


def flatten(structure) -> list:
    """The leaves of ``structure`` (``None`` is a leaf, as in TF)."""
    if not isinstance(structure, NESTED):
        return [structure]
    out: list = []
    _flatten_into(structure, out)
    return out


def _flatten_into(structure, out: list) -> None:
    """``flatten`` appending to ``out``: a leaf without a call of its own."""
    for child in _children(structure) if isinstance(structure, dict) else structure:
        if isinstance(child, NESTED):
            _flatten_into(child, out)
        else:
            out.append(child)


def _pack(structure, leaves, i):
    if not is_nested(structure):
        return leaves[i], i + 1
    if isinstance(structure, dict):
        out = {}
        for k in sorted(structure):
            out[k], i = _pack(structure[k], leaves, i)
        return type(structure)((k, out[k]) for k in structure), i
    items = []
    for child in structure:
        v, i = _pack(child, leaves, i)
        items.append(v)
    if _is_namedtuple(structure):
        return type(structure)(*items), i
    return type(structure)(items), i


def pack_sequence_as(structure, flat_sequence):
    """Rebuild ``structure`` with the leaves ``flat_sequence``.

    Raises:
      ValueError: if the number of leaves does not match the structure.
    """
    flat_sequence = list(flat_sequence)
    n = len(flatten(structure))
    if n != len(flat_sequence):
        raise ValueError(
            f"Could not pack sequence. Structure had {n} atoms, but flat_sequence had "
            f"{len(flat_sequence)} items."
        )
    out, _ = _pack(structure, flat_sequence, 0)
    return out


def _short(structure) -> str:
    """``structure`` with its leaves as dots (TF's "Entire first structure")."""
    if isinstance(structure, dict):
        return "{" + ", ".join(f"{k!r}: {_short(structure[k])}" for k in structure) + "}"
    if _is_namedtuple(structure):
        return (f"{type(structure).__name__}("
                + ", ".join(f"{f}={_short(v)}" for f, v in zip(structure._fields, structure))
                + ")")
    if isinstance(structure, (list, tuple)):
        inner = ", ".join(_short(x) for x in structure)
        if isinstance(structure, list):
            return f"[{inner}]"
        return f"({inner}{',' if len(structure) == 1 else ''})"
    return "."


def _describe(x) -> str:
    name = type(x).__name__
    if name == "Tensor":   # simdist's eager tensor, TF's EagerTensor
        name = "EagerTensor"
    return f"type={name} str={x!s}"


def _mismatch(a, b, check_types):
    """(exception type, detail) for the first difference, or None when they match."""
    if is_nested(a) != is_nested(b):
        seq, other = (a, b) if is_nested(a) else (b, a)
        return ValueError, (f'Substructure "{_describe(seq)}" is a sequence, while '
                            f'substructure "{_describe(other)}" is not')
    if not is_nested(a):
        return None
    if check_types and type(a) is not type(b) and not (
            isinstance(a, dict) and isinstance(b, dict)):
        return TypeError, ("The two namedtuples don't have the same sequence type. First "
                           f"structure {_describe(a)} has type {type(a).__name__}, while "
                           f"second structure {_describe(b)} has type {type(b).__name__}")
    if len(a) != len(b):
        return ValueError, ("The two structures don't have the same number of elements. "
                            f"First structure: {_describe(a)}. Second structure: "
                            f"{_describe(b)}")
    if isinstance(a, dict) and sorted(a) != sorted(b):
        return ValueError, ("The two dictionaries don't have the same set of keys. First "
                            f"structure has keys {_describe(list(a))}, while second "
                            f"structure has keys {_describe(list(b))}")
    for x, y in zip(_children(a), _children(b)):
        found = _mismatch(x, y, check_types)
        if found is not None:
            return found
    return None


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False) -> None:
    """Raise as TF's ``tf.nest.assert_same_structure`` does, with its text.

    Raises:
      ValueError: different nesting, element counts or dictionary keys.
      TypeError: with ``check_types``, a sequence of another type (a list where a tuple was).
    """
    found = _mismatch(nest1, nest2, check_types)
    if found is None:
        return
    error, detail = found
    raise error(
        "The two structures don't have the same nested structure.\n\n"
        f"First structure: {_describe(nest1)}\n\nSecond structure: {_describe(nest2)}\n\n"
        f"More specifically: {detail}\nEntire first structure:\n{_short(nest1)}\n"
        f"Entire second structure:\n{_short(nest2)}")


def map_structure(func, *structures, check_types=True, expand_composites=False):
    """Apply ``func`` to corresponding leaves of ``structures`` (checked as
    ``assert_same_structure`` checks them)."""
    if not callable(func):
        raise TypeError(f"func must be callable, got: {func}")
    if not structures:
        raise ValueError("Must provide at least one structure")
    for s in structures[1:]:
        assert_same_structure(structures[0], s, check_types=check_types)
    flats = [flatten(s) for s in structures]
    # The leaves came from structures[0] itself: packed back without counting them again.
    out, _ = _pack(structures[0], [func(*xs) for xs in zip(*flats)], 0)
    return out
