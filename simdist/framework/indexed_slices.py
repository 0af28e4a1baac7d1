"""``tf.IndexedSlices``: a sparse gradient -- some rows of a dense tensor.

Glossary:
  values      -- the rows: shape ``[n] + dense_shape[1:]``.
  indices     -- which row of the dense tensor each of ``values`` is (repeats add up).
  dense_shape -- the shape of the dense tensor (an int32 tensor, as TF's gather gradient
                 gives it).
  to dense    -- ``tf.convert_to_tensor`` (and every op given one) sums the rows into a
                 zero tensor of ``dense_shape`` (TF's unsorted_segment_sum conversion).
  aggregate   -- gradients of one tensor that are all IndexedSlices add up by
                 concatenating their values and indices, in the order TF's tape made them;
                 with any dense one, the sum is dense (backprop_util.py).
The gradient of ``tf.gather`` (axis 0) with respect to its params is one, as in TF; in a
traced function it is recorded as its three tensors (``op_recording.register_composite``).

Mirrors tensorflow/python/framework/indexed_slices.py and the aggregation in
tensorflow/python/ops/gradients_util.py / backprop_util.py.
"""

from __future__ import annotations

from simdist.framework import op_recording


class IndexedSlices:
    """Rows ``values`` at ``indices`` of a tensor of shape ``dense_shape``."""

    __array_priority__ = 100

    def __init__(self, values, indices, dense_shape=None):
        self._values = values
        self._indices = indices
        self._dense_shape = dense_shape

    values = property(lambda self: self._values)
    indices = property(lambda self: self._indices)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)
    device = property(lambda self: self._values.device)

    @property
    def shape(self):
        """The dense shape as far as it is known (TF's constant_value_as_shape)."""
        from simdist.framework.tensor_shape import TensorShape

        if self._dense_shape is None:
            return TensorShape(None)
        if op_recording.is_symbolic(self._dense_shape):   # traced: the rows are not known
            return TensorShape([None] + list(self._values.shape)[1:])
        return TensorShape([int(d) for d in self._dense_shape.numpy()])

    def _as_tensor(self):
        """The dense tensor (the conversion every op applies to an IndexedSlices).

        Raises:
          ValueError: no dense_shape (TF's text).
        """
        from simdist.framework.ops import math_ops

        if self._dense_shape is None:
            raise ValueError("Tensor conversion requested for IndexedSlices for argument "
                             f"`value` without dense_shape: {self!s}")
        return math_ops.unsorted_segment_sum(self._values, self._indices,
                                             self._dense_shape[0])

    def __neg__(self):
        from simdist.framework.ops import math_ops

        return IndexedSlices(math_ops.negative(self._values), self._indices, self._dense_shape)

    def __str__(self):
        # TF formats its parts with %s: str(), not format() (a tensor's format is its numpy's)
        shape = "" if self._dense_shape is None else f", dense_shape={self._dense_shape!s}"
        return f"IndexedSlices(indices={self._indices!s}, values={self._values!s}{shape})"

    __repr__ = __str__


# In a traced function: recorded as its three tensors (TF's CompositeTensor).
op_recording.register_composite(
    IndexedSlices, lambda x: (x.values, x.indices, x.dense_shape), lambda p: IndexedSlices(*p))

