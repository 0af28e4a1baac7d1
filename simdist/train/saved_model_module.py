"""``tf.saved_model.save`` / ``load`` for a ``tf.Module`` (or any trackable that is not a
Keras model): its variables, its object graph and its tf.functions' traces.

Glossary:
  directory     -- TF's layout: ``saved_model.pb`` (the object graph and the traced
                   functions, function_serialization's format behind a header),
                   ``fingerprint.pb`` (a FingerprintDef of hashes), ``variables/variables``
                   (a checkpoint of the object graph, as tf.train.Checkpoint writes it) and
                   an empty ``assets/``.
  functions     -- each tf.function attribute (a decorated method or an instance
                   attribute) with the traces made so far; one with an input_signature and
                   no trace yet is traced at save, as TF does (before any is listed: it
                   may call another's, which then has a trace more). A function simdist ran
                   eagerly (no graph) cannot be saved.
  loaded object -- not the saved class: a ``_UserObject`` per saved object, its children as
                   attributes (variables made anew from the checkpoint, with their names and
                   trainability), each function a RestoredFunction, and empty
                   ``signatures``.

Mirrors tensorflow/python/saved_model/save.py and load.py.
"""

from __future__ import annotations

import json
import os

from simdist.framework import event_file, farmhash, function_serialization, trackable
from simdist.framework.function import Function
from simdist.framework.restored_function import RestoredFunction
from simdist.framework.variables import Variable
from simdist.train import checkpoint, checkpoint_utils
from simdist.train.checkpoint_utils import SUFFIX

MAGIC = b"simdist SavedModel of a trackable\n"
VARIABLES = os.path.join("variables", "variables")


def save(obj, export_dir) -> None:
    """Write ``obj``'s SavedModel directory (see the module glossary).

    Raises:
      ValueError: ``obj`` is not trackable.
      NotImplementedError: a tf.function that simdist ran eagerly.
      AssertionError: a function captures a variable ``obj`` does not reach (TF's text).
    """
    if not isinstance(obj, trackable.Trackable):
        raise ValueError(f"Expected an object of type `Trackable`, such as `tf.Module` or a "
                         f"subclass of the `Trackable` class, for export. Got {obj} with "
                         f"type {type(obj)}.")
    path = os.fspath(export_dir)
    os.makedirs(os.path.join(path, "variables"), exist_ok=True)
    os.makedirs(os.path.join(path, "assets"), exist_ok=True)
    found, _ = trackable.walk(obj)
    checkpoint.write_graph(obj, os.path.join(path, VARIABLES))
    meta = {p: {"name": v.name.rpartition(":")[0] or v.name, "trainable": bool(v.trainable)}
            for p, v in found.items()}
    _trace_signatures(obj, {id(obj)})   # before any function is listed: they may call others
    tree = _tree(obj, "", {id(obj)})
    data = function_serialization.dumps(tree, {id(v): p for p, v in found.items()})
    header = json.dumps(meta).encode()
    body = MAGIC + len(header).to_bytes(8, "little") + header + data
    with open(os.path.join(path, "saved_model.pb"), "wb") as f:
        f.write(body)
    with open(os.path.join(path, VARIABLES + ".index"), "rb") as f:
        index = f.read()
    with open(os.path.join(path, "fingerprint.pb"), "wb") as f:
        f.write(event_file.fingerprint_def(farmhash.fingerprint64(body),
                                           farmhash.fingerprint64(index)))


def _tree(node, path, seen):
    """{'children': {name: subtree or ('variable', path)}, 'functions': {name: traces}}."""
    children = {}
    for name, child in trackable.children(node).items():
        child_path = f"{path}/{name}" if path else name
        if trackable.is_leaf(child):
            children[name] = ("variable", child_path)
        elif id(child) not in seen:
            seen.add(id(child))
            children[name] = _tree(child, child_path, seen)
    return {"children": children, "functions": _functions(node)}


def _function_names(node) -> list:
    names = {n for klass in type(node).__mro__ for n, v in vars(klass).items()
             if isinstance(v, Function)}
    names |= {n for n, v in getattr(node, "__dict__", {}).items() if isinstance(v, Function)}
    return sorted(names)


def _trace_signatures(node, seen) -> None:
    """Trace each function with an input_signature and no trace yet, as TF does at save,
    in every object first: a trace that calls another object's tf.function adds a trace
    to it, which that object's saved functions must list (TF's nested concrete function)."""
    for name in _function_names(node):
        fn = getattr(node, name)
        if fn._input_signature is not None and not fn._traces:
            fn.get_concrete_function()
    for child in trackable.children(node).values():
        if not trackable.is_leaf(child) and id(child) not in seen:
            seen.add(id(child))
            _trace_signatures(child, seen)


def _functions(node) -> dict:
    out = {}
    for name in _function_names(node):
        fn = getattr(node, name)
        if any(t.eager for t in fn._traces):
            raise NotImplementedError(
                f"simdist cannot save the tf.function {name!r}: it ran eagerly (no graph to "
                f"save): {fn._untraceable}")
        out[name] = [fn.saved_trace(t) for t in fn._traces if t.graph is not None]
    return out


def is_saved_module(export_dir) -> bool:
    """Whether ``export_dir`` holds a SavedModel this module wrote."""
    try:
        with open(os.path.join(os.fspath(export_dir), "saved_model.pb"), "rb") as f:
            return f.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


class _SignatureMap(dict):
    """The signatures of a loaded object by key."""

    def __repr__(self):
        return f"_SignatureMap({dict.__repr__(self)})"


class _UserObject(trackable.Trackable):
    """A loaded object: its saved children and functions as attributes."""

    def __init__(self):
        self.signatures = _SignatureMap({})

    def _trackable_children(self) -> dict:
        return {k: v for k, v in vars(self).items()
                if k != "signatures" and trackable.is_trackable(v)}


def load(export_dir):
    """The loaded object of a directory ``save`` wrote (see the module glossary)."""
    path = os.fspath(export_dir)
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        body = f.read()
    start = len(MAGIC) + 8
    size = int.from_bytes(body[len(MAGIC):start], "little")
    meta = json.loads(body[start:start + size])
    values, _ = checkpoint_utils.read(os.path.join(path, VARIABLES))
    made = {p: Variable(values[p + SUFFIX], name=m["name"], trainable=m["trainable"])
            for p, m in meta.items()}
    tree = function_serialization.loads(body[start + size:], made)
    return _revive(tree, made)


def _revive(tree, made):
    cls = _UserObject
    if "__call__" in tree["functions"]:   # a class of its own, so that it can be called
        cls = type("_UserObject", (_UserObject,), {"__call__": _call_restored})
    obj = cls()
    for name, child in tree["children"].items():
        value = made[child[1]] if isinstance(child, tuple) else _revive(child, made)
        setattr(obj, name, value)
    for name, traces in tree["functions"].items():
        setattr(obj, name, RestoredFunction(name, traces))
    return obj


def _call_restored(self, *args, **kwargs):
    return self.__dict__["__call__"](*args, **kwargs)
