"""``tf.keras.utils.text_dataset_from_directory``: a dataset of (text, label) from a
directory of text files, one subdirectory per class.

Glossary:
  index       -- the class subdirectories in sorted order (hidden ones left out) are the
                 class names; each one's ``.txt`` files, walked in sorted order, are its
                 samples; then, with ``shuffle``, paths and labels are shuffled by
                 ``np.random.RandomState(seed)`` (the same seed for both, as Keras), a seed
                 of None drawn from NumPy's global generator.
  split       -- ``validation_split``: the last ``int(split * n)`` shuffled files are the
                 'validation' subset, the others 'training' ('both': the two datasets).
  dataset     -- (text, label) elements (a label per ``label_mode``: int32 'int', float32
                 (1,) 'binary', one-hot 'categorical', none with ``labels=None``), shuffled
                 again in a buffer of ``batch_size * 8`` with the seed (the training one
                 only, with 'both'), batched; ``class_names`` set on it.
  read        -- simdist reads the files' text when the dataset is made (TF reads each in a
                 ``map`` at iteration: a file changed in between gives TF the new text).

Mirrors tf_keras/src/utils/text_dataset.py and dataset_utils.py.
"""

from __future__ import annotations

import os

import numpy as np

from simdist.framework.ops import array_ops as A

_LABEL_MODES = {"int", "categorical", "binary", None}


def text_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                class_names=None, batch_size=32, max_length=None,
                                shuffle=True, seed=None, validation_split=None, subset=None,
                                follow_links=False):
    """A ``tf.data.Dataset`` of (text, label) batches from ``directory``'s class folders.

    Raises:
      ValueError: TF's, for ``labels``, ``label_mode``, ``class_names``, the split
        arguments, 'binary' without two classes, and no text files.
    """
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(
                "`labels` argument should be a list/tuple of integer labels, of the same size "
                "as the number of text files in the target directory. If you wish to infer "
                "the labels from the subdirectory names in the target directory, pass "
                '`labels="inferred"`. If you wish to get a dataset that only contains text '
                f"samples (no labels), pass `labels=None`. Received: labels={labels}")
        if class_names:
            raise ValueError('You can only pass `class_names` if `labels="inferred"`. '
                             f"Received: labels={labels}, and class_names={class_names}")
    if label_mode not in _LABEL_MODES:
        raise ValueError('`label_mode` argument must be one of "int", "categorical", '
                         f'"binary", or None. Received: label_mode={label_mode}')
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    file_paths, labels, class_names = index_directory(
        directory, labels, (".txt",), class_names, shuffle, seed, follow_links)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={class_names}")
    subsets = ("training", "validation") if subset == "both" else (subset,)
    out = []
    for part in subsets:
        paths, part_labels = get_training_or_validation_split(
            file_paths, labels, validation_split, part)
        if not paths:
            kind = f"{part} " if subset == "both" else ""
            raise ValueError(f"No {kind}text files found in directory {directory}. "
                             "Allowed format: .txt")
        dataset = _paths_and_labels_to_dataset(paths, part_labels, label_mode,
                                               len(class_names), max_length)
        dataset = dataset.prefetch(-1)
        if batch_size is not None:
            if shuffle and part != "validation" or shuffle and subset != "both":
                dataset = dataset.shuffle(buffer_size=batch_size * 8, seed=seed)
            dataset = dataset.batch(batch_size)
        elif shuffle and (part != "validation" or subset != "both"):
            dataset = dataset.shuffle(buffer_size=1024, seed=seed)
        dataset.class_names = class_names
        out.append(dataset)
    return out if subset == "both" else out[0]


def check_validation_split_arg(validation_split, subset, shuffle, seed) -> None:
    """TF's checks of ``validation_split`` and ``subset``."""
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1, received: "
                         f"{validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError('`subset` must be either "training", "validation" or "both", '
                         f"received: {subset}")
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must "
                         "provide a `seed` argument, to make sure that there is no overlap "
                         "between the training and validation subset.")


def index_directory(directory, labels, formats, class_names=None, shuffle=True, seed=None,
                    follow_links=False):
    """``(file_paths, labels, class_names)`` of ``directory``, shuffled as Keras's."""
    if labels != "inferred":
        subdirs = [""]
        class_names = subdirs
    else:
        subdirs = [d for d in sorted(os.listdir(directory))
                   if os.path.isdir(os.path.join(directory, d)) and not d.startswith(".")]
        if not class_names:
            class_names = subdirs
        elif set(class_names) != set(subdirs):
            raise ValueError("The `class_names` passed did not match the names of the "
                             "subdirectories of the target directory. Expected: "
                             f"{subdirs}, but received: {class_names}")
    class_indices = dict(zip(class_names, range(len(class_names))))
    filenames, labels_list = [], []
    for subdir in subdirs:
        names, part = _index_subdirectory(os.path.join(directory, subdir), class_indices,
                                          follow_links, formats)
        filenames += names
        labels_list.append(part)
    if labels not in ("inferred", None):
        if len(labels) != len(filenames):
            raise ValueError("Expected the lengths of `labels` to match the number of files "
                             f"in the target directory. len(labels) is {len(labels)} while "
                             f"we found {len(filenames)} files in directory {directory}.")
        class_names = sorted(set(labels))
    else:
        labels = np.array([i for part in labels_list for i in part], dtype="int32")
    if labels is None:
        print(f"Found {len(filenames)} files.")
    else:
        print(f"Found {len(filenames)} files belonging to {len(class_names)} classes.")
    file_paths = [os.path.join(directory, f) for f in filenames]
    if shuffle:
        np.random.RandomState(seed).shuffle(file_paths)
        np.random.RandomState(seed).shuffle(labels)
    return file_paths, labels, class_names


def _index_subdirectory(directory, class_indices, follow_links, formats):
    dirname = os.path.basename(directory)
    walk = os.walk(directory, followlinks=follow_links)
    if not follow_links:   # tf.io.gfile.walk: the folder's own files only are listed first
        walk = os.walk(directory)
    filenames, labels = [], []
    for root, _, files in sorted(walk, key=lambda x: x[0]):
        for fname in sorted(files):
            if fname.lower().endswith(formats):
                labels.append(class_indices[dirname])
                path = os.path.join(root, fname)
                filenames.append(os.path.join(dirname, os.path.relpath(path, directory)))
    return filenames, labels


def get_training_or_validation_split(samples, labels, validation_split, subset):
    """The subset's samples and labels (all of them without a split), announced."""
    if not validation_split:
        return samples, labels
    num_val_samples = int(validation_split * len(samples))
    if subset == "training":
        print(f"Using {len(samples) - num_val_samples} files for training.")
        return samples[:-num_val_samples], (None if labels is None
                                            else labels[:-num_val_samples])
    if subset == "validation":
        print(f"Using {num_val_samples} files for validation.")
        return samples[-num_val_samples:], (None if labels is None
                                            else labels[-num_val_samples:])
    raise ValueError(f'`subset` must be either "training" or "validation", received: {subset}')


def _paths_and_labels_to_dataset(file_paths, labels, label_mode, num_classes, max_length):
    from simdist.data import Dataset

    texts = []
    for path in file_paths:
        with open(path, "rb") as f:
            text = f.read()
        texts.append(text if max_length is None else text[:max_length])
    string_ds = Dataset.from_tensor_slices(np.array(texts, dtype=object))
    if not label_mode:
        return string_ds
    return Dataset.zip((string_ds, labels_to_dataset(labels, label_mode, num_classes)))


def labels_to_dataset(labels, label_mode, num_classes):
    """A dataset of the labels: int32, float32 (1,) for 'binary', one-hot 'categorical'."""
    from simdist.data import Dataset

    label_ds = Dataset.from_tensor_slices(np.asarray(labels, dtype="int32"))
    if label_mode == "binary":
        label_ds = label_ds.map(lambda x: A.expand_dims(A.cast(x, "float32"), axis=-1))
    elif label_mode == "categorical":
        label_ds = label_ds.map(lambda x: A.one_hot(x, num_classes))
    return label_ds
