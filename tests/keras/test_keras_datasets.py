"""``tf.keras.datasets``: the modules TF's tutorials import exist, and their ``load_data``
refuses with NotImplementedError naming the file Keras would download (simdist downloads
nothing)."""

import re

import pytest

import simdist as tf


@pytest.mark.parametrize("name, origin", [("mnist", "mnist.npz"),
                                          ("fashion_mnist", "train-images-idx3-ubyte.gz"),
                                          ("cifar10", "cifar-10-python.tar.gz"),
                                          ("cifar100", "cifar-100-python.tar.gz")])
def test_load_data_refuses_to_download(name, origin):
    module = getattr(tf.keras.datasets, name)
    with pytest.raises(NotImplementedError, match=re.escape(origin) + ".*simdist downloads"):
        module.load_data()


def test_tutorial_import_line_works():
    from simdist.keras import datasets, layers, models  # cnn.ipynb's line, under simdist

    assert datasets.cifar10.__name__ == "simdist.keras.datasets.cifar10"
    assert layers.Conv2D is tf.keras.layers.Conv2D and models.Sequential is tf.keras.Sequential
