"""``tf.keras.datasets``: the modules of Keras's downloadable datasets, whose ``load_data``
simdist refuses (it downloads nothing).

Glossary:
  load_data -- Keras downloads the dataset's file from its origin (or reads it from
               ``~/.keras/datasets``); simdist raises NotImplementedError naming that
               origin and what to do instead: load the arrays yourself (NumPy, any loader)
               and pass them on, as ``tf.keras.datasets`` would return them.

Mirrors tf_keras/src/datasets/ (mnist.py, fashion_mnist.py, cifar10.py, cifar100.py).
"""

from __future__ import annotations

import types

# module -> (what load_data returns, the file Keras downloads)
_DATASETS = {
    "mnist": ("(x_train, y_train), (x_test, y_test): uint8 images (N, 28, 28), uint8 labels",
              "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz"),
    "fashion_mnist": ("(x_train, y_train), (x_test, y_test): uint8 images (N, 28, 28), uint8 "
                      "labels", "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
                                "train-images-idx3-ubyte.gz (and its three companions)"),
    "cifar10": ("(x_train, y_train), (x_test, y_test): uint8 images (N, 32, 32, 3), uint8 "
                "labels (N, 1)", "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"),
    "cifar100": ("(x_train, y_train), (x_test, y_test): uint8 images (N, 32, 32, 3), int64 "
                 "labels (N, 1)", "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz"),
}


def _refusing_load_data(name, returns, origin):
    def load_data(*args, **kwargs):
        """Refused: simdist downloads nothing (see the module glossary).

        Raises:
          NotImplementedError: always, naming the file Keras would download.
        """
        raise NotImplementedError(
            f"tf.keras.datasets.{name}.load_data() downloads {origin}; simdist downloads "
            f"nothing. Load the data yourself and pass the arrays on: load_data returns "
            f"{returns}.")
    return load_data


def _module(name, returns, origin):
    module = types.ModuleType(f"{__name__}.{name}", f"``tf.keras.datasets.{name}``.")
    module.load_data = _refusing_load_data(name, returns, origin)
    return module


mnist = _module("mnist", *_DATASETS["mnist"])
fashion_mnist = _module("fashion_mnist", *_DATASETS["fashion_mnist"])
cifar10 = _module("cifar10", *_DATASETS["cifar10"])
cifar100 = _module("cifar100", *_DATASETS["cifar100"])
