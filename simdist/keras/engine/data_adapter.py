"""Turn ``fit``'s inputs (arrays, tensors, datasets) into batches for each step.

Glossary:
  DataHandler     -- one epoch = one pass over the batches (or ``steps_per_epoch`` steps);
                     arrays are batched with the *global* ``batch_size`` (default 32) and
                     shuffled each epoch when ``shuffle=True``, a Dataset is used as given.
  distribute      -- arrays become a batched Dataset too (as Keras does), and under a
                     strategy with several replicas every Dataset goes through
                     ``strategy.experimental_distribute_dataset``, which splits each global
                     batch exactly as TF does.
  unpack_x_y_sample_weight -- ``(x,)``, ``(x, y)`` or ``(x, y, sample_weight)``.

Mirrors keras/src/engine/data_adapter.py.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from simdist.data import Dataset, DatasetV2
from simdist.framework import nest
from simdist.framework.tensor import Tensor


def unpack_x_y_sample_weight(data):
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) == 1:
        return data[0], None, None
    if len(data) == 2:
        return data[0], data[1], None
    if len(data) == 3:
        return data
    raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
                     f"`(x, y, sample_weight)`, found: {data}")


def _is_dataset(x) -> bool:
    return isinstance(x, DatasetV2)


def _host(x):
    if isinstance(x, Tensor) or hasattr(x, "numpy"):
        return np.asarray(x.numpy())
    return np.asarray(x)


class DataHandler:
    """Batches for each epoch of ``fit``/``evaluate``/``predict``."""

    def __init__(self, x, y=None, sample_weight=None, batch_size=None, steps_per_epoch=None,
                 epochs=1, shuffle=False, strategy=None):
        self._strategy = strategy
        self._steps_per_epoch = steps_per_epoch
        self._iterator = None
        if _is_dataset(x):
            if y is not None:
                raise ValueError("`y` argument is not supported when using dataset as "
                                 "input.")
            if batch_size is not None:
                raise ValueError("The `batch_size` argument must not be specified for the "
                                 "given input type. Received input: "
                                 f"{x}, batch_size: {batch_size}")
            self._dataset = x
            self._arrays = None
            n = int(x.cardinality())
            self._inferred = n if n >= 0 else None
        else:
            arrays = tuple(a for a in (x, y, sample_weight) if a is not None)
            self._arrays = nest.map_structure(_host, arrays)
            self._n = len(nest.flatten(self._arrays)[0])
            self._batch_size = batch_size or 32
            self._shuffle = shuffle
            self._dataset = None
            self._inferred = math.ceil(self._n / self._batch_size)
        self.steps = steps_per_epoch if steps_per_epoch is not None else self._inferred
        # Keras keeps one iterator across epochs when steps_per_epoch is given and differs
        # from the dataset's size (so a short dataset runs out and training stops).
        self._recreate = steps_per_epoch is None or steps_per_epoch == self._inferred
        self.insufficient_data = False

    def _array_dataset(self):
        """This epoch's arrays (reshuffled when asked) as a Dataset of global batches."""
        idx = np.arange(self._n)
        if self._shuffle:
            from simdist.framework.ops import random_ops

            idx = random_ops._generator(None).permutation(self._n)
        arrays = nest.map_structure(lambda a: a[idx], self._arrays)
        return Dataset.from_tensor_slices(arrays).batch(self._batch_size)

    def _distributed(self):
        ds = self._array_dataset() if self._arrays is not None else self._dataset
        s = self._strategy
        if s is None or s.num_replicas_in_sync == 1:
            return iter(ds)
        return iter(s.experimental_distribute_dataset(ds))

    def epoch_iterator(self):
        """Yield (step, batch) for one epoch."""
        if self._iterator is None or self._recreate:
            self._iterator = self._distributed()
        step = 0
        while self.steps is None or step < self.steps:
            try:
                batch = next(self._iterator)
            except StopIteration:
                if self._steps_per_epoch is not None and not self._recreate:
                    warnings.warn(
                        "Your input ran out of data; interrupting training. Make sure that "
                        "your dataset or generator can generate at least `steps_per_epoch * "
                        "epochs` batches. You may need to use the `.repeat()` function when "
                        "building your dataset.", stacklevel=2)
                    self.insufficient_data = True
                break
            yield step, batch
            step += 1
        if self.steps is None:
            self.steps = step

