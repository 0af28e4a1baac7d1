"""``CategoryEncoding``: integer category ids -> one-hot, multi-hot or count vectors.

Glossary:
  num_tokens    -- the depth of the vectors; every input id must lie in ``[0, num_tokens)``
                   (TF's ``tf.Assert``: InvalidArgumentError otherwise; in a traced
                   function, the graph's Assert).
  output_mode   -- 'multi_hot' (default; 'binary' is its old name), 'one_hot' (a trailing
                   axis of size 1 is replaced, another rank gains one), 'count'; float32
                   unless the layer's dtype says otherwise (index_lookup's
                   encode_categorical_inputs: TF's DenseBincount).
  validate_string_arg -- Keras's check of an argument against its allowed strings.

Mirrors tf_keras/src/layers/preprocessing/category_encoding.py and
tf_keras/src/utils/layer_utils.py (validate_string_arg).
"""

from __future__ import annotations

from simdist.framework import errors, execute, func_graph
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import control_flow_ops
from simdist.framework.ops import math_ops as M
from simdist.hardware import array_api
from simdist.keras import backend
from simdist.keras.engine.base_layer import Layer
from simdist.keras.layers.preprocessing.index_lookup import (
    COUNT,
    MULTI_HOT,
    ONE_HOT,
    encode_categorical_inputs,
)


def validate_string_arg(input_data, allowable_strings, layer_name, arg_name):
    """Keras's ValueError for a string argument not among ``allowable_strings``."""
    if isinstance(input_data, str) and input_data in allowable_strings:
        return
    raise ValueError(f"Unkown value for `{arg_name}` argument of layer {layer_name}. Allowed "
                     f"values are: or one of the following values: {allowable_strings}. "
                     f"Received: {input_data}")


class CategoryEncoding(Layer):
    """Encodes integer ids as vectors (``tf.keras.layers.CategoryEncoding``)."""

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        if "max_tokens" in kwargs:
            num_tokens = kwargs.pop("max_tokens")
        kwargs.setdefault("dtype", backend.floatx())
        super().__init__(**kwargs)
        if output_mode == "binary":
            output_mode = MULTI_HOT
        validate_string_arg(output_mode, (COUNT, ONE_HOT, MULTI_HOT), "CategoryEncoding",
                            "output_mode")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of "
                             "tokens is not known beforehand, use the IntegerLookup layer "
                             "instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        if sparse:
            raise NotImplementedError("sparse=True makes CategoryEncoding return a "
                                      "tf.SparseTensor, which simdist's layer does not model; "
                                      "use sparse=False.")
        self.num_tokens, self.output_mode, self.sparse = num_tokens, output_mode, sparse

    def call(self, inputs, count_weights=None):
        inputs = execute.convert_to_tensor(inputs)
        if count_weights is not None:
            if self.output_mode != COUNT:
                raise ValueError("`count_weights` is not used when `output_mode` is not "
                                 "`'count'`. Received `count_weights={count_weights}`.")
            raise NotImplementedError("simdist's CategoryEncoding does not model "
                                      "`count_weights`.")
        if func_graph.current() is not None:
            self._assert_in_range(inputs)
        elif not execute.in_shape_inference():
            values = array_api.to_host(inputs._value)
            if values.size and not (values.max() < self.num_tokens and values.min() >= 0):
                raise errors.InvalidArgumentError(
                    None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                                "Summarized data: b'Input values must be in the range 0 <= "
                                f"values < num_tokens with num_tokens={self.num_tokens}'")
        return encode_categorical_inputs(inputs, self.output_mode, self.num_tokens,
                                         self.compute_dtype)

    def _assert_in_range(self, inputs) -> None:
        """While a tf.function traces: the range check as the graph's Assert (tf-keras's
        ``tf.Assert`` on the inputs' max and min), checked when the graph runs."""
        high, low = M.reduce_max(inputs), M.reduce_min(inputs)
        condition = M.logical_and(
            M.greater(A.constant(self.num_tokens, dtype=high.dtype), high),
            M.greater_equal(low, A.constant(0, dtype=low.dtype)))
        control_flow_ops.Assert(condition, [
            "Input values must be in the range 0 <= values < num_tokens with "
            f"num_tokens={self.num_tokens}"])

    def compute_output_shape(self, input_shape):
        input_shape = list(input_shape)
        if not input_shape:
            return (self.num_tokens,)
        if self.output_mode == ONE_HOT and input_shape[-1] != 1:
            return tuple(input_shape + [self.num_tokens])
        return tuple(input_shape[:-1] + [self.num_tokens])

    def get_config(self):
        config = super().get_config()
        config.update(num_tokens=self.num_tokens, output_mode=self.output_mode,
                      sparse=self.sparse)
        return config

