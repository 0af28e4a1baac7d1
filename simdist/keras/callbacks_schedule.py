"""``LearningRateScheduler``: set the optimizer's learning rate at the start of each epoch.

Glossary:
  schedule -- ``schedule(epoch, lr) -> new lr`` (0-based epoch, the current rate as a float);
              a one-argument ``schedule(epoch)`` is called when the two-argument call raises
              TypeError, as Keras does. It must return a float (or a float tensor).
  logs     -- at each epoch's end the rate is logged as ``lr`` (so ``History`` has it).
  verbose  -- 1 prints ``Epoch N: LearningRateScheduler setting learning rate to ...``.

Mirrors keras/src/callbacks.py (LearningRateScheduler).
"""

from __future__ import annotations

import numpy as np

from simdist.framework.tensor import Tensor
from simdist.keras import backend
from simdist.keras.callbacks import Callback


class LearningRateScheduler(Callback):
    """Sets the learning rate from ``schedule`` at the start of every epoch."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        """Raises: ValueError: an optimizer without ``lr``, or a schedule not giving a float."""
        optimizer = self.model.optimizer
        if not hasattr(optimizer, "lr"):
            raise ValueError('Optimizer must have a "lr" attribute.')
        try:
            lr = self.schedule(epoch, float(backend.get_value(optimizer.lr)))
        except TypeError:  # the old one-argument schedule(epoch)
            lr = self.schedule(epoch)
        if not isinstance(lr, (Tensor, float, np.float32, np.float64)):
            raise ValueError(f'The output of the "schedule" function should be float. Got: {lr}')
        if isinstance(lr, Tensor) and not lr.dtype.is_floating:
            raise ValueError(f"The dtype of `lr` Tensor should be float. Got: {lr.dtype}")
        backend.set_value(optimizer.lr, backend.get_value(lr))
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["lr"] = backend.get_value(self.model.optimizer.lr)
