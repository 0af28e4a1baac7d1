"""tf.image's colour adjustments, crops, pads and quarter turns and Keras's RandomBrightness,
RandomHeight and RandomWidth as TF 2.21 (tf-keras) gives them, recorded by record_tf_layers.py
(group ``image_adjust``) and replayed by test_layers_tf_conformance.py: rgb_to_grayscale,
adjust_saturation (TF's HSV kernel; a grey, a black and a white pixel among random ones),
adjust_brightness, central_crop, rot90, pad_to_bounding_box, resize_with_crop_or_pad, the
stateless random brightness, saturation and crop (a Counter's seed pair in a dataset map, as the
"Data augmentation" tutorial), the stateful random flips, crop, brightness, contrast and
saturation (global and op seeds: eagerly, traced, in a dataset map), their argument errors, and
RandomBrightness seeded, on one image and a batch, traced with an unknown batch; RandomHeight
and RandomWidth likewise (their traced static shapes too); the float32 results also bit for bit
(the replays compare values to rtol 1e-5). Snippets as in tests/tf_snippets.py."""

IMG = ("img = np.random.RandomState(0).uniform(0, 255, (2, 5, 6, 3)).astype(np.float32)\n"
       "img[0, 0, :3] = [[7, 7, 7], [0, 0, 0], [255, 255, 255]]\n"
       "img8 = img.astype(np.uint8)\n"
       "f = img / 255\n")

CASES = {
    "tf.image.rgb_to_grayscale": IMG + """
out = [tf.image.rgb_to_grayscale(img8), tf.image.rgb_to_grayscale(f),
       tf.image.rgb_to_grayscale(img8[0]), tf.image.rgb_to_grayscale(f.astype(np.float64))]
""",
    "tf.image.adjust_saturation": IMG + """
out = [tf.image.adjust_saturation(img8, 3), tf.image.adjust_saturation(f, 0.3),
       tf.image.adjust_saturation(f[1], 1.7), tf.image.adjust_saturation(f, 0.0),
       tf.image.adjust_saturation(f.astype(np.float64), 2.5)]
""",
    "tf.image.adjust_saturation of 4 channels":
        "out = tf.image.adjust_saturation(np.ones((2, 2, 4), np.float32), 2.0)",
    "tf.image.adjust_saturation of float16 on a CPU": """
with tf.device('/CPU:0'):
    out = tf.image.adjust_saturation(np.ones((2, 2, 3), np.float16), 2.0)
""",
    "tf.image.adjust_contrast of float16 on a CPU": """
with tf.device('/CPU:0'):
    out = tf.image.adjust_contrast(np.ones((2, 2, 3), np.float16), 2.0)
""",
    "tf.image float16 brightness and grey": """
x = np.random.RandomState(2).uniform(0, 1, (2, 3, 3)).astype(np.float16)
out = [tf.image.adjust_brightness(x, 0.1), tf.image.rgb_to_grayscale(x)]
""",
    "tf.image.adjust_saturation of a 2-D array":
        "out = tf.image.adjust_saturation(np.ones((2, 3), np.float32), 2.0)",
    "tf.image.adjust_brightness": IMG + """
out = [tf.image.adjust_brightness(img8, 0.4), tf.image.adjust_brightness(f, -0.2),
       tf.image.adjust_brightness(img8[0], -0.5), tf.image.adjust_brightness(img, 3)]
""",
    "tf.image.stateless_random_brightness, saturation": IMG + """
out = [tf.image.stateless_random_brightness(img8, 0.95, (1, 0)),
       tf.image.stateless_random_brightness(f, 0.5, seed=[3, 4]),
       tf.image.stateless_random_saturation(f, 0.2, 2.0, (5, 6)),
       tf.image.stateless_random_saturation(img8[0], 0.5, 1.5, (0, 0))]
""",
    "tf.image.stateless_random_brightness negative delta":
        IMG + "out = tf.image.stateless_random_brightness(img, -0.1, (1, 2))",
    "tf.image.stateless_random_saturation upper below lower":
        IMG + "out = tf.image.stateless_random_saturation(img, 0.9, 0.5, (1, 2))",
    "tf.image.central_crop": IMG + """
out = [tf.image.central_crop(img8, 0.5), tf.image.central_crop(img8[0], 0.3),
       tf.image.central_crop(img[1], 1.0), tf.image.central_crop(img, 0.9)]
""",
    "tf.image.central_crop fraction above 1": IMG + "out = tf.image.central_crop(img, 1.5)",
    "tf.image.central_crop of a 2-D array":
        "out = tf.image.central_crop(np.ones((4, 4)), 0.5)",
    "tf.image.rot90": IMG + """
out = [tf.image.rot90(img8), tf.image.rot90(img8[0], 3), tf.image.rot90(img[0], -2),
       tf.image.rot90(img, k=4), tf.image.rot90(img8, tf.constant(5))]
""",
    "tf.image.rot90 of a 2-D array": "out = tf.image.rot90(np.ones((4, 4)))",
    "tf.image.pad_to_bounding_box and resize_with_crop_or_pad": IMG + """
out = [tf.image.pad_to_bounding_box(img8[0], 1, 2, 7, 9),
       tf.image.pad_to_bounding_box(f, 0, 0, 5, 7),
       tf.image.resize_with_crop_or_pad(f, 8, 4), tf.image.resize_with_crop_or_pad(img8[0], 3, 9),
       tf.image.resize_with_crop_or_pad(img, 5, 6), tf.image.resize_with_crop_or_pad(img8, 2, 1)]
""",
    "tf.image.pad_to_bounding_box target too small":
        IMG + "out = tf.image.pad_to_bounding_box(img, 1, 0, 5, 6)",
    "tf.image.resize_with_crop_or_pad zero target":
        IMG + "out = tf.image.resize_with_crop_or_pad(img, 0, 6)",
    "tf.image.stateless_random_crop": IMG + """
out = [tf.image.stateless_random_crop(img8[0], [3, 4, 3], (0, 0)),
       tf.image.stateless_random_crop(img8, [2, 3, 2, 3], seed=(7, 1)),
       tf.image.stateless_random_crop(f[1], size=[5, 6, 3], seed=[2, 9])]
""",
    "tf.image.stateless_random_crop larger than the image":
        IMG + "out = tf.image.stateless_random_crop(img[0], [6, 4, 3], (0, 0))",
    "tf.image ops in a dataset map seeded by a Counter": IMG + """
def augment(image, seed):
    image = tf.image.resize_with_crop_or_pad(image, 7, 8)
    new_seed = tf.random.split(seed, num=1)[0, :]
    image = tf.image.stateless_random_crop(image, size=[5, 6, 3], seed=seed)
    image = tf.image.stateless_random_brightness(image, max_delta=0.5, seed=new_seed)
    return tf.clip_by_value(image, 0, 1)
counter = tf.data.experimental.Counter()
ds = tf.data.Dataset.zip((tf.data.Dataset.from_tensor_slices(f), (counter, counter)))
out = list(ds.map(augment))
""",
    "tf.image's stateful random ops: eager, traced, in a dataset map": IMG + """
tf.random.set_seed(5)
out = []
for _ in range(2):
    out += [tf.image.random_flip_left_right(img), tf.image.random_flip_up_down(img[0]),
            tf.image.random_flip_left_right(img[1], seed=3),
            tf.image.random_crop(img, [2, 3, 4, 3]), tf.image.random_crop(img8[0], [3, 3, 3], 7),
            tf.image.random_brightness(f, 0.3), tf.image.random_contrast(f, 0.2, 1.5, seed=1),
            tf.image.random_saturation(f, 0.5, 2.0)]
g = tf.function(lambda x: [tf.image.random_flip_left_right(x[0]), tf.image.random_flip_up_down(x),
                           tf.image.random_crop(x, [2, 2, 2, 3]),
                           tf.image.random_brightness(x, 0.2, seed=4),
                           tf.image.random_saturation(x, 0.5, 1.5),
                           tf.image.random_contrast(x, 0.5, 1.5)])
out += g(f) + g(f)
ds = tf.data.Dataset.from_tensor_slices(img).map(
    lambda x: tf.image.random_crop(tf.image.random_flip_left_right(x), [3, 3, 3]))
out += list(ds) + list(ds)
""",
    "tf.image.random_brightness negative delta":
        IMG + "out = tf.image.random_brightness(img, -0.1)",
    "tf.image.random_contrast upper below lower":
        IMG + "out = tf.image.random_contrast(img, 0.9, 0.5)",
    "RandomBrightness": IMG + """
layer = L.RandomBrightness(0.3, seed=3)
out = [layer(img), layer(img), layer(img[0]), layer(img, training=False),
       L.RandomBrightness((-0.2, 0.5), value_range=(0, 1), seed=4)(f)]
""",
    "RandomBrightness traced with an unknown batch": IMG + """
layer = L.RandomBrightness(0.5, seed=6)
fn = tf.function(lambda x: layer(x, training=True),
                 input_signature=[tf.TensorSpec([None, 5, 6, 3])])
out = [fn(img), fn(img[:1])]
""",
    "RandomBrightness config": """
cfg = L.RandomBrightness([0.4, -0.1], value_range=[1, 0], seed=2).get_config()
cfg.pop('name')
out = sorted((k, v if not isinstance(v, list) else list(v)) for k, v in cfg.items())
""",
    "The float32 results bit for bit (MD5 of their bytes)": """
import hashlib
x = np.random.RandomState(1).uniform(0, 1, (16, 16, 3)).astype(np.float32)
x[0, :4] = [[0.5, 0.5, 0.5], [0, 0, 0], [1, 1, 1], [0.2, 0.2, 0.7]]
layer = L.RandomBrightness(0.4, value_range=(0, 1), seed=8)
results = [tf.image.rgb_to_grayscale(x), tf.image.adjust_saturation(x, 0.3),
           tf.image.adjust_saturation(x, 3.0), tf.image.adjust_brightness(x, -0.21),
           tf.image.stateless_random_brightness(x, 0.95, (2, 0)),
           tf.image.stateless_random_saturation(x, 0.1, 4.0, (1, 3)), layer(x[None])]
out = [hashlib.md5(np.asarray(r).tobytes()).hexdigest() for r in results]
""",
    "RandomBrightness factor above 1": "out = L.RandomBrightness(1.5)",
    "RandomBrightness value range of three": "out = L.RandomBrightness(0.1, value_range=(0, 1, 2))",
    "RandomHeight and RandomWidth": IMG + """
h, w = L.RandomHeight(0.4, seed=3), L.RandomWidth((-0.3, 0.6), interpolation='nearest', seed=4)
out = [h(img), h(img8[0]), w(img), w(img8), h(img, training=False),
       L.RandomWidth(0.5, seed=5)(f[0]), h.compute_output_shape((2, 5, 6, 3))]
""",
    "RandomHeight and RandomWidth traced with an unknown batch": IMG + """
h, w = L.RandomHeight(0.5, seed=6), L.RandomWidth(0.5, seed=7)
spec = [tf.TensorSpec([None, 5, 6, 3])]
fh = tf.function(lambda x: h(x, training=True), input_signature=spec)
fw = tf.function(lambda x: w(x, training=True), input_signature=spec)
out = [fh(img), fh(img[:1]), fw(img), fw(img[:1]),
       fh.get_concrete_function().structured_outputs.shape,
       fw.get_concrete_function().structured_outputs.shape]
""",
    "RandomHeight and RandomWidth configs": """
out = []
for layer in (L.RandomHeight(0.2, seed=1), L.RandomWidth((0.1, 0.3), 'nearest')):
    cfg = layer.get_config()
    cfg.pop('name')
    out.append(sorted((k, v if not isinstance(v, tuple) else list(v)) for k, v in cfg.items()))
""",
    "RandomHeight upper below lower": "out = L.RandomHeight((0.3, 0.1))",
    "RandomWidth upper below lower": "out = L.RandomWidth((0.3, 0.1))",
    "RandomWidth factor below -1": "out = L.RandomWidth((-1.5, 0.1))",
}
