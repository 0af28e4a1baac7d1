"""``Dataset.choose_from_datasets``: elements taken from the datasets a choice dataset names.

Glossary:
  choice_dataset -- scalar ``tf.int64`` elements, each the index of the dataset the next
                    element comes from (TF's TypeError otherwise; an index past the list
                    is TF's InvalidArgumentError "Selector index out of range" when read).
  stop_on_empty_dataset -- True (``Dataset``'s default): a chosen dataset that has ended
                    ends the result; False (the experimental endpoint's): that choice is
                    skipped, and the result ends when the choices or all datasets do.
  element_spec   -- the datasets' most specific common spec (TF's TypeError when none).
  cardinality    -- infinite when one of the datasets is, else unknown (TF's kernel).

Mirrors tensorflow/python/data/ops/choose_from_datasets_op.py and directed_interleave_op.py.
"""

from __future__ import annotations

from simdist.data import structure
from simdist.data.dataset_ops import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, DatasetV2
from simdist.framework import dtypes, errors
from simdist.framework.tensor_spec import TensorSpec

_CHOICE = TensorSpec([], dtypes.int64)


class DirectedInterleaveDataset(DatasetV2):
    """The element of ``datasets[i]`` for each ``i`` of ``selector``."""

    def __init__(self, selector, datasets, stop_on_empty_dataset):
        self._stop = bool(stop_on_empty_dataset)
        super().__init__((selector, *datasets), _common_spec(datasets))

    def _cardinality(self) -> int:
        if any(d._cardinality() == INFINITE_CARDINALITY for d in self._inputs[1:]):
            return INFINITE_CARDINALITY
        return UNKNOWN_CARDINALITY

    def _values(self):
        streams = [d._values() for d in self._inputs[1:]]
        active = [True] * len(streams)
        for choice in self._inputs[0]._values():
            i = int(choice)
            if not 0 <= i < len(streams):
                raise errors.InvalidArgumentError(
                    None, None, f"Selector index out of range: {i} >= {len(streams)}")
            if not active[i]:
                continue
            try:
                yield next(streams[i])
            except StopIteration:
                if self._stop:
                    return
                active[i] = False
                if not any(active):
                    return


def _common_spec(datasets):
    spec = datasets[0].element_spec
    for i, d in enumerate(datasets[1:]):
        try:
            structure.assert_same_structure(spec, d.element_spec)
            if any(a.dtype != b.dtype for a, b in zip(structure.flatten(spec),
                                                       structure.flatten(d.element_spec))):
                raise TypeError("no common dtype")
            spec = structure.relax_spec(spec, d.element_spec)
        except TypeError:
            raise TypeError(
                "Invalid `datasets`. `datasets` must have compatible element specs.\n Dataset "
                f"0 element_spec={datasets[0].element_spec}.\nDataset {i + 1} "
                f"element_spec={d.element_spec}.") from None
    return spec


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    """``Dataset.choose_from_datasets`` (TF's checks, then the dataset)."""
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    if not isinstance(choice_dataset, DatasetV2):
        raise TypeError("Invalid `choice_dataset`. `choice_dataset` should be a "
                        f"`tf.data.Dataset` but is {type(choice_dataset)}.")
    spec = choice_dataset.element_spec
    if not isinstance(spec, TensorSpec) or spec.dtype != dtypes.int64 or \
            not spec.shape.is_compatible_with([]):
        raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be "
                        f"scalar `tf.int64` tensors but are {spec}.")
    return DirectedInterleaveDataset(choice_dataset, list(datasets), stop_on_empty_dataset)
