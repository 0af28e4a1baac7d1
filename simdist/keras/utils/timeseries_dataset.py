"""``tf.keras.utils.timeseries_dataset_from_array``: sliding windows over an array as a dataset.

Glossary:
  window        -- ``sequence_length`` rows of ``data`` taken every ``sampling_rate`` rows,
                   from a start position; starts every ``sequence_stride`` rows over
                   ``[start_index, end_index)`` (as many as ``targets`` has, when given).
  targets       -- the target of a window is ``targets[start]``.
  shuffle       -- the start positions shuffled by ``np.random.RandomState(seed)`` (a seed
                   drawn from NumPy's global generator when None), then the windows in a
                   buffer of ``batch_size * 8`` with the seed; then batched.
Each window is a gather of the whole array by its indices, in a map, as Keras builds it.

Mirrors tf_keras/src/utils/timeseries_dataset.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework.ops import array_ops as A


def _check(data, start_index, end_index, sampling_rate, sequence_stride):
    """Keras's ValueErrors for the index arguments."""
    n = len(data)
    if start_index:
        if start_index < 0:
            raise ValueError(f"`start_index` must be 0 or greater. Received: "
                             f"start_index={start_index}")
        if start_index >= n:
            raise ValueError("`start_index` must be lower than the length of the data. "
                             f"Received: start_index={start_index}, for data of length {n}")
    if end_index:
        if start_index and end_index <= start_index:
            raise ValueError("`end_index` must be higher than `start_index`. Received: "
                             f"start_index={start_index}, and end_index={end_index} ")
        if end_index >= n:
            raise ValueError("`end_index` must be lower than the length of the data. "
                             f"Received: end_index={end_index}, for data of length {n}")
        if end_index <= 0:
            raise ValueError(f"`end_index` must be higher than 0. Received: "
                             f"end_index={end_index}")
    for name, value in (("sampling_rate", sampling_rate), ("sequence_stride", sequence_stride)):
        if value <= 0:
            raise ValueError(f"`{name}` must be higher than 0. Received: {name}={value}")
        if value >= n:
            raise ValueError(f"`{name}` must be lower than the length of the data. Received: "
                             f"{name}={value}, for data of length {n}")


def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1,
                                  sampling_rate=1, batch_size=128, shuffle=False, seed=None,
                                  start_index=None, end_index=None):
    """A ``tf.data.Dataset`` of windows of ``data`` (and their targets), batched.

    Raises:
      ValueError: Keras's, for start/end indices, sampling rate or stride out of range.
    """
    from simdist.data import Dataset

    _check(data, start_index, end_index, sampling_rate, sequence_stride)
    start_index = 0 if start_index is None else start_index
    end_index = len(data) if end_index is None else end_index
    num_seqs = end_index - start_index - (sequence_length - 1) * sampling_rate
    if targets is not None:
        num_seqs = min(num_seqs, len(targets))
    index_dtype = "int32" if num_seqs < 2147483647 else "int64"
    start_positions = np.arange(0, num_seqs, sequence_stride, dtype=index_dtype)
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(start_positions)
    length = A.cast(sequence_length, index_dtype)
    rate = A.cast(sampling_rate, index_dtype)
    positions_ds = Dataset.from_tensors(start_positions).repeat()
    starts = Dataset.zip((Dataset.range(len(start_positions)), positions_ds))
    indices = starts.map(lambda i, p: A.range(p[i], p[i] + length * rate, rate))
    dataset = _sequences_from_indices(data, indices, start_index, end_index)
    if targets is not None:
        target_ds = _sequences_from_indices(targets, starts.map(lambda i, p: p[i]),
                                            start_index, end_index)
        dataset = Dataset.zip((dataset, target_ds))
    dataset = dataset.prefetch(-1)
    if batch_size is not None:
        if shuffle:
            dataset = dataset.shuffle(buffer_size=batch_size * 8, seed=seed)
        return dataset.batch(batch_size)
    return dataset.shuffle(buffer_size=1024, seed=seed) if shuffle else dataset


def _sequences_from_indices(array, indices_ds, start_index, end_index):
    from simdist.data import Dataset

    steps = Dataset.from_tensors(array[start_index:end_index]).repeat()
    return Dataset.zip((steps, indices_ds)).map(lambda s, i: A.gather(s, i))
