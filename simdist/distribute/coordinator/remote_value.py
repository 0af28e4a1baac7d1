"""``RemoteValue`` and ``PerWorkerValues``: what ``ClusterCoordinator`` hands back.

Glossary:
  RemoteValue      -- the future result of a scheduled function: NOT_READY until a worker
                      has run it, then READY with values or an error, or ABORTED when its
                      worker failed (a per-worker resource, until rebuilt on recovery).
                      ``get`` waits and gives Tensors, ``fetch`` gives NumPy values.
  PerWorkerValues  -- one RemoteValue per worker (``tf.distribute.coordinator.PerWorkerValue``):
                      passed to ``schedule``, each worker's function gets its own component.
  waiting          -- here "waiting" drives the simulated cluster until the value is ready
                      (bounded: nothing blocks on a real clock).

Mirrors tensorflow/python/distribute/coordinator/remote_value.py and values.py.
"""

from __future__ import annotations

import enum

from simdist.framework import errors, nest


class RemoteValueStatus(enum.Enum):
    """The states a RemoteValue goes through (TF's RemoteValueStatus)."""

    NOT_READY = "NOT_READY"
    ABORTED = "ABORTED"
    READY = "READY"


class RemoteValue:
    """An asynchronously available value of a scheduled function."""

    def fetch(self):
        """Wait for the result and return it as NumPy values (the function's structure)."""
        raise NotImplementedError("Must be implemented in subclasses.")

    def get(self):
        """Wait for the result and return it as Tensors (the function's structure)."""
        raise NotImplementedError("Must be implemented in subclasses.")


class RemoteValueImpl(RemoteValue):
    """The RemoteValue of one closure; ``_cluster`` drives the simulation while waiting."""

    def __init__(self, closure, cluster):
        self._closure = closure  # kept for resources (rebuilt on a recovered worker)
        self._cluster = cluster
        self._values = None
        self._error = None
        self._status = RemoteValueStatus.NOT_READY

    def _set_values(self, values):
        self._status, self._values, self._error = RemoteValueStatus.READY, values, None

    def _set_error(self, error):
        self._status, self._values, self._error = RemoteValueStatus.READY, None, error

    def _set_aborted(self, error):
        self._status, self._values, self._error = RemoteValueStatus.ABORTED, None, error

    def _wait(self):
        if self._status is RemoteValueStatus.NOT_READY:
            self._cluster.run_until(lambda: self._status is not RemoteValueStatus.NOT_READY)

    def _get_values(self):
        self._wait()
        return self._values

    def _get_error(self):
        self._wait()
        return self._error

    def _wait_and_maybe_error(self):
        self._wait()
        if self._status is RemoteValueStatus.ABORTED:
            raise errors.CancelledError(None, None, "The corresponding function is aborted. "
                                        "Please reschedule the function.")
        if self._error is not None:
            raise self._error

    def get(self):
        """The result as Tensors, copied to the coordinator."""
        self._wait_and_maybe_error()
        return self._values

    def fetch(self):
        """The result as NumPy values (``None`` for a function that returns nothing)."""
        return nest.map_structure(lambda x: x.numpy() if hasattr(x, "numpy") else x,
                                  self.get())

    def __repr__(self):
        return f"<RemoteValue {self._status.value}>"


class PerWorkerValues:
    """One value per worker; ``schedule`` passes each worker its own component.

    Raises:
      AssertionError: a component is not a RemoteValue (TF's check).
    """

    def __init__(self, values):
        for v in values:
            if not isinstance(v, RemoteValue):
                raise AssertionError("`PerWorkerValues` should only take `RemoteValue`s.")
        self._values = tuple(values)

    def __repr__(self):
        return f"PerWorkerValues({len(self._values)} workers)"


def select_worker_slice(worker_index, structured):
    """Each PerWorkerValues in ``structured`` replaced by its ``worker_index`` component."""
    return nest.map_structure(
        lambda x: x._values[worker_index] if isinstance(x, PerWorkerValues) else x,
        structured)


def disallow_remote_value_as_input(structured):
    """TF's check: a RemoteValue cannot be an argument of a scheduled function (yet)."""
    for x in nest.flatten(structured):
        if isinstance(x, RemoteValue):
            raise ValueError("`tf.distribute.experimental.coordinator.RemoteValue` used as an "
                             "input to scheduled function is not yet supported.")
