"""Turn ``fit``'s inputs (arrays, tensors, datasets) into batches for each step.

Glossary:
  DataHandler     -- one epoch = one pass over the batches (or ``steps_per_epoch`` steps);
                     an infinite Dataset without steps, or no batches at all, is refused
                     at once with Keras's ValueError;
                     arrays are batched with the *global* ``batch_size`` (default 32) and
                     shuffled each epoch when ``shuffle=True``, a Dataset is used as given.
  distribute      -- arrays become a batched Dataset too (as Keras does), and under a
                     strategy with several replicas every Dataset goes through
                     ``strategy.experimental_distribute_dataset``, which splits each global
                     batch exactly as TF does.
  composite data  -- arrays holding a Sparse- or RaggedTensor become a Dataset of their rows in
                     batches (Keras's CompositeTensorDataAdapter).
  unpack_x_y_sample_weight -- ``(x,)``, ``(x, y)`` or ``(x, y, sample_weight)``.

Mirrors keras/src/engine/data_adapter.py.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from simdist.data import INFINITE_CARDINALITY, Dataset, DatasetV2, shuffling
from simdist.framework import errors, nest
from simdist.framework.ops import random_ops
from simdist.framework.ragged_tensor import RaggedTensor
from simdist.framework.sparse_tensor import SparseTensor
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_spec import TensorSpec
from simdist.keras.engine import class_weights


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
                 epochs=1, shuffle=False, strategy=None, class_weight=None):
        self._strategy = strategy
        self._epochs = epochs
        self._iterator = None
        if not _is_dataset(x) and any(isinstance(a, (SparseTensor, RaggedTensor))
                                      for a in nest.flatten((x, y, sample_weight))):
            x, y, sample_weight = _composite_dataset(x, y, sample_weight, batch_size,
                                                     shuffle), None, None
        if _is_dataset(x):
            if y is not None:
                raise ValueError("`y` argument is not supported when using dataset as "
                                 "input.")
            # Keras ignores batch_size for a Dataset: its batches are its own.
            # Keras's `if class_weight:` (an empty dict weighs nothing)
            self._dataset = x.map(class_weights.class_weight_fn(
                class_weight, x.element_spec)) if class_weight else x
            self._arrays = None
            n = int(x.cardinality())
            if steps_per_epoch is None and n == INFINITE_CARDINALITY:
                # Keras's DatasetAdapter: refused before anything runs (it would never end).
                raise ValueError(
                    "When providing an infinite dataset, you must specify the number of "
                    "steps to run (if you did not intend to create an infinite dataset, make "
                    "sure to not call `repeat()` on the dataset).")
            self._inferred = n if n >= 0 else None
            # A new iterator each epoch, unless steps_per_epoch cuts the dataset short.
            self._recreate = steps_per_epoch is None or steps_per_epoch == self._inferred
        else:
            x, y, sample_weight = (_lists_to_tuples(a) for a in (x, y, sample_weight))
            arrays = tuple(a for a in (x, y, sample_weight) if a is not None)
            self._arrays = nest.map_structure(_host, arrays)
            _check_data_cardinality((x, y, sample_weight), self._arrays)
            # Keras maps the class weights over the batches: a bad label fails its batch
            self._n = len(nest.flatten(self._arrays)[0])
            self._batch_size = batch_size or 32
            self._class_weights = class_weights.class_weight_fn(
                class_weight, self._batch_spec(), parallel=False) if class_weight else None
            self._shuffle = shuffle
            # Keras draws each pass's order with tf.random.shuffle in a dataset function
            # traced now: seeds (global seed now, op seed 0), one kernel for all passes.
            self._order = random_ops.FunctionRandomState()
            with random_ops.function_scope(self._order):   # traced here: today's seed
                pass
            self._orders: list = []
            self._dataset = None
            self._inferred = math.ceil(self._n / self._batch_size)
            # One stream of `epochs` passes (each reshuffled), as Keras's array adapter: a
            # steps_per_epoch that is not a whole pass carries on into the next pass.
            self._recreate = False
        self.steps = steps_per_epoch if steps_per_epoch is not None else self._inferred
        # Whether every batch is full: TF's dataset then has a static batch size, and the
        # step functions trace with it (else the batch dimension is None).
        self.static_batch = (self._n % self._batch_size == 0 if self._arrays is not None
                             else _static_batch(self._dataset.element_spec))
        if self.steps == 0:
            raise ValueError("Expected input data to be non-empty.")
        self.insufficient_data = False
        self.ran_out = False

    def _batch_spec(self):
        """The spec of the arrays' batches: a batch size only when every batch is full."""
        size = self._batch_size if self._n % self._batch_size == 0 else None
        return nest.map_structure(
            lambda a: TensorSpec((size,) + a.shape[1:], a.dtype), self._arrays)

    def _pass_order(self, i: int) -> np.ndarray:
        """The order of pass ``i``: ``tf.random.shuffle(tf.range(n))``, the i-th call of
        the permutation function Keras maps over ``range(1).repeat(epochs)``."""
        if self._shuffle == "batch":   # Keras shuffles within batches: not TF's numbers
            idx = np.arange(self._n)
            for start in range(0, self._n, self._batch_size):
                random_ops._generator(None).shuffle(idx[start:start + self._batch_size])
            return idx
        while len(self._orders) <= i:
            with random_ops.function_scope(self._order):
                order = random_ops.shuffle(np.arange(self._n, dtype=np.int64))
            self._orders.append(np.asarray(order.numpy()))
        return self._orders[i]

    def _array_dataset(self, i: int = 0):
        """Pass ``i``'s arrays (reshuffled when asked) as a Dataset of global batches."""
        idx = self._pass_order(i) if self._shuffle else np.arange(self._n)
        arrays = nest.map_structure(lambda a: a[idx], self._arrays)
        ds = Dataset.from_tensor_slices(arrays).batch(self._batch_size)
        return ds if self._class_weights is None else ds.map(self._class_weights)

    def _distributed(self, ds):
        s = self._strategy
        if s is None or s.num_replicas_in_sync == 1:
            return iter(ds)
        return iter(s.experimental_distribute_dataset(ds))

    def _array_passes(self):
        for i in range(self._epochs):
            yield from self._distributed(self._array_dataset(i))

    def epoch_iterator(self, initial_step=0, on_error=None):
        """Yield (step, batch) for one epoch, counting from ``initial_step`` (a resumed
        epoch's data still starts at its first batch, as in Keras). ``on_error(e)``: the
        error to raise for a kernel error of the input pipeline (TF reads the batches
        inside the traced step function: its graph execution error)."""
        if self._iterator is None and self._recreate:
            # TF's enumerate_epochs makes an iterator before the first epoch and a new one
            # as that epoch begins (the dataset is iterated afresh each epoch): the first
            # is never read, but a shuffle has drawn its seeds for it.
            shuffling.unread_pass(self._dataset)
        if self._iterator is None or self._recreate:
            self._iterator = (self._array_passes() if self._arrays is not None
                              else self._distributed(self._dataset))
        step = initial_step
        self.ran_out = False
        while self.steps is None or step < self.steps:
            try:
                batch = next(self._iterator)
            except errors.OpError as e:
                if on_error is None:
                    raise
                raise on_error(e) from None
            except StopIteration:
                self.ran_out = True  # a compiled step found the end (see Model.fit)
                if self.steps is not None:
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



def _static_batch(element_spec) -> bool:
    leaves = nest.flatten(element_spec)
    return bool(leaves) and all(getattr(s, "shape", None) is not None and s.shape.rank
                                and s.shape[0] is not None for s in leaves)


def _composite_dataset(x, y, sample_weight, batch_size, shuffle):
    """Arrays holding a composite tensor as Keras's CompositeTensorDataAdapter batches them:
    a Dataset of their rows (shuffled whole when ``shuffle``), in batches of
    ``batch_size`` (32)."""
    data = tuple(a for a in (x, y, sample_weight) if a is not None)
    dataset = Dataset.from_tensor_slices(data if len(data) > 1 else data[0])
    if shuffle:
        first = nest.flatten(data)[0]
        dataset = dataset.shuffle(int(first.shape[0]))
    return dataset.batch(batch_size or 32)


def _lists_to_tuples(value):
    """A list of arrays (several inputs or outputs) as a tuple, as Keras's
    ``list_to_tuple``; a list of numbers stays one array."""
    if isinstance(value, list) and any(
            isinstance(v, (np.ndarray, Tensor, list, tuple, dict)) or hasattr(v, "numpy")
            for v in value) and not _is_rectangular_numbers(value):
        return tuple(_lists_to_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _lists_to_tuples(v) for k, v in value.items()}
    return value


def _is_rectangular_numbers(value) -> bool:
    """Nested Python lists of numbers (one array), not a list of arrays."""
    return all(isinstance(v, list) and _is_rectangular_numbers(v) if isinstance(v, list)
               else isinstance(v, (int, float, bool, np.generic)) for v in value)


def _check_data_cardinality(data, arrays):
    """Keras's error when x, y and sample_weight have different numbers of rows."""
    if len({len(a) for a in nest.flatten(arrays)}) > 1:
        msg = "Data cardinality is ambiguous:\n"
        for label, single in zip(("x", "y", "sample_weight"), data):
            if single is not None:
                sizes = ", ".join(str(len(_host(a))) for a in nest.flatten(single))
                msg += f"  {label} sizes: {sizes}\n"
        raise ValueError(msg + "Make sure all arrays contain the same number of samples.")


