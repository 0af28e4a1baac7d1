"""``tf.keras.layers.TimeDistributed``: one layer applied to every step of a sequence.

Glossary:
  wrapped layer  -- ``layer``: built on the input shape without the time axis (its weights
                    named under the wrapper, 'time_distributed/kernel': Keras's Wrapper
                    builds it without the layer's own scope), the same weights at every step.
  reshape path   -- a built-in Keras layer (or a subclass of one), or an unknown batch size
                    (a functional model's Input, a symbolic call): the batch and time axes
                    folded into one, the layer called once, the result unfolded.
  step path      -- a layer of the user's own (a direct subclass of ``Layer``) on inputs of
                    a known batch size: the layer called once per step by ``backend.rnn``
                    (no states), so at a masked step the output is the previous step's
                    (zeros before the first unmasked one).
  mask           -- the input's (batch, time, ...) mask: on the reshape path passed folded
                    to a layer whose ``call`` takes ``mask``; the output's mask is then the
                    wrapped layer's ``compute_mask`` unfolded, or (when that is None) the
                    input's mask reduced by ``any`` to (batch, time). On the step path the
                    input's mask is the output's.

Mirrors tf_keras/src/layers/rnn/time_distributed.py and base_wrapper.py (without ragged
inputs; the wrapped layer's activity regularizer is its own).
"""

from __future__ import annotations

from simdist.framework import execute, nest
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.tensor_shape import TensorShape
from simdist.keras.engine.base_layer import Layer, _accepts
from simdist.keras.engine.input_spec import InputSpec
from simdist.keras.layers.rnn.rnn_loop import rnn


def is_builtin_layer(layer) -> bool:
    """tf-keras's layer_utils.is_builtin_layer: the nearest of the layer's classes that
    Keras exports (here: defined in simdist) is not ``Layer`` itself."""
    for cls in type(layer).__mro__:
        if cls.__module__.startswith("simdist."):
            return cls is not Layer
    return False


def _dims(shape) -> list:
    return list(TensorShape(shape).as_list())


def _shape_tuple(head: tuple, tensor, start: int) -> list:
    """``head`` then ``tensor``'s dimensions from ``start`` on, an unknown one read from
    ``tf.shape`` (TimeDistributed._get_shape_tuple)."""
    dims = _dims(tensor.shape)[start:]
    if any(d is None for d in dims):
        dynamic = A.shape(tensor)
        dims = [dynamic[start + i] if d is None else d for i, d in enumerate(dims)]
    return list(head) + dims


class TimeDistributed(Layer):
    """Applies a layer to every temporal slice of an input
    (``tf.keras.layers.TimeDistributed``).

    Raises:
      ValueError: ``layer`` not a Layer; an input of rank below 3.
    """

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `TimeDistributed` layer with a "
                             f"`tf.keras.layers.Layer` instance. Received: {layer}")
        super().__init__(**kwargs)
        self.layer = layer
        self.supports_masking = True
        self._always_use_reshape = is_builtin_layer(layer) and \
            not getattr(layer, "stateful", False)

    def build(self, input_shape):
        shapes = _shape_list(input_shape)
        if any(len(s) < 3 for s in _leaves(shapes)):
            raise ValueError("`TimeDistributed` Layer should be passed an `input_shape ` with "
                             f"at least 3 dimensions, received: {input_shape}")
        self.input_spec = _map_shapes(lambda s: InputSpec(shape=tuple([None, None] + s[2:])),
                                      shapes)
        child = _map_shapes(lambda s: tuple(s[:1] + s[2:]), shapes)
        if not self.layer.built:   # Keras's Wrapper.build: no name scope of the layer's
            self.layer.build(child)
            self.layer.built = True
        super().build(input_shape)

    def compute_output_shape(self, input_shape):
        shapes = _shape_list(input_shape)
        child = _map_shapes(lambda s: tuple(s[:1] + s[2:]), shapes)
        timesteps = _leaves(shapes)[0][1]
        child_out = self.layer.compute_output_shape(child)
        return _map_shapes(lambda s: TensorShape(s[:1] + [timesteps] + s[1:]),
                           _shape_list(child_out))

    def call(self, inputs, training=None, mask=None):
        kwargs = {}
        if _accepts(self.layer.call, "training"):
            kwargs["training"] = training
        first = nest.flatten(inputs)[0]
        batch_size = None if execute.in_shape_inference() else first.shape[0]
        if batch_size and not self._always_use_reshape:
            def step(x, _):
                return self.layer(x, **kwargs), []

            _, outputs, _ = rnn(step, inputs, [], mask=mask)
            return outputs
        input_length = first.shape[1] or A.shape(first)[1]
        inner = nest.map_structure(lambda x: A.reshape(x, _shape_tuple((-1,), x, 2)), inputs)
        if mask is not None and _accepts(self.layer.call, "mask"):
            kwargs["mask"] = A.reshape(mask, _shape_tuple((-1,), mask, 2))
        y = self.layer(inner, **kwargs)
        head = (batch_size or -1, input_length)
        return nest.map_structure(lambda t: A.reshape(t, _shape_tuple(head, t, 1)), y)

    def compute_mask(self, inputs, mask=None):
        first = nest.flatten(inputs)[0]
        batch_size = None if execute.in_shape_inference() else first.shape[0]
        if batch_size and not self._always_use_reshape:
            return mask
        inner_mask = None if mask is None else A.reshape(mask, _shape_tuple((-1,), mask, 2))
        inner = nest.map_structure(lambda x: A.reshape(x, _shape_tuple((-1,), x, 2)), inputs)
        output_mask = self.layer.compute_mask(inner, inner_mask)
        if output_mask is None:
            if mask is None:
                return None
            output_mask = mask
            for _ in range(2, len(mask.shape)):
                output_mask = M.reduce_any(output_mask, axis=-1)
            return output_mask
        input_length = first.shape[1] or A.shape(first)[1]
        return A.reshape(output_mask, _shape_tuple((batch_size or -1, input_length),
                                                   output_mask, 1))

    def get_config(self):
        from simdist.keras.layers import serialization

        cfg = super().get_config()
        cfg["layer"] = serialization.serialize(self.layer)
        return cfg

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from simdist.keras.layers import serialization

        config = dict(config)
        config["layer"] = serialization.deserialize(config["layer"], custom_objects)
        return cls(**config)


def _shape_list(shape):
    """A shape (or a nest of them) as lists of dimensions."""
    if isinstance(shape, (list, tuple)) and shape and all(
            isinstance(s, (list, tuple, TensorShape)) for s in shape):
        return [_shape_list(s) for s in shape]
    return _dims(shape)


def _leaves(shapes) -> list:
    if shapes and isinstance(shapes[0], list):
        return [leaf for s in shapes for leaf in _leaves(s)]
    return [shapes]


def _map_shapes(fn, shapes):
    if shapes and isinstance(shapes[0], list):
        return [_map_shapes(fn, s) for s in shapes]
    return fn(shapes)
