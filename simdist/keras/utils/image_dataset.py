"""``tf.keras.utils.image_dataset_from_directory``: a dataset of (image, label) batches from a
directory of image files, one subdirectory per class.

Glossary:
  index         -- as text_dataset_from_directory (the class folders in sorted order, their
                   files walked in sorted order, shuffled by ``np.random.RandomState(seed)``),
                   the files being those ending in .bmp, .gif, .jpeg, .jpg or .png.
  load          -- at iteration, each path is read (``tf.io.read_file``), decoded
                   (``tf.image.decode_image``, ``color_mode``'s 1, 3 or 4 channels) and
                   resized to ``image_size`` (``tf.image.resize``, or smart_resize with
                   ``crop_to_aspect_ratio``): float32 images. simdist decodes PNG files.
  dataset       -- shuffled in a buffer of ``batch_size * 8`` with the seed (the training
                   one only with 'both'), batched, prefetched; ``class_names`` and
                   ``file_paths`` set on it.

Mirrors tf_keras/src/utils/image_dataset.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework.ops import image_decode_ops, image_resize_ops
from simdist.keras.utils import image_utils, text_dataset

ALLOWLIST_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_COLOR_MODES = {"rgb": 3, "rgba": 4, "grayscale": 1}


def image_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                 class_names=None, color_mode="rgb", batch_size=32,
                                 image_size=(256, 256), shuffle=True, seed=None,
                                 validation_split=None, subset=None, interpolation="bilinear",
                                 follow_links=False, crop_to_aspect_ratio=False, **kwargs):
    """A ``tf.data.Dataset`` of (image, label) batches from ``directory``'s class folders.

    Raises:
      TypeError: an unknown keyword argument.
      ValueError: TF's, for ``labels``, ``label_mode``, ``color_mode``, the split arguments,
        'binary' without two classes, and no images.
    """
    if "smart_resize" in kwargs:
        crop_to_aspect_ratio = kwargs.pop("smart_resize")
    if kwargs:
        raise TypeError(f"Unknown keywords argument(s): {tuple(kwargs.keys())}")
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(
                "`labels` argument should be a list/tuple of integer labels, of the same size "
                "as the number of image files in the target directory. If you wish to infer "
                "the labels from the subdirectory names in the target directory, pass "
                '`labels="inferred"`. If you wish to get a dataset that only contains images '
                f"(no labels), pass `labels=None`. Received: labels={labels}")
        if class_names:
            raise ValueError('You can only pass `class_names` if `labels="inferred"`. '
                             f"Received: labels={labels}, and class_names={class_names}")
    if label_mode not in {"int", "categorical", "binary", None}:
        raise ValueError('`label_mode` argument must be one of "int", "categorical", "binary", '
                         f"or None. Received: label_mode={label_mode}")
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    if color_mode not in _COLOR_MODES:
        raise ValueError('`color_mode` must be one of {"rgb", "rgba", "grayscale"}. '
                         f"Received: color_mode={color_mode}")
    interpolation = image_utils.get_interpolation(interpolation)
    text_dataset.check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    paths, labels, class_names = text_dataset.index_directory(
        directory, labels, ALLOWLIST_FORMATS, class_names, shuffle, seed, follow_links)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={class_names}")
    load = (image_size, _COLOR_MODES[color_mode], interpolation, crop_to_aspect_ratio)
    subsets = ("training", "validation") if subset == "both" else (subset,)
    out = []
    for part in subsets:
        part_paths, part_labels = text_dataset.get_training_or_validation_split(
            paths, labels, validation_split, part)
        if not part_paths:
            kind = f"{part} " if subset == "both" else ""
            raise ValueError(f"No {kind}images found in directory {directory}. Allowed "
                             f"formats: {ALLOWLIST_FORMATS}")
        dataset = paths_and_labels_to_dataset(part_paths, part_labels, label_mode,
                                              len(class_names), load)
        train = part != "validation" or subset != "both"
        if batch_size is not None:
            if shuffle and train:
                dataset = dataset.shuffle(buffer_size=batch_size * 8, seed=seed)
            dataset = dataset.batch(batch_size)
        elif shuffle and train:
            dataset = dataset.shuffle(buffer_size=1024, seed=seed)
        dataset = dataset.prefetch(-1)
        dataset.class_names, dataset.file_paths = class_names, part_paths
        out.append(dataset)
    return out if subset == "both" else out[0]


def paths_and_labels_to_dataset(paths, labels, label_mode, num_classes, load):
    """(image, label) elements: the paths mapped through ``load_image``."""
    from simdist.data import Dataset

    img_ds = Dataset.from_tensor_slices(np.array(paths, dtype=object)).map(
        lambda x: load_image(x, *load))
    if not label_mode:
        return img_ds
    return Dataset.zip((img_ds, text_dataset.labels_to_dataset(labels, label_mode,
                                                               num_classes)))


def load_image(path, image_size, num_channels, interpolation, crop_to_aspect_ratio=False):
    """One file's pixels, decoded and resized to ``image_size`` (float32)."""
    img = image_decode_ops.decode_image(image_decode_ops.read_file(path),
                                        channels=num_channels, expand_animations=False)
    if crop_to_aspect_ratio:
        return image_utils.smart_resize(img, image_size, interpolation)
    return image_resize_ops.resize(img, image_size, interpolation)
