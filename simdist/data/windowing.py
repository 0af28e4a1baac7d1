"""``Dataset.window``: elements grouped into windows, each window a dataset of its own.

Glossary:
  window        -- ``size`` input elements taken ``stride`` apart; a new window starts
                   every ``shift`` elements (default ``size``). The last windows are partial
                   unless ``drop_remainder``.
  structure     -- a structured element gives a structure of datasets: one per component
                   (``zip((a, b)).window(2)``: a pair of datasets), as TF's WindowDataset.
  DatasetSpec   -- the spec of a dataset-valued component: its element spec and the shape of
                   the dataset "tensor" (``TensorShape([])``).
  ElementsDataset -- a dataset of given elements (a window, or a group of
                   ``group_by_window``); with no elements, what a traced function receives
                   for a dataset argument.
The usual next step is ``flat_map(lambda w: w.batch(size))``.

Mirrors tensorflow/python/data/ops/window_op.py and
tensorflow/core/kernels/data/window_dataset_op.cc.
"""

from __future__ import annotations

import itertools

from simdist.data import structure
from simdist.data.dataset_ops import DatasetV2, int64_argument
from simdist.framework import errors
from simdist.framework.tensor_shape import TensorShape


class DatasetSpec:
    """The spec of a dataset-valued component (``tf.data.DatasetSpec``)."""

    def __init__(self, element_spec, dataset_shape=()):
        self.element_spec = element_spec
        self._dataset_shape = TensorShape(dataset_shape)

    @property
    def shape(self) -> TensorShape:
        return self._dataset_shape

    def __eq__(self, other):
        return isinstance(other, DatasetSpec) and other.element_spec == self.element_spec \
            and other._dataset_shape == self._dataset_shape

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"DatasetSpec({self.element_spec!r}, {self._dataset_shape!r})"


class ElementsDataset(DatasetV2):
    """The given elements (structures of arrays), in order."""

    _tf_name = "_VariantDataset"   # a window's component, as TF hands it to a function

    def __init__(self, elements, element_spec):
        super().__init__((), element_spec)
        self._elements = elements

    def _cardinality(self) -> int:
        return len(self._elements)

    def _values(self):
        yield from self._elements


def _window_arg(value, what: str) -> int:
    n = int64_argument(value)
    if n <= 0:
        raise errors.InvalidArgumentError(
            None, None, f"Window {what} must be greater than zero. [Op:WindowDataset]")
    return n


class WindowDataset(DatasetV2):
    """Windows of ``size`` elements, ``stride`` apart, starting every ``shift``."""

    def __init__(self, input_dataset, size, shift=None, stride=1, drop_remainder=False):
        self._size = _window_arg(size, "size")
        self._shift = _window_arg(self._size if shift is None else shift, "shift")
        self._stride = _window_arg(stride, "stride")
        self._drop = bool(drop_remainder)
        spec = structure.map_leaves(DatasetSpec, input_dataset.element_spec)
        super().__init__((input_dataset,), spec)

    def _cardinality(self) -> int:
        n = self._inputs[0]._cardinality()
        if n < 0:
            return n
        if not self._drop:
            return -(-n // self._shift)
        span = (self._size - 1) * self._stride + 1
        return 0 if n < span else (n - span) // self._shift + 1

    def _values(self):
        spec = self._inputs[0].element_spec
        leaves = structure.flatten(spec)
        buffer: list = []   # the input elements from the current window's start on
        it = self._inputs[0]._values()
        span = (self._size - 1) * self._stride + 1
        ended = False
        while True:
            if not ended:
                buffer.extend(itertools.islice(it, span - len(buffer)))
                ended = len(buffer) < span
            if not buffer or (self._drop and len(buffer) < span):
                return
            window = buffer[:span:self._stride]
            flats = [structure.flatten(e) for e in window]
            yield structure.pack(spec, [ElementsDataset([f[c] for f in flats], s)
                                        for c, s in enumerate(leaves)])
            if self._shift < len(buffer):
                del buffer[:self._shift]
            else:   # the next window starts past what was read: skip the gap
                skip = self._shift - len(buffer)
                buffer = []
                if ended or sum(1 for _ in itertools.islice(it, skip)) < skip:
                    return
