"""2-D pooling layers: MaxPooling2D, AveragePooling2D and their global forms.

Glossary:
  pool_size / strides -- the window and its step; ``strides=None`` means ``pool_size``.
  padding             -- 'valid' or 'same'; 'same' average pooling divides by the window's
                         real inputs only (the op's rule, pooling_ops.py).
  global pooling      -- the mean (or max) over H and W; ``keepdims`` keeps them as 1s.

Mirrors tf_keras/src/layers/pooling/base_pooling2d.py, max_pooling2d.py,
average_pooling2d.py, base_global_pooling2d.py, global_average_pooling2d.py,
global_max_pooling2d.py, global_average_pooling1d.py.
"""

from __future__ import annotations

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import pooling_ops, ragged_math_ops
from simdist.framework.ragged_tensor import RaggedTensor
from simdist.keras.engine.base_layer import Layer
from simdist.keras.engine.input_spec import InputSpec
from simdist.keras.utils import conv_utils


class Pooling2D(Layer):
    """A window op applied to NHWC (or NCHW) images; subclasses name the op."""

    pool_function = None
    pool_name = None   # the op's name (None: the function's own)

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if strides is None:
            strides = pool_size
        self.pool_size = conv_utils.normalize_tuple(pool_size, 2, "pool_size")
        self.strides = conv_utils.normalize_tuple(strides, 2, "strides", allow_zero=True)
        self.padding = conv_utils.normalize_padding(padding)
        self.data_format = conv_utils.normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        fn = type(self).pool_function
        if self.data_format == "channels_last":
            ksize, strides = (1, *self.pool_size, 1), (1, *self.strides, 1)
        else:
            ksize, strides = (1, 1, *self.pool_size), (1, 1, *self.strides)
        # tf.compat.v1.nn.max_pool / avg_pool, as tf-keras calls them: op 'MaxPool', 'AvgPool'
        return fn(inputs, ksize=ksize, strides=strides, padding=self.padding.upper(),
                  data_format=conv_utils.convert_data_format(self.data_format, 4),
                  name=type(self).pool_name)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        first = self.data_format == "channels_first"
        rows, cols = (shape[2], shape[3]) if first else (shape[1], shape[2])
        rows = conv_utils.conv_output_length(rows, self.pool_size[0], self.padding,
                                             self.strides[0])
        cols = conv_utils.conv_output_length(cols, self.pool_size[1], self.padding,
                                             self.strides[1])
        if first:
            return (shape[0], shape[1], rows, cols)
        return (shape[0], rows, cols, shape[3])

    def get_config(self):
        cfg = super().get_config()
        cfg.update(pool_size=self.pool_size, padding=self.padding, strides=self.strides,
                   data_format=self.data_format)
        return cfg


class MaxPooling2D(Pooling2D):
    """The maximum of each window (``tf.keras.layers.MaxPooling2D``)."""

    pool_function = staticmethod(pooling_ops.max_pool2d)
    pool_name = "MaxPool"


class AveragePooling2D(Pooling2D):
    """The mean of each window (``tf.keras.layers.AveragePooling2D``)."""

    pool_function = staticmethod(pooling_ops.avg_pool2d)
    pool_name = "AvgPool"


# a global pooling's reduction kind -> the dense op (ragged_math_ops.reduce takes the kind)
_DENSE_REDUCE = {"mean": M.reduce_mean, "max": M.reduce_max}


class GlobalPooling2D(Layer):
    """A reduction over the spatial axes; subclasses name the reduction (and the rank)."""

    reduction = None   # "mean" or "max": tf.reduce_<kind>
    rank = 2

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = conv_utils.normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)
        self.keepdims = keepdims

    def _axes(self):
        first = 1 if self.data_format == "channels_last" else 2
        return list(range(first, first + self.rank))

    def build(self, input_shape):
        for axis in self._axes():
            if input_shape[axis] == 0:
                raise ValueError(f"Incorrect input shape {list(input_shape)} with dimension 0 "
                                 f"at reduction axis {axis}.")
        super().build(input_shape)

    def call(self, inputs):
        if isinstance(inputs, RaggedTensor):   # tf.reduce_* dispatches to ragged's
            return ragged_math_ops.reduce(self.reduction, inputs, axis=self._axes(),
                                          keepdims=self.keepdims)
        return _DENSE_REDUCE[self.reduction](inputs, axis=self._axes(), keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        s = list(input_shape)
        last = self.data_format == "channels_last"
        c = s[-1] if last else s[1]
        if not self.keepdims:
            return (s[0], c)
        ones = (1,) * self.rank
        return (s[0], *ones, c) if last else (s[0], c, *ones)

    def get_config(self):
        cfg = super().get_config()
        cfg.update(data_format=self.data_format, keepdims=self.keepdims)
        return cfg


class GlobalAveragePooling2D(GlobalPooling2D):
    """The mean over height and width (``tf.keras.layers.GlobalAveragePooling2D``)."""

    reduction = "mean"


class GlobalAveragePooling1D(GlobalAveragePooling2D):
    """The mean over the steps of a sequence (``tf.keras.layers.GlobalAveragePooling1D``):
    with a mask, the sum of the unmasked steps over their number (0 / 0 = nan when a
    sequence has none, as TF); its output has no mask."""

    rank = 1
    _SUPPORTS_MASKING = True

    def __init__(self, data_format="channels_last", **kwargs):
        super().__init__(data_format=data_format, **kwargs)

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        steps_axis = self._axes()[0]
        mask = A.expand_dims(A.cast(mask, inputs.dtype),
                             2 if self.data_format == "channels_last" else 1)
        inputs = M.multiply(inputs, mask)
        return M.divide(M.reduce_sum(inputs, axis=steps_axis, keepdims=self.keepdims),
                        M.reduce_sum(mask, axis=steps_axis, keepdims=self.keepdims))

    def compute_mask(self, inputs, mask=None):
        return None


class GlobalMaxPooling2D(GlobalPooling2D):
    """The maximum over height and width (``tf.keras.layers.GlobalMaxPooling2D``)."""

    reduction = "max"


MaxPool2D, AvgPool2D = MaxPooling2D, AveragePooling2D
GlobalAvgPool2D, GlobalMaxPool2D = GlobalAveragePooling2D, GlobalMaxPooling2D
GlobalAvgPool1D = GlobalAveragePooling1D
