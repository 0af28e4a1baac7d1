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
  faults        -- as TF 2.21 reports them, and nothing is loaded: an index that is empty or
                   not simdist's is an ``OpError`` ("not an sstable"), a data file shorter
                   than the index says an ``IndexError`` ("Read less bytes than requested"),
                   one whose checksum differs or that is missing an ``OpError``; a file
                   system error on save is TF's class for its errno (errors.from_os_error).
  list_variables, load_variable -- ``tf.train.list_variables`` / ``load_variable``.

Mirrors tensorflow/python/training/checkpoint_utils.py.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
import zlib

import numpy as np

from simdist.framework import errors

SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"
INDEX = ".index"
DATA = ".data-00000-of-00001"
OBJECT_GRAPH = "_CHECKPOINTABLE_OBJECT_GRAPH"  # TF's serialized graph; listed, not stored
FORMAT = "simdist checkpoint 1"


def write(prefix: str, values: dict, aliases: dict) -> None:
    """Write ``{key: array}`` and the graph's ``{alias: path}`` as the checkpoint ``prefix``.

    Raises:
      OpError: TF's subclass for a file-system error (errors.from_os_error).
    """
    buf = io.BytesIO()
    np.savez(buf, **values)
    data = buf.getvalue()
    index = {"format": FORMAT, "aliases": aliases,
             "data": {"size": len(data), "crc32": zlib.crc32(data)},
             "variables": {k: {"dtype": str(v.dtype), "shape": list(v.shape)}
                           for k, v in values.items()}}
    try:
        os.makedirs(os.path.dirname(os.path.abspath(prefix)), exist_ok=True)
        with open(prefix + DATA, "wb") as f:
            f.write(data)
        with open(prefix + INDEX, "w") as f:
            json.dump(index, f, indent=1, sort_keys=True)
    except OSError as e:
        raise errors.from_os_error(e) from e


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
    with open(prefix + INDEX, "rb") as f:
        raw = f.read()
    if not raw:
        raise errors.OpError(None, None, "file is too short to be an sstable")
    try:
        index = json.loads(raw)
    except ValueError:
        index = None
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        raise errors.OpError(None, None, "not an sstable (bad magic number)")
    return index


def read(prefix: str) -> tuple[dict, dict]:
    """``({key: array}, {alias: path})`` of the checkpoint ``prefix``, read whole before
    anything is restored.

    Raises:
      NotFoundError: there is no checkpoint at ``prefix``.
      OpError, IndexError: a damaged or missing file, as TF 2.21 raises them.
    """
    index = read_index(prefix)
    raw = _read_data(os.fspath(prefix) + DATA, index.get("data"))
    try:
        with np.load(io.BytesIO(raw)) as data:
            values = {k: data[k] for k in data.files}
    except (ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
        raise errors.OpError(None, None, f"{prefix}{DATA}: corrupted data ({e})") from e
    return values, index.get("aliases", {})


def _read_data(path: str, expected) -> bytes:
    """The data file's bytes, checked against the size and checksum its index recorded."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError as e:
        raise errors.OpError(None, None, f"{path}; No such file or directory") from e
    if expected is None:  # written before simdist recorded them
        return raw
    if len(raw) < expected["size"]:
        raise IndexError("Read less bytes than requested")
    crc = zlib.crc32(raw[:expected["size"]])
    if crc != expected["crc32"]:
        raise errors.OpError(None, None, f"The checksum does not match: expected "
                                         f"{expected['crc32']} but actual is {crc}")
    return raw


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
