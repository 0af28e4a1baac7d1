"""``tf.keras.layers.EinsumDense``: a dense layer whose product is an einsum equation.

Glossary:
  equation      -- 'input,kernel->output' letters (``"abc,cde->abde"``): a letter of the
                   kernel takes its size from the input's axis of that letter, else from
                   ``output_shape`` (the output's sizes after the batch axis, None for a
                   free one).
  bias_axes     -- output letters that get a bias; its shape runs from the first of them to
                   the output's end (1 where a letter has no bias).
  full output shape -- the input's batch size then ``output_shape``, kept from the build
                   (``compute_output_shape`` gives it whatever it is asked, as TF's).
  ellipsis      -- '...' for the input's leading axes ('...b,bc->...c': they come after the
                   batch axis of the output) or its trailing ones ('ab...,bc->ac...': at the
                   output's end, the bias 1 there).

Mirrors tf_keras/src/layers/core/einsum_dense.py.
"""

from __future__ import annotations

import re

from simdist.framework.ops import math_ops as M
from simdist.framework.ops import special_math_ops
from simdist.framework.tensor_shape import TensorShape
from simdist.keras import activations, initializers, regularizers
from simdist.keras.engine.base_layer import Layer, refuse_constraints

# TF's three forms, '...' written as '0': none, the input's leading axes, its trailing ones
_EQUATION = re.compile(r"([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)")
_LEFT_ELIDED = re.compile(r"0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)")
_RIGHT_ELIDED = re.compile(r"([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0")


class EinsumDense(Layer):
    """A layer that uses ``tf.einsum`` as its backing operation
    (``tf.keras.layers.EinsumDense``).

    Raises:
      ValueError: an equation that is not 'ab,bc->ac'-like; mismatched shapes or letters.
      NotImplementedError: weight constraints.
    """

    def __init__(self, equation, output_shape, activation=None, bias_axes=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        refuse_constraints(kernel_constraint, bias_constraint)
        self.equation = equation
        self.partial_output_shape = [output_shape] if isinstance(output_shape, int) \
            else list(output_shape)
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)

    def build(self, input_shape):
        input_shape = list(TensorShape(input_shape).as_list())
        kernel_shape, bias_shape, self.full_output_shape = _analyze(
            self.equation, self.bias_axes, input_shape, self.partial_output_shape)
        self.kernel = self.add_weight("kernel", shape=kernel_shape,
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, trainable=True)
        self.bias = None if bias_shape is None else self.add_weight(
            "bias", shape=bias_shape, initializer=self.bias_initializer,
            regularizer=self.bias_regularizer, trainable=True)
        super().build(input_shape)

    def compute_output_shape(self, _):
        return TensorShape(self.full_output_shape)

    def call(self, inputs):
        ret = special_math_ops.einsum(self.equation, inputs, self._weight(self.kernel))
        if self.bias is not None:
            ret = M.add(ret, self._weight(self.bias))
        if self.activation is not None:
            ret = self.activation(ret)
        return ret

    def get_config(self):
        cfg = super().get_config()
        cfg.update(output_shape=self.partial_output_shape, equation=self.equation,
                   activation=activations.serialize(self.activation),
                   bias_axes=self.bias_axes,
                   kernel_initializer=initializers.serialize(self.kernel_initializer),
                   bias_initializer=initializers.serialize(self.bias_initializer),
                   kernel_regularizer=regularizers.serialize(self.kernel_regularizer),
                   bias_regularizer=regularizers.serialize(self.bias_regularizer),
                   activity_regularizer=regularizers.serialize(self.activity_regularizer),
                   kernel_constraint=None, bias_constraint=None)
        return cfg


def _analyze(equation, bias_axes, input_shape, output_shape):
    """The kernel's shape, the bias's (or None) and the full output shape
    (einsum_dense._analyze_einsum_string): no ellipsis, one on the left of the input and
    the output ('...b,bc->...c'), or one on their right ('ab...,bc->ac...')."""
    dotted = equation.replace("...", "0")
    for pattern, left in ((_EQUATION, False), (_LEFT_ELIDED, True), (_RIGHT_ELIDED, False)):
        split = pattern.match(dotted)   # TF's re.match: the equation's start
        if split:
            return _analyze_split(split.groups(), bias_axes, input_shape, output_shape, left)
    raise ValueError(f"Invalid einsum equation '{equation}'. Equations must be in the "
                     "form [X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")


def _analyze_split(specs, bias_axes, input_shape, output_shape, left_elided):
    """TF's _analyze_split_string: the elided axes are the input's, at the start of the
    output (after the batch axis) or at its end."""
    input_spec, weight_spec, output_spec = specs
    elided = len(input_shape) - len(input_spec)
    output_shape = [input_shape[0]] + list(output_shape)
    if elided > 0 and left_elided:
        for i in range(1, elided):
            output_shape.insert(1, input_shape[i])
    elif elided > 0:
        output_shape += input_shape[len(input_shape) - elided:]
    if left_elided:   # input axes counted from the end; the output is already whole
        input_dim = {dim: i + elided - len(input_shape) for i, dim in enumerate(input_spec)}
        output_dim = {dim: i + elided for i, dim in enumerate(output_spec)}
    else:
        input_dim = {dim: i for i, dim in enumerate(input_spec)}
        output_dim = {dim: i for i, dim in enumerate(output_spec)}
    for dim in input_spec:
        if dim in output_dim and output_shape[output_dim[dim]] is not None and \
                output_shape[output_dim[dim]] != input_shape[input_dim[dim]]:
            raise ValueError(f"Input shape and output shape do not match at shared dimension "
                             f"'{dim}'. Input shape is {input_shape[input_dim[dim]]}, and "
                             f"output shape is {output_shape[output_dim[dim]]}.")
    for dim in output_spec:
        if dim not in input_spec and dim not in weight_spec:
            raise ValueError(f"Dimension '{dim}' was specified in the output '{output_spec}' "
                             f"but has no corresponding dim in the input spec '{input_spec}' "
                             f"or weight spec '{output_spec}'")
    weight_shape = []
    for dim in weight_spec:
        if dim not in input_dim and dim not in output_dim:
            raise ValueError(f"Weight dimension '{dim}' did not have a match in either the "
                             f"input spec '{input_spec}' or the output spec '{output_spec}'. "
                             "For this layer, the weight must be fully specified.")
        weight_shape.append(input_shape[input_dim[dim]] if dim in input_dim
                            else output_shape[output_dim[dim]])
    if bias_axes is None:
        return weight_shape, None, output_shape
    left = elided if left_elided else 0
    sizes = {char: output_shape[i + left] for i, char in enumerate(output_spec)}
    for char in bias_axes:
        if char not in output_spec:
            raise ValueError(f"Bias dimension '{char}' was requested, but is not part of the "
                             f"output spec '{output_spec}'")
    first = min(output_spec.find(char) for char in bias_axes)
    bias_shape = [sizes[char] if char in bias_axes else 1 for char in output_spec[first:]]
    if not left_elided:
        bias_shape += [1] * max(elided, 0)
    return weight_shape, bias_shape, output_shape
