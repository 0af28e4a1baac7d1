"""Values that hold one component per replica.

Glossary:
  DistributedValues  -- base: ``values`` (one per replica, in replica order) and the
                        current replica's component.
  PerReplica         -- components that may differ (``strategy.run`` results, batches).
  Mirrored           -- components known to be equal (results of an all-reduce, updates);
                        ops on a Mirrored use the local component.
  regroup            -- per-replica list of structures -> structure of PerReplica/Mirrored
                        (one object returned as is when every replica gave that object).
  select_replica     -- the inverse: replica ``i``'s component of every PerReplica/Mirrored.
  PerReplicaSpec     -- the type of a PerReplica: one spec per replica (a distributed
                        dataset's ``element_spec`` over several replicas, usable as a
                        ``tf.function`` input_signature); printed ``PerReplicaSpec(spec, ...)``.

Mirrors tensorflow/python/distribute/values.py and distribute_utils.py.
"""

from __future__ import annotations

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import nest
from simdist.framework.variables import Variable, format_without_spec


class DistributedValues:
    """Base class for values that have one component per replica."""

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self) -> tuple:
        return self._values

    def _replica_index(self) -> int | None:
        ctx = ds_context.get_replica_context()
        if ctx is None or getattr(ctx, "_replica_index", None) is None:
            return None
        return ctx._replica_index

    def _get(self):
        """The component of the current replica (the first one in cross-replica context)."""
        i = self._replica_index()
        return self._values[0 if i is None or i >= len(self._values) else i]

    def _get_on_device_or_primary(self):
        return self._get()

    @property
    def _devices(self) -> tuple:
        return tuple(getattr(v, "device", None) for v in self._values)

    def __str__(self) -> str:
        body = ",\n".join(f"  {i}: {v!s}" for i, v in enumerate(self._values))
        return f"{type(self).__name__}:{{\n{body}\n}}"

    def __repr__(self) -> str:
        body = ",\n".join(f"  {i}: {v!r}" for i, v in enumerate(self._values))
        return f"{type(self).__name__}:{{\n{body}\n}}"


class PerReplica(DistributedValues):
    """Holds a (possibly different) value for each replica."""

    def _as_tensor(self):
        if self._replica_index() is None and len(self._values) > 1:
            raise ValueError(
                "Cannot use a PerReplica value as a tensor in cross-replica context: it has "
                f"{len(self._values)} different components. Reduce it with strategy.reduce(), "
                "or read one with strategy.experimental_local_results()."
            )
        from simdist.framework import execute

        return execute.convert_to_tensor(self._get())

    @property
    def shape(self):
        return self._get().shape

    @property
    def dtype(self):
        return self._get().dtype


class PerReplicaSpec:
    """The type of a PerReplica: one TensorSpec (or composite spec) per replica."""

    __slots__ = ("_value_specs",)

    def __init__(self, *value_specs):
        self._value_specs = tuple(value_specs)

    value_type = property(lambda self: PerReplica)

    def _from_components(self, values):
        """A PerReplica of ``values`` (one per replica; specs too, for a trace)."""
        return PerReplica(values)

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other._value_specs == self._value_specs

    def __hash__(self) -> int:
        return hash(self._value_specs)

    def __repr__(self) -> str:   # TF's TypeSpec repr: the class name, then _serialize()
        return f"PerReplicaSpec{self._value_specs!r}"


class DistributedDelegate(DistributedValues):
    """A DistributedValues that forwards attribute access and operators to its local component."""

    def __getattr__(self, name):
        if name.startswith("_") or name in ("values",):
            raise AttributeError(name)
        return getattr(self._get(), name)

    def _as_tensor(self):
        from simdist.framework import execute

        return execute.convert_to_tensor(self._get())

    def numpy(self):
        return self._get().numpy()

    def _host_component(self):
        """The component that host conversions (``__array__``) read."""
        return self._get()

    def __array__(self, dtype=None, copy=None):
        # TF reaches the component's __array__ through __getattr__. A tensor's returns its
        # numpy() unchanged when no dtype is asked for, and for a 0-d value that is a NumPy
        # scalar, which np.array() refuses ("object __array__ method not producing an array").
        import numpy as np

        comp = self._host_component()
        if isinstance(comp, Variable):
            return comp.__array__(dtype)
        value = comp.numpy()
        return value if dtype is None else np.array(value, dtype=dtype)

    # TF's distributed values define none of the following, so Python's defaults apply:
    # each one is truthy (even a zero), and float(), int(), len() and format specs refuse
    # it. The errors say so and how to read a value instead.
    def __bool__(self):
        return True

    def __float__(self):
        raise TypeError(f"float() argument must be a string or a real number, not "
                        f"'{type(self).__name__}'. Read a value first: float(v.numpy()).")

    def __int__(self):
        raise TypeError(f"int() argument must be a string, a bytes-like object or a real "
                        f"number, not '{type(self).__name__}'. Read a value first: "
                        "int(v.numpy()).")

    def __len__(self):
        raise TypeError(f"object of type '{type(self).__name__}' has no len(). Use "
                        "len(v.numpy()), or v.shape[0].")

    __format__ = format_without_spec


def _delegate_operator(name):
    def op(self, *args):
        return getattr(self._get(), name)(*args)

    op.__name__ = name
    return op


# The operators TF's DistributedDelegate forwards to the local component.
OPERATORS = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
             "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__",
             "__rmod__", "__lt__", "__le__", "__gt__", "__ge__", "__and__", "__rand__",
             "__or__", "__ror__", "__xor__", "__rxor__", "__getitem__", "__pow__", "__rpow__",
             "__invert__", "__neg__", "__abs__", "__matmul__", "__rmatmul__")
for _name in OPERATORS:
    setattr(DistributedDelegate, _name, _delegate_operator(_name))


class Mirrored(DistributedDelegate):
    """Holds a value known to be the same on every replica."""

    def _get(self):
        i = self._replica_index()
        if i is None or i >= len(self._values):
            return self._values[0]
        return self._values[i]


# --- structure helpers ------------------------------------------------------------------
def regroup(values, wrap_class=PerReplica, always_wrap: bool = False):
    """Turn a per-replica list of structures into a structure of distributed values."""
    v0 = values[0]
    if isinstance(v0, (list, tuple)) and not isinstance(v0, DistributedValues):
        for v in values[1:]:
            if not isinstance(v, type(v0)) or len(v) != len(v0):
                raise ValueError(
                    "Replicas returned different structures: "
                    f"{type(v0).__name__} of {len(v0)} vs {type(v).__name__}. Every replica "
                    "must return the same structure from strategy.run."
                )
        items = [regroup([v[i] for v in values], wrap_class, always_wrap) for i in range(len(v0))]
        if hasattr(v0, "_fields"):
            return type(v0)(*items)
        return type(v0)(items)
    if isinstance(v0, dict):
        for v in values[1:]:
            if not isinstance(v, dict) or set(v) != set(v0):
                raise ValueError("Replicas returned dicts with different keys from strategy.run.")
        return type(v0)((k, regroup([v[k] for v in values], wrap_class, always_wrap))
                        for k in v0)
    same = all(v is v0 for v in values[1:])
    from simdist.distribute.distributed_variable import DistributedVariable

    if same and isinstance(v0, DistributedVariable):
        return v0
    container = getattr(v0, "_distributed_container", None)
    if container is not None and all(
        getattr(v, "_distributed_container", None) is container for v in values
    ):
        return container
    if same and not always_wrap:
        return v0
    return wrap_class(values)


def select_replica(replica_id: int, structured):
    """Replica ``replica_id``'s component of every PerReplica/Mirrored in ``structured``."""
    from simdist.distribute.distributed_variable import DistributedVariable

    def get(x):
        if isinstance(x, DistributedVariable) or not isinstance(x, DistributedValues):
            return x
        return x.values[replica_id]

    return nest.map_structure(get, structured)
