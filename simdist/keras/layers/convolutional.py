"""``Conv2D`` / ``Conv1D``: convolution layers over NHWC images and NWC sequences.

Glossary:
  kernel      -- ``[KH, KW, in_channels, filters]``, ``glorot_uniform`` by default (fan-in
                 ``KH * KW * in``, fan-out ``KH * KW * filters``); bias ``[filters]`` zeros.
  padding     -- 'valid' or 'same' (Keras's lower-case names of the op's paddings).
  dilation    -- taps ``dilation_rate`` apart; Keras refuses it together with strides > 1.
  channels_first -- accepted when made, refused when called: TF's CPU kernels only run
                 NHWC (UnimplementedError), and simdist simulates those.
  Conv1D      -- kernel ``[K, in_channels, filters]``; run as TF's nn.conv1d runs it: a
                 Conv2D over the sequence given a height of 1; 'causal' padding pads the
                 start of the sequence with ``dilation * (K - 1)`` zeros.

Mirrors tf_keras/src/layers/convolutional/base_conv.py, conv1d.py and conv2d.py.
"""

from __future__ import annotations

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import conv_ops, pad_ops
from simdist.framework.ops import nn_ops as N
from simdist.keras import activations, initializers, regularizers
from simdist.keras.engine.base_layer import Layer, refuse_constraints
from simdist.keras.engine.input_spec import InputSpec
from simdist.keras.layers.core import kernel_bias_config
from simdist.keras.utils import conv_utils


class Conv2D(Layer):
    """2-D convolution (``tf.keras.layers.Conv2D``)."""

    _rank = 2

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format=None, dilation_rate=(1, 1), groups=1, activation=None,
                 use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        refuse_constraints(kernel_constraint, bias_constraint)
        if isinstance(filters, float):
            filters = int(filters)
        if filters is not None and filters <= 0:
            raise ValueError("Invalid value for argument `filters`. Expected a strictly "
                             f"positive value. Received filters={filters}.")
        self.filters, self.groups = filters, groups or 1
        if self.groups != 1:
            raise NotImplementedError("simdist's Conv2D does not simulate grouped "
                                      "convolutions (groups > 1).")
        rank = self._rank
        self.kernel_size = conv_utils.normalize_tuple(kernel_size, rank, "kernel_size")
        self.strides = conv_utils.normalize_tuple(strides, rank, "strides", allow_zero=True)
        self.padding = conv_utils.normalize_padding(padding)
        self.data_format = conv_utils.normalize_data_format(data_format)
        self.dilation_rate = conv_utils.normalize_tuple(dilation_rate, rank, "dilation_rate")
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.input_spec = InputSpec(min_ndim=rank + 2)
        self._validate_init()

    def _validate_init(self):
        if not all(self.kernel_size):
            raise ValueError("The argument `kernel_size` cannot contain 0(s). Received: "
                             f"{self.kernel_size}")
        if not all(self.strides):
            raise ValueError(f"The argument `strides` cannot contains 0(s). Received: "
                             f"{self.strides}")
        if self.padding == "causal" and self._rank != 1:
            raise ValueError("Causal padding is only supported for `Conv1D`and "
                             "`SeparableConv1D`.")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate "
                             f"> 1`. Received: strides={self.strides} and "
                             f"dilation_rate={self.dilation_rate}")

    def _channel_axis(self) -> int:
        return 1 if self.data_format == "channels_first" else -1

    def build(self, input_shape):
        input_shape = tuple(input_shape)
        channels = input_shape[self._channel_axis()]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. The input_"
                             f"shape received is {input_shape}, where axis "
                             f"{self._channel_axis()} (0-based) is the channel dimension, "
                             "which found to be `None`.")
        self.compute_output_shape(input_shape)
        self._add_kernel_and_bias(self.kernel_size + (channels, self.filters))
        self.input_spec = InputSpec(min_ndim=self._rank + 2,
                                    axes={self._channel_axis(): channels})
        super().build(input_shape)

    def _add_kernel_and_bias(self, kernel_shape):
        self.kernel = self.add_weight("kernel", shape=kernel_shape,
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, trainable=True)
        self.bias = (self.add_weight("bias", shape=(self.filters,),
                                     initializer=self.bias_initializer,
                                     regularizer=self.bias_regularizer, trainable=True)
                     if self.use_bias else None)

    def call(self, inputs):
        x = inputs  # not cast: an integer input fails in the op, as in TF
        padding = self.padding.upper() if isinstance(self.padding, str) else self.padding
        out = conv_ops.conv2d(x, self._weight(self.kernel), list(self.strides), padding,
                              data_format=conv_utils.convert_data_format(self.data_format, 4),
                              dilations=list(self.dilation_rate))
        if self.use_bias:
            out = N.bias_add(out, self._weight(self.bias),
                             data_format=conv_utils.convert_data_format(self.data_format, 4))
        return self.activation(out) if self.activation is not None else out

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        first = self.data_format == "channels_first"
        spatial = input_shape[2:] if first else input_shape[1:-1]
        out = []
        for i, n in enumerate(spatial):
            o = conv_utils.conv_output_length(n, self.kernel_size[i], self.padding,
                                              self.strides[i], self.dilation_rate[i])
            if o is not None and o <= 0:
                raise ValueError(
                    f"One of the dimensions in the output is <= 0 due to downsampling in "
                    f"{self.name}. Consider increasing the input size. Received input shape "
                    f"{list(input_shape)} which would produce output shape with a zero or "
                    f"negative value in a dimension.")
            out.append(o)
        if first:
            return (input_shape[0], self.filters, *out)
        return (input_shape[0], *out, self.filters)

    def get_config(self):
        cfg = super().get_config()
        cfg.update(filters=self.filters, kernel_size=self.kernel_size, strides=self.strides,
                   padding=self.padding, data_format=self.data_format,
                   dilation_rate=self.dilation_rate, groups=self.groups,
                   activation=activations.serialize(self.activation), use_bias=self.use_bias,
                   **kernel_bias_config(self))
        return cfg


Convolution2D = Conv2D


class Conv1D(Conv2D):
    """1-D convolution (``tf.keras.layers.Conv1D``)."""

    _rank = 1

    def __init__(self, filters, kernel_size, strides=1, padding="valid",
                 data_format="channels_last", dilation_rate=1, groups=1, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         groups=groups, **kwargs)

    def call(self, inputs):
        # nn.conv1d: a height of 1 before the width (NWC -> NHWC, NCW -> NCHW), a Conv2D of
        # a 1 x K kernel, the height dropped again.
        first = self.data_format == "channels_first"
        x = inputs
        padding = self.padding
        if padding == "causal":
            width = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            x = pad_ops.pad(x, [[0, 0], [0, 0], [width, 0]] if first
                            else [[0, 0], [width, 0], [0, 0]])
            padding = "valid"
        x = A.expand_dims(x, 2 if first else 1)
        out = conv_ops.conv2d(x, A.expand_dims(self._weight(self.kernel), 0),
                              [1, 1, self.strides[0], 1] if not first else
                              [1, 1, 1, self.strides[0]], padding.upper(),
                              data_format="NCHW" if first else "NHWC",
                              dilations=[1, 1, self.dilation_rate[0], 1] if not first else
                              [1, 1, 1, self.dilation_rate[0]])
        out = A.squeeze(out, [2 if first else 1])
        if self.use_bias:
            out = N.bias_add(out, self._weight(self.bias),
                             data_format="NCW" if first else "NWC")
        return self.activation(out) if self.activation is not None else out

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        first = self.data_format == "channels_first"
        length = input_shape[2] if first else input_shape[1]
        if self.padding == "causal":
            out = None if length is None else (length + self.strides[0] - 1) // self.strides[0]
            return ((input_shape[0], self.filters, out) if first
                    else (input_shape[0], out, self.filters))
        return super().compute_output_shape(input_shape)

