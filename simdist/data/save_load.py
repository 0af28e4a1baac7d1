"""``Dataset.save`` / ``Dataset.load``: a dataset's elements written to a directory and read
back.

Glossary:
  layout       -- TF's file names: ``dataset_spec.pb`` (the element spec),
                  ``snapshot.metadata`` (the run and the element count) and a run folder of
                  ``NNNNNNNN.shard`` files. The files' contents are simdist's own (pickled
                  host arrays, gzip when ``compression="GZIP"``): TensorFlow cannot read
                  them, nor simdist TensorFlow's.
  shard_func   -- element -> scalar int64: the shard an element goes to (default: all in
                  shard 0, in order); elements keep their order within a shard.
  reader_func  -- a dataset of the shards' datasets (in shard order) -> the loaded
                  dataset; default TF's ``interleave(lambda x: x, cycle_length=AUTOTUNE)``.
  cardinality  -- the saved element count (TF's metadata), even with a given element_spec.
  dict order   -- a loaded dict keeps its saved key order (TF's spec file may reorder it).

Mirrors tensorflow/python/data/ops/save_op.py and load_op.py.
"""

from __future__ import annotations

import gzip
import json
import os
import pickle
import uuid

import numpy as np

from simdist.data import structure
from simdist.data.dataset_ops import AUTOTUNE, DatasetV2
from simdist.data.iterator_pass import iterator_pass
from simdist.data.mapping import call
from simdist.data.windowing import DatasetSpec, ElementsDataset
from simdist.framework import errors
from simdist.hardware import backend

_SPEC_FILE = "dataset_spec.pb"
_METADATA_FILE = "snapshot.metadata"


def _host(values):
    """An element as NumPy arrays (what is pickled)."""
    return structure.map_leaves(lambda v: np.array(backend.to_host(v)), values)


def _shard_of(shard_func, values) -> int:
    out = call(shard_func, values)
    arr = np.asarray(structure.to_numpy(out)) if not structure.is_structure(out) else None
    if arr is None or arr.ndim != 0 or arr.dtype != np.int64:
        host = structure.host_device().name
        raise errors.InvalidArgumentError(
            None, None, "{{function_node __wrapped__SaveDataset_Tshard_func_args_0_device_"
                        f"{host}}}}} `shard_func` must return a scalar int64. "
                        "[Op:SaveDataset] name: ")
    return int(arr)


def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None) -> None:
    """Write ``dataset``'s elements under ``path`` (see the module docstring).

    Raises:
      InvalidArgumentError: ``shard_func`` returns something else than an int64 scalar.
    """
    shards: dict = {}
    count = 0
    for values in iterator_pass(dataset):
        k = 0 if shard_func is None else _shard_of(shard_func, values)
        shards.setdefault(k, []).append(_host(values))
        count += 1
    run = str(uuid.uuid4().int % 10**19)
    os.makedirs(os.path.join(path, run), exist_ok=True)
    opener = gzip.open if compression == "GZIP" else open
    for k, elements in shards.items():
        with opener(os.path.join(path, run, f"{k:08d}.shard"), "wb") as f:   # by shard index
            pickle.dump(elements, f)
    with open(os.path.join(path, _SPEC_FILE), "wb") as f:
        pickle.dump(dataset.element_spec, f)
    with open(os.path.join(path, _METADATA_FILE), "w") as f:
        json.dump({"run_id": run, "num_elements": count, "compression": compression or ""}, f)


class _ShardsDataset(DatasetV2):
    """The saved shards, one dataset each, in shard order (reader_func's input)."""

    def __init__(self, folder, names, element_spec, compressed: bool):
        self._folder, self._names, self._compressed = folder, names, compressed
        super().__init__((), DatasetSpec(element_spec))

    def _cardinality(self) -> int:
        return len(self._names)

    def _values(self):
        opener = gzip.open if self._compressed else open
        for name in self._names:
            with opener(os.path.join(self._folder, name), "rb") as f:
                elements = pickle.load(f)   # noqa: S301 - simdist's own saved files
            yield ElementsDataset(elements, self.element_spec.element_spec)


class LoadDataset(DatasetV2):
    """The elements saved under a path (``tf.data.Dataset.load``)."""

    def __init__(self, path, element_spec, reader_func):
        with open(os.path.join(path, _METADATA_FILE)) as f:
            meta = json.load(f)
        folder = os.path.join(path, meta["run_id"])
        names = sorted(n for n in os.listdir(folder) if n.endswith(".shard"))
        self._count = int(meta["num_elements"])
        shards = _ShardsDataset(folder, names, element_spec, meta["compression"] == "GZIP")
        self._read = reader_func(shards)
        super().__init__((self._read,), element_spec)

    def _cardinality(self) -> int:
        return self._count

    def _values(self):
        yield from self._read._values()


def _default_reader(datasets):
    return datasets.interleave(lambda x: x, cycle_length=AUTOTUNE,
                               num_parallel_calls=AUTOTUNE)


def load(path, element_spec=None, compression=None, reader_func=None) -> DatasetV2:
    """The dataset saved under ``path`` (see the module docstring).

    Raises:
      NotFoundError: nothing was saved there (TF's texts, with and without element_spec).
    """
    path = os.fspath(path)
    if element_spec is None:
        spec_file = os.path.join(path, _SPEC_FILE)
        if not os.path.exists(spec_file):
            raise errors.NotFoundError(
                None, None, f"tf.data snapshot element_spec file not found: {spec_file}.")
        with open(spec_file, "rb") as f:
            element_spec = pickle.load(f)   # noqa: S301 - simdist's own saved files
    if not os.path.exists(os.path.join(path, _METADATA_FILE)):
        host = structure.host_device().name
        raise errors.NotFoundError(
            None, None, "{{function_node __wrapped__LoadDataset_Treader_func_args_0_device_"
                        f"{host}}}}} Could not find metadata file [{path}] [Op:LoadDataset]")
    return LoadDataset(path, element_spec, reader_func or _default_reader)
