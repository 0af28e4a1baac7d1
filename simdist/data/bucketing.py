"""``Dataset.bucket_by_sequence_length``: elements batched with others of similar length.

Glossary:
  bucket        -- ``element_length_func(element)`` falls in ``[boundary_{i-1},
                   boundary_i)`` (the first from int32's least value, the last to its
                   greatest): bucket ``i``, an int64 key of ``group_by_window``.
  batch size    -- ``bucket_batch_sizes[i]``, the bucket's window size.
  padding       -- each bucket's window is ``padded_batch``ed to its longest element
                   (``padded_shapes`` / ``padding_values`` as padded_batch's);
                   ``pad_to_bucket_boundary``: unknown dims padded to the bucket's
                   boundary - 1 (an element past the last boundary: TF's assertion text,
                   as InvalidArgumentError where TF's iterator raises InternalError);
                   ``no_padding``: a plain ``batch``.

Mirrors DatasetV2.bucket_by_sequence_length in tensorflow/python/data/ops/dataset_ops.py.
"""

from __future__ import annotations

import numpy as np

from simdist.data import structure
from simdist.framework import dtypes, errors, execute
from simdist.framework.ops import array_ops, math_ops
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.tensor_spec import TensorSpec


def _padded_shapes(shapes, none_filler=None):
    """Each shape with its unknown dims as ``none_filler`` (None keeps them unknown)."""
    def fill(shape):
        return [none_filler if d is None else d for d in TensorShape(shape).as_list()]

    return structure.pack(shapes, [fill(s) for s in structure.flatten(shapes)])


def _check_bucket(bucket_id, last: int) -> None:
    """TF's assertion that an element padded to its bucket's boundary is in a bucket that
    has one (its text; raised as InvalidArgumentError when the window is batched)."""
    if int(bucket_id) >= last:
        raise errors.InvalidArgumentError(
            None, None, "assertion failed: [When pad_to_bucket_boundary=True, elements must "
                        "have length < max(bucket_boundaries).] [Condition x < y did not hold "
                        f"element-wise:] [x = ] [{int(bucket_id)}] [y = ] [{last}]")


def bucket_by_sequence_length(dataset, element_length_func, bucket_boundaries,
                              bucket_batch_sizes, padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """TF's pipeline: ``group_by_window`` keyed by bucket, each window batched (see the
    module docstring).

    Raises:
      ValueError: ``bucket_batch_sizes`` is not one longer than ``bucket_boundaries``.
    """
    if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
        raise ValueError(
            "`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + 1` but "
            f"`len(bucket_batch_sizes)={len(bucket_batch_sizes)}` and "
            f"`len(bucket_boundaries)={len(bucket_boundaries)}`.")
    batch_sizes = execute.convert_to_tensor(bucket_batch_sizes, dtype=dtypes.int64)

    def element_to_bucket_id(*args):
        length = element_length_func(*args)
        boundaries = list(bucket_boundaries)
        lows = [np.iinfo(np.int32).min] + boundaries
        highs = boundaries + [np.iinfo(np.int32).max]
        inside = math_ops.logical_and(math_ops.less_equal(lows, length),
                                      math_ops.less(length, highs))
        return math_ops.reduce_min(array_ops.where(inside))

    def window_size_fn(bucket_id):
        return array_ops.gather(batch_sizes, bucket_id)

    def batching_fn(bucket_id, grouped):
        batch_size = window_size_fn(bucket_id)
        if no_padding:
            return grouped.batch(batch_size, drop_remainder=drop_remainder)
        none_filler = None
        if pad_to_bucket_boundary:
            _check_bucket(bucket_id, len(bucket_batch_sizes) - 1)
            boundaries = execute.convert_to_tensor(bucket_boundaries, dtype=dtypes.int64)
            none_filler = array_ops.gather(boundaries, bucket_id) - 1
        shapes = padded_shapes or structure.map_leaves(lambda s: s.shape, grouped.element_spec)
        return grouped.padded_batch(batch_size, _padded_shapes(shapes, none_filler),
                                    padding_values, drop_remainder=drop_remainder)

    out = dataset.group_by_window(key_func=element_to_bucket_id, reduce_func=batching_fn,
                                  window_size_func=window_size_fn)
    out._element_spec = _traced_spec(out.element_spec, dataset.element_spec,
                                     pad_to_bucket_boundary and not no_padding and
                                     padded_shapes is None)
    return out


def _traced_spec(batched, elements, filled: bool):
    """The batches' spec as TF's trace of the batching function gives it: the batch size
    is a tensor (the dim unknown), and so is the boundary that fills unknown dims."""
    def relaxed(spec, element):
        dims = [None] + spec.shape.as_list()[1:]
        if filled:
            dims[1:] = [d if e is not None else None
                        for d, e in zip(dims[1:], element.shape.as_list())]
        return TensorSpec(dims, spec.dtype)

    return structure.pack(batched, [relaxed(s, e) for s, e in
                                    zip(structure.flatten(batched), structure.flatten(elements))])
