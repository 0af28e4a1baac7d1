"""``tf.train.load_checkpoint``: a reader of one checkpoint's stored values.

Glossary:
  CheckpointReader -- the values of the checkpoint ``prefix`` by key (``list_variables``'s
                      keys): ``get_tensor`` (a NumPy array, a NumPy scalar for a scalar),
                      ``has_tensor``, ``get_variable_to_shape_map`` (key -> list of ints),
                      ``get_variable_to_dtype_map`` (key -> tf.DType).
  object graph     -- TF also lists ``_CHECKPOINTABLE_OBJECT_GRAPH`` (tf.string, shape []):
                      its value is TF's serialized object graph; here it is simdist's own
                      record of the graph (JSON bytes of the aliases), not TF's protobuf.
Mirrors tensorflow/python/training/py_checkpoint_reader.py (NewCheckpointReader) and
checkpoint_utils.py (load_checkpoint).
"""

from __future__ import annotations

import json
import os

from simdist.framework import dtypes, errors
from simdist.train import checkpoint_utils


class CheckpointReader:
    """The stored values of one checkpoint (``tf.train.load_checkpoint``'s result)."""

    def __init__(self, prefix: str):
        prefix = os.fspath(prefix)
        if not checkpoint_utils.exists(prefix):
            raise errors.NotFoundError(
                None, None, "Unsuccessful TensorSliceReader constructor: Failed to find any "
                            f"matching files for {prefix}")
        self._prefix = prefix
        self._index = checkpoint_utils.read_index(prefix)

    def get_variable_to_shape_map(self) -> dict:
        out = {k: list(v["shape"]) for k, v in self._index["variables"].items()}
        out[checkpoint_utils.OBJECT_GRAPH] = []
        return out

    def get_variable_to_dtype_map(self) -> dict:
        out = {k: dtypes.as_dtype(v["dtype"]) for k, v in self._index["variables"].items()}
        out[checkpoint_utils.OBJECT_GRAPH] = dtypes.string
        return out

    def has_tensor(self, tensor_str) -> bool:
        return tensor_str in self._index["variables"] or \
            tensor_str == checkpoint_utils.OBJECT_GRAPH

    def get_tensor(self, tensor_str):
        """The value stored under ``tensor_str``.

        Raises:
          NotFoundError: no such key in the checkpoint.
        """
        if tensor_str == checkpoint_utils.OBJECT_GRAPH:
            return json.dumps(self._index.get("aliases", {}), sort_keys=True).encode()
        if tensor_str not in self._index["variables"]:
            raise errors.NotFoundError(None, None,
                                       f"Key {tensor_str} not found in checkpoint")
        values, _ = checkpoint_utils.read(self._prefix)
        value = values[tensor_str]
        return value[()] if value.ndim == 0 else value   # TF: a NumPy scalar for a scalar


def load_checkpoint(ckpt_dir_or_file) -> CheckpointReader:
    """A reader of the checkpoint at ``ckpt_dir_or_file`` (a prefix, or a directory: its
    latest checkpoint).

    Raises:
      ValueError: a directory with no checkpoint.
      NotFoundError: no checkpoint at the prefix.
    """
    return CheckpointReader(checkpoint_utils._prefix_of(ckpt_dir_or_file))

