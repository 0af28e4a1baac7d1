"""What the tutorial programs load instead of MNIST / Fashion-MNIST, and their fixed initial
weights: the same arrays (seeded NumPy) under TensorFlow and simdist.

Glossary:
  synthetic_mnist   -- ``(datasets, info)`` shaped like ``tfds.load('mnist', with_info=True,
                       as_supervised=True)``: uint8 images (28, 28, 1), int64 labels.
  synthetic_fashion -- ``((train_images, train_labels), (test_images, test_labels))`` shaped
                       like ``tf.keras.datasets.fashion_mnist.load_data()``: uint8 (N, 28, 28)
                       images, uint8 labels.
  synthetic_cifar10 -- ``((train_images, train_labels), (test_images, test_labels))`` shaped
                       like ``tf.keras.datasets.cifar10.load_data()``: uint8 (N, 32, 32, 3)
                       images, uint8 labels (N, 1).
  synthetic_penguins -- ``[test, train]`` shaped like ``tfds.load('penguins/processed',
                       split=['train[:20%]', 'train[20%:]'], as_supervised=True)``: float32
                       features (4,) in [0, 1], int64 species labels 0-2.
  synthetic_auto_mpg -- float64 rows shaped like the UCI Auto MPG table the core guides read
                       with pandas (MPG, Cylinders, Displacement, Horsepower, Weight,
                       Acceleration, Model Year, Origin 1-3), without missing values.
  synthetic_wdbc    -- (diagnosis, features) shaped like the Wisconsin breast cancer table
                       the logistic regression guide reads with pandas: 'B' / 'M' strings
                       and 30 float64 features (mean, standard error, largest of ten).
  synthetic_imdb    -- a folder shaped like the extracted ``aclImdb_v1`` download the text
                       classification tutorial reads: aclImdb/{train,test}/{pos,neg}/*.txt
                       reviews (train/unsup too, which the tutorial deletes), made of 2000
                       seeded pseudo-words (each training review holds its own 25 of them,
                       so the vocabulary passes index 1287), capitals, punctuation and
                       '<br />' tags, positive reviews leaning on their own words.
  synthetic_imdb_reviews -- ``(datasets, info)`` shaped like ``tfds.load('imdb_reviews',
                       with_info=True, as_supervised=True)``: (string review, int64 label)
                       pairs, each review 6 pseudo-words (2 of its class) with punctuation.
  synthetic_petfinder -- the PetFinder-mini table the preprocessing layers tutorial reads
                       with pandas, as a dict of NumPy columns (strings as object arrays,
                       integers int64).
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


def synthetic_photo(height=96, width=128):
    """A photo-like uint8 RGB image (smooth shading, a disc, a stripe and a little noise),
    whose singular values fall off as a photo's do."""
    rng = np.random.RandomState(23)
    y, x = np.mgrid[0:height, 0:width] / np.array([height, width])[:, None, None]
    disc = ((x - 0.6) ** 2 + (y - 0.4) ** 2 < 0.06).astype(float)
    stripe = (np.abs(x + 0.5 * y - 0.7) < 0.05).astype(float)
    channels = [0.5 + 0.3 * np.sin(3 * x + c) * np.cos(2 * y - c) + 0.3 * disc * (c - 1)
                + 0.2 * stripe for c in range(3)]
    image = np.stack(channels, axis=-1) + 0.03 * rng.standard_normal((height, width, 3))
    return (np.clip(image, 0, 1) * 255).astype(np.uint8)


def synthetic_cifar10(n_train=48, n_test=16):
    """CIFAR-10-shaped NumPy arrays."""
    rng = np.random.RandomState(22)
    out = []
    for n in (n_train, n_test):
        images = rng.randint(0, 256, size=(n, 32, 32, 3)).astype(np.uint8)
        out.append((images, rng.randint(0, 10, size=(n, 1)).astype(np.uint8)))
    return tuple(out)


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


def synthetic_auto_mpg(n=160):
    """Auto-MPG-shaped rows: MPG falls with the weight and rises with the model year."""
    rng = np.random.RandomState(20)
    cylinders = rng.choice([4.0, 6.0, 8.0], size=n)
    displacement = np.round(cylinders * 35.0 + rng.uniform(-20, 40, size=n))
    horsepower = np.round(displacement * 0.45 + rng.uniform(20, 50, size=n))
    weight = np.round(displacement * 8.0 + rng.uniform(1200, 1800, size=n))
    acceleration = np.round(rng.uniform(8.0, 24.0, size=n), 1)
    year = rng.randint(70, 83, size=n).astype(np.float64)
    origin = rng.randint(1, 4, size=n).astype(np.float64)
    mpg = np.round(60.0 - weight * 0.008 + (year - 70) * 0.7 + rng.normal(0, 2, size=n), 1)
    return np.stack([mpg, cylinders, displacement, horsepower, weight, acceleration, year,
                     origin], axis=1)


def synthetic_wdbc(n=80):
    """WDBC-shaped rows: the malignant ones have larger features."""
    rng = np.random.RandomState(21)
    malignant = rng.rand(n) < 0.4
    scale = rng.uniform(0.5, 20.0, size=30)   # each feature's own range
    features = np.round(scale * (1.0 + 0.5 * malignant[:, None]
                                 + rng.normal(0, 0.25, size=(n, 30))), 4)
    return np.where(malignant, "M", "B"), features


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


def _review(rng, words, own, lean, common=40, leaning=8):
    """One review: common words, words of its class (``lean``), its own words, punctuation."""
    picks = list(rng.choice(words[:300], common, p=_ZIPF)) + list(rng.choice(lean, leaning)) \
        + own
    rng.shuffle(picks)
    text = []
    for i, w in enumerate(picks):
        w = w.capitalize() if i % 9 == 0 else w
        text.append(w + ("." if i % 11 == 10 else "," if i % 7 == 6 else "!" if i % 17 == 16
                         else ""))
        if i % 23 == 22:
            text.append("<br /><br />")
    return " ".join(text)


_ZIPF = 1.0 / np.arange(1, 301)
_ZIPF = _ZIPF / _ZIPF.sum()


def _pseudo_words(rng, n):
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words = []
    while len(words) < n:
        w = "".join(rng.choice(letters, rng.randint(2, 9)))
        if w not in words:
            words.append(w)
    return words


def synthetic_imdb_reviews(tf, n_train=32, n_test=16):
    """``(datasets, info)`` shaped like ``tfds.load('imdb_reviews', with_info=True,
    as_supervised=True)``: short reviews (four common words and two of their class)."""
    rng = np.random.RandomState(24)
    words = _pseudo_words(rng, 400)
    out = {}
    for split, n in (("train", n_train), ("test", n_test)):
        labels = rng.randint(0, 2, size=n).astype(np.int64)
        texts = np.array([_review(rng, words, [], words[300 + 40 * int(y):340 + 40 * int(y)],
                                  common=4, leaning=2) for y in labels])
        out[split] = tf.data.Dataset.from_tensor_slices((texts, labels))
    return out, _Info(n_train, n_test)


def synthetic_imdb(root, n_train=40, n_test=16):
    """Write the IMDB-shaped folder under ``root`` ('aclImdb_v1/aclImdb/...'); its path."""
    import os

    rng = np.random.RandomState(21)
    words = _pseudo_words(rng, 2000)
    leans = {"pos": words[300:340], "neg": words[340:380]}
    base = os.path.join(root, "aclImdb_v1")
    k = 380
    for split, n in (("train", n_train), ("test", n_test)):
        for label in ("neg", "pos", "unsup") if split == "train" else ("neg", "pos"):
            folder = os.path.join(base, "aclImdb", split, label)
            os.makedirs(folder)
            count = 2 if label == "unsup" else n
            for i in range(count):
                own = words[k:k + 25] if split == "train" else list(rng.choice(words, 10))
                k = k + 25 if split == "train" and k + 50 <= len(words) else 380 if \
                    split == "train" else k
                name = "1181_9.txt" if (split, label, i) == ("train", "pos", 0) \
                    else f"{i * 37 % 1000}_{1 + i % 10}.txt"
                with open(os.path.join(folder, name), "w") as f:
                    f.write(_review(rng, words, own, leans.get(label, words[:40])))
    return base


PETFINDER_STRINGS = {
    "Type": ("Cat", "Dog"), "Breed1": ("Tabby", "Mixed Breed", "Domestic Short Hair", "Poodle"),
    "Gender": ("Male", "Female", "Mixed"), "Color1": ("Black", "Brown", "Golden", "White"),
    "Color2": ("No Color", "White", "Brown", "Cream"), "MaturitySize": ("Small", "Medium",
                                                                        "Large"),
    "FurLength": ("Short", "Medium", "Long"), "Vaccinated": ("No", "Yes", "Not Sure"),
    "Sterilized": ("No", "Yes", "Not Sure"), "Health": ("Healthy", "Minor Injury")}


def synthetic_petfinder(n=60):
    """PetFinder-mini-shaped columns (the CSV the preprocessing layers tutorial reads with
    pandas), as a dict of NumPy columns in the CSV's order: string columns as object arrays,
    Age, Fee, PhotoAmt and AdoptionSpeed int64, a short Description; younger pets with more
    photos are adopted sooner."""
    rng = np.random.RandomState(33)
    cols = {"Type": None, "Age": rng.choice([1, 2, 3, 4, 6, 12, 24, 36], size=n)}
    for name, values in PETFINDER_STRINGS.items():
        cols[name] = np.array([values[i] for i in rng.randint(0, len(values), size=n)],
                              dtype=object)
    cols["Fee"] = rng.choice([0, 0, 0, 50, 100, 200], size=n)
    cols["Description"] = np.array(["a friendly pet"] * n, dtype=object)
    cols["PhotoAmt"] = rng.randint(0, 8, size=n)
    speed = np.clip(4 - cols["PhotoAmt"] // 2 + (cols["Age"] > 6), 0, 4)
    cols["AdoptionSpeed"] = np.where(rng.uniform(size=n) < 0.2, rng.randint(0, 5, size=n),
                                     speed)
    return {k: np.asarray(v).astype(np.int64) if v.dtype != object else v
            for k, v in cols.items()}
