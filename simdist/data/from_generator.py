"""``Dataset.from_generator``: elements produced by a Python generator.

Glossary:
  output_signature -- a structure of ``TensorSpec`` (dims may be None, a rank unknown);
                      the older ``output_types`` (+ optional ``output_shapes``, unknown
                      shapes when absent) say the same.
  GeneratorDataset -- calls ``generator(*args)`` afresh on every iteration; each yielded
                      element is converted to the signature's dtypes and checked against
                      its structure and shapes (InvalidArgumentError when it does not fit,
                      as TF reports it at iteration). Its cardinality is unknown (-2), so
                      ``fit`` learns an epoch's length by running out.

Mirrors tensorflow/python/data/ops/from_generator_op.py.
"""

from __future__ import annotations

import numpy as np

from simdist.data import structure
from simdist.data.dataset_ops import DatasetV2
from simdist.framework import dtypes, errors, nest
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.tensor_spec import TensorSpec


def from_generator(generator, output_types=None, output_shapes=None, args=None,
                   output_signature=None, name=None):
    """The dataset of ``generator(*args)``'s elements (see the module glossary).

    Raises:
      TypeError: ``generator`` is not callable, or the signature is given both ways or not
        at all (TF's messages).
    """
    if not callable(generator):
        raise TypeError("`generator` must be a Python callable.")
    if output_signature is not None:
        if output_types is not None:
            raise TypeError("The `output_types` argument can not be used together with the "
                            "`output_signature` argument.")
        if output_shapes is not None:
            raise TypeError("The `output_shapes` argument can not be used together with the "
                            "`output_signature` argument.")
        for spec in nest.flatten(output_signature):
            if not isinstance(spec, TensorSpec):
                raise TypeError(f"`output_signature` must contain objects that are subclass "
                                f"of `tf.TypeSpec` but found {type(spec)} which is not.")
    else:
        if output_types is None:
            raise TypeError("To specify the output signature you need to provide either the "
                            "`output_signature` argument or the `output_types` argument.")
        output_signature = _signature(output_types, output_shapes)
    args = () if args is None else tuple(np.asarray(structure.to_numpy(structure.to_array(a)))
                                         for a in args)
    return GeneratorDataset(generator, args, output_signature)


def _signature(output_types, output_shapes):
    """TensorSpecs from the older ``output_types`` / ``output_shapes`` arguments."""
    if output_shapes is None:
        return nest.map_structure(lambda t: TensorSpec(None, dtypes.as_dtype(t)), output_types)
    flat_types = nest.flatten(output_types)
    flat_shapes = _flatten_up_to(output_types, output_shapes)
    return nest.pack_sequence_as(output_types, [
        TensorSpec(TensorShape(s), dtypes.as_dtype(t)) for t, s in zip(flat_types, flat_shapes)])


def _flatten_up_to(shallow, value) -> list:
    """``value`` flattened to the structure of ``shallow`` (whatever lies at a leaf of
    ``shallow`` is one item: a shape, an array, a list of numbers).

    Raises:
      ValueError, TypeError, KeyError: ``value`` does not have that structure.
    """
    if isinstance(shallow, dict):
        if not isinstance(value, dict) or set(value) != set(shallow):
            raise ValueError("not the same keys")
        return [x for k in sorted(shallow) for x in _flatten_up_to(shallow[k], value[k])]
    if isinstance(shallow, (tuple, list)):
        if not isinstance(value, (tuple, list)) or len(value) != len(shallow):
            raise ValueError("not the same length")
        return [x for s, v in zip(shallow, value) for x in _flatten_up_to(s, v)]
    return [value]


class GeneratorDataset(DatasetV2):
    """Elements of ``generator(*args)``, converted to and checked against a signature."""

    _tf_name = "_FlatMapDataset"   # TF builds it as a flat_map over its generator's ids

    def __init__(self, generator, args, signature):
        self._generator = generator
        self._args = args
        super().__init__((), signature)

    def _values(self):
        for element in self._generator(*self._args):
            yield self._convert(element)

    def _convert(self, element):
        spec = self.element_spec
        flat_specs = nest.flatten(spec)
        if isinstance(element, list) and not isinstance(spec, list):
            element = tuple(element)  # TF reads a yielded list as the tuple it stands for
        try:
            flat = _flatten_up_to(spec, element)
        except (TypeError, ValueError, KeyError) as e:
            raise errors.InvalidArgumentError(
                None, None, "TypeError: `generator` yielded an element that did not match the "
                f"expected structure. The expected structure was {spec}, but the yielded "
                f"element was {element}.") from e
        arrays = []
        for value, s in zip(flat, flat_specs):
            try:  # NumPy's conversion, as TF's py_func makes it (1 becomes 1.0 ...)
                host = value.numpy() if hasattr(value, "numpy") else value
                array = structure.to_array(np.asarray(host, dtype=s.dtype.as_numpy_dtype))
            except (TypeError, ValueError) as e:
                raise errors.InvalidArgumentError(
                    None, None, "TypeError: `generator` yielded an element that could not be "
                    f"converted to the expected type. The expected type was {s.dtype.name}, "
                    f"but the yielded element was {value}.") from e
            if not s.shape.is_compatible_with(TensorShape(tuple(array.shape))):
                raise errors.InvalidArgumentError(
                    None, None, f"TypeError: `generator` yielded an element of shape "
                    f"{tuple(array.shape)} where an element of shape {s.shape} was expected.")
            arrays.append(array)
        return nest.pack_sequence_as(spec, arrays)
