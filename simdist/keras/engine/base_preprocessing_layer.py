"""``PreprocessingLayer``: a layer whose state is learned from data by ``adapt``.

Glossary:
  adapt         -- ``reset_state()`` (of a built layer), then ``update_state(batch)`` for
                   each batch of the data (a ``tf.data.Dataset`` of batches, or an array /
                   list / tensor cut into ``batch_size`` rows, 32 when None, as Keras's
                   DataHandler), then ``finalize_state()``; ``steps`` limits the batches.
  is_adapted    -- whether ``adapt`` has run since the layer was made.
  build         -- ``adapt`` builds the layer from the first batch's shape (its first
                   dimension unknown), as Keras's ``_adapt_maybe_build``.

Mirrors tf_keras/src/engine/base_preprocessing_layer.py.
"""

from __future__ import annotations

import itertools

import numpy as np

from simdist.data import shuffling
from simdist.framework import execute
from simdist.framework.ops import array_ops as A
from simdist.keras.engine.base_layer import Layer


class PreprocessingLayer(Layer):
    """Base class of the layers with ``adapt`` (``tf.keras.layers.experimental.
    preprocessing.PreprocessingLayer``)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._is_adapted = False

    @property
    def is_adapted(self) -> bool:
        return self._is_adapted

    def update_state(self, data):
        raise NotImplementedError

    def reset_state(self):
        raise NotImplementedError

    def adapt(self, data, batch_size=None, steps=None):
        """Learn the layer's state from ``data`` (see the module glossary).

        Raises:
          ValueError: ``steps`` that is not a positive integer.
        """
        if steps is not None and (not isinstance(steps, int) or steps <= 0):
            raise ValueError(f"`steps` must be a positive integer. Received: steps={steps}")
        if self.built:
            self.reset_state()
        batches = _batches(data, batch_size, steps)
        if steps is not None:
            batches = itertools.islice(batches, steps)
        for batch in batches:
            if not self.built:
                if self._batch_input_shape is None:  # the rank, as Keras's adapt sets it
                    self._batch_input_shape = (None,) * batch.ndim
                self.build((None,) + tuple(batch.shape)[1:] if batch.ndim else ())
                self.built = True
            self.update_state(batch)
        self.finalize_state()
        self._is_adapted = True


def _batches(data, batch_size, steps=None):
    """The batches ``adapt`` reads: a Dataset's elements, or ``data`` cut into rows."""
    if hasattr(data, "element_spec") and hasattr(data, "__iter__"):  # a tf.data.Dataset
        # Keras's DataHandler makes an iterator before the epoch and another as it begins
        # (unless ``steps`` cuts the dataset short): a reshuffling shuffle draws the seeds
        # of the unread one too
        if steps is None or steps == int(data.cardinality()):
            shuffling.unread_pass(data)
        yield from (execute.convert_to_tensor(b) for b in data)
        return
    t = execute.convert_to_tensor(np.asarray(data) if isinstance(data, np.ndarray) else data)
    if t.ndim == 0:  # TF's DataHandler reads shape[0] and fails there with an IndexError
        raise IndexError(f"adapt's data is a batch of examples cut along its first "
                         f"dimension; got a scalar ({t.numpy()!r}, shape ()). Give a list or "
                         "array of examples, e.g. [value].")
    batch_size = batch_size or 32
    for start in range(0, t.shape[0], batch_size):
        yield A.strided_slice(t, slice(start, start + batch_size))
