"""Image files for the image tutorials (the same bytes under TensorFlow and simdist).

Glossary:
  png_bytes         -- an 8-bit PNG file of a (height, width, channels) uint8 array, each
                       scanline filtered by the PNG filter chosen for it (0 None, 1 Sub, 2 Up,
                       3 Average, 4 Paeth), zlib-compressed: what a PNG encoder writes.
  synthetic_flowers -- a folder shaped like the extracted ``flower_photos`` download the image
                       classification tutorial reads: LICENSE.txt and five class folders
                       (daisy, dandelion, roses, sunflowers, tulips) of small photo-like
                       images, each class its own hue. simdist decodes PNG, not JPEG: the
                       files hold PNG bytes under the download's ``.jpg`` names
                       (``tf.image.decode_image`` tells the format from the bytes).
  synthetic_flower  -- one more such image as PNG bytes (the tutorial's sunflower download).
  tfds_flowers      -- what ``tfds.load('tf_flowers', split=['train[:80%]', 'train[80%:90%]',
                       'train[90%:]'], with_info=True, as_supervised=True)`` gives, on a few
                       synthetic images: three datasets of (uint8 image of its own size,
                       int64 label) made by ``from_generator`` (element spec
                       ``(None, None, 3)``, as TFDS's), and an info whose
                       ``features['label']`` has ``num_classes`` and ``int2str``.
"""

import os
import struct
import zlib

import numpy as np

FLOWERS = ("daisy", "dandelion", "roses", "sunflowers", "tulips")


def _chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data)))


def _predictor(kind, left, up, upleft):
    if kind == 0:
        return 0
    if kind == 1:
        return left
    if kind == 2:
        return up
    if kind == 3:
        return (left + up) // 2
    p = left + up - upleft
    pa, pb, pc = abs(p - left), abs(p - up), abs(p - upleft)
    return np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, upleft))


def png_bytes(pixels, filters=(0,)):
    """The PNG file of ``pixels`` (uint8, (h, w, c), c of 1 to 4), row ``y`` filtered by
    ``filters[y % len(filters)]``."""
    h, w, c = pixels.shape
    px = pixels.astype(np.int64).reshape(h, w * c)
    raw = b""
    for y in range(h):
        kind = filters[y % len(filters)]
        up = px[y - 1] if y else np.zeros_like(px[y])
        left = np.concatenate([np.zeros(c, np.int64), px[y, :-c]])
        upleft = np.concatenate([np.zeros(c, np.int64), up[:-c]])
        line = (px[y] - _predictor(kind, left, up, upleft)) % 256
        raw += bytes([kind]) + line.astype(np.uint8).tobytes()
    header = struct.pack(">IIBBBBB", w, h, 8, {1: 0, 2: 4, 3: 2, 4: 6}[c], 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw))
            + _chunk(b"IEND", b""))


def _flower(rng, hue, height, width):
    """A photo-like flower: a bright disc of the class's colour on a green, shaded field."""
    y, x = np.mgrid[0:height, 0:width] / np.array([height, width])[:, None, None]
    cy, cx, r = rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7), rng.uniform(0.15, 0.3)
    disc = ((x - cx) ** 2 + (y - cy) ** 2 < r * r)[..., None]
    field = np.stack([0.2 + 0.1 * x, 0.45 + 0.2 * y, 0.15 + 0.05 * x * y], axis=-1)
    image = np.where(disc, np.asarray(hue), field) + 0.05 * rng.standard_normal((height, width,
                                                                                  3))
    return (np.clip(image, 0, 1) * 255).astype(np.uint8)


_HUES = ((0.95, 0.95, 0.9), (0.95, 0.85, 0.1), (0.85, 0.1, 0.2), (0.95, 0.7, 0.05),
         (0.9, 0.3, 0.6))


def synthetic_flowers(root, per_class=4, height=20, width=24):
    """Write the flower_photos-shaped folder under ``root``; its path."""
    rng = np.random.RandomState(31)
    base = os.path.join(root, "flower_photos")
    os.makedirs(base)
    with open(os.path.join(base, "LICENSE.txt"), "w") as f:
        f.write("synthetic images for tests\n")
    for name, hue in zip(FLOWERS, _HUES):
        os.makedirs(os.path.join(base, name))
        for i in range(per_class):
            h = height + int(rng.randint(-3, 4))   # photos of several sizes
            path = os.path.join(base, name, f"{1000 + 37 * i}_{name}.jpg")
            with open(path, "wb") as f:
                f.write(png_bytes(_flower(rng, hue, h, width), filters=(0, 2)))
    return base


def synthetic_flower(height=24, width=30):
    """One sunflower-like image's PNG bytes."""
    return png_bytes(_flower(np.random.RandomState(32), _HUES[3], height, width))


TF_FLOWERS = ("dandelion", "daisy", "tulips", "sunflowers", "roses")   # TFDS's label order


class ClassLabel:
    """tfds.features.ClassLabel's names, num_classes and int2str."""

    def __init__(self, names):
        self.names = list(names)
        self.num_classes = len(self.names)

    def int2str(self, index):
        return self.names[int(index)]


class DatasetInfo:
    """The part of tfds's DatasetInfo the tutorials read."""

    def __init__(self, names):
        self.features = {"label": ClassLabel(names)}


def tfds_flowers(tf, count=20, height=20, width=26):
    """((train, validation, test), info) of ``count`` synthetic tf_flowers examples split
    80% / 10% / 10% (see the glossary); ``tf`` is the framework that makes the datasets."""
    rng = np.random.RandomState(33)
    examples = []
    for _ in range(count):
        label = int(rng.randint(len(TF_FLOWERS)))
        size = (height + int(rng.randint(-2, 3)), width + int(rng.randint(-2, 3)))
        examples.append((_flower(rng, _HUES[FLOWERS.index(TF_FLOWERS[label])], *size), label))
    bounds = [0, count * 8 // 10, count * 9 // 10, count]
    spec = (tf.TensorSpec(shape=(None, None, 3), dtype=tf.uint8),
            tf.TensorSpec(shape=(), dtype=tf.int64))

    def split(lo, hi):
        def gen():
            for image, label in examples[lo:hi]:
                yield image, np.int64(label)
        return tf.data.Dataset.from_generator(gen, output_signature=spec)

    return (tuple(split(lo, hi) for lo, hi in zip(bounds, bounds[1:])),
            DatasetInfo(TF_FLOWERS))
