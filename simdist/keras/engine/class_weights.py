"""Keras's ``class_weight``: a map over the batches of ``fit`` that makes each example's
sample weight its class's weight (times its own sample weight).

Glossary:
  class ids     -- the keys of ``class_weight``: 0 .. n-1, else Keras's ValueError (a
                   list: TF's AttributeError on ``keys``; an empty dict weighs nothing).
                   The weights are TF's ``convert_to_tensor`` of them: int32 or float32.
  trace         -- TF traces the map function when fit starts, so these fail then: a
                   nested target (ValueError: a single output only), no target
                   (AttributeError on None's ``shape``), a sample weight of an unknown
                   batch size (TF's reshape of ``sw.shape + [1] * rank_delta`` cannot
                   convert a partially known TensorShape: a partial last batch of
                   arrays, a dataset batched without ``drop_remainder``).
  class of y    -- argmax over the last axis of one-hot labels (rank >= 2, more than one
                   column: a sequence's targets give a weight per step), else the label
                   (a last axis of one squeezed) rounded (TF's ``tf.round``: halves to even).
  sample weight -- times the class weight, cast to its dtype, its shape padded with ones
                   to the class weights' rank.
  map error     -- a class id outside the table is the map function's GatherV2 kernel error
                   while ``fit`` reads the batch (after the batches before it trained), as
                   TF 2.21 words it: ``Error in user-defined function passed to
                   MapDataset:<n> transformation with iterator: Iterator::Root::<Map>:
                   indices[2] = 2 is not in [0, 2)`` marked ``[[{{node GatherV2}}]]``
                   without a stack trace (a tf.data function's node). ``<n>`` counts TF's
                   datasets in the process (here: the class-weight maps made); ``<Map>`` is
                   ``Map`` for arrays, tf.data's parallelized ``ParallelMapV2`` for a
                   dataset (recorded from TF 2.21, without a distribution strategy; under
                   one TF's text lists a root error per replica, and arrays did not fail).

Mirrors tf_keras/src/engine/data_adapter.py (_make_class_weight_map_fn).
"""

from __future__ import annotations

import itertools
import types

import numpy as np

from simdist.framework import errors, graph_errors, nest

_MAPS = itertools.count(1)
_GATHER = types.SimpleNamespace(name="GatherV2", frames=())   # the node the error names


def class_weight_fn(class_weight, element_spec, parallel=True):
    """The map function ``(x, y[, sw]) -> (x, y, sw * class_weight[class of y])`` over
    batches of ``element_spec``, checked as TF's trace of it checks (see the glossary).

    Raises:
      ValueError: keys that are not 0 .. n-1; a nested target; a sample weight whose
        batch size is unknown (TF's reshape error).
      AttributeError: ``class_weight`` without ``keys`` or no target (TF's Python errors).
    """
    from simdist.framework.ops import array_ops as A

    table = _class_ids(class_weight)
    y_rank = _trace(element_spec)
    iterator = "ParallelMapV2" if parallel else "Map"
    context = (f"Error in user-defined function passed to MapDataset:{next(_MAPS)} "
               f"transformation with iterator: Iterator::Root::{iterator}: ")

    def fn(*data):
        from simdist.keras.engine.data_adapter import _host, unpack_x_y_sample_weight

        x, y, sw = unpack_x_y_sample_weight(data)
        cw = _gather(table, _y_classes(_host(y), y_rank), context)
        if sw is None:
            return x, y, A.constant(cw)
        sw = _host(sw)
        cw = cw.astype(sw.dtype)
        sw = sw.reshape(sw.shape + (1,) * (cw.ndim - sw.ndim))
        return x, y, A.constant(sw * cw)

    return fn


def _class_ids(class_weight):
    """TF's table: the weights by class id (``convert_to_tensor``: int32 or float32)."""
    ids = sorted(class_weight.keys())
    if ids != list(range(len(ids))):
        raise ValueError("Expected `class_weight` to be a dict with keys from 0 to one less "
                         f"than the number of classes, found {class_weight}")
    table = np.array([class_weight[int(i)] for i in ids])
    return table.astype(np.int32 if table.dtype.kind in "iub" else np.float32)


def _trace(element_spec):
    """What TF's trace of the map function checks on the batches' spec: a single target
    (its rank picks the classes) and a sample weight TF can reshape (a static shape)."""
    from simdist.keras.engine.data_adapter import unpack_x_y_sample_weight

    _, y, sw = unpack_x_y_sample_weight(element_spec)
    if nest.is_nested(y):
        raise ValueError("`class_weight` is only supported for Models with a single output.")
    y_rank = y.shape.rank   # no target: TF's AttributeError on None
    if sw is not None:
        cw_rank = y_rank - 1 if y_rank >= 2 else y_rank
        shape = sw.shape.concatenate([1] * max(cw_rank - sw.shape.rank, 0))
        if not shape.is_fully_defined():
            raise ValueError("Tried to convert 'shape' to a tensor and failed. Error: Cannot "
                             f"convert a partially known TensorShape {shape} to a Tensor.")
    return y_rank


def _y_classes(y, rank):
    """Class ids from labels: argmax over the last axis of one-hot rows, else the rounded
    labels (a last axis of one squeezed), as TF's map function."""
    y = np.asarray(y)
    if rank >= 2:
        return (np.argmax(y, axis=-1) if y.shape[-1] > 1
                else np.round(np.squeeze(y, axis=-1)).astype(np.int64))
    return np.round(y).astype(np.int64)


def _gather(table, ids, context):
    """``table[ids]`` with TF's error for an id out of range (see the module docstring)."""
    bad = np.argwhere((ids < 0) | (ids >= len(table)))
    if bad.size:
        i = ",".join(str(int(j)) for j in bad[0])
        raise graph_errors.at_node(errors.InvalidArgumentError(
            None, None, f"{context}indices[{i}] = {int(ids[tuple(bad[0])])} is not in "
                        f"[0, {len(table)}) [Op:GatherV2]\n`class_weight` needs integer class "
                        "labels (or one-hot rows) in 0 .. len(class_weight) - 1."),
            _GATHER) from None
    return table[ids]
