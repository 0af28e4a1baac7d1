"""Merge layers: ``Add`` and ``Concatenate`` take a list of tensors and give one.

Glossary:
  merge       -- the inputs must share their batch size; ``Add`` broadcasts the rest as
                 NumPy does (a lower-rank input gets axes inserted after the batch one).
  Concatenate -- join along ``axis`` (the last by default); every other axis must match.

Mirrors tf_keras/src/layers/merging/base_merge.py, add.py and concatenate.py.
"""

from __future__ import annotations

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.engine.base_layer import Layer


def _shapes_list(input_shape, what):
    if not isinstance(input_shape, list) or not input_shape \
            or not isinstance(input_shape[0], tuple):
        raise ValueError(f"A merge layer should be called on a list of inputs. Received: "
                         f"input_shape={input_shape} (not a list of shapes)"
                         if what == "merge" else
                         "A `Concatenate` layer should be called on a list of at least 1 "
                         f"input. Received: input_shape={input_shape}")
    return input_shape


def _elementwise_shape(shape1, shape2):
    """The broadcast shape of two example shapes (None stays unknown)."""
    if len(shape1) < len(shape2):
        return _elementwise_shape(shape2, shape1)
    if not shape2:
        return shape1
    out = list(shape1[:-len(shape2)])
    for i, j in zip(shape1[-len(shape2):], shape2):
        if i is None or j is None:
            out.append(None)
        elif i == 1 or j == 1:
            out.append(j if i == 1 else i)
        elif i != j:
            raise ValueError(f"Inputs have incompatible shapes. Received shapes {shape1} and "
                             f"{shape2}")
        else:
            out.append(i)
    return tuple(out)


def _checked_masks(inputs, mask):
    """The merge's input masks, checked as Keras's (None: no mask at all)."""
    if mask is None:
        return None
    if not isinstance(mask, (tuple, list)):
        raise ValueError(f"`mask` should be a list. Received: mask={mask}")
    if not isinstance(inputs, (tuple, list)):
        raise ValueError(f"`inputs` should be a list. Received: inputs={inputs}")
    if len(mask) != len(inputs):
        raise ValueError("The lists `inputs` and `mask` should have the same length. "
                         f"Received: inputs={inputs} of length {len(inputs)}, and "
                         f"mask={mask} of length {len(mask)}")
    return None if all(m is None for m in mask) else mask


class _Merge(Layer):
    """An element-wise merge of a list of tensors; subclasses give ``_merge_function``.
    Its output's mask: the inputs' masks and-ed (steps masked in any input are masked)."""

    def compute_mask(self, inputs, mask=None):
        mask = _checked_masks(inputs, mask)
        if mask is None:
            return None
        masks = [A.expand_dims(m, axis=0) for m in mask if m is not None]
        return M.reduce_all(A.concat(masks, axis=0), axis=0)

    def build(self, input_shape):
        shapes = _shapes_list(input_shape, "merge")
        batch_sizes = {s[0] for s in shapes if s} - {None}
        if len(batch_sizes) > 1:
            raise ValueError("Cannot merge tensors with different batch sizes. Got tensors "
                             f"with shapes {shapes}")
        out = shapes[0][1:]
        for s in shapes[1:]:
            out = _elementwise_shape(out, s[1:])
        super().build(input_shape)

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError("A merge layer should be called on a list of inputs. Received: "
                             f"inputs={inputs} (not a list of tensors)")
        rank = max(x.ndim for x in inputs)
        expanded = []
        for x in inputs:
            for _ in range(rank - x.ndim):
                x = A.expand_dims(x, 1)
            expanded.append(x)
        return self._merge_function(expanded)

    def compute_output_shape(self, input_shape):
        out = tuple(input_shape[0][1:])
        for s in input_shape[1:]:
            out = _elementwise_shape(out, tuple(s[1:]))
        batch = {s[0] for s in input_shape} - {None}
        return ((batch.pop() if len(batch) == 1 else None), *out)


class Add(_Merge):
    """The sum of its inputs (``tf.keras.layers.Add``)."""

    def _merge_function(self, inputs):
        out = inputs[0]
        for x in inputs[1:]:
            out = out + x   # tf-keras's ``+=``: the graph op is 'add' ('add/add:0')
        return out


class Concatenate(Layer):
    """Its inputs joined along ``axis`` (``tf.keras.layers.Concatenate``). Its output's
    mask: the inputs' masks (all True for an unmasked input, a step mask widened to the
    features) joined along ``axis``, then all-ed over the last axis."""

    def compute_mask(self, inputs, mask=None):
        mask = _checked_masks(inputs, mask)
        if mask is None:
            return None
        masks = []
        for x, m in zip(inputs, mask):
            if m is None:
                masks.append(A.ones_like(x, dtype="bool"))
            elif m.ndim < x.ndim:
                masks.append(A.expand_dims(m, axis=-1))
            else:
                masks.append(m)
        return M.reduce_all(A.concat(masks, axis=self.axis), axis=-1)

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def build(self, input_shape):
        shapes = _shapes_list(input_shape, "concatenate")
        reduced = set()
        for s in shapes:
            s = list(s)
            del s[self.axis]
            reduced.add(tuple(s))
        if len(reduced) != 1:
            ranks = {len(s) for s in reduced}
            if len(ranks) != 1 or any(
                    len({s[a] for s in reduced if s[a] is not None}) > 1
                    for a in range(ranks.pop())):
                raise ValueError("A `Concatenate` layer requires inputs with matching shapes "
                                 "except for the concatenation axis. Received: "
                                 f"input_shape={shapes}")
        super().build(input_shape)

    def call(self, inputs):
        return A.concat(list(inputs), axis=self.axis)

    def compute_output_shape(self, input_shape):
        out = list(input_shape[0])
        for s in input_shape[1:]:
            if out[self.axis] is None or s[self.axis] is None:
                out[self.axis] = None
                break
            out[self.axis] += s[self.axis]
        return tuple(out)

    def get_config(self):
        cfg = super().get_config()
        cfg.update(axis=self.axis)
        return cfg


def add(inputs, **kwargs):
    """``Add()(inputs)`` (``tf.keras.layers.add``)."""
    return Add(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    """``Concatenate(axis)(inputs)`` (``tf.keras.layers.concatenate``)."""
    return Concatenate(axis=axis, **kwargs)(inputs)
