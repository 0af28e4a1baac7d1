"""Keras's image preprocessing and augmentation layers as TF 2.21 (tf-keras) gives them,
recorded by record_tf_layers.py (group ``image_preprocessing``) and replayed by
test_layers_tf_conformance.py: Rescaling, Resizing, CenterCrop, RandomCrop, RandomFlip,
RandomRotation, RandomZoom, RandomTranslation and RandomContrast on small images, seeded (the
layers' tf.random.Generator draws), every fill mode and interpolation, inference calls,
configs and the argument errors; and the tf.image ops under them (resize, crops, flips, the
stateless random flips and contrast).
Snippets as in tests/tf_snippets.py."""

IMG = ("img = np.random.RandomState(0).uniform(0, 255, (2, 5, 6, 3)).astype(np.float32)\n"
       "img8 = img.astype(np.uint8)\n")


def _config(layer):
    return f"""
cfg = {layer}.get_config()
cfg.pop('name')
out = sorted((k, v if not isinstance(v, list) else list(v)) for k, v in cfg.items())
"""


def _augment(layer):
    """Two training calls (the generator moves on), one of a single image, an inference."""
    return IMG + f"""
layer = {layer}
out = [layer(img), layer(img), layer(img[0]), layer(img, training=False)]
"""


CASES = {
    "tf.image.resize bilinear and nearest": IMG + """
out = [tf.image.resize(img, [8, 4]), tf.image.resize(img8, [3, 11]),
       tf.image.resize(img, [9, 3], method='nearest'), tf.image.resize(img8[0], [7, 7]),
       tf.image.resize(img8, [2, 2], method='nearest')]
""",
    "tf.image.resize of a 2-D array": "out = tf.image.resize(np.zeros((4, 4)), [2, 2])",
    "tf.image.resize to three sizes": "out = tf.image.resize(np.zeros((4, 4, 1)), [2, 2, 2])",
    "tf.image.resize unknown method":
        "out = tf.image.resize(np.zeros((4, 4, 1)), [2, 2], method='cubic')",
    "tf.image crops and flips": IMG + """
out = [tf.image.crop_to_bounding_box(img, 1, 2, 3, 4),
       tf.image.crop_to_bounding_box(img[0], 0, 0, 5, 6),
       tf.image.flip_left_right(img), tf.image.flip_up_down(img[1])]
""",
    "tf.image.crop_to_bounding_box past the image":
        IMG + "out = tf.image.crop_to_bounding_box(img, 1, 2, 5, 4)",
    "tf.image.crop_to_bounding_box negative offset":
        IMG + "out = tf.image.crop_to_bounding_box(img, 0, -1, 2, 2)",
    "tf.image stateless random flips and contrast": IMG + """
out = [tf.image.stateless_random_flip_left_right(img, seed=[3, 4]),
       tf.image.stateless_random_flip_up_down(img, seed=[7, 1]),
       tf.image.stateless_random_flip_left_right(img[0], seed=[5, 4]),
       tf.image.stateless_random_flip_up_down(img[0], seed=[1, 2]),
       tf.image.stateless_random_contrast(img, 0.2, 1.8, seed=[1, 2]),
       tf.image.adjust_contrast(img, 0.0)]
""",
    "tf.image.stateless_random_contrast upper below lower":
        IMG + "out = tf.image.stateless_random_contrast(img, 0.9, 0.5, seed=[1, 2])",
    "Rescaling scales and offsets": IMG + """
layer = L.Rescaling(1. / 255)
model = tf.keras.Sequential([L.Rescaling(1. / 127.5, offset=-1, input_shape=(5, 6, 3))])
out = [layer(img), layer(img8), layer(img8[0]), model(img), model.output_shape,
       L.Rescaling(2.0, dtype='float64')(img8)]
""",
    "Rescaling config": _config("L.Rescaling(1. / 255, offset=0.5)"),
    "Resizing bilinear, nearest and cropped to the aspect ratio": IMG + """
model = tf.keras.Sequential([L.Resizing(4, 4, input_shape=(5, 6, 3))])
out = [L.Resizing(3, 8)(img), L.Resizing(7, 2, interpolation='nearest')(img8),
       L.Resizing(4, 4, crop_to_aspect_ratio=True)(img), L.Resizing(2, 5)(img8[0]),
       L.Resizing(6, 3, crop_to_aspect_ratio=True, interpolation='nearest')(img[0]),
       model(img8), model.output_shape]
""",
    "Resizing config": _config("L.Resizing(3, 4, interpolation='nearest')"),
    "Resizing unknown interpolation": "out = L.Resizing(3, 4, interpolation='cubic')",
    "CenterCrop crops, or resizes up": IMG + """
out = [L.CenterCrop(3, 3)(img), L.CenterCrop(2, 5)(img8), L.CenterCrop(8, 4)(img),
       L.CenterCrop(4, 4)(img[0])]
""",
    "CenterCrop config": _config("L.CenterCrop(3, 4)"),
    "RandomCrop crops at random; resizes at inference": IMG + """
layer = L.RandomCrop(3, 4, seed=5)
out = [layer(img), layer(img), layer(img[0]), layer(img, training=False),
       L.RandomCrop(8, 8, seed=1)(img)]
""",
    "RandomCrop config": _config("L.RandomCrop(3, 4, seed=7)"),
    "RandomFlip horizontal": _augment("L.RandomFlip('horizontal', seed=11)"),
    "RandomFlip vertical": _augment("L.RandomFlip('vertical', seed=3)"),
    "RandomFlip both": _augment("L.RandomFlip(seed=42)"),
    "RandomFlip config": _config("L.RandomFlip('horizontal', seed=1)"),
    "RandomFlip unknown mode": "out = L.RandomFlip('diagonal', name='flip')",
    "RandomRotation reflect bilinear": _augment("L.RandomRotation(0.2, seed=7)"),
    "RandomRotation wrap nearest": _augment(
        "L.RandomRotation((-0.3, 0.1), fill_mode='wrap', interpolation='nearest', seed=1)"),
    "RandomRotation constant fill": _augment(
        "L.RandomRotation(0.5, fill_mode='constant', fill_value=9.0, seed=2)"),
    "RandomRotation nearest fill": _augment(
        "L.RandomRotation(0.25, fill_mode='nearest', seed=3)"),
    "RandomRotation config": _config("L.RandomRotation(0.1, seed=4)"),
    "RandomRotation upper below lower": "out = L.RandomRotation((0.3, 0.1))",
    "RandomRotation unknown fill_mode": "out = L.RandomRotation(0.1, fill_mode='mirror')",
    "RandomRotation unknown interpolation":
        "out = L.RandomRotation(0.1, interpolation='bicubic')",
    "RandomZoom height only": _augment("L.RandomZoom(0.3, seed=5)"),
    "RandomZoom height and width, constant": _augment(
        "L.RandomZoom((-0.4, 0.2), width_factor=(0.1, 0.5), fill_mode='constant', seed=6)"),
    "RandomZoom wrap nearest": _augment(
        "L.RandomZoom(0.5, fill_mode='wrap', interpolation='nearest', seed=8)"),
    "RandomZoom config": _config("L.RandomZoom(0.2, 0.3, seed=4)"),
    "RandomZoom height factor above 1": "out = L.RandomZoom(1.5)",
    "RandomZoom width factor below -1": "out = L.RandomZoom(0.1, width_factor=(-2, 0.1))",
    "RandomTranslation reflect": _augment("L.RandomTranslation(0.3, 0.2, seed=9)"),
    "RandomTranslation constant nearest": _augment(
        "L.RandomTranslation((-0.5, 0.1), 0.4, fill_mode='constant', "
        "interpolation='nearest', fill_value=1.0, seed=10)"),
    "RandomTranslation config": _config("L.RandomTranslation(0.1, 0.2, seed=4)"),
    "RandomTranslation height upper below lower":
        "out = L.RandomTranslation((0.3, 0.1), 0.1)",
    "RandomTranslation width above 1": "out = L.RandomTranslation(0.1, 1.5)",
    "RandomContrast": _augment("L.RandomContrast(0.5, seed=12)"),
    "RandomContrast of a pair": _augment("L.RandomContrast((0.2, 0.8), seed=13)"),
    "RandomContrast config": _config("L.RandomContrast(0.3, seed=1)"),
    "RandomContrast negative factor": "out = L.RandomContrast(-0.1)",
    "Augmentation layers unseeded after set_random_seed": IMG + """
tf.keras.utils.set_random_seed(3)
model = tf.keras.Sequential([L.RandomFlip('horizontal', input_shape=(5, 6, 3)),
                             L.RandomRotation(0.1), L.RandomZoom(0.1)])
out = [model(img), model(img), model(img, training=False), model.output_shape]
""",
    "Augmentation inside a dataset map and a model's predict": IMG + """
tf.keras.utils.set_random_seed(4)
aug = tf.keras.Sequential([L.RandomFlip('horizontal_and_vertical'), L.RandomRotation(0.2)])
ds = tf.data.Dataset.from_tensor_slices(img).batch(2).map(lambda x: aug(x, training=True))
model = tf.keras.Sequential([L.Rescaling(1. / 255, input_shape=(5, 6, 3)),
                             L.RandomFlip(seed=2), L.Flatten()])
out = [next(iter(ds)), model.predict(img, verbose=0)]
""",
    "Augmentation layers traced with an unknown batch": IMG + """
layers = [L.RandomFlip(seed=1), L.RandomRotation(0.2, seed=2), L.RandomZoom(0.2, 0.1, seed=3),
          L.RandomTranslation(0.2, 0.3, seed=4), L.RandomContrast(0.4, seed=5),
          L.RandomCrop(3, 4, seed=6)]
spec = [tf.TensorSpec([None, 5, 6, 3])]
fns = [tf.function(lambda x, l=l: l(x, training=True), input_signature=spec) for l in layers]
out = [[f(img), f(img[:1])] for f in fns]
""",
}
