"""The trace of each Keras step function, as far as its random ops see it.

Glossary:
  step function -- ``train_function`` / ``test_function`` / ``predict_function``: Keras
                   runs each step in a ``tf.function`` made once per compile (also used by
                   ``train_on_batch``). Its argument is the data iterator, whose batch
                   dimension is None, so a last, smaller batch does not retrace it.
  trace         -- that function's FuncGraph. Its random ops (Dropout's) get their seeds
                   when traced and keep their kernels' states across steps and epochs
                   (``random_ops.FunctionRandomState``).
  run_eagerly   -- no function: random ops draw as eager ops.

Mirrors make_train_function in keras/src/engine/training.py.
"""

from __future__ import annotations

import contextlib

from simdist.framework.ops import random_ops


def step_scope(model, name: str):
    """Run one step of ``model``'s step function ``name`` (nothing when run eagerly)."""
    if getattr(model, "_run_eagerly", False):
        return contextlib.nullcontext()
    traces = model.__dict__.setdefault("_step_traces", {})
    state = traces.get(name)
    if state is None:
        state = traces[name] = random_ops.FunctionRandomState()
    return random_ops.function_scope(state)
