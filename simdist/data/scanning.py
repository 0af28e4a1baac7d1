"""``Dataset.scan``: a running state carried through the elements.

Glossary:
  scan_func      -- ``scan_func(state, element) -> (new_state, output)``; the dataset yields
                    the outputs, the state carries on to the next element.
  state spec     -- the initial state's (a Python number converts as TF converts it:
                    ``0`` is an int32 scalar). The new state must keep its dtypes (TF's
                    TypeError); a new state whose shape differs weakens the state's shape
                    (the differing dims unknown) and the function is traced again -- its
                    Python runs once per trace, as in TF.
  structure      -- the new state is read in the initial state's structure, leaf by leaf
                    (TF compares the flattened dtypes only, pairwise). A new state of more
                    or fewer components is not refused when the dataset is made: TF's
                    kernel fails at the first element, splitting the function's flat
                    results at the initial state's count -- more: InvalidArgumentError
                    ("Got wrong type for scan_func return value <n>", its expected dtype
                    read past the end of TF's list), fewer: InternalError ("Expected <m>
                    components but got <k>.").
Cardinality is the input's (TF's ``preserve_cardinality``).

Mirrors tensorflow/python/data/ops/scan_op.py.
"""

from __future__ import annotations

from simdist.data import structure
from simdist.data.dataset_ops import DatasetV2, outside_the_graph
from simdist.data.structured_function import StructuredFunction, check_callable
from simdist.framework import errors
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.tensor_spec import TensorSpec


def _legacy_types(spec):
    """The dtypes of a spec, as TF's ``output_types`` prints them."""
    return structure.map_leaves(lambda s: s.dtype, spec)


class ScanDataset(DatasetV2):
    """The outputs of ``scan_func`` over the elements, carrying a state."""

    @outside_the_graph
    def __init__(self, input_dataset, initial_state, scan_func):
        check_callable(scan_func)
        self._initial = structure.to_values(initial_state)
        state_spec = structure.spec_of(self._initial)
        while True:   # trace until the state's shapes reach a fixed point (as TF)
            fn = StructuredFunction(scan_func, (state_spec, input_dataset.element_spec),
                                    "scan_function")
            out_spec = fn.output_spec if fn.traced else self._eager_spec(
                fn, input_dataset)
            if out_spec is None:   # run eagerly on an empty input: nothing to read it off
                out_spec = (state_spec, TensorSpec(None, "float32"))
            if not (isinstance(out_spec, tuple) and len(out_spec) == 2):
                raise TypeError("Invalid `scan_func`. `scan_func` should return a pair "
                                "consisting of new state and the output value but its "
                                f"return type is {out_spec}.")
            new_spec, element_spec = out_spec
            old, new = structure.flatten(state_spec), structure.flatten(new_spec)
            if any(a.dtype != b.dtype for a, b in zip(old, new)):
                raise TypeError(
                    "Invalid `scan_func`. The element types for the new state must match "
                    f"the initial state. Expected {_legacy_types(state_spec)}, got "
                    f"{_legacy_types(new_spec)}.")
            weakened = [a.shape.most_specific_compatible_shape(b.shape)
                        for a, b in zip(old, new)]
            if all(a.shape.rank is None or (w.rank is not None and
                                            a.shape.as_list() == w.as_list())
                   for a, w in zip(old, weakened)):
                break
            if len(weakened) != len(old):   # TF packs the weakened shapes the same way
                raise ValueError(
                    f"Could not pack sequence. Argument `structure` had {len(old)} elements, "
                    f"but argument `flat_sequence` had {len(weakened)} elements. Received "
                    f"structure: {structure.map_leaves(lambda s: s.shape, state_spec)}, "
                    f"flat_sequence: {weakened}.")
            state_spec = structure.pack(state_spec, [
                TensorSpec(TensorShape(w), a.dtype) for a, w in zip(old, weakened)])
        self._function = fn
        self._captured = fn.captured
        self._state_sizes = (len(old), len(new), len(structure.flatten(element_spec)))
        super().__init__((input_dataset,), element_spec)

    def _check_state_size(self, new_state) -> None:
        """TF's kernel on a new state of another component count than the initial state's
        (see the module docstring).

        Raises:
          InvalidArgumentError: more components.
          InternalError: fewer.
        """
        old, new, outputs = self._state_sizes
        if new > old:
            got = structure.flatten(new_state)[old]
            raise errors.InvalidArgumentError(
                None, None, f"Got wrong type for scan_func return value {old + outputs} "
                            f"(expected no value, got {structure.spec_of(got).dtype.name}): "
                            f"scan_func returned a new state of {new} components where the "
                            f"initial state has {old}; return a new state of the initial "
                            "state's structure.")
        if new < old:
            raise errors.InternalError(
                None, None, f"Expected {outputs} components but got {outputs - (old - new)}."
                            f"\nscan_func returned a new state of {new} components where "
                            f"the initial state has {old}; return a new state of the "
                            "initial state's structure.")

    def _eager_spec(self, fn, input_dataset):
        """The output spec of a function run eagerly: read off its first output."""
        first = next(iter(input_dataset._values()), None)
        if first is None:
            return None
        out = fn((self._initial, first))
        return structure.spec_of(out)

    def _cardinality(self) -> int:
        return self._inputs[0]._cardinality()

    def _values(self):
        state = self._initial
        fn = self._function
        for values in self._inputs[0]._values():
            new_state, output = fn((state, values))
            if self._state_sizes[0] != self._state_sizes[1]:
                self._check_state_size(new_state)
            state = structure.pack(self._initial, structure.flatten(new_state))
            yield output
