"""TensorBoard event files: TFRecord-framed ``Event`` protocol buffers, encoded by hand.

Glossary:
  TFRecord   -- each record is ``uint64 length | uint32 masked_crc32c(length) | data |
                uint32 masked_crc32c(data)``, little-endian; the mask is
                ``((crc >> 15 | crc << 17) + 0xa282ead8) mod 2**32`` (TF's crc32c::Mask).
  Event      -- wall_time (1, double), step (2, int64), file_version (3, string, the first
                event: 'brain.Event:2'), summary (5), source_metadata (10: writer name).
  Summary    -- repeated Value (1): tag (1), tensor (8, a TensorProto), metadata (9: the
                plugin's name and content, and a data class).
  scalar     -- what tf.summary.scalar writes (TensorBoard's scalars plugin): a float32 scalar
                TensorProto (dtype 1, empty shape, 4 bytes of tensor_content), plugin
                'scalars', data class DATA_CLASS_SCALAR (1).
  file name  -- ``events.out.tfevents.<seconds>.<host>.<pid>.<n>.v2`` (TF's EventsWriter).
  RunMetadata -- what ``tf.summary.trace_export`` writes as a string tensor (plugin
                'graph_run_metadata_graph', content '1'): function_graphs (4), each a
                FunctionGraphs whose pre_optimization_graph (2) is a GraphDef: node (1:
                NodeDef name 1, op 2, input 3, device 4) and versions (4: producer 1).
Only the fields these writers use are encoded; proto3 leaves zero values out, as here.

Mirrors tensorflow/core/util/events_writer.cc, lib/io/record_writer.cc,
tensorboard/plugins/scalar/summary_v2.py and (RunMetadata, GraphDef)
tensorflow/core/protobuf/config.proto, core/framework/graph.proto and node_def.proto.
"""

from __future__ import annotations

import itertools
import os
import struct
import time

# --- crc32c (Castagnoli), table-driven ----------------------------------------------------
_POLY = 0x82F63B78
_TABLE = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ _POLY if _c & 1 else _c >> 1
    _TABLE.append(_c)


def crc32c(data: bytes) -> int:
    """The CRC-32C of ``data``."""
    crc = 0xFFFFFFFF
    for b in data:
        crc = _TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    """TFRecord's masked CRC: rotated and offset so CRCs of CRCs stay unlikely."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def tfrecord(data: bytes) -> bytes:
    """One TFRecord frame around ``data``."""
    length = struct.pack("<Q", len(data))
    return (length + struct.pack("<I", masked_crc32c(length)) + data
            + struct.pack("<I", masked_crc32c(data)))


# --- protocol-buffer wire format ---------------------------------------------------------
def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # negative int64s as two's complement, as protobuf does
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _message(num: int, payload: bytes) -> bytes:
    return _varint(num << 3 | 2) + _varint(len(payload)) + payload


def _int(num: int, value: int) -> bytes:
    return _varint(num << 3) + _varint(value) if value else b""


def _double(num: int, value: float) -> bytes:
    return _varint(num << 3 | 1) + struct.pack("<d", value) if value else b""


def graph_def(nodes, producer: int = 1) -> bytes:
    """A GraphDef of ``nodes``, each (name, op, inputs, device)."""
    out = b"".join(_message(1, _message(1, name.encode()) + _message(2, op.encode())
                            + b"".join(_message(3, i.encode()) for i in inputs)
                            + (_message(4, device.encode()) if device else b""))
                   for name, op, inputs, device in nodes)
    return out + _message(4, _int(1, producer))


def fingerprint_def(saved_model_checksum: int, checkpoint_hash: int) -> bytes:
    """A SavedModel's FingerprintDef (fingerprint.pb): saved_model_checksum (1),
    checkpoint_hash (5) and its version (6: producer 1); the graph hashes (2-4) left 0."""
    return _int(1, saved_model_checksum) + _int(5, checkpoint_hash) + _message(6, _int(1, 1))


def run_metadata(graph_defs) -> bytes:
    """A RunMetadata holding each encoded GraphDef as a function's pre-optimization graph."""
    return b"".join(_message(4, _message(2, g)) for g in graph_defs)


DT_FLOAT, DT_STRING = 1, 7
DATA_CLASS_SCALAR = 1


def tensor_proto(value) -> bytes:
    """A scalar TensorProto: a float as 4 bytes of content, a string as its string_val."""
    if isinstance(value, (str, bytes)):
        raw = value.encode() if isinstance(value, str) else value
        return _int(1, DT_STRING) + _message(2, b"") + _message(8, raw)
    return _int(1, DT_FLOAT) + _message(2, b"") + _message(4, struct.pack("<f", float(value)))


def summary_value(tag: str, value, plugin_name: str, content: bytes = b"",
                  data_class: int = 0) -> bytes:
    """One Summary.Value: its tag, the tensor, and the plugin metadata."""
    plugin = _message(1, plugin_name.encode()) + (_message(2, content) if content else b"")
    metadata = _message(1, plugin) + _int(4, data_class)
    return _message(1, tag.encode()) + _message(8, tensor_proto(value)) + _message(9, metadata)


def event(wall_time: float, step: int = 0, summary_values=(), file_version: str = "",
          writer: str = "") -> bytes:
    """An Event: a header (file_version, writer) or a Summary of values at ``step``."""
    out = _double(1, wall_time) + _int(2, step)
    if file_version:
        out += _message(3, file_version.encode())
    if summary_values:
        out += _message(5, b"".join(_message(1, v) for v in summary_values))
    if writer:
        out += _message(10, _message(1, writer.encode()))
    return out


_files = itertools.count()


class EventFileWriter:
    """Appends Events to ``<logdir>/events.out.tfevents.<time>.<host>.<pid>.<n>.v2``."""

    def __init__(self, logdir: str):
        # here: function.py imports this module (summary_ops), and a bare ``import simdist``
        # leaves socket unloaded (tests/test_lazy_import.py)
        import socket

        os.makedirs(logdir, exist_ok=True)
        now = time.time()
        name = (f"events.out.tfevents.{int(now)}.{socket.gethostname()}.{os.getpid()}."
                f"{next(_files)}.v2")
        self.path = os.path.join(logdir, name)
        self._write(event(float(int(now)), file_version="brain.Event:2",
                          writer="tensorflow.core.util.events_writer"))

    def _write(self, data: bytes) -> None:
        with open(self.path, "ab") as f:
            f.write(tfrecord(data))

    def scalar(self, tag: str, value, step: int) -> None:
        """Write tf.summary.scalar's event: ``value`` as a float32 at ``step``."""
        self._write(event(time.time(), int(step), [summary_value(
            tag, value, "scalars", data_class=DATA_CLASS_SCALAR)]))

    def text_tensor(self, tag: str, text: str, plugin_name: str, content: bytes,
                    step: int = 0) -> None:
        """Write a string tensor summary (Keras's model-config 'keras' summary)."""
        self._write(event(time.time(), int(step), [summary_value(tag, text, plugin_name,
                                                                 content)]))
