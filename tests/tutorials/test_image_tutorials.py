"""TF's image tutorials run under simdist and print what TF 2.21 printed
(``record_tf_tutorials.py 1 image_classification``).

"Image classification" (programs/image_classification.py, on a synthetic flower_photos-shaped
folder of 30 small images, PNG bytes under .jpg names): image_dataset_from_directory with a
seeded validation split (the file counts, class names, a batch's labels and pixel sums),
cached, shuffled and prefetched, Rescaling mapped over a dataset, a Sequential CNN summarised
and fit for two epochs with validation data; then RandomFlip / RandomRotation / RandomZoom in
a Sequential (nine augmentations of one image, seeded by set_random_seed), the model with that
augmentation, Rescaling and Dropout summarised and fit, and a prediction on one more image.

"Data augmentation" (programs/data_augmentation.py, on a synthetic tf_flowers of 20 images of
several sizes made by from_generator, tutorial_images.tfds_flowers, instead of tfds.load):
Resizing and Rescaling, RandomFlip and RandomRotation on one image and mapped over a
shuffled, batched dataset, a CNN fit for one epoch and evaluated, a Lambda and a subclassed
layer inverting at random (tf.random.uniform under set_random_seed), the tf.image ops (flip,
grey, saturation, brightness, central crop, rot90, the stateless random brightness, contrast
and crop), and the augment function of stateless ops mapped over a dataset zipped with a
Counter's seeds, and with a tf.random.Generator's make_seeds.
"""

from test_tutorials import _replays_traced, cpu_machine  # noqa: F401 - the fixture


def test_image_classification_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("image_classification")


def test_preprocessing_layers_tutorial_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("preprocessing_layers")


def test_data_augmentation_tutorial_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("data_augmentation")
