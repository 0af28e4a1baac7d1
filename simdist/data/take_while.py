"""``Dataset.take_while``: the elements up to the first one ``predicate`` rejects.

Glossary:
  predicate  -- traced as ``filter``'s (simdist.data.mapping.FilterDataset): a ``tf.bool``
                scalar or TF's ValueError when the dataset is made.
  stop       -- the first ``False`` ends the dataset (an infinite input too); cardinality
                unknown (-2), as TF's.

Mirrors tensorflow/python/data/ops/take_while_op.py.
"""

from __future__ import annotations

from simdist.data.mapping import FilterDataset


class TakeWhileDataset(FilterDataset):
    """The elements while ``predicate`` holds."""

    _function_name = "take_while_predicate"
    _NOT_A_PREDICATE = ("Invalid `predicate`. `predicate` must return a `tf.bool` scalar "
                        "tensor but its return type is{}.")

    def _values(self):
        fn = self._function
        for values in self._inputs[0]._values():
            if not self._check(fn(values)):
                return
            yield values
