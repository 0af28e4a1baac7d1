"""``tf.data.experimental.assert_cardinality``: a dataset that says how many elements it has.

Glossary:
  expected     -- the cardinality the dataset then reports (-1 for infinite), before any
                  element is read (a filter's unknown count made known).
  check        -- at iteration, an element past ``expected`` or an end before it is TF's
                  FailedPreconditionError ("Input dataset was expected to contain 3
                  elements but contained only 2 elements."); the elements before it come.

Mirrors tensorflow/python/data/experimental/ops/cardinality.py (_AssertCardinalityDataset)
and its kernel's texts (assert_cardinality_dataset_op.cc).
"""

from __future__ import annotations

from simdist.data.dataset_ops import INFINITE_CARDINALITY, DatasetV2
from simdist.framework import errors


def _elements(n: int) -> str:
    if n == INFINITE_CARDINALITY:
        return "an infinite number of elements"
    return f"{n} element" + ("" if n == 1 else "s")


class AssertCardinalityDataset(DatasetV2):
    """The input's elements, checked to number ``expected``."""

    def __init__(self, input_dataset, expected: int):
        super().__init__((input_dataset,), input_dataset.element_spec)
        self._expected = expected

    def _cardinality(self) -> int:
        return self._expected

    def _fail(self, what: str):
        return errors.FailedPreconditionError(
            None, None, f"Input dataset was expected to contain {_elements(self._expected)} "
                        f"but contained {what}.")

    def _values(self):
        n = 0
        for value in self._inputs[0]._values():
            n += 1
            if 0 <= self._expected < n:
                raise self._fail(f"at least {_elements(n)}")
            yield value
        if n != self._expected:
            raise self._fail(f"only {_elements(n)}")


def assert_cardinality(expected_cardinality):
    """A transformation for ``Dataset.apply`` (``tf.data.experimental.assert_cardinality``)."""
    from simdist.framework import dtypes
    from simdist.framework.ops import array_ops

    expected = int(array_ops.convert_to_tensor(expected_cardinality, dtype=dtypes.int64))
    return lambda dataset: AssertCardinalityDataset(dataset, expected)
