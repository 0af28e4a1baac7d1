"""Argument checks and shape arithmetic shared by the convolution and pooling layers.

Glossary:
  normalize_tuple       -- an int or an iterable of ints -> a tuple of ``n`` positive ints.
  normalize_padding     -- 'valid' / 'same' (any case), or an explicit list kept as given.
  normalize_data_format -- 'channels_first' / 'channels_last'; None is the backend default.
  conv_output_length    -- the size a window op leaves along one axis (None stays None).

Mirrors tf_keras/src/utils/conv_utils.py.
"""

from __future__ import annotations

from simdist.keras import backend


def normalize_tuple(value, n, name, allow_zero=False) -> tuple:
    """``value`` as a tuple of ``n`` ints.

    Raises:
      ValueError: the wrong length, a non-integer, or a value below the allowed minimum.
    """
    error_msg = f"The `{name}` argument must be a tuple of {n} integers. Received: {value}"
    if isinstance(value, int):
        value_tuple = (value,) * n
    else:
        try:
            value_tuple = tuple(value)
        except TypeError:
            raise ValueError(error_msg) from None
        if len(value_tuple) != n:
            raise ValueError(error_msg)
        for single in value_tuple:
            try:
                int(single)
            except (ValueError, TypeError):
                raise ValueError(error_msg + f"including element {single} of type "
                                             f"{type(single)}") from None
    bad = {v for v in value_tuple if (v < 0 if allow_zero else v <= 0)}
    if bad:
        req = ">= 0" if allow_zero else "> 0"
        raise ValueError(error_msg + f" including {bad} that does not satisfy the "
                                     f"requirement `{req}`.")
    return value_tuple


def normalize_padding(value):
    """'valid' or 'same' (lower-cased); a list or tuple passes through.

    Raises:
      ValueError: another string.
    """
    if isinstance(value, (list, tuple)):
        return value
    padding = value.lower()
    if padding not in {"valid", "same", "causal"}:
        raise ValueError('The `padding` argument must be a list/tuple or one of "valid", '
                         f'"same" (or "causal", only for `Conv1D). Received: {padding}')
    return padding


def normalize_data_format(value) -> str:
    """'channels_first' or 'channels_last' (any case); None is the backend's default.

    Raises:
      ValueError: another value.
    """
    if value is None:
        value = backend.image_data_format()
    data_format = value.lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError('The `data_format` argument must be one of "channels_first", '
                         f'"channels_last". Received: {value}')
    return data_format


def convert_data_format(data_format: str, ndim: int) -> str:
    """Keras's 'channels_last' / 'channels_first' as the op's 'NHWC' / 'NCHW'."""
    return "NHWC" if data_format == "channels_last" else "NCHW"


def conv_output_length(input_length, filter_size, padding, stride, dilation=1):
    """The output length of a window op along one axis; None when the input's is unknown."""
    if input_length is None:
        return None
    dilated = filter_size + (filter_size - 1) * (dilation - 1)
    length = input_length if padding in ("same", "causal") else input_length - dilated + 1
    return (length + stride - 1) // stride


def deconv_output_length(input_length, filter_size, padding, output_padding=None, stride=0,
                         dilation=1):
    """The output length of a transposed convolution along one axis (Keras's rule); None
    when the input's is unknown."""
    if input_length is None:
        return None
    filter_size = filter_size + (filter_size - 1) * (dilation - 1)
    if output_padding is None:
        if padding == "valid":
            return input_length * stride + max(filter_size - stride, 0)
        if padding == "full":
            return input_length * stride - (stride + filter_size - 2)
        return input_length * stride
    pad = {"same": filter_size // 2, "valid": 0, "full": filter_size - 1}[padding]
    return (input_length - 1) * stride + filter_size - 2 * pad + output_padding
