"""What the tutorial programs load instead of MNIST / Fashion-MNIST, and their fixed initial
weights: the same arrays (seeded NumPy) under TensorFlow and simdist.

Glossary:
  synthetic_mnist   -- ``(datasets, info)`` shaped like ``tfds.load('mnist', with_info=True,
                       as_supervised=True)``: uint8 images (28, 28, 1), int64 labels.
  synthetic_fashion -- ``((train_images, train_labels), (test_images, test_labels))`` shaped
                       like ``tf.keras.datasets.fashion_mnist.load_data()``: uint8 (N, 28, 28)
                       images, uint8 labels.
  synthetic_penguins -- ``[test, train]`` shaped like ``tfds.load('penguins/processed',
                       split=['train[:20%]', 'train[20%:]'], as_supervised=True)``: float32
                       features (4,) in [0, 1], int64 species labels 0-2.
  fixed_weights     -- one seeded array per weight of a built model, in ``model.weights``
                       order: the frameworks' random initializers do not draw the same
                       numbers, so the tutorials' numbers are compared from these.
"""

import numpy as np


def _images(rng, n):
    return rng.randint(0, 256, size=(n, 28, 28)).astype(np.uint8)


class _Split:
    def __init__(self, n):
        self.num_examples = n


class _Info:
    def __init__(self, n_train, n_test):
        self.splits = {"train": _Split(n_train), "test": _Split(n_test)}


def synthetic_mnist(tf, n_train=32, n_test=16):
    """MNIST-shaped tf.data datasets of (image, label) and an info with split sizes."""
    rng = np.random.RandomState(17)
    out = {}
    for split, n in (("train", n_train), ("test", n_test)):
        images = _images(rng, n)[..., None]
        labels = rng.randint(0, 10, size=n).astype(np.int64)
        out[split] = tf.data.Dataset.from_tensor_slices((images, labels))
    return out, _Info(n_train, n_test)


def synthetic_fashion(n_train=80, n_test=16):
    """Fashion-MNIST-shaped NumPy arrays."""
    rng = np.random.RandomState(18)
    train = (_images(rng, n_train), rng.randint(0, 10, size=n_train).astype(np.uint8))
    test = (_images(rng, n_test), rng.randint(0, 10, size=n_test).astype(np.uint8))
    return train, test


def synthetic_penguins(tf, n_train=48, n_test=12):
    """Penguins-shaped tf.data datasets of (features, label), the test split first."""
    rng = np.random.RandomState(19)
    out = []
    for n in (n_test, n_train):
        labels = rng.randint(0, 3, size=n).astype(np.int64)
        # Each species' features around a centre of its own, so that the model learns.
        features = (rng.uniform(0.0, 0.6, size=(n, 4)) + 0.2 * labels[:, None])
        out.append(tf.data.Dataset.from_tensor_slices((features.astype(np.float32), labels)))
    return out


def fixed_weights(model, scale=0.05):
    """Seeded weights for every variable of a built model (biases zero)."""
    rng = np.random.RandomState(0)
    out = []
    for w in model.weights:
        shape = tuple(w.shape)
        value = rng.normal(size=shape) * scale if len(shape) > 1 else np.zeros(shape)
        out.append(value.astype(np.float32))
    return out


def pick_unused_port():
    """A free TCP port of 127.0.0.1 (what the PS tutorial's ``portpicker`` gives)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
