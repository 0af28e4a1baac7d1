"""Nested structures (lists, tuples, namedtuples, dicts) flattened and rebuilt.

Glossary:
  flatten              -- the leaves in TF's order (dict values by sorted key).
  pack_sequence_as     -- rebuild a structure from its flat leaves.
  map_structure        -- apply a function leaf-wise over structures of the same shape.

Mirrors tensorflow/python/util/nest.py.
"""

from __future__ import annotations


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def is_nested(x) -> bool:
    return isinstance(x, (list, tuple, dict))


def _children(x):
    if isinstance(x, dict):
        return [x[k] for k in sorted(x)]
    return list(x)


def flatten(structure) -> list:
    """The leaves of ``structure`` (``None`` is a leaf, as in TF)."""
    if not is_nested(structure):
        return [structure]
    out = []
    for child in _children(structure):
        out.extend(flatten(child))
    return out


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


def assert_same_structure(a, b) -> None:
    """Raise ValueError if ``a`` and ``b`` do not have the same nested structure."""
    if is_nested(a) != is_nested(b):
        raise ValueError(f"The two structures don't have the same nested structure: {a!r} vs {b!r}")
    if not is_nested(a):
        return
    ca, cb = _children(a), _children(b)
    if len(ca) != len(cb) or (isinstance(a, dict) and sorted(a) != sorted(b)):
        raise ValueError(f"The two structures don't have the same sequence length: {a!r} vs {b!r}")
    for x, y in zip(ca, cb):
        assert_same_structure(x, y)


def map_structure(func, *structures):
    """Apply ``func`` to corresponding leaves of ``structures``."""
    if not structures:
        raise ValueError("Must provide at least one structure")
    for s in structures[1:]:
        assert_same_structure(structures[0], s)
    flats = [flatten(s) for s in structures]
    # The leaves came from structures[0] itself: packed back without counting them again.
    out, _ = _pack(structures[0], [func(*xs) for xs in zip(*flats)], 0)
    return out
