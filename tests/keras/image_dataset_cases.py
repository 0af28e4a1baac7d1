"""tf.io's PNG decoding and tf.keras.utils.image_dataset_from_directory as TF 2.21 (tf-keras)
gives them, recorded by record_tf_layers.py (group ``image_dataset``) and replayed by
test_layers_tf_conformance.py: every PNG filter and colour type, channel conversions, the
format errors, and datasets of a small class folder (splits, label modes, colour modes,
crop_to_aspect_ratio, the argument errors). The PNG files are tests/tutorials/
tutorial_images.py's (the same bytes under both frameworks).
Snippets as in tests/tf_snippets.py."""

import os

_TUTORIALS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "tutorials")
PNG = f"""
import os, sys, tempfile
sys.path.insert(0, {_TUTORIALS!r})
from tutorial_images import png_bytes
rng = np.random.RandomState(5)
"""
FOLDER = PNG + """
root = tempfile.mkdtemp()
for k, cls in enumerate(('cat', 'dog', 'emu')):
    os.makedirs(os.path.join(root, cls))
    for i in range(2 + k):
        with open(os.path.join(root, cls, f'{i}.png'), 'wb') as f:
            f.write(png_bytes(rng.randint(0, 256, (5 + i, 7, 3)).astype(np.uint8)))
with open(os.path.join(root, 'cat', 'notes.txt'), 'w') as f:
    f.write('not an image')
"""

CASES = {
    "decode_png of every filter and colour type": PNG + """
out = []
for c in (1, 2, 3, 4):
    img = rng.randint(0, 256, (4, 5, c)).astype(np.uint8)
    data = png_bytes(img, filters=(0, 1, 2, 3, 4))
    out += [tf.io.decode_png(data), tf.io.decode_png(data, channels=3),
            tf.io.decode_png(data, channels=4), tf.image.decode_image(data)]
gray = png_bytes(rng.randint(0, 256, (2, 3, 1)).astype(np.uint8))
out += [tf.io.decode_png(gray, channels=1), tf.io.decode_image(gray, channels=3)]
""",
    "decode_png of bytes of no image format": "out = tf.io.decode_png(b'hello world')",
    "decode_image of unknown bytes": "out = tf.io.decode_image(b'hello world')",
    "decode_png with 2 channels": PNG + """
out = tf.io.decode_png(png_bytes(np.zeros((2, 2, 3), np.uint8)), channels=2)
""",
    "read_file of a missing file": "out = tf.io.read_file('/nonexistent/file.png')",
    "image_dataset_from_directory splits and labels": FOLDER + """
tr, va = tf.keras.utils.image_dataset_from_directory(
    root, image_size=(4, 6), batch_size=2, seed=3, validation_split=0.4, subset='both')
out = [tr.class_names, [(s.shape, s.dtype.name) for s in tr.element_spec],
       [(x, y) for x, y in tr], [(x, y) for x, y in va],
       [os.path.basename(p) for p in va.file_paths]]
""",
    "image_dataset_from_directory modes": FOLDER + """
a = tf.keras.utils.image_dataset_from_directory(
    root, image_size=(3, 3), batch_size=None, shuffle=False, label_mode='categorical',
    color_mode='rgba', interpolation='nearest')
b = tf.keras.utils.image_dataset_from_directory(
    root, image_size=(4, 4), batch_size=3, shuffle=False, labels=None,
    crop_to_aspect_ratio=True)
out = [[(s.shape, s.dtype.name) for s in a.element_spec], [(x, y) for x, y in a],
       b.element_spec.shape, list(b)]
""",
    "image_dataset_from_directory binary with three classes": FOLDER + """
out = tf.keras.utils.image_dataset_from_directory(root, label_mode='binary')
""",
    "image_dataset_from_directory unknown color_mode": FOLDER + """
out = tf.keras.utils.image_dataset_from_directory(root, color_mode='cmyk')
""",
    "image_dataset_from_directory unknown keyword": FOLDER + """
out = tf.keras.utils.image_dataset_from_directory(root, image_shape=(3, 3))
""",
    "image_dataset_from_directory split without a seed": FOLDER + """
out = tf.keras.utils.image_dataset_from_directory(root, validation_split=0.2,
                                                  subset='training')
""",
    "image_dataset_from_directory of a folder without images": """
import tempfile, os
root = tempfile.mkdtemp()
os.makedirs(os.path.join(root, 'a'))
try:
    tf.keras.utils.image_dataset_from_directory(root)
except ValueError as e:
    out = str(e).replace(root, 'ROOT')
""",
}
