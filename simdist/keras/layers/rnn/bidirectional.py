"""``tf.keras.layers.Bidirectional``: an RNN run forwards and backwards, outputs merged.

Glossary:
  forward / backward -- two new layers made from the wrapped layer's config (its weights
                        are not shared; the wrapped layer itself is not tracked), the second
                        with ``go_backwards`` flipped (or the given ``backward_layer``),
                        named 'forward_<name>' and 'backward_<name>'.
  merge_mode     -- 'concat' (last axis), 'sum', 'ave', 'mul', or None (both outputs in a
                    list). With ``return_sequences`` the backward outputs are reversed in
                    time first, so step t of both is the same input step.
  masks          -- given to both layers; with ``return_sequences`` both output zeros at
                    masked steps (``zero_output_for_mask`` forced on, as TF).
  return_state   -- ``[output] + forward states + backward states``.
  constants      -- given to both layers (an RNN whose cell takes them); ``num_constants``
                    in the config.

Mirrors tf_keras/src/layers/rnn/bidirectional.py.
"""

from __future__ import annotations

import copy
import inspect

from simdist.framework.name_scope import name_scope
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.engine.base_layer import Layer, _accepts

_MODES = ("sum", "mul", "ave", "concat", None)


class Bidirectional(Layer):
    """Bidirectional wrapper for RNNs (``tf.keras.layers.Bidirectional``).

    Raises:
      ValueError: ``layer`` or ``backward_layer`` not a Layer, an unknown ``merge_mode``,
        a backward layer whose ``go_backwards`` is not the other one's, or whose
        ``stateful`` / ``return_sequences`` / ``return_state`` differ.
    """

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None,
                 **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `Bidirectional` layer with a "
                             f"`tf.keras.layers.Layer` instance. Received: {layer}")
        if backward_layer is not None and not isinstance(backward_layer, Layer):
            raise ValueError("`backward_layer` need to be a `tf.keras.layers.Layer` "
                             f"instance. Received: {backward_layer}")
        if merge_mode not in _MODES:
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should "
                             'be one of {"sum", "mul", "ave", "concat", None}')
        if weights:
            raise NotImplementedError("Bidirectional(weights=...) is not simulated by "
                                      "simdist: call set_weights once it is built.")
        super().__init__(**kwargs)
        object.__setattr__(self, "layer", layer)   # not tracked: its two copies run
        self.forward_layer = _recreate(layer)
        if backward_layer is None:
            self.backward_layer = _recreate(layer, go_backwards=True)
        else:
            self.backward_layer = backward_layer
            self._backward_layer_config = _serialize(backward_layer)
        self.forward_layer._name = "forward_" + self.forward_layer.name
        self.backward_layer._name = "backward_" + self.backward_layer.name
        self._verify_layer_config()
        for sub in (self.forward_layer, self.backward_layer):
            if getattr(sub, "zero_output_for_mask", None) is not None:
                sub.zero_output_for_mask = sub.return_sequences
        self.merge_mode = merge_mode
        self.stateful = layer.stateful
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self.supports_masking = True
        self._trainable = kwargs.get("trainable", layer.trainable)
        self.input_spec = layer.input_spec
        self._num_constants = 0

    def _verify_layer_config(self) -> None:
        fwd, bwd = self.forward_layer, self.backward_layer
        if fwd.go_backwards == bwd.go_backwards:
            raise ValueError("Forward layer and backward layer should have different "
                             f"`go_backwards` value.forward_layer.go_backwards = "
                             f"{fwd.go_backwards},backward_layer.go_backwards = "
                             f"{bwd.go_backwards}")
        for a in ("stateful", "return_sequences", "return_state"):
            if getattr(fwd, a) != getattr(bwd, a):
                raise ValueError("Forward layer and backward layer are expected to have the "
                                 f'same value for attribute "{a}", got "{getattr(fwd, a)}" '
                                 f'for forward layer and "{getattr(bwd, a)}" for backward '
                                 "layer")

    def build(self, input_shape):
        for sub in (self.forward_layer, self.backward_layer):
            with name_scope(sub.name):
                sub.build(input_shape)
                sub.built = True
        super().build(input_shape)

    def compute_output_shape(self, input_shape):
        output_shape = self.forward_layer.compute_output_shape(input_shape)
        state_shape = None
        if self.return_state:
            state_shape = [tuple(s) for s in output_shape[1:]]
            output_shape = output_shape[0]
        output_shape = tuple(output_shape)
        if self.merge_mode == "concat":
            last = output_shape[-1]
            output_shape = output_shape[:-1] + (None if last is None else last * 2,)
        elif self.merge_mode is None:
            output_shape = [output_shape, output_shape]
        if self.return_state:
            if self.merge_mode is None:
                return output_shape + state_shape + copy.copy(state_shape)
            return [output_shape] + state_shape + copy.copy(state_shape)
        return output_shape

    def __call__(self, inputs, initial_state=None, constants=None, **kwargs):
        if isinstance(inputs, (list, tuple)) and len(inputs) > 1 and initial_state is None \
                and constants is None:
            inputs = list(inputs)
            if self._num_constants:
                inputs, constants = inputs[:-self._num_constants], \
                    inputs[-self._num_constants:]
            inputs, initial_state = inputs[0], (list(inputs[1:]) or None)
        if constants is not None:
            constants = list(constants) if isinstance(constants, (list, tuple)) \
                else [constants]
            self._num_constants = len(constants)
            for sub in (self.forward_layer, self.backward_layer):
                sub._num_constants = self._num_constants
            kwargs["constants"] = constants
        if initial_state is not None:
            kwargs["initial_state"] = list(initial_state)
        return super().__call__(inputs, **kwargs)

    def call(self, inputs, training=None, mask=None, initial_state=None, constants=None):
        kwargs = {}
        if _accepts(self.layer.call, "training"):
            kwargs["training"] = training
        if _accepts(self.layer.call, "mask"):
            kwargs["mask"] = mask
        if _accepts(self.layer.call, "constants"):
            kwargs["constants"] = constants
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state, backward_state = initial_state[:half], initial_state[half:]
        y = self.forward_layer(inputs, initial_state=forward_state, **kwargs)
        y_rev = self.backward_layer(inputs, initial_state=backward_state, **kwargs)
        states = []
        if self.return_state:
            states = list(y[1:]) + list(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = A.reverse(y_rev, [0 if getattr(self.forward_layer, "time_major", False)
                                      else 1])
        output = _merge(self.merge_mode, y, y_rev)
        if self.return_state:
            return output + states if self.merge_mode is None else [output] + states
        return output

    def compute_mask(self, inputs, mask):
        if isinstance(mask, list):
            mask = mask[0]
        if self.return_sequences:
            output_mask = mask if self.merge_mode else [mask, mask]
        else:
            output_mask = None if self.merge_mode else [None, None]
        if self.return_state:
            state_mask = [None for _ in self.forward_layer.states]
            if isinstance(output_mask, list):
                return output_mask + state_mask * 2
            return [output_mask] + state_mask * 2
        return output_mask

    def reset_states(self, states=None):
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        if states is None:
            self.forward_layer.reset_states()
            self.backward_layer.reset_states()
            return
        half = len(states) // 2
        self.forward_layer.reset_states(states[:half])
        self.backward_layer.reset_states(states[half:])

    def get_config(self):
        cfg = super().get_config()
        cfg.update(layer=_serialize(self.layer), merge_mode=self.merge_mode)
        if hasattr(self, "_backward_layer_config"):
            cfg["backward_layer"] = self._backward_layer_config
        if self._num_constants:
            cfg["num_constants"] = self._num_constants
        return cfg

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from simdist.keras.layers import serialization

        config = copy.deepcopy(config)
        num_constants = config.pop("num_constants", 0)
        config["layer"] = serialization.deserialize(config["layer"], custom_objects)
        if config.get("backward_layer") is not None:
            config["backward_layer"] = serialization.deserialize(config["backward_layer"],
                                                                 custom_objects)
        layer = cls(**config)
        layer._num_constants = num_constants
        return layer


def _merge(mode, y, y_rev):
    if mode == "concat":
        return A.concat([y, y_rev], axis=-1)
    if mode == "sum":
        return M.add(y, y_rev)
    if mode == "ave":
        return M.divide(M.add(y, y_rev), A.constant(2, dtype=y.dtype))
    if mode == "mul":
        return M.multiply(y, y_rev)
    return [y, y_rev]


def _serialize(layer) -> dict:
    from simdist.keras.layers import serialization

    return serialization.serialize(layer)


def _recreate(layer, go_backwards=False):
    """A new layer of ``layer``'s class from its config (``go_backwards`` flipped); an RNN's
    cell classes given as custom objects, as TF's _recreate_layer_from_config does."""
    config = layer.get_config()
    if go_backwards:
        config["go_backwards"] = not config["go_backwards"]
    if "custom_objects" not in inspect.signature(type(layer).from_config).parameters:
        return type(layer).from_config(config)
    cell = getattr(layer, "cell", None)
    cells = [] if cell is None else [cell] + list(getattr(cell, "cells", []))
    return type(layer).from_config(config, custom_objects={type(c).__name__: type(c)
                                                           for c in cells})
