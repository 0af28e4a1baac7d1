"""Checkpoint files: what ``tf.train.Checkpoint`` writes, and reading them back.

Glossary:
  prefix        -- what ``save``/``write`` return ("dir/ckpt-3"); the checkpoint is the two
                   files TF writes beside it: ``prefix.index`` and
                   ``prefix.data-00000-of-00001``.
  key           -- a variable's path in the object graph + "/.ATTRIBUTES/VARIABLE_VALUE", as
                   TF names it ("model/layer_with_weights-0/kernel/.ATTRIBUTES/...").
  index / data  -- simdist's contents (not TF's binary format): the index is JSON (each
                   key's dtype and shape, and the aliases of the object graph), the data an
                   ``.npz`` of the values. File names and keys are TF's.
  list_variables, load_variable -- ``tf.train.list_variables`` / ``load_variable``.

Mirrors tensorflow/python/training/checkpoint_utils.py.
"""

from __future__ import annotations

import io
import json
import os

import numpy as np

from simdist.framework import errors

SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"
INDEX = ".index"
DATA = ".data-00000-of-00001"
OBJECT_GRAPH = "_CHECKPOINTABLE_OBJECT_GRAPH"  # TF's serialized graph; listed, not stored
FORMAT = "simdist checkpoint 1"


def write(prefix: str, values: dict, aliases: dict) -> None:
    """Write ``{key: array}`` and the graph's ``{alias: path}`` as the checkpoint ``prefix``."""
    os.makedirs(os.path.dirname(os.path.abspath(prefix)), exist_ok=True)
    buf = io.BytesIO()
    np.savez(buf, **values)
    with open(prefix + DATA, "wb") as f:
        f.write(buf.getvalue())
    index = {"format": FORMAT, "aliases": aliases,
             "variables": {k: {"dtype": str(v.dtype), "shape": list(v.shape)}
                           for k, v in values.items()}}
    with open(prefix + INDEX, "w") as f:
        json.dump(index, f, indent=1, sort_keys=True)


def exists(prefix: str) -> bool:
    return os.path.exists(os.fspath(prefix) + INDEX)


def read_index(prefix: str) -> dict:
    """The index of the checkpoint ``prefix``.

    Raises:
      NotFoundError: there is no checkpoint at ``prefix``.
    """
    prefix = os.fspath(prefix)
    if not exists(prefix):
        raise errors.NotFoundError(
            None, None,
            f"Error when restoring from checkpoint or SavedModel at {prefix}: Unsuccessful "
            f"TensorSliceReader constructor: Failed to find any matching files for {prefix}\n"
            "Please double-check that the path is correct. You may be missing the checkpoint "
            "suffix (e.g. the '-1' in 'path/to/ckpt-1').")
    with open(prefix + INDEX) as f:
        return json.load(f)


def read(prefix: str) -> tuple[dict, dict]:
    """``({key: array}, {alias: path})`` of the checkpoint ``prefix``."""
    index = read_index(prefix)
    with np.load(os.fspath(prefix) + DATA) as data:
        values = {k: data[k] for k in data.files}
    return values, index.get("aliases", {})


def _prefix_of(ckpt_dir_or_file) -> str:
    from simdist.train.checkpoint_management import latest_checkpoint

    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given "
                             f"directory {path}")
        return latest
    return path


def list_variables(ckpt_dir_or_file) -> list:
    """``[(key, shape)]`` of every value in a checkpoint, sorted by key (as TF lists them)."""
    index = read_index(_prefix_of(ckpt_dir_or_file))
    out = [(k, v["shape"]) for k, v in index["variables"].items()] + [(OBJECT_GRAPH, [])]
    return sorted(out)


def load_variable(ckpt_dir_or_file, name):
    """The value stored under ``name`` (a key of ``list_variables``) as a NumPy array.

    Raises:
      NotFoundError: no such key in the checkpoint.
    """
    values, _ = read(_prefix_of(ckpt_dir_or_file))
    if name.endswith(":0"):
        name = name[:-2]
    if name not in values:
        raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint")
    return values[name]
