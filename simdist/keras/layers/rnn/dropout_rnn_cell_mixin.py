"""Dropout masks of a recurrent cell (TF-Keras's DropoutRNNCellMixin).

Glossary:
  mask          -- ``tf.nn.dropout`` of ``ones_like(inputs)`` (zeros and ``1 / (1 - rate)``)
                   in training, else the ones; ``count`` of them at once (LSTMCell: 4, one
                   per gate). ``training`` a boolean tensor: a ``tf.cond`` between the two
                   (in a trace both are built; eagerly the one its value selects).
  mask cache    -- the masks are made once per context (eager, or the tf.function graph
                   being traced, or a loop body or cond branch traced in it: TF's graphs of
                   their own) and reused by every later call there until
                   ``reset_dropout_mask`` / ``reset_recurrent_dropout_mask``, so the steps
                   of one sequence share their masks (an RNN layer resets them per call).
                   A cell called with training off first caches the ones. A traced RNN's
                   loop body so makes its own masks after the time-zero step's (op seeds
                   counted from 0 there, TF's): they are drawn again at every step, as TF's
                   random ops in a while body are.
  legacy seeds  -- each mask is one ``tf.nn.dropout`` with the op seed ``seed``,
                   ``seed + 1``, ... (the cell's ``seed``, counted on; TF-Keras's
                   RandomGenerator.make_legacy_seed); unseeded, TF's op seeds from the
                   global seed.

Mirrors tf_keras/src/layers/rnn/dropout_rnn_cell_mixin.py and backend.py
(RandomGenerator "legacy_stateful", ContextValueCache, in_train_phase).
"""

from __future__ import annotations

import weakref

from simdist.framework import func_graph, graph_control_flow
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import cond as cond_lib
from simdist.framework.ops import dropout_ops
from simdist.framework.tensor import Tensor

_EAGER = type("_Eager", (), {})()   # the cache key outside any trace


class DropoutRNNCellMixin:
    """Cached dropout masks for a cell's inputs and recurrent state (see the glossary)."""

    def _init_dropout_masks(self, seed) -> None:
        self._legacy_seed = seed
        self._dropout_masks = weakref.WeakKeyDictionary()
        self._recurrent_dropout_masks = weakref.WeakKeyDictionary()

    def reset_dropout_mask(self) -> None:
        """Forget the input masks: the next call draws new ones."""
        self._dropout_masks.clear()

    def reset_recurrent_dropout_mask(self) -> None:
        """Forget the recurrent masks: the next call draws new ones."""
        self._recurrent_dropout_masks.clear()

    def get_dropout_mask_for_cell(self, inputs, training, count=1):
        """The input masks (None without input dropout), made now or cached."""
        return self._cached(self._dropout_masks, self.dropout, inputs, training, count)

    def get_recurrent_dropout_mask_for_cell(self, inputs, training, count=1):
        """The recurrent-state masks (None without recurrent dropout), made or cached."""
        return self._cached(self._recurrent_dropout_masks, self.recurrent_dropout, inputs,
                            training, count)

    def _cached(self, cache, rate, inputs, training, count):
        if rate == 0:
            return None
        key = func_graph.current() or _EAGER
        # (a loop body or cond branch is a graph of its own in TF: masks of its own)
        by_body = cache.setdefault(key, {})
        body = graph_control_flow.innermost_body(func_graph.current())
        masks = by_body.get(body)
        if masks is None:
            masks = by_body[body] = [self._mask(inputs, rate, training) for _ in range(count)]
        return masks if count > 1 else masks[0]

    def _mask(self, inputs, rate, training):
        ones = A.ones_like(inputs)
        if isinstance(training, Tensor):   # TF's in_train_phase: a switch (tf.cond)
            return cond_lib.cond(training, lambda: dropout_ops.dropout(
                ones, rate, seed=self._make_legacy_seed()), lambda: ones)
        if not training:   # (TF's in_train_phase: training None is the learning phase, 0)
            return ones
        return dropout_ops.dropout(ones, rate, seed=self._make_legacy_seed())

    def _make_legacy_seed(self):
        seed = self._legacy_seed
        if seed is not None:
            self._legacy_seed = seed + 1
        return seed
