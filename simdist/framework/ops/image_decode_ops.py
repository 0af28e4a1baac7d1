"""``tf.io.read_file`` and ``tf.io.decode_png`` / ``decode_image``: image files -> uint8 pixels.

Glossary:
  read_file     -- a file's bytes as a string scalar.
  PNG           -- chunks after the 8-byte signature: IHDR (size, bit depth, colour type,
                   interlace), PLTE (a palette), IDAT (zlib data: one filter byte per
                   scanline, then the row filtered by None, Sub, Up, Average or Paeth
                   against the pixel to the left and the row above), IEND.
  channels      -- 0: the file's own (grey 1, grey+alpha 2, RGB and palette 3, RGBA 4);
                   3: grey repeated, alpha dropped, a palette looked up; 4: RGB with an
                   opaque alpha added; 1 from grey (+alpha). What libpng does when TF asks
                   it to (png_set_gray_to_rgb, png_set_strip_alpha, png_set_palette_to_rgb,
                   png_set_add_alpha 0xff).
  decode_image  -- the format from the magic bytes; PNG decoded here. JPEG (libjpeg-turbo's
                   IDCT), GIF, BMP and WebP are not modelled: NotImplementedError, and
                   ``tf.image.decode_image``'s InvalidArgumentError for unknown bytes.
  not modelled  -- 16-bit and sub-byte depths, interlaced files, a tRNS chunk's
                   transparency, RGB to grey: NotImplementedError naming what to write
                   instead (8-bit, non-interlaced PNG).

Mirrors tensorflow/core/kernels/image/decode_image_op.cc (format sniffing, channels) and
tensorflow/core/lib/png/png_io.cc (the libpng transforms), and the PNG specification's
filters (https://www.w3.org/TR/png/#9Filters).
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

from simdist.framework import dtypes, errors, execute, func_graph
from simdist.hardware import array_api

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}   # colour type -> samples per pixel


def _read_spec(graph, filename, name=None):
    return graph.symbolic_like((), dtypes.string, getattr(filename, "_device", None),
                               "ReadFile")


def _decode_spec(graph, contents, channels=0, dtype=dtypes.uint8, name=None,
                 expand_animations=True):
    """A decoded image while tracing: (None, None, channels) uint8 (unknown size)."""
    shape = (None, None, channels or None)
    return graph.symbolic_like(shape, dtypes.uint8, getattr(contents, "_device", None),
                               "DecodeImage")


@func_graph.recorded(kind="spec", spec=_read_spec, name="ReadFile")
def read_file(filename, name=None):
    """The bytes of ``filename`` (``tf.io.read_file``).

    Raises:
      NotFoundError: TF's, for a missing file.
    """
    filename = execute.convert_to_tensor(filename, dtypes.string)
    path = array_api.to_host(filename._value).item()
    path = path.decode() if isinstance(path, bytes) else str(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise errors.NotFoundError(None, None,
                                   f"{path}; No such file or directory [Op:ReadFile]") from None
    return execute.execute("ReadFile", [filename], np.array(data, dtype=object))


def _contents(contents):
    contents = execute.convert_to_tensor(contents, dtypes.string)
    data = array_api.to_host(contents._value).item()
    return contents, data if isinstance(data, bytes) else str(data).encode()


@func_graph.recorded(kind="spec", spec=_decode_spec, name="DecodePng")
def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """The pixels of a PNG file, ``(height, width, channels)`` uint8 (``tf.io.decode_png``).

    Raises:
      InvalidArgumentError: bytes that are not a PNG, ``channels`` not 0, 1, 3 or 4.
      NotImplementedError: a PNG simdist does not decode (see the glossary).
    """
    contents, data = _contents(contents)
    _check_channels(channels, "DecodePng")
    if dtypes.as_dtype(dtype) != dtypes.uint8:
        raise NotImplementedError("simdist's decode_png gives uint8 pixels only.")
    if not data.startswith(_SIGNATURE):   # TF's kernel decodes any format it knows
        _refuse_other_formats(data, "DecodePng")
    pixels = _convert(*_decode(data), channels)
    return execute.execute("DecodePng", [contents], pixels)


@func_graph.recorded(kind="spec", spec=_decode_spec, name="DecodeImage")
def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None,
                 expand_animations=True):
    """The pixels of an image file of any format TF knows (``tf.io.decode_image``).

    Raises:
      InvalidArgumentError: TF's, for bytes of no known image format.
      NotImplementedError: JPEG, GIF, BMP and WebP files (simdist decodes PNG).
    """
    _, data = _contents(contents)
    if not data.startswith(_SIGNATURE):
        _refuse_other_formats(data, "DecodeImage")
    return decode_png(contents, channels or 0, dtype)


def _refuse_other_formats(data, op):
    """NotImplementedError for the formats TF decodes and simdist does not; TF's
    InvalidArgumentError for bytes of no known format."""
    for magic, kind in ((b"\xff\xd8\xff", "JPEG"), (b"GIF8", "GIF"), (b"BM", "BMP"),
                        (b"RIFF", "WebP"), (b"\xff\x0a", "JPEG XL")):
        if data.startswith(magic):
            raise NotImplementedError(
                f"simdist decodes PNG images only, not {kind}: write the images as 8-bit "
                "PNG files (tf.image.decode_image reads them the same way).")
    raise errors.InvalidArgumentError(
        None, None, "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP "
                    f"required. [Op:{op}]")


def _check_channels(channels, op):
    if channels not in (0, 1, 3, 4):
        raise errors.InvalidArgumentError(
            None, None, f"`channels` must be 0, 1, 3 or 4 but got {channels} [Op:{op}]")


def _chunks(data):
    """``(type, payload)`` of each chunk after the signature."""
    pos = len(_SIGNATURE)
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length


def _decode(data):
    """``(samples (h, w, n) uint8, colour type, palette)`` of an 8-bit PNG."""
    header, palette, idat = None, None, []
    for kind, payload in _chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", payload)
        elif kind == b"PLTE":
            palette = np.frombuffer(payload, np.uint8).reshape(-1, 3)
        elif kind == b"IDAT":
            idat.append(payload)
        elif kind == b"tRNS":
            raise NotImplementedError("simdist's decode_png does not model a tRNS chunk's "
                                      "transparency; write the PNG without one.")
    width, height, depth, color_type, _, _, interlace = header
    if depth != 8 or interlace or color_type not in _CHANNELS:
        raise NotImplementedError(
            f"simdist's decode_png reads 8-bit, non-interlaced PNG files; this one has bit "
            f"depth {depth}, colour type {color_type}, interlace {interlace}.")
    n = _CHANNELS[color_type]
    raw = np.frombuffer(zlib.decompress(b"".join(idat)), np.uint8)
    rows = raw.reshape(height, 1 + width * n)
    return _unfilter(rows, width, n).reshape(height, width, n), color_type, palette


def _unfilter(rows, width, bpp):
    """Each scanline rebuilt from its filter (all arithmetic modulo 256)."""
    out = np.zeros((rows.shape[0], width * bpp), np.int64)
    prev = np.zeros(width * bpp, np.int64)
    for y, row in enumerate(rows):
        kind, line = row[0], row[1:].astype(np.int64)
        if kind == 0:
            cur = line
        elif kind == 2:
            cur = (line + prev) % 256
        else:
            cur = line.copy()
            for x in range(0, width * bpp, bpp):
                left = cur[x - bpp:x] if x else np.zeros(bpp, np.int64)
                up = prev[x:x + bpp]
                if kind == 1:
                    pred = left
                elif kind == 3:
                    pred = (left + up) // 2
                else:
                    upleft = prev[x - bpp:x] if x else np.zeros(bpp, np.int64)
                    pred = _paeth(left, up, upleft)
                cur[x:x + bpp] = (line[x:x + bpp] + pred) % 256
        out[y] = cur
        prev = cur
    return out.astype(np.uint8)


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    return np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))


def _convert(samples, color_type, palette, channels):
    """The samples as ``channels`` channels, as TF asks libpng for them."""
    if color_type == 3:
        samples, color_type = palette[samples[..., 0]], 2
    if channels == 0:
        return samples
    gray = color_type in (0, 4)
    if channels == 1:
        if not gray:
            raise NotImplementedError("simdist's decode_png does not convert colour to grey "
                                      "(libpng's weighted rgb_to_gray); decode with "
                                      "channels=3.")
        return samples[..., :1]
    color = np.repeat(samples[..., :1], 3, axis=-1) if gray else samples[..., :3]
    if channels == 3:
        return np.ascontiguousarray(color)
    alpha = samples[..., -1:] if color_type in (4, 6) else \
        np.full(samples.shape[:2] + (1,), 255, np.uint8)
    return np.concatenate([color, alpha], axis=-1)
