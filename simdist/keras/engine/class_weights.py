"""Keras's ``class_weight``: a map over the batches of ``fit`` that makes each example's
sample weight its class's weight (times its own sample weight).

Glossary:
  class ids     -- the keys of ``class_weight``: 0 .. n-1, else Keras's ValueError.
  class of y    -- argmax of a row of one-hot labels (rank >= 2, more than one column),
                   else the label rounded (TF's ``tf.round``: halves to even).
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

from simdist.framework import errors, graph_errors

_MAPS = itertools.count(1)
_GATHER = types.SimpleNamespace(name="GatherV2", frames=())   # the node the error names


def class_weight_fn(class_weight, targets=True, parallel=True):
    """The map function ``(x, y[, sw]) -> (x, y, sw * class_weight[class of y])``.

    Raises:
      ValueError: keys that are not 0 .. n-1, or no targets to weigh.
    """
    from simdist.framework.ops import array_ops as A

    table = _class_ids(class_weight)
    if not targets:
        raise ValueError("`class_weight` is only supported when targets are given.")
    iterator = "ParallelMapV2" if parallel else "Map"
    context = (f"Error in user-defined function passed to MapDataset:{next(_MAPS)} "
               f"transformation with iterator: Iterator::Root::{iterator}: ")

    def fn(*data):
        from simdist.keras.engine.data_adapter import _host, unpack_x_y_sample_weight

        x, y, sw = unpack_x_y_sample_weight(data)
        cw = A.constant(_gather(table, _y_classes(_host(y)), context))
        return (x, y, cw) if sw is None else (x, y, A.cast(sw, "float32") * cw)

    return fn


def _class_ids(class_weight):
    ids = sorted(class_weight)
    if ids != list(range(len(ids))):
        raise ValueError("Expected `class_weight` to be a dict with keys from 0 to one less "
                         f"than the number of classes, found {class_weight}")
    return np.array([class_weight[i] for i in ids], dtype=np.float32)


def _y_classes(y):
    """Class ids from labels: argmax of one-hot rows, else the rounded labels."""
    y = np.asarray(y)
    if y.ndim >= 2:
        return np.argmax(y, axis=1) if y.shape[1] > 1 else np.round(y[:, 0]).astype(np.int64)
    return np.round(y).astype(np.int64)


def _gather(table, ids, context):
    """``table[ids]`` with TF's error for an id out of range (see the module docstring)."""
    bad = np.flatnonzero((ids < 0) | (ids >= len(table)))
    if bad.size:
        i = int(bad[0])
        raise graph_errors.at_node(errors.InvalidArgumentError(
            None, None, f"{context}indices[{i}] = {int(ids.flat[i])} is not in "
                        f"[0, {len(table)}) [Op:GatherV2]\n`class_weight` needs integer class "
                        "labels (or one-hot rows) in 0 .. len(class_weight) - 1."),
            _GATHER) from None
    return table[ids]
