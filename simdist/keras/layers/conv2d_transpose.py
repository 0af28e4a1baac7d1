"""``Conv2DTranspose``: the transposed 2-D convolution layer (an upsampling "deconvolution").

Glossary:
  kernel         -- ``[KH, KW, filters, in_channels]`` (the forward conv's, transposed:
                    output channels before input channels), ``glorot_uniform`` by default.
  output size    -- per spatial axis ``conv_utils.deconv_output_length``: ``in * stride``
                    for 'same', ``in * stride + max(k - stride, 0)`` for 'valid', or the
                    rule with ``output_padding`` when one is given.
  output_padding -- extra rows/columns on the output's far side; each must be below its
                    stride.

Mirrors tf_keras/src/layers/convolutional/conv2d_transpose.py.
"""

from __future__ import annotations

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import conv_ops
from simdist.framework.ops import nn_ops as N
from simdist.keras.engine.input_spec import InputSpec
from simdist.keras.layers.convolutional import Conv2D
from simdist.keras.utils import conv_utils


class Conv2DTranspose(Conv2D):
    """Transposed 2-D convolution (``tf.keras.layers.Conv2DTranspose``)."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 output_padding=None, data_format=None, dilation_rate=(1, 1), activation=None,
                 use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                         **kwargs)
        self.output_padding = output_padding
        if output_padding is not None:
            self.output_padding = conv_utils.normalize_tuple(output_padding, 2,
                                                             "output_padding", allow_zero=True)
            for stride, out_pad in zip(self.strides, self.output_padding):
                if out_pad >= stride:
                    raise ValueError("Strides must be greater than output padding. Received "
                                     f"strides={self.strides}, "
                                     f"output_padding={self.output_padding}.")

    def build(self, input_shape):
        input_shape = tuple(input_shape)
        if len(input_shape) != 4:
            raise ValueError("Inputs should have rank 4. Received input_shape="
                             f"{input_shape}.")
        channels = input_shape[self._channel_axis()]
        if channels is None:
            raise ValueError("The channel dimension of the inputs to `Conv2DTranspose` "
                             "should be defined. The input_shape received is "
                             f"{input_shape}, where axis {self._channel_axis()} (0-based) is "
                             "the channel dimension, which found to be `None`.")
        self.input_spec = InputSpec(ndim=4, axes={self._channel_axis(): channels})
        self._add_kernel_and_bias(self.kernel_size + (self.filters, channels))
        self.built = True

    def _out_hw(self, in_hw) -> list:
        pads = self.output_padding or (None, None)
        return [conv_utils.deconv_output_length(n, self.kernel_size[i], padding=self.padding,
                                                output_padding=pads[i],
                                                stride=self.strides[i],
                                                dilation=self.dilation_rate[i])
                for i, n in enumerate(in_hw)]

    def call(self, inputs):
        first = self.data_format == "channels_first"
        if first:
            # TF's CPU kernels run NHWC only: the op raises TF's error.
            conv_ops.check_format("NCHW", "Conv2D")
        batch = inputs.shape[0]
        batch = A.shape(inputs)[0] if batch is None else batch
        out_h, out_w = self._out_hw(inputs.shape[1:3])
        out = conv_ops.conv2d_transpose(
            inputs, self._weight(self.kernel), [batch, out_h, out_w, self.filters],
            list(self.strides), self.padding.upper(), data_format="NHWC",
            dilations=list(self.dilation_rate))
        if self.use_bias:
            out = N.bias_add(out, self._weight(self.bias), data_format="NHWC")
        return self.activation(out) if self.activation is not None else out

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        if self.data_format == "channels_first":
            return (input_shape[0], self.filters, *self._out_hw(input_shape[2:]))
        return (input_shape[0], *self._out_hw(input_shape[1:3]), self.filters)

    def get_config(self):
        cfg = super().get_config()
        cfg["output_padding"] = self.output_padding
        return cfg


Convolution2DTranspose = Conv2DTranspose
