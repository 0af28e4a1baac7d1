"""One iterator's pass over a dataset, with its own random kernels.

Glossary:
  pass     -- the elements one iterator (``iter(ds)``, ``as_numpy_iterator``, a
              distributed dataset's iterator, ``Dataset.save``) pulls, from the first.
  kernels  -- the states of the stateful random ops (``tf.random.uniform``) of the pipeline's
              functions. TF's iterator instantiates its functions anew, so each iterator's
              kernels start from their seeds and move on only as it pulls: every epoch of a
              seeded map draws the same numbers, and two live iterators do not share draws.
              A function called outside any pass keeps kernels of its own.

Mirrors the iterator side of tensorflow/python/data/ops/iterator_ops.py (its function
library instantiated per iterator resource).
"""

from __future__ import annotations

import contextvars

# the pass pulling now: {function: its kernels in this pass}, or None
_pulling: contextvars.ContextVar = contextvars.ContextVar("simdist_dataset_pass", default=None)


def iterator_pass(dataset):
    """A new iterator's elements of ``dataset``, its functions drawing from kernels of this
    pass's own (each pull runs with them)."""
    kernels: dict = {}
    values = dataset._values()
    while True:
        token = _pulling.set(kernels)
        try:
            item = next(values)
        except StopIteration:
            return
        finally:
            _pulling.reset(token)
        yield item


def kernels_of(function, own: dict) -> dict:
    """The random kernels ``function`` runs with now: the pulling pass's, else ``own``."""
    kernels = _pulling.get()
    return own if kernels is None else kernels.setdefault(function, {})
