"""Warnings that teach: classic tf.distribute mistakes TensorFlow accepts silently.

simdist computes exactly what TensorFlow computes, then warns once per mistake, naming it,
the fix, and the lesson that explains it.

Glossary:
  DistributionMistakeWarning -- the category (a UserWarning); silence it with
                   ``warnings.filterwarnings("ignore", category=DistributionMistakeWarning)``
                   or for the whole process with the environment variable
                   ``SIMDIST_WARNINGS=0`` (read at import; ``set_enabled`` changes it).
  MISTAKES      -- name -> Mistake(what went wrong, the fix, the lesson): one table.
  tag / tagged  -- a mark on a Tensor saying where it came from (an undistributed dataset,
                   a mean over the batch, ``compute_average_loss``); the layer that made the
                   tensor tags it, the layer that sees the mistake (a strategy, an optimizer)
                   reads the tag. Tagging and checking cost one flag test when disabled.
  warn          -- issue a mistake's warning, once per world (``reset_world`` forgets).
  silenced      -- a context without them, for code that shows a mistake on purpose.
This module imports only the bottom-layer simdist._world, so every layer may use it.
"""

from __future__ import annotations

import contextlib
import os
import sys
import warnings as _py_warnings
from typing import NamedTuple

from simdist import _world
from simdist.framework.thread_local import ThreadLocalNamespace

LESSONS = "lessons/"


class DistributionMistakeWarning(UserWarning):
    """A distributed-training mistake that TensorFlow runs silently (and so does simdist)."""


class Mistake(NamedTuple):   # not a dataclass: ~1 ms less at the first op
    """One classic mistake: what happened, how to fix it, where it is explained."""

    what: str
    fix: str
    lesson: str


MISTAKES: dict[str, Mistake] = {
    "undistributed_dataset": Mistake(
        "strategy.run got an element of a tf.data.Dataset (or a dataset or iterator) that "
        "was not distributed, so every one of the {replicas} replicas computes on the whole "
        "global batch: the gradients are summed {replicas} times over the same examples",
        "iterate strategy.experimental_distribute_dataset(dataset) (or "
        "strategy.distribute_datasets_from_function(...)) and pass its elements to "
        "strategy.run",
        "02_splitting_the_batch.md"),
    "per_replica_mean_loss": Mistake(
        "the gradients applied on {replicas} replicas were taken of a loss averaged over the "
        "per-replica batch (tf.reduce_mean); apply_gradients sums them across replicas, so "
        "the step is {replicas} times too large",
        "divide by the GLOBAL batch: tf.nn.compute_average_loss(per_example_loss, "
        "global_batch_size=GLOBAL_BATCH_SIZE)",
        "02_splitting_the_batch.md"),
    "sum_of_means": Mistake(
        "strategy.reduce(SUM, ...) added {replicas} per-replica means (tf.reduce_mean over "
        "each replica's batch): the result is {replicas} times the mean loss",
        "reduce with tf.distribute.ReduceOp.MEAN, or compute the per-replica loss with "
        "tf.nn.compute_average_loss(..., global_batch_size=...) and keep SUM",
        "01_replicas_and_reduction.md"),
    "mean_of_scaled": Mistake(
        "strategy.reduce(MEAN, ...) averaged {replicas} losses already divided by the global "
        "batch (tf.nn.compute_average_loss): the result is the mean loss divided by "
        "{replicas}",
        "reduce losses from compute_average_loss with tf.distribute.ReduceOp.SUM",
        "01_replicas_and_reduction.md"),
    "variable_outside_scope": Mistake(
        "variable {variable!r} was created outside strategy.scope() and is used on {replicas} "
        "replicas: it is one variable on one device, not mirrored, so every replica reads "
        "(and an update changes) that single copy",
        "create models, optimizers and variables inside `with strategy.scope():`",
        "04_a_training_step.md"),
    "none_aggregation_diverged": Mistake(
        "the {replicas} copies of mirrored variable {variable!r} (aggregation NONE) now hold "
        "different values: each replica wrote only its own copy in strategy.run, so the "
        "mirrors drifted apart and every replica trains a different model",
        "give the variable an aggregation (tf.Variable(..., aggregation="
        "tf.VariableAggregation.SUM or MEAN)), or update it through the optimizer, or "
        "in cross-replica context",
        "01_replicas_and_reduction.md"),
    "unscaled_regularization": Mistake(
        "the loss differentiated on each of {replicas} replicas adds the model's "
        "regularization losses unscaled; apply_gradients sums the replicas' gradients, so "
        "the regularization counts {replicas} times",
        "add tf.nn.scale_regularization_loss(tf.add_n(model.losses)) instead of "
        "tf.add_n(model.losses)",
        "09_loss_scaling.md"),
    "hierarchical_copy_odd_replicas": Mistake(
        "HierarchicalCopyAllReduce over {replicas} replicas: TensorFlow sums two groups of "
        "{replicas} // 2 devices, so the value of the last replica ({left_out}) is left out "
        "of every all-reduce (it still receives the others' sum); simdist computes the same",
        "use an even number of replicas with HierarchicalCopyAllReduce, or "
        "tf.distribute.ReductionToOneDevice() / NcclAllReduce()",
        "07_cross_device_ops.md"),
}

_ENABLED = os.environ.get("SIMDIST_WARNINGS", "1").strip().lower() not in ("0", "off",
                                                                            "false", "no")
_warned: set[str] = set()
_PACKAGE_DIR = os.path.dirname(os.path.realpath(__file__))
_SKIP_FILES = (_PACKAGE_DIR, os.path.dirname(_py_warnings.__file__) + os.sep + "threading")


def enabled() -> bool:
    """Whether teaching warnings are on (``SIMDIST_WARNINGS=0`` turns them off)."""
    return _ENABLED


def set_enabled(on: bool) -> bool:
    """Turn teaching warnings on or off for this process; returns the previous setting."""
    global _ENABLED
    previous, _ENABLED = _ENABLED, bool(on)
    return previous


@contextlib.contextmanager
def silenced():
    """No teaching warnings inside (for code that makes a mistake on purpose, to show it)."""
    previous = set_enabled(False)
    try:
        yield
    finally:
        set_enabled(previous)


def lesson_path(name: str) -> str:
    """The lesson that explains mistake ``name`` (a path from the repository root)."""
    return LESSONS + MISTAKES[name].lesson


def warn(mistake: str, **details) -> None:
    """Warn about ``mistake`` (a MISTAKES name) once per world, pointing at the user's line."""
    if not _ENABLED or mistake in _warned:
        return
    _warned.add(mistake)
    m = MISTAKES[mistake]
    message = (f"{m.what.format(**details)}. Fix: {m.fix.format(**details)}. See "
               f"{lesson_path(mistake)} (silence: SIMDIST_WARNINGS=0).")
    _py_warnings.warn(DistributionMistakeWarning(message), stacklevel=_user_stacklevel())


def _user_stacklevel() -> int:
    """How many frames up the first caller outside simdist and threading is."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(_SKIP_FILES):
        frame, level = frame.f_back, level + 1
    return level


# --- tags on tensors ----------------------------------------------------------------------
def tag(tensor, kind: str):
    """Mark ``tensor`` as made by ``kind`` (no-op when disabled); returns the tensor."""
    if _ENABLED:
        try:
            tensor._teach_tag = kind
        except AttributeError:  # not a simdist Tensor: nothing to mark
            pass
    return tensor


def tagged(value, kind: str) -> bool:
    """Whether ``value`` carries the tag ``kind``."""
    return getattr(value, "_teach_tag", None) == kind


# --- where a replica runs ------------------------------------------------------------------
_replica = ThreadLocalNamespace()


def enter_replica(num_replicas: int) -> None:
    """Note that this (replica) thread runs one of ``num_replicas`` replicas."""
    _replica.count = num_replicas


def regularization(tensor):
    """Tag a weight penalty, and note that this thread made one (checked at tape.gradient)."""
    if _ENABLED:
        _replica.regularization = True
        tag(tensor, "regularization")
    return tensor


def regularization_pending() -> bool:
    """Whether this thread runs one of several replicas and made a weight penalty since
    the last check (clears the note)."""
    made = getattr(_replica, "regularization", False)
    _replica.regularization = False
    return made and getattr(_replica, "count", 1) > 1


def replicas_here() -> int:
    """How many replicas run alongside this thread's (1 outside strategy.run)."""
    return getattr(_replica, "count", 1)


def check_variable_read(variable) -> None:
    """Warn when a replica of several reads a variable made outside any strategy scope."""
    replicas = getattr(_replica, "count", 1)
    if replicas > 1 and getattr(variable, "_distributed_container", None) is None:
        warn("variable_outside_scope", variable=variable.name.split(":")[0], replicas=replicas)


@_world.register_resetter
def _forget_warned() -> None:
    _warned.clear()
