"""TFRecord files: ``tf.io.TFRecordWriter`` writes records, ``records`` reads them back.

Glossary:
  record   -- ``uint64 length | uint32 masked_crc32c(length) | data |
              uint32 masked_crc32c(data)``, little-endian (event_file.tfrecord); a file is
              records one after another, nothing else.
  corrupt  -- a truncated header or body, or a CRC that does not match: TF's DataLossError
              ("corrupted record at <offset>").
  options  -- ``TFRecordOptions``: only uncompressed files are simulated.

Mirrors tensorflow/core/lib/io/record_writer.cc, record_reader.cc and
python/lib/io/tf_record.py.
"""

from __future__ import annotations

import struct

from simdist.framework import errors
from simdist.framework.event_file import masked_crc32c, tfrecord


class TFRecordOptions:
    """Options of a TFRecord file: simdist writes and reads uncompressed ones only."""

    def __init__(self, compression_type=None, **kwargs):
        if compression_type not in (None, "", "NONE"):
            raise NotImplementedError("simdist writes uncompressed TFRecord files; "
                                      f"compression_type={compression_type!r} is not simulated.")
        self.compression_type = compression_type or ""


class TFRecordWriter:
    """Writes records to a TFRecord file (a context manager; ``close`` ends the file)."""

    def __init__(self, path, options=None):
        if isinstance(options, str) or options is not None and not isinstance(
                options, TFRecordOptions):
            options = TFRecordOptions(options)
        try:
            self._file = open(path, "wb")  # noqa: SIM115 - closed by close()
        except OSError as e:
            raise errors.from_os_error(e) from None

    def write(self, record) -> None:
        """Append one record (bytes, or a str as its UTF-8 bytes)."""
        if self._file is None:
            raise errors.FailedPreconditionError(None, None, "Writer is closed.")
        data = record.encode() if isinstance(record, str) else bytes(record)
        self._file.write(tfrecord(data))

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def records(data: bytes, path: str = ""):
    """Yield the records of a TFRecord file's bytes.

    Raises:
      DataLossError: a truncated or corrupt record (TF's text).
    """
    pos = 0
    while pos < len(data):
        header = data[pos:pos + 12]
        if len(header) < 12:
            raise errors.DataLossError(None, None, f"truncated record at {pos}' failed with "
                                                   f"Read less bytes than requested")
        length, crc = struct.unpack("<QI", header)
        body = data[pos + 12:pos + 12 + length + 4]
        if masked_crc32c(header[:8]) != crc or len(body) < length + 4 or \
                struct.unpack("<I", body[length:])[0] != masked_crc32c(body[:length]):
            raise errors.DataLossError(None, None, f"corrupted record at {pos}")
        yield body[:length]
        pos += 12 + length + 4


def tf_record_iterator(path, options=None):
    """The records of a TFRecord file (``tf.compat.v1.io.tf_record_iterator``)."""
    with open(path, "rb") as f:
        data = f.read()
    yield from records(data, path)
