"""``compile(steps_per_execution=N)``: several steps per call of the train (or test) function.

Glossary:
  execution      -- one call of Keras's train function: ``N`` steps in a row (one XLA
                    program on a TPU), with no Python callback between them.
  batch hooks    -- ``on_train_batch_begin(step)`` (and on_test_..) with the first step and
                    ``on_train_batch_end(step + N - 1, logs)`` with its last step and the last
                    step's logs; ``optimizer.iterations`` still counts every step.
  partial / cut  -- the last execution of an epoch runs only the steps left; ``N`` above
                    one epoch's steps is cut to one epoch.
Mirrors tf_keras/src/engine/data_adapter.py (DataHandler.steps, _truncate_execution_to_epoch,
_validate_data_handler) and the fit loop of tf_keras/src/engine/training.py.
"""

from __future__ import annotations


def validate(steps_per_execution) -> int:
    """The number of steps per execution: 1 when not given, and for 0 (TF 2.21 then runs
    one step per call too)."""
    if steps_per_execution is None:
        return 1
    return max(1, int(getattr(steps_per_execution, "numpy", lambda: steps_per_execution)()))


def check_data_size(steps_per_execution: int, steps) -> None:
    """Keras's refusal of several steps per execution when the epoch's length is unknown.

    Raises:
      ValueError: ``steps_per_execution > 1`` with data of unknown size.
    """
    if steps_per_execution > 1 and steps is None:
        raise ValueError("Could not infer the size of the data. With `steps_per_execution > "
                         "1`, you must specify the number of steps to run.")


def executions(epoch_batches, steps_per_execution: int, steps):
    """Group one epoch's ``(step, batch)`` pairs into ``(first_step, [batches])`` executions."""
    n = steps_per_execution if steps is None else max(1, min(steps_per_execution, steps))
    group, first = [], 0
    for step, batch in epoch_batches:
        if not group:
            first = step
        group.append(batch)
        if len(group) == n:
            yield first, group
            group = []
    if group:
        yield first, group
