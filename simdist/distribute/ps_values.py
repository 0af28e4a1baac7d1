"""The variables of ParameterServerStrategy: one copy, on a parameter server.

Glossary:
  CachingVariable -- TF 2.21's type for a variable made in a ParameterServerStrategy scope:
                     the variable lives on ``/job:ps/replica:0/task:N/device:CPU:0`` and
                     workers read and write it remotely. Here each read inside a scheduled
                     function is a *pull* and each write a *push* of the simulated cluster
                     (coordinator/simulation.py): they happen in simulated-time order
                     across workers, and ``_version`` counts the writes, so the trace shows
                     which version every step read and wrote. In a traced function its reads
                     and assigns are graph nodes, pulling and pushing at each execution (a
                     trace's shape inference pulls nothing). On the coordinator (outside
                     scheduled functions) it reads and writes as a plain variable.

Mirrors tensorflow/python/distribute/ps_values.py (CachingVariable).
"""

from __future__ import annotations

from simdist.distribute.coordinator import simulation
from simdist.framework import execute, func_graph
from simdist.framework.variables import ResourceVariable, _unread_spec, _UnreadVariable


class CachingVariable(ResourceVariable):
    """A variable placed on a parameter server (made by the strategy, not by users)."""

    _version = 0
    _ps_task = 0

    @classmethod
    def adopt(cls, var, ps_task):
        """Turn the ResourceVariable the creator chain made into one of these (in place)."""
        var.__class__ = cls
        var._version = 0
        var._ps_task = ps_task
        return var

    @func_graph.recorded(name="ReadVariableOp")   # its own node: a replayed read pulls
    def _read(self):
        run = simulation.current_run()
        if run is None or execute.in_shape_inference():   # a trace's shapes: no pull
            return super()._read()
        return run.pull(self, super()._read)

    def _update(self, delta, op_name, sign, read_value):
        """``assign_add`` / ``assign_sub`` done on the ps when the push arrives (atomic
        there, as TF's AssignAddVariableOp): concurrent pushes never lose an update."""
        run = simulation.current_run()
        d = self._new_value(delta, op_name)
        if run is None:
            self._write(self._value + sign * d, op_name)
        else:
            run.push(self, lambda: ResourceVariable._write(self, self._value + sign * d,
                                                           op_name))
        return _UnreadVariable(self) if read_value else None

    @func_graph.recorded(kind="stateful", spec=_unread_spec)
    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._update(delta, "assign_add", 1, read_value)

    @func_graph.recorded(kind="stateful", spec=_unread_spec)
    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._update(delta, "assign_sub", -1, read_value)

    def _write(self, new, op_name):
        run = simulation.current_run()
        if run is None:
            super()._write(new, op_name)
            self._version += 1
            return
        run.push(self, lambda: super(CachingVariable, self)._write(new, op_name))
