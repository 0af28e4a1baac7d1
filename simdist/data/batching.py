"""Batching: stack elements into batches, split batches back, re-slice a batched stream.

Glossary:
  BatchDataset    -- ``batch(n, drop_remainder)``: ``n`` consecutive elements stacked along a
                     new leading dimension; the last batch is partial unless dropped, so the
                     spec's batch dimension is ``None`` unless ``drop_remainder=True``.
  UnbatchDataset  -- ``unbatch()``: one element per row of each batch.
  RebatchDataset  -- ``rebatch(sizes)``: the rows of the batched stream regrouped into batches
                     of ``sizes[0], sizes[1], ...`` (cycling); a batch may take rows from two
                     input batches. ``tf.distribute`` uses it to split each global batch into
                     per-replica batches (see :mod:`simdist.data.distribute_rules`).
  fast path       -- over a row source (``from_tensor_slices`` / ``range`` through shuffle,
                     take, skip, shard, repeat ...) a batch is one gather of its row indices.

Mirrors tensorflow/python/data/ops/batch_op.py, unbatch_op.py and rebatch_op.py.
"""

from __future__ import annotations

import itertools

import numpy as np

from simdist.data import composite_rows, iterator_errors, structure
from simdist.data.dataset_ops import (
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
    DatasetV2,
    int64_argument,
)
from simdist.framework import errors
from simdist.hardware import backend


class BatchDataset(DatasetV2):
    """Consecutive elements stacked into batches of ``batch_size``."""

    def __init__(self, input_dataset, batch_size, drop_remainder=False):
        batch_size = int64_argument(batch_size)
        if batch_size <= 0:
            raise iterator_errors.op_error("BatchDatasetV2",
                                           "Batch size must be greater than zero.")
        self._batch_size = batch_size
        self._drop = bool(drop_remainder)
        spec = structure.batch_spec(input_dataset.element_spec,
                                    batch_size if self._drop else None)
        super().__init__((input_dataset,), spec)

    def _cardinality(self) -> int:
        n = self._inputs[0]._cardinality()
        if n < 0:
            return n
        return n // self._batch_size if self._drop else -(-n // self._batch_size)

    def _values(self):
        stream = self._inputs[0]._index_stream()
        if stream is not None:
            yield from self._gather_batches(*stream)
        else:
            yield from self._stack_batches()

    def _gather_batches(self, source, indices):
        # Fast path: take the next batch_size row indices and gather them in one go.
        # (a shuffle's order hands out whole slices: ``take``)
        bs = self._batch_size
        take = getattr(indices, "take", None)
        while True:
            idx = np.array(take(bs), dtype=np.int64) if take is not None else \
                np.fromiter(itertools.islice(indices, bs), dtype=np.int64)
            if len(idx) == 0 or (self._drop and len(idx) < bs):
                return
            yield source._rows(idx)

    def _stack_batches(self):
        for chunk in self._chunks():
            yield stack(chunk, fused=type(self) is BatchDataset and
                        type(self._inputs[0]).__name__ == "MapDataset")

    def _chunks(self):
        """The input's elements, ``batch_size`` at a time (a last short one unless
        dropped)."""
        bs = self._batch_size
        it = self._inputs[0]._values()
        while True:
            chunk = list(itertools.islice(it, bs))
            if not chunk or (self._drop and len(chunk) < bs):
                return
            yield chunk


def stack(elements, fused=False):
    """Stack a list of value structures leaf-wise (TF's error for mismatched shapes: its
    BatchV2's, or a MapAndBatch's where a map is ``fused`` into the batch)."""
    xp = backend.xp
    first = elements[0]
    flats = [structure.flatten(e) for e in elements]
    out = []
    for c, leaves in enumerate(zip(*flats)):
        if leaves[0] is None:   # a None component (TF's NoneTensor) batches to None
            out.append(None)
            continue
        if composite_rows.is_composite(leaves[0]):   # a map's RaggedTensor / SparseTensor
            out.append(composite_rows.batch(leaves))
            continue
        shape0 = leaves[0].shape
        for i, leaf in enumerate(leaves[1:], 1):
            if leaf.shape != shape0:
                raise iterator_errors.batch_error(c, shape0, i, leaf.shape, fused)
        out.append(xp.stack(leaves))
    return structure.pack(first, out)


class UnbatchDataset(DatasetV2):
    """One element per row of each input element."""

    def __init__(self, input_dataset):
        super().__init__((input_dataset,), structure.unbatch_spec(input_dataset.element_spec))

    def _cardinality(self) -> int:
        n = self._inputs[0]._cardinality()
        return INFINITE_CARDINALITY if n == INFINITE_CARDINALITY else UNKNOWN_CARDINALITY

    def _values(self):
        for batch in self._inputs[0]._values():
            leaves = structure.flatten(batch)
            rows = {composite_rows.nrows(leaf) if composite_rows.is_composite(leaf)
                    else leaf.shape[0] for leaf in leaves if leaf is not None}
            if len(rows) > 1:
                raise errors.InvalidArgumentError(
                    None, None, f"Input element must have the same batch size in each "
                                f"component. Got sizes {sorted(rows)}.")
            for i in range(rows.pop() if rows else 0):
                yield structure.pack(batch, [
                    None if leaf is None else composite_rows.row(leaf, i)
                    if composite_rows.is_composite(leaf) else leaf[i, ...] for leaf in leaves])


class RebatchDataset(DatasetV2):
    """The rows of a batched stream regrouped into batches of the given size(s)."""

    def __init__(self, input_dataset, batch_size, drop_remainder=False):
        sizes = np.asarray(batch_size.numpy() if hasattr(batch_size, "numpy") else batch_size)
        if sizes.dtype.kind == "f":
            raise TypeError(f"Cannot convert {batch_size!r} to EagerTensor of dtype int64")
        self._scalar = sizes.ndim == 0
        self._sizes = [int(s) for s in sizes.reshape(-1)]
        # TF accepts these and then never ends (or fails later); say so at once instead.
        if not self._sizes or min(self._sizes) < 0 or sum(self._sizes) <= 0:
            raise errors.InvalidArgumentError(
                None, None, f"rebatch: batch sizes must be >= 0 with a positive sum, got "
                            f"{self._sizes}.")
        self._drop = bool(drop_remainder)
        static = self._sizes[0] if self._scalar and self._drop else None
        spec = structure.batch_spec(structure.unbatch_spec(input_dataset.element_spec), static)
        super().__init__((input_dataset,), spec)

    def _values(self):
        xp = backend.xp
        it = self._inputs[0]._values()
        pending: list = []  # input batches (flat leaf lists) not yet fully consumed
        have = 0
        template = None
        exhausted = False
        for want in itertools.cycle(self._sizes):
            while (have < want or template is None) and not exhausted:
                try:
                    batch = next(it)
                except StopIteration:
                    exhausted = True
                    break
                if template is None:
                    template = batch
                leaves = structure.flatten(batch)
                pending.append(leaves)
                have += composite_rows.count_rows(leaves[0]) if leaves else 0
            if have < want:
                # Input exhausted: a final partial batch, unless dropped.
                if have and not self._drop:
                    yield structure.pack(template, _concat(pending))
                return
            if template is None:
                # No input at all: TF still emits the zero-size batches the cycle asks for
                # (recorded), until a positive size finds nothing.
                yield _empty_from_spec(xp, self.element_spec)
                continue
            joined = _concat(pending)
            yield structure.pack(template, [composite_rows.rows_of(leaf, 0, want)
                                            for leaf in joined])
            rest = [composite_rows.rows_of(leaf, want, have) for leaf in joined]
            pending, have = [rest], have - want


def _empty_from_spec(xp, spec):
    def one(s):
        dims = [] if s.shape.rank is None else [0 if d is None else d for d in s.shape]
        return xp.zeros(tuple([0] + dims[1:]), dtype=s.dtype.as_numpy_dtype)

    return structure.map_leaves(one, spec)


def _concat(pending):
    if len(pending) == 1:
        return pending[0]
    return [composite_rows.concat_rows(parts) for parts in zip(*pending)]
