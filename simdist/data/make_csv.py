"""``tf.data.experimental.make_csv_dataset``: batches of CSV records as feature dicts.

Glossary:
  pipeline        -- TF's own: the sorted file names (shuffled with ``shuffle_seed``),
                     interleaved ``num_parallel_reads`` at a time into a CsvDataset each,
                     shuffled (``shuffle_buffer_size``), repeated ``num_epochs`` times (None:
                     for ever, and the batches drop their remainder so their size is
                     static), batched, mapped to ``(OrderedDict of columns, label)``,
                     prefetched. So a ``shuffle_seed`` gives TF's order.
  column names    -- ``column_names``, or the header row of every file (they must agree).
  column types    -- ``column_defaults`` (as CsvDataset's ``record_defaults``), or inferred
                     from the first ``num_rows_for_inference`` rows: the least permissive
                     of int32, int64, float32, float64, string that fits every value seen
                     (empty and NA values say nothing), with default 0 or "".
  select_columns  -- names or indices, kept in file order; ``label_name`` one of them.

Mirrors make_csv_dataset_v2 and its helpers in
tensorflow/python/data/experimental/ops/readers.py.
"""

from __future__ import annotations

import collections
import csv
import glob

import numpy as np

from simdist.data.csv_reader import CsvDataset
from simdist.data.dataset_ops import AUTOTUNE, DatasetV2
from simdist.framework import dtypes, execute
from simdist.framework.tensor import Tensor

_ACCEPTABLE = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)


def _is_valid_int32(text) -> bool:
    try:   # equal as int32 and int64: no int32 overflow
        return np.int32(text) == np.int64(text)
    except (ValueError, OverflowError):
        return False


def _is_valid_int64(text) -> bool:
    try:
        np.int64(text)
        return True
    except (ValueError, OverflowError):
        return False


def _is_valid_float(text, dtype) -> bool:
    try:
        with np.errstate(over="ignore"):
            return dtype.as_numpy_dtype(text) < np.inf
    except ValueError:
        return False


_TYPES = ((dtypes.int32, _is_valid_int32), (dtypes.int64, _is_valid_int64),
          (dtypes.float32, lambda t: _is_valid_float(t, dtypes.float32)),
          (dtypes.float64, lambda t: _is_valid_float(t, dtypes.float64)),
          (dtypes.string, lambda t: True))


def _infer_type(text, na_value, prev_type):
    """The least permissive type that fits ``text`` and everything seen before it."""
    if text in ("", na_value):
        return prev_type
    allowed = [t for t, _ in _TYPES]
    for i, (dtype, valid) in enumerate(_TYPES):
        if valid(text) and (prev_type is None or prev_type in allowed[:i + 1]):
            return dtype
    return None


def _reader(f, field_delim, use_quote_delim):
    return csv.reader(f, delimiter=field_delim,
                      quoting=csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE)


def _rows(filenames, num_cols, field_delim, use_quote_delim, header, encoding):
    """The CSV rows of the files in order (TF's ``_next_csv_row``)."""
    for name in filenames:
        with open(name, encoding=encoding, newline="") as f:
            rows = _reader(f, field_delim, use_quote_delim)
            row_num = 1
            if header:
                next(rows)
                row_num += 1
            for row in rows:
                if len(row) != num_cols:
                    raise ValueError(f"Problem inferring types: CSV row {row_num} has "
                                     f"{len(row)} number of fields. Expected: {num_cols}.")
                row_num += 1
                yield row


def _infer_column_defaults(filenames, num_cols, field_delim, use_quote_delim, na_value,
                           header, num_rows_for_inference, select_columns, encoding):
    columns = range(num_cols) if select_columns is None else select_columns
    inferred = [None] * len(columns)
    rows = _rows(filenames, num_cols, field_delim, use_quote_delim, header, encoding)
    for i, row in enumerate(rows):
        if num_rows_for_inference is not None and i >= num_rows_for_inference:
            break
        for j, col in enumerate(columns):
            inferred[j] = _infer_type(row[col], na_value, inferred[j])
    inferred = [t or dtypes.string for t in inferred]
    return [execute.convert_to_tensor([0 if t != dtypes.string else ""], dtype=t)
            for t in inferred]


def _infer_column_names(filenames, field_delim, use_quote_delim, encoding):
    """The header row of the first file; every other file's must be the same."""
    names = None
    for name in filenames:
        with open(name, encoding=encoding, newline="") as f:
            try:
                row = next(_reader(f, field_delim, use_quote_delim))
            except StopIteration:
                raise ValueError("Failed when reading the header line of "
                                 f"{name}. Is it an empty file?") from None
        if names is None:
            names = row
        elif row != names:
            raise ValueError("All input CSV files should have the same column names in the "
                             f"header row. File {name} has different column names.")
    return names


def _duplicates(names) -> set:
    ordered = sorted(names)
    return {a for a, b in zip(ordered[:-1], ordered[1:]) if a == b}


def _sorted_col_indices(select_columns, column_names) -> list:
    """``select_columns`` (names or indices) as sorted column indices (TF's checks)."""
    index = {n: i for i, n in enumerate(column_names)}
    out = []
    for v in select_columns:
        if isinstance(v, int):
            if v < 0 or v >= len(column_names):
                raise ValueError(
                    f"Column index {v} specified in `select_columns` should be > 0 "
                    f" and <= {len(column_names)}, which is the number of columns.")
            out.append(v)
        elif v not in index:
            raise ValueError(f"Column {v} specified in `select_columns` must be of one of the "
                             f"columns: {index.keys()}.")
        else:
            out.append(index[v])
    chosen = sorted(set(out))
    if len(chosen) != len(select_columns):   # TF's text names the duplicates of the set
        raise ValueError("The `select_columns` argument contains duplicate columns: "
                         f"{_duplicates(chosen)}.")
    return chosen


def _file_names(file_pattern) -> list:
    if isinstance(file_pattern, list):
        if not file_pattern:
            raise ValueError("Argument `file_pattern` should not be empty.")
        names = [m for entry in file_pattern for m in glob.glob(entry)]
    else:
        names = glob.glob(file_pattern)
    if not names:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    return sorted(names)


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None,
                     label_name=None, select_columns=None, field_delim=",",
                     use_quote_delim=True, na_value="", header=True, num_epochs=None,
                     shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False,
                     num_rows_for_inference=100, compression_type=None,
                     ignore_errors=False, encoding="utf-8"):
    """Batches of ``(features, label)`` (or features) read from CSV files, as TF's
    ``tf.data.experimental.make_csv_dataset`` builds them.

    Raises:
      ValueError: no files match; duplicate, unknown or missing column names; a label
        that is not a column; defaults of another length than the selected columns.
    """
    if compression_type not in (None, ""):
        raise NotImplementedError("simdist's make_csv_dataset reads uncompressed files; "
                                  f"compression_type={compression_type!r} is not simulated.")
    num_parallel_reads = 1 if num_parallel_reads is None else num_parallel_reads
    filenames = _file_names(file_pattern)
    dataset = DatasetV2.from_tensor_slices(filenames)
    if shuffle:
        dataset = dataset.shuffle(len(filenames), shuffle_seed)
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither "
                             "is provided.")
        column_names = _infer_column_names(filenames, field_delim, use_quote_delim, encoding)
    if len(column_names) != len(set(column_names)):
        raise ValueError("Either `column_names` argument or CSV header row contains duplicate "
                         f"column names: {_duplicates(column_names)}.")
    if select_columns is not None:
        select_columns = _sorted_col_indices(select_columns, column_names)
    if column_defaults is not None:
        column_defaults = [
            execute.convert_to_tensor(np.zeros([0], x.as_numpy_dtype), dtype=x)
            if not isinstance(x, Tensor) and isinstance(x, dtypes.DType) and x in _ACCEPTABLE
            else x for x in column_defaults]
    else:
        column_defaults = _infer_column_defaults(
            filenames, len(column_names), field_delim, use_quote_delim, na_value, header,
            num_rows_for_inference, select_columns, encoding)
    if select_columns is not None and len(column_defaults) != len(select_columns):
        raise ValueError(
            "If specified, `column_defaults` and `select_columns` must have the same length: "
            f"`column_defaults` has length {len(column_defaults)}, `select_columns` has "
            f"length {len(select_columns)}.")
    if select_columns is not None and len(column_names) > len(select_columns):
        column_names = [column_names[i] for i in select_columns]
    if label_name is not None and label_name not in column_names:
        raise ValueError("`label_name` provided must be one of the columns: "
                         f"{column_names}. Received: {label_name}.")

    def filename_to_dataset(filename):
        out = CsvDataset(filename, record_defaults=column_defaults, field_delim=field_delim,
                         use_quote_delim=use_quote_delim, na_value=na_value,
                         select_cols=select_columns, header=header)
        out._skip_bad_records = bool(ignore_errors)
        return out

    def map_fn(*columns):
        features = collections.OrderedDict(zip(column_names, columns))
        if label_name is not None:
            label = features.pop(label_name)
            return features, label
        return features

    dataset = dataset.interleave(filename_to_dataset, cycle_length=num_parallel_reads,
                                 block_length=1)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=num_epochs is None)
    dataset = dataset.map(map_fn)
    return dataset.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)
