"""Protocol buffers' binary wire format: the bytes of fields, and fields read back from bytes.

Glossary:
  tag        -- ``field number << 3 | wire type``, a varint before each field's payload.
  wire type  -- 0 VARINT (int64, bool, enum: two's complement on 64 bits, so a negative
                int64 takes 10 bytes), 1 I64 (double), 2 LEN (bytes, strings, messages,
                packed repeated scalars: a varint length, then the payload), 5 I32 (float,
                little-endian IEEE single).
  packed     -- a proto3 repeated scalar written as one LEN field of the concatenated
                values (what TF's upb writes); a reader accepts the unpacked form too, one
                tagged field per value.
  corrupt    -- a truncated varint or payload, a varint over 10 bytes, a wire type that is
                not one of the four above (3, 4: groups, 6, 7) or a field number 0:
                ``DecodeError`` (protobuf's "Wire format was corrupt").

Mirrors upb/wire/encode.c and upb/wire/decode.c (and protobuf's encoding spec).
"""

from __future__ import annotations

import struct

VARINT, I64, LEN, I32 = 0, 1, 2, 5


class DecodeError(Exception):
    """Bytes that are not a valid message (protobuf's ``google.protobuf.message.DecodeError``)."""


def varint(n: int) -> bytes:
    """``n`` as a base-128 varint (a negative int64 as its 64-bit two's complement)."""
    n &= (1 << 64) - 1
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def tag(number: int, wire_type: int) -> bytes:
    return varint(number << 3 | wire_type)


def length_delimited(number: int, payload: bytes) -> bytes:
    """A LEN field: its tag, the payload's length, the payload."""
    return tag(number, LEN) + varint(len(payload)) + payload


def packed_int64(number: int, values) -> bytes:
    return length_delimited(number, b"".join(varint(v) for v in values)) if values else b""


def packed_float(number: int, values) -> bytes:
    return length_delimited(number, struct.pack(f"<{len(values)}f", *values)) if values else b""


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data) or shift >= 70:
            raise DecodeError("truncated or overlong varint")
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return result & ((1 << 64) - 1), pos


def signed64(n: int) -> int:
    """A varint's 64 bits read as an int64."""
    return n - (1 << 64) if n >= 1 << 63 else n


def fields(data: bytes):
    """Yield ``(number, wire type, value, raw bytes)`` of each field of ``data``: a VARINT's
    value is its unsigned 64 bits, I64 / I32 / LEN's their payload bytes.

    Raises:
      DecodeError: corrupt bytes (see the glossary).
    """
    pos, end = 0, len(data)
    while pos < end:
        start = pos
        key, pos = _read_varint(data, pos)
        number, wire_type = key >> 3, key & 7
        if number == 0:
            raise DecodeError("field number 0")
        if wire_type == VARINT:
            value, pos = _read_varint(data, pos)
        elif wire_type in (I64, I32):
            size = 8 if wire_type == I64 else 4
            value, pos = data[pos:pos + size], pos + size
        elif wire_type == LEN:
            size, pos = _read_varint(data, pos)
            value, pos = data[pos:pos + size], pos + size
        else:
            raise DecodeError(f"wire type {wire_type}")
        if pos > end:
            raise DecodeError("truncated field")
        yield number, wire_type, value, data[start:pos]


def int64s(wire_type: int, value) -> list[int]:
    """The int64 values of one repeated int64 field (packed or not)."""
    if wire_type == VARINT:
        return [signed64(value)]
    if wire_type != LEN:
        raise DecodeError("int64 field of a wrong wire type")
    out, pos = [], 0
    while pos < len(value):
        v, pos = _read_varint(value, pos)
        out.append(signed64(v))
    return out


def floats(wire_type: int, value) -> list[float]:
    """The float values of one repeated float field (packed or not)."""
    if wire_type not in (I32, LEN) or len(value) % 4:
        raise DecodeError("float field of a wrong wire type or length")
    return list(struct.unpack(f"<{len(value) // 4}f", value))
