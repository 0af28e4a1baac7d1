"""``Dataset.rejection_resample``: elements kept or dropped to reach a target class mix.

Glossary:
  class_func    -- an element's class, a scalar int32 in ``[0, num_classes)``.
  initial_dist  -- the classes' mix in the input; None: estimated as it streams (counts
                   from 10 each, updated every 32 elements: TF's batch / scan / unbatch).
  acceptance    -- per class ``a_i = (t_i/p_i - m) / (M - m)`` with ``m, M`` the least and
                   greatest target-to-initial ratio; an element is kept when a seeded
                   ``tf.random.uniform`` draw is below its class's ``a_i`` (a filter).
  mixing        -- with probability ``m`` an element comes straight from the input (as
                   ``(class, element)``), else from the filtered stream, through
                   ``sample_from_datasets`` with ``seed``; ``m == 1``: the input only,
                   ``m == 0``: the filtered stream only (static distributions).
  result        -- ``(class, element)`` pairs; TF's pipeline, op for op, so a seed gives
                   TF's elements. TF also logs "Proportion of examples rejected by sampler
                   is high" when over half are dropped; simdist does not.

Mirrors DatasetV2.rejection_resample and its helpers in
tensorflow/python/data/ops/dataset_ops.py.
"""

from __future__ import annotations

import numpy as np

from simdist.data.dataset_ops import DatasetV2
from simdist.data.sampling import sample_from_datasets
from simdist.framework import dtypes, execute
from simdist.framework.ops import array_ops, math_ops, random_ops

_ESTIMATION_BATCH = 32   # dist_estimation_batch_size
_SMOOTHING = 10          # smoothing_constant: each class starts as seen this often


def _acceptance_and_mixing(initial, target):
    """``(a_i per class, m)`` (TF's _calculate_acceptance_probs_with_mixing)."""
    tiny = np.finfo(initial.dtype.as_numpy_dtype).tiny
    ratio = target / (initial + tiny)
    top, m = math_ops.reduce_max(ratio), math_ops.reduce_min(ratio)
    return (ratio - m) / (top - m), m


def _estimated_initial(target, class_values: DatasetV2) -> DatasetV2:
    """The class mix seen so far, one estimate per element (TF's
    _estimate_initial_dist_ds)."""
    num_classes = target.shape[0]
    seen = array_ops.fill([num_classes], np.int64(_SMOOTHING))

    def update(counts, classes):
        counts = counts + math_ops.reduce_sum(
            array_ops.one_hot(classes, num_classes, dtype=dtypes.int64), 0)
        dist = array_ops.cast(math_ops.truediv(counts, math_ops.reduce_sum(counts)),
                             dtypes.float32)
        return counts, array_ops.tile(array_ops.expand_dims(dist, 0), [_ESTIMATION_BATCH, 1])

    return class_values.batch(_ESTIMATION_BATCH).scan(seen, update).unbatch()


def _filtered(dataset, acceptance_ds, class_func, seed) -> DatasetV2:
    """``(class, element)`` of the elements a uniform draw keeps (TF's _filter_ds)."""
    def gather(acceptance, data):
        class_value = class_func(*data) if isinstance(data, tuple) else class_func(data)
        return class_value, array_ops.gather(acceptance, class_value), data

    def keep(*args):   # (class, acceptance probability, element)
        p = args[1]
        return random_ops.uniform([], seed=seed, dtype=p.dtype) < p

    return DatasetV2.zip((acceptance_ds, dataset)).map(gather).filter(keep).map(
        lambda class_value, _, data: (class_value, data))


def rejection_resample(dataset, class_func, target_dist, initial_dist=None, seed=None):
    """``dataset.rejection_resample(...)``: TF's pipeline (see the module docstring)."""
    target = array_ops.cast(execute.convert_to_tensor(target_dist), dtypes.float32)
    if initial_dist is not None:
        initial = array_ops.cast(execute.convert_to_tensor(initial_dist), dtypes.float32)
        acceptance, mixing = _acceptance_and_mixing(initial, target)
        initial_ds = DatasetV2.from_tensors(initial).repeat()
        acceptance_ds = DatasetV2.from_tensors(acceptance).repeat()
        mixing_ds = DatasetV2.from_tensors(mixing).repeat()
    else:
        initial_ds = _estimated_initial(target, dataset.map(class_func))
        both = initial_ds.map(lambda initial: _acceptance_and_mixing(initial, target))
        acceptance_ds = both.map(lambda accept, _: accept)
        mixing_ds = both.map(lambda _, mixing: mixing)
    acceptance_ds = DatasetV2.zip((acceptance_ds, initial_ds)).map(lambda accept, _: accept)
    filtered = _filtered(dataset, acceptance_ds, class_func, seed).prefetch(3)

    def with_class(*x):
        return (class_func(*x), x[0]) if len(x) == 1 else (class_func(*x), x)

    static = None
    if initial_dist is not None:   # TF's constant_value of both distributions
        static = np.min(target.numpy() / initial.numpy())
    if static == 1:
        return dataset.map(with_class)
    if static == 0:
        return filtered
    return sample_from_datasets([dataset.map(with_class), filtered],
                                weights=mixing_ds.map(lambda p: [(p, 1.0 - p)]), seed=seed,
                                stop_on_empty_dataset=True)
