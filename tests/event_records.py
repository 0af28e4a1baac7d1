"""A reader of TFRecord-framed event files and protocol buffers, written for the tests
independently of simdist's encoder (framework/event_file): bitwise CRC-32C, generic wire
parsing. Used by tests/keras/test_tensorboard.py and the tf.summary cases of
tests/train/saved_module_cases.py (which run it under TF too)."""

import struct


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def masked(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def records(path):
    data, out, i = open(path, "rb").read(), [], 0
    while i < len(data):
        (n,) = struct.unpack("<Q", data[i:i + 8])
        assert struct.unpack("<I", data[i + 8:i + 12])[0] == masked(data[i:i + 8])
        body = data[i + 12:i + 12 + n]
        assert struct.unpack("<I", data[i + 12 + n:i + 16 + n])[0] == masked(body)
        out.append(body)
        i += 16 + n
    return out


def fields(buf):
    """{field number: [values]} of one protobuf message (varints, 64/32-bit, bytes)."""
    out, i = {}, 0
    while i < len(buf):
        key, i = varint(buf, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(buf, i)
        elif wire == 1:
            value, i = buf[i:i + 8], i + 8
        elif wire == 5:
            value, i = buf[i:i + 4], i + 4
        else:
            n, i = varint(buf, i)
            value, i = buf[i:i + n], i + n
        out.setdefault(num, []).append(value)
    return out


def varint(buf, i):
    shift = value = 0
    while True:
        b = buf[i]
        value |= (b & 0x7F) << shift
        i += 1
        shift += 7
        if not b & 0x80:
            return value, i
