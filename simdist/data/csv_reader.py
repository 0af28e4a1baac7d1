"""``tf.data.experimental.CsvDataset``: the records of CSV files, parsed as TF's kernel does.

Glossary:
  record          -- fields up to a line end (``\\n``, ``\\r`` or ``\\r\\n``; a quoted field
                     may hold them) or the end of the file; an empty line is a record of
                     one empty field. ``header=True`` skips each file's first line.
  quoted field    -- RFC 4180: ``"..."`` with ``""`` for a quote; after the closing quote
                     comes a delimiter, a line end or the file's end. ``use_quote_delim=
                     False``: quotes are ordinary characters.
  record_defaults -- one per output column: a dtype or an empty tensor (the field is
                     required), or a scalar / one-element tensor, used for an empty field
                     or one equal to ``na_value``. Types: float32, float64, int32, int64,
                     string.
  select_cols / exclude_cols -- strictly increasing column indices to keep / to drop.
  numbers         -- ints: optional sign and digits between blanks; floats: C's strtod
                     forms (exponents, ``inf``, ``nan``, hex); float32 overflows to inf.
  errors          -- TF's per-record InvalidArgumentErrors (the first one of a record
                     wins: a bad field before a count mismatch); raised when the record is
                     read. TF's iterator could read on past such a record: simdist's
                     iteration ends at the error.

Mirrors tensorflow/python/data/experimental/ops/readers.py (CsvDatasetV2; kernel:
core/kernels/data/experimental/csv_dataset_op.cc).
"""

from __future__ import annotations

import re

import numpy as np

from simdist.data import iterator_errors
from simdist.data.dataset_ops import DatasetV2
from simdist.data.readers import _names
from simdist.data.sources import TensorSliceDataset
from simdist.framework import dtypes, errors, execute
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_spec import TensorSpec

_CSV_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)
_TYPE_NAMES = {dtypes.float32: "float", dtypes.float64: "double", dtypes.int32: "int32",
               dtypes.int64: "int64"}
_BLANKS = b" \t\n\v\f\r"
_INT = re.compile(rb"[+-]?[0-9]+")
_FLOAT = re.compile(rb"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|"
                    rb"[+-]?(inf|infinity|nan)", re.IGNORECASE)
_HEX = re.compile(rb"[+-]?0x([0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(p[+-]?[0-9]+)?", re.IGNORECASE)
_LINE_ENDS = (ord("\n"), ord("\r"))
_QUOTE = ord('"')


def _op_error(message: str, outputs: int):
    """TF's error of the CSVDatasetV2 op, raised when the dataset is made."""
    return iterator_errors.op_error("CSVDatasetV2", message,
                                    f"CSVDatasetV2_output_types_{outputs}")


def _check_columns(name: str, cols, outputs: int) -> list:
    cols = [int(c) for c in np.asarray(cols if cols is not None else [], dtype=np.int64)]
    if cols and cols[0] < 0:
        raise _op_error(f"{name} should be non-negative indices", outputs)
    if any(a >= b for a, b in zip(cols, cols[1:])):
        raise _op_error(f"{name} should be strictly increasing indices", outputs)
    return cols


def _default(value) -> Tensor:
    """A record default as TF's CsvDataset converts it: a CSV dtype is an empty tensor."""
    if not isinstance(value, Tensor) and isinstance(value, dtypes.DType):
        if value not in _CSV_TYPES:
            raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                             f"({type(value)}) to a Tensor.")
        return execute.convert_to_tensor(np.zeros([0], value.as_numpy_dtype), dtype=value)
    return execute.convert_to_tensor(value)


class CsvDataset(DatasetV2):
    """The records of CSV files, one tuple of scalars per record (``CsvDatasetV2``)."""

    _tf_name = "CsvDatasetV2"
    _reads_files = True

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None,
                 header=False, field_delim=",", use_quote_delim=True, na_value="",
                 select_cols=None, exclude_cols=None, name=None):
        if compression_type not in (None, ""):
            raise NotImplementedError("simdist's CsvDataset reads uncompressed files; "
                                      f"compression_type={compression_type!r} is not simulated.")
        defaults = [_default(d) for d in record_defaults]
        n = len(defaults)
        for i, d in enumerate(defaults):
            if d.shape.rank is not None and d.shape.rank > 1:
                raise _op_error("Each record default should be at most rank 1", n)
            if d.shape.num_elements() > 1:
                raise _op_error("There should only be 1 default per field but field "
                                f"{i} has {d.shape.num_elements()}", n)
        delim = field_delim.encode() if isinstance(field_delim, str) else bytes(field_delim)
        if len(delim) != 1:
            raise _op_error("field_delim should be only 1 char", n)
        select = _check_columns("select_cols", select_cols, n)
        exclude = _check_columns("exclude_cols", exclude_cols, n)
        if select and len(select) != n:
            raise _op_error("select_cols should match output size", n)
        if select and exclude:
            raise _op_error("Either select_cols or exclude_cols should be empty", n)
        self._defaults = [(d.dtype, np.asarray(d.numpy()).reshape(-1)) for d in defaults]
        self._delim, self._quote = delim[0], bool(use_quote_delim)
        self._header = bool(header)
        self._na = na_value.encode() if isinstance(na_value, str) else bytes(na_value)
        self._select, self._exclude = select, exclude
        self._skip_bad_records = False   # make_csv_dataset(ignore_errors=True)
        if isinstance(filenames, DatasetV2):
            files = filenames
        else:
            files = TensorSliceDataset(np.array(_names(filenames), dtype=object))
            files._is_files = True
        super().__init__((files,), tuple(TensorSpec([], d.dtype) for d in defaults))

    def _values(self):
        for path in self._inputs[0]._values():
            path = bytes(np.asarray(path, dtype=object)[()]).decode("utf-8")
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError as e:
                raise errors.from_os_error(e) from None
            if self._header:
                end = data.find(b"\n")
                data = b"" if end < 0 else data[end + 1:]
            for fields, error in _records(data, self._delim, self._quote):
                try:
                    if error is not None:
                        raise errors.InvalidArgumentError(None, None, error)
                    yield self._record(fields)
                except errors.InvalidArgumentError:
                    if not self._skip_bad_records:
                        raise

    def _record(self, fields) -> tuple:
        """The outputs of one record's fields (``(bytes, quoted)`` pairs), TF's errors."""
        out, first_error, kept, excluded = [], None, 0, 0
        for col, raw in enumerate(fields):
            if not self._exclude:
                include = not self._select or (kept < len(self._select) and
                                               self._select[kept] == col)
            else:
                include = excluded >= len(self._exclude) or self._exclude[excluded] != col
                excluded += not include
            if not include:
                continue
            if kept >= len(self._defaults):
                first_error = first_error or (f"Expect {len(self._defaults)} fields but have "
                                              "more in record")
                break
            try:
                out.append(self._field(kept, raw))
            except ValueError as e:
                first_error = first_error or str(e)
            kept += 1
        if first_error is None and kept != len(self._defaults):
            first_error = f"Expect {len(self._defaults)} fields but have {kept} in record"
        if first_error is not None:
            raise errors.InvalidArgumentError(None, None, first_error)
        return tuple(out)

    def _field(self, k: int, raw: bytes):
        dtype, default = self._defaults[k]
        if raw == b"" or raw == self._na:
            if default.size == 0:
                raise ValueError(f"Field {k} is required but missing in record!")
            return np.asarray(default[0], dtype=dtype.as_numpy_dtype)
        if dtype == dtypes.string:
            return np.asarray(raw, dtype=object)
        value = _number(raw, dtype)
        if value is None:
            raise ValueError(f"Field {k} in record is not a valid {_TYPE_NAMES[dtype]}: "
                             f"{raw.decode('utf-8', 'replace')}")
        return value


def _number(raw: bytes, dtype):
    """The field as a number of ``dtype`` (C's strtol / strtod forms), or None."""
    text = raw.strip(_BLANKS)
    if dtype.is_integer:
        if not _INT.fullmatch(text):
            return None
        value = int(text)
        info = np.iinfo(dtype.as_numpy_dtype)
        return np.asarray(value, dtype=dtype.as_numpy_dtype) if info.min <= value <= info.max \
            else None
    if _FLOAT.fullmatch(text):
        value = float(text)
    elif _HEX.fullmatch(text):
        value = float.fromhex(text.decode())
    else:
        return None
    with np.errstate(over="ignore"):
        return np.asarray(value, dtype=dtype.as_numpy_dtype)


def _records(data: bytes, delim: int, quote: bool):
    """Yield ``(fields, error)`` per record: the fields' bytes, and the first quoting error
    (TF's texts) or None. An unclosed quote ends the file's records."""
    pos, n = 0, len(data)
    while pos < n:
        fields, error = [], None
        while True:   # one field per turn; a record ends at a line end or the file's end
            if quote and pos < n and data[pos] == _QUOTE:
                field, pos, ended, problem = _quoted(data, pos + 1, delim)
                if problem == "eof":
                    yield fields, ("Reached end of file without closing quoted field in "
                                   "record")
                    return
                error = error or problem
            else:
                end = pos
                while end < n and data[end] != delim and data[end] not in _LINE_ENDS:
                    end += 1
                field = data[pos:end]
                if quote and _QUOTE in field:
                    error = error or "Unquoted fields cannot have quotes inside"
                ended = end >= n or data[end] in _LINE_ENDS
                pos = _past_line_end(data, end) if ended else end + 1
            fields.append(field)
            if ended:
                break
        yield fields, error


def _past_line_end(data: bytes, pos: int) -> int:
    """The position after the line end at ``pos`` (``\\r\\n`` is one)."""
    if pos < len(data) and data[pos] == ord("\r") and data[pos + 1:pos + 2] == b"\n":
        return pos + 2
    return pos + 1


def _quoted(data: bytes, pos: int, delim: int):
    """A quoted field from just after its opening quote: ``(bytes, position after it, ended
    the record, error or None or "eof")``. A lone quote inside is TF's error; the field
    then runs on to a quote before a delimiter or line end."""
    out, error, n = bytearray(), None, len(data)
    while pos < n:
        ch = data[pos]
        if ch != _QUOTE:
            out.append(ch)
            pos += 1
            continue
        if pos + 1 >= n:
            return bytes(out), pos + 1, True, error
        after = data[pos + 1]
        if after == _QUOTE:
            out.append(_QUOTE)
            pos += 2
        elif after == delim:
            return bytes(out), pos + 2, False, error
        elif after in _LINE_ENDS:
            return bytes(out), _past_line_end(data, pos + 1), True, error
        else:
            error = error or "Quote inside a string has to be escaped by another quote"
            pos += 2
    return bytes(out), pos, True, "eof"
