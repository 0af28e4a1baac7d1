"""File-based datasets: the file names matching a pattern, and the lines of text files.

Glossary:
  list_files        -- the files matching one or more glob patterns, sorted as TF's
                       ``matching_files`` returns them, then shuffled (``shuffle=None`` means
                       True, with ``seed``); no match is TF's failed Assert
                       "No files matched pattern: ...". Its result is a *files* dataset.
  TFRecordDataset   -- one string element per record of each TFRecord file in turn.
  TextLineDataset   -- one string element per line of each file in turn (newline removed);
                       the file names may be a string, a list, a string tensor or a dataset
                       of names. A missing file is TF's NotFoundError when it is read.
  files dataset     -- a source of file names (``_is_files``): FILE auto-sharding gives each
                       worker every ``num_workers``-th name of it (see distribute.py).

Mirrors tensorflow/python/data/ops/dataset_ops.py (list_files) and readers.py.
"""

from __future__ import annotations

import glob

import numpy as np

from simdist.data.dataset_ops import DatasetV2
from simdist.data.sources import TensorSliceDataset
from simdist.framework import dtypes, errors, execute
from simdist.framework.ops import control_flow_ops
from simdist.framework.tensor_spec import TensorSpec


def _names(value) -> list[bytes]:
    """File names or patterns given as a str, bytes, list or string tensor."""
    t = execute.convert_to_tensor(value, dtype_hint=dtypes.string)
    return [bytes(b) for b in np.asarray(t._value, dtype=object).reshape(-1)]


def list_files(file_pattern, shuffle=None, seed=None, name=None) -> DatasetV2:
    """The files matching ``file_pattern`` (``tf.data.Dataset.list_files``).

    Raises:
      InvalidArgumentError: no file matches.
    """
    patterns = _names(file_pattern)
    matches = sorted({m for p in patterns for m in glob.glob(p.decode("utf-8"))})
    if not matches:
        shown = ", ".join(p.decode("utf-8") for p in patterns)
        control_flow_ops.Assert(execute.convert_to_tensor(False),
                                [f"No files matched pattern: {shown}"])
    files = TensorSliceDataset(np.array([m.encode("utf-8") for m in matches], dtype=object))
    files._is_files = True
    if shuffle is None or shuffle:
        return files.shuffle(len(matches), seed=seed)
    return files


class _FileRecordsDataset(DatasetV2):
    """The records of each file in turn (``_records(path)``), one string element each."""

    _reads_files = True

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        if compression_type not in (None, ""):
            raise NotImplementedError(f"simdist's {type(self).__name__} reads uncompressed "
                                      f"files; compression_type={compression_type!r} is not "
                                      "simulated.")
        if isinstance(filenames, DatasetV2):
            inputs = (filenames,)
        else:
            files = TensorSliceDataset(np.array(_names(filenames), dtype=object))
            files._is_files = True
            inputs = (files,)
        super().__init__(inputs, TensorSpec((), dtypes.string))

    def _values(self):
        for path in self._inputs[0]._values():
            for record in self._records(bytes(np.asarray(path, dtype=object)[()]).decode()):
                yield np.array(record, dtype=object)


class TextLineDataset(_FileRecordsDataset):
    """The lines of text files (``tf.data.TextLineDataset``)."""

    _tf_name = "TextLineDatasetV2"

    @staticmethod
    def _records(path):
        data = _read(path)
        for line in data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n"):
            yield line[:-1] if line.endswith(b"\r") else line


class TFRecordDataset(_FileRecordsDataset):
    """The records of TFRecord files (``tf.data.TFRecordDataset``)."""

    _tf_name = "TFRecordDatasetV2"

    @staticmethod
    def _records(path):
        from simdist.framework import tf_record

        return tf_record.records(_read(path), path)


def _read(path) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise errors.from_os_error(e) from None
