"""Cross-device ops: how a strategy reduces and broadcasts values between devices.

Glossary:
  CrossDeviceOps        -- base: ``reduce``, ``batch_reduce``, ``broadcast`` (validate, then
                           call the ``*_implementation`` hook of the subclass).
  ReductionToOneDevice  -- copy every component to one device, add them there (in replica
                           order, as TF's ``add_n``), divide for MEAN, copy the result back out;
                           IndexedSlices are concatenated there instead (cross_device_utils).
  destinations          -- a device name, a Device, a tensor/variable (its device) or a
                           distributed value (its components' devices).

Mirrors tensorflow/python/distribute/cross_device_ops.py.
"""

from __future__ import annotations

from simdist.distribute import cross_device_utils, cross_replica_checks
from simdist.distribute.reduce_util import ReduceOp, as_reduce_op
from simdist.distribute.values import DistributedValues, Mirrored, PerReplica
from simdist.framework import context, execute
from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.tensor import Tensor, copy_to
from simdist.framework.variables import ResourceVariable
from simdist.hardware import array_api, backend
from simdist.hardware.device import Device
from simdist.hardware.machine import find_device

# Types whose ``_device`` is always set (None or a Device): read without _device_of.
_AT_HAND = frozenset((Tensor, ResourceVariable))


def get_devices_from(destinations) -> tuple:
    """The Device objects ``destinations`` names."""
    if isinstance(destinations, DistributedValues):
        # (a plain Tensor's or variable's device, a mirrored variable's components': at
        # hand; _device_of reads the same attribute after a call and two checks)
        return tuple([v._device if type(v) in _AT_HAND and v._device is not None
                      else _device_of(v) for v in destinations.values])
    if isinstance(destinations, Device):   # (strategy.reduce's host: at hand)
        return (destinations,)
    if isinstance(destinations, (list, tuple)):
        return tuple(find_device(d) for d in destinations)
    return (_device_of(destinations),)


def _device_of(x):
    dev = getattr(x, "_device", None)
    if dev is not None and not isinstance(x, str):
        return dev
    return find_device(getattr(x, "device", x))


def validate_destinations(destinations) -> None:
    """Raises TF's ValueError for destinations that name no device: None, an empty list or
    string, or a graph tensor made outside every ``tf.device`` scope (its ``device`` is
    '', as TF's check_destinations reads it: a one-replica all-reduce of a value made
    outside the replica function, inside a tf.function, has nowhere to go)."""
    if destinations is None or (isinstance(destinations, (list, tuple, str))
                                and not destinations) or \
            (isinstance(destinations, Tensor) and not destinations.device):
        raise ValueError(f"destinations can not be empty, got {destinations!r}")


def reduce_non_distributed_value(reduce_op, value, destinations, num_replicas):
    """Reduce a value that is not per-replica (the same on every replica) as TF does.

    Raises:
      ValueError: SUM/MIN/MAX of one value over several replicas (TF refuses to guess).
    """
    if isinstance(value, Mirrored) and reduce_op == ReduceOp.MEAN:
        return value
    if reduce_op == ReduceOp.MEAN:
        return value
    if num_replicas != 1:
        raise ValueError(
            f"A non-DistributedValues value {value!s} cannot be reduced with the given reduce op "
            f"{reduce_op}. Return it from strategy.run (a PerReplica) or use ReduceOp.MEAN."
        )
    validate_destinations(destinations)
    return simple_broadcast(execute.convert_to_tensor(value), destinations)


def batch_reduce_non_distributed_value(value, destinations):
    """A plain value in ``batch_reduce``: TF takes it as the only replica's value.

    So it comes back unreduced where it already lives on its destination (a tensor every
    replica shared, all-reduced with SUM, is not multiplied by the replica count).

    Raises:
      IndexError: the destination is another device (TF fails there with "tuple index out
        of range").
    """
    validate_destinations(destinations)
    t = execute.convert_to_tensor(value)
    if get_devices_from(destinations) == (t._device,):
        return t
    names = [d.name for d in get_devices_from(destinations)]
    raise IndexError(
        "batch_reduce_to cannot send a non-distributed value to other devices (TensorFlow "
        "takes it as a single replica's value and fails: tuple index out of range). Pass a "
        "PerReplica (what strategy.run returns), or reduce onto the value's own device "
        f"({t.device}) instead of {names}."
    )


def simple_broadcast(value, destinations):
    """Copy ``value`` to each destination device: one Tensor (or IndexedSlices), or a
    Mirrored of them."""
    devices = get_devices_from(destinations)
    t = value if isinstance(value, IndexedSlices) else execute.convert_to_tensor(value)
    copies = [cross_device_utils.copy_to_device(t, d) for d in devices]
    return copies[0] if len(copies) == 1 else Mirrored(copies)


class CrossDeviceOps:
    """Base class for cross-device reduction and broadcasting algorithms."""

    def reduce(self, reduce_op, per_replica_value, destinations, options=None):
        """Reduce ``per_replica_value`` to ``destinations``."""
        reduce_op = as_reduce_op(reduce_op)
        if not isinstance(per_replica_value, DistributedValues):
            per_replica_value = PerReplica([
                per_replica_value if isinstance(per_replica_value, IndexedSlices)
                else execute.convert_to_tensor(per_replica_value)])
        validate_destinations(destinations)
        if len(per_replica_value.values) == 1 and len(get_devices_from(destinations)) == 1:
            return simple_broadcast(per_replica_value.values[0], destinations)
        return self.reduce_implementation(reduce_op, per_replica_value, destinations, options)

    def batch_reduce(self, reduce_op, value_destination_pairs, options=None):
        """Reduce several (value, destinations) pairs; subclasses may pack them."""
        reduce_op = as_reduce_op(reduce_op)
        pairs = list(value_destination_pairs)
        for _, d in pairs:
            validate_destinations(d)
        return self.batch_reduce_implementation(reduce_op, pairs, options)

    def broadcast(self, tensor, destinations):
        """Copy ``tensor`` to ``destinations``."""
        validate_destinations(destinations)
        return self.broadcast_implementation(tensor, destinations)

    def reduce_implementation(self, reduce_op, per_replica_value, destinations, options):
        raise NotImplementedError

    def batch_reduce_implementation(self, reduce_op, pairs, options):
        return [self.reduce_implementation(reduce_op, v, d, options) for v, d in pairs]

    def broadcast_implementation(self, tensor, destinations):
        return simple_broadcast(tensor, destinations)

    def _gather(self, per_replica_value, destinations, axis):
        from simdist.framework.ops import array_ops

        devices = get_devices_from(destinations)
        parts = [execute.convert_to_tensor(v) for v in per_replica_value.values]
        with context.device(devices[0].name):
            gathered = array_ops.concat([copy_to(p, devices[0]) for p in parts], axis=axis)
        return simple_broadcast(gathered, destinations)


def _combine(reduce_op, arrays):
    """Combine arrays in replica order: left-to-right sums as TF's add_n kernel does."""
    xp = backend.xp
    acc = arrays[0]
    for a in arrays[1:]:
        if reduce_op in (ReduceOp.SUM, ReduceOp.MEAN):
            acc = acc + a
        elif reduce_op == ReduceOp.MIN:
            acc = xp.minimum(acc, a)
        else:
            acc = xp.maximum(acc, a)
    if reduce_op == ReduceOp.MEAN:
        acc = divide_by_n(acc, len(arrays))
    return acc


def divide_by_n(array, n):
    """``array / n`` as TF's truediv: floats keep their dtype, integers become float64."""
    kind = array_api.kind(array)
    if kind == "f":
        return array_api.astype(array / n, array_api.numpy_dtype(array))
    if kind in "iub":  # the Array API leaves int / int undefined: cast first, as NumPy does
        return array_api.astype(array, "float64") / n
    return array / n


class ReductionToOneDevice(CrossDeviceOps):
    """Copy all values to one device, reduce there, then broadcast to the destinations."""

    def __init__(self, reduce_to_device=None, accumulation_fn=None):
        self.reduce_to_device = reduce_to_device
        self.accumulation_fn = accumulation_fn

    def reduce_implementation(self, reduce_op, per_replica_value, destinations, options):
        devices = get_devices_from(destinations)
        target = find_device(self.reduce_to_device) if self.reduce_to_device else devices[0]
        if cross_device_utils.is_sparse(per_replica_value):   # concatenated, not densified
            reduced = cross_device_utils.aggregate(per_replica_value.values, target)
            if reduce_op == ReduceOp.MEAN:
                with context.device(target.name):
                    reduced = cross_device_utils.divide_by_n(reduced,
                                                             len(per_replica_value.values))
            return simple_broadcast(reduced, destinations)
        inputs = [execute.convert_to_tensor(v) for v in per_replica_value.values]
        cross_replica_checks.check_reduce_of(per_replica_value, inputs, "AddN")
        parts = [copy_to(t, target) for t in inputs]
        value = _combine(reduce_op, [p._value for p in parts])
        target.run(f"Reduce{reduce_op.value.title()}", flops=value.size * len(parts),
                   nbytes=array_api.nbytes(value) * (len(parts) + 1))
        from simdist.framework.tensor import Tensor

        return simple_broadcast(Tensor(value, target), destinations)
