"""Trackable objects: the graph of named objects that a checkpoint saves and restores.

Glossary:
  Trackable      -- an object with named children (``_trackable_children``): a layer, a
                    model, an optimizer, a metric, a checkpoint. A Variable is a leaf.
  children       -- ``children(obj)``: ``{name: child}``; lists, tuples and dicts of
                    trackables are walked like objects, their items named "0", "1" ... or by
                    key, as TF's tracked data structures are.
  path           -- child names from the root joined by "/" ("model/layer-0/kernel").
  key            -- a leaf's path and attribute, as TF names the saved value:
                    'net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE'; a leaf that is not a
                    variable names its own (``_checkpoint_attribute``: an iterator's
                    ITERATOR_STATE).
  walk           -- breadth-first from the root: each object is saved once, under the first
                    path that reaches it; the other paths to it are its aliases.
  deferred       -- a checkpointed value whose variable does not exist yet (an unbuilt
                    layer's weights, slots an optimizer has not made) waits on the nearest
                    existing object of its path, and is assigned as soon as the variable
                    appears: ``add_weight`` and the optimizers' ``add_variable`` call
                    ``restore_deferred`` (TF's deferred restoration).

Mirrors tensorflow/python/trackable/base.py and tensorflow/python/checkpoint/graph_view.py.
"""

from __future__ import annotations

import weakref
from collections import deque

from simdist.framework.variables import Variable


class Trackable:
    """Base of the objects a checkpoint can walk (TF's ``Trackable``)."""

    def _trackable_children(self) -> dict:
        """The named children this object saves (TF's ``_trackable_children``)."""
        return {}


def is_leaf(value) -> bool:
    """Whether a checkpoint saves ``value`` as one value: a variable, or an object that
    declares ``_saved_as_one_variable`` (a ShardedVariable, saved whole as TF's slices are)."""
    return isinstance(value, Variable) or getattr(value, "_saved_as_one_variable", False)


def key(path: str, leaf) -> str:
    """The checkpoint key of ``leaf`` at ``path`` (see the glossary)."""
    return f"{path}/.ATTRIBUTES/{getattr(leaf, '_checkpoint_attribute', 'VARIABLE_VALUE')}"


def key_path(key_: str) -> str:
    """The object path of a checkpoint key."""
    return key_.rpartition("/.ATTRIBUTES/")[0] or key_


def is_trackable(value) -> bool:
    """Whether a checkpoint can hold ``value``: a variable, a Trackable, or a container of them."""
    if is_leaf(value) or isinstance(value, Trackable):
        return True
    if isinstance(value, dict):
        return bool(value) and all(is_trackable(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return bool(value) and all(is_trackable(v) for v in value)
    return False


def children(node) -> dict:
    """``{name: child}`` of a trackable or of a list, tuple or dict of them."""
    if is_leaf(node):
        return {}
    if isinstance(node, Trackable):
        return node._trackable_children()
    if isinstance(node, dict):
        return {str(k): v for k, v in node.items() if is_trackable(v)}
    if isinstance(node, (list, tuple)):
        return {str(i): v for i, v in enumerate(node) if is_trackable(v)}
    return {}


def walk(root):
    """``(variables, aliases)``: each variable by its first path, and ``{alias: path}`` for the
    other paths to an object already reached (so either path finds it on restore)."""
    found, aliases, seen = {}, {}, {}
    queue = deque([("", root)])
    while queue:
        path, node = queue.popleft()
        for name, child in children(node).items():
            child_path = f"{path}/{name}" if path else name
            first = seen.get(id(child))
            if first is not None:
                aliases[child_path] = first
                continue
            if not isinstance(child, (list, tuple, dict)):  # containers are rebuilt per call
                seen[id(child)] = child_path
            if is_leaf(child):
                found[child_path] = child
            else:
                queue.append((child_path, child))
    return found, aliases


def resolve(root, path: str):
    """Follow ``path`` from ``root``: ``(node, owner, rest)``: the node reached (None if the
    path breaks), the last object passed on the way and the part of the path past it."""
    node, owner, rest = root, root, path.split("/")
    for i, name in enumerate(path.split("/")):
        node = children(node).get(name)
        if node is None:
            return None, owner, "/".join(rest)
        if not isinstance(node, (list, tuple, dict)):
            owner, rest = node, path.split("/")[i + 1:]
    return node, owner, "/".join(rest)


def spellings(path: str, aliases: dict) -> list:
    """``path`` and the paths that reach the same object through an alias of its prefix."""
    out = [path]
    for alias, target in aliases.items():
        for p in list(out):
            if p == target or p.startswith(target + "/"):
                out.append(alias + p[len(target):])
    return out


# Owners (weakly held) with values waiting for a variable: {relative path: assign}.
_WAITING = weakref.WeakKeyDictionary()


def defer(owner, relative_path: str, assign) -> None:
    """Call ``assign(variable)`` once ``relative_path`` from ``owner`` reaches a variable."""
    _WAITING.setdefault(owner, {})[relative_path] = assign


def waiting() -> bool:
    """Whether any checkpointed value waits for its variable."""
    return bool(_WAITING)


def restore_deferred() -> None:
    """Assign every waiting value whose variable now exists (called when one is created).
    Inside a tf.function's trace the assignments run eagerly, outside the graph, as TF
    restores on creation (the checkpoint's value is the variable's initial value)."""
    if not _WAITING:
        return
    from simdist.framework import function_variables

    with function_variables.lifted():
        _restore_waiting()


def _restore_waiting() -> None:
    for owner, waiting in list(_WAITING.items()):
        for rel, assign in list(waiting.items()):
            node, deeper, rest = resolve(owner, rel)
            if is_leaf(node):
                del waiting[rel]
                assign(node)
            elif deeper is not owner:  # part of the path exists now: wait further down
                del waiting[rel]
                defer(deeper, rest, assign)
        if not waiting:
            _WAITING.pop(owner, None)


def pending(owner) -> list:
    """The relative paths still waiting on ``owner``."""
    return list(_WAITING.get(owner, {}))
