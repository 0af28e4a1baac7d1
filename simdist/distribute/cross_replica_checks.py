"""Can the replicas' values meet in one reduction or gather? TF's kernels' checks, up front.

Every entry point that combines the components of a distributed value (``strategy.reduce``,
``ReplicaContext.all_reduce`` / ``all_gather``, ``extended.batch_reduce_to``,
``strategy.gather``, the ``CrossDeviceOps``) calls :func:`check_reduce` or
:func:`check_gather` with the kernel TensorFlow 2.21 would run, and gets that kernel's error
(type and text) before any value is combined, instead of a silent upcast, a flattened sum
of differently shaped values or a NumPy reshape error.

Glossary:
  kernel     -- the TF op that combines the values: ``AddN`` (ReductionToOneDevice adds on
                one device: strategy.reduce, int32 values), ``CollectiveReduceV2`` (an
                all-reduce of every replica: MirroredStrategy's default CollectiveAllReduce
                in TF 2.21), ``CollectiveGatherV2`` (its all-gather), ``ConcatV2``
                (ReductionToOneDevice's gather).
  KERNELS    -- kernel name -> Kernel(dtypes it is registered for, collective or not).
  mismatch   -- replicas' dtypes differ: InvalidArgumentError from AddN/ConcatV2 ("cannot
                compute AddN as input #1 ..."), InternalError from a collective ("expected
                ... data_type 1 but got ... data_type 2"); shapes differ: InvalidArgumentError
                ("must have the same size and shape" / "Shape mismatch in the collective").
  kernel_for -- which kernel TF 2.21's MirroredStrategy picks for replica-context
                collectives: int32 values go to ReductionToOneDevice, others to collectives.
  remembered -- a scope in which a reduction check that passed for the very same tensors
                (by identity, held by the caller's values for the whole scope) and kernel
                is not made again: ``extended.batch_reduce_to`` checks each value, then
                the CrossDeviceOps it calls checks the same tensors before all-reducing.
  structure  -- a batch of distributed values as one key (per value its type, per
                component its device's serial, dtype and shape): all that the checks
                read, so a batch of a structure that passed them once passes again (a
                training step's gradients, step after step) and its callers keep the pass
                (``keep_pass``, in one bounded memo for every caller). A caller hands the
                key it built down to the ops it calls with the same values (``handing``).

Mirrors the checks of tensorflow/core/kernels/aggregate_ops.cc (AddN),
tensorflow/core/common_runtime/collective_param_resolver_local.cc and
base_collective_executor.cc (collective types and shapes), and the op registrations in
tensorflow/core/ops/math_ops.cc and collective_ops.cc.
"""

from __future__ import annotations

import contextlib
import operator
import threading
from typing import NamedTuple

import numpy as np

from simdist.distribute.values import DistributedValues
from simdist.framework import errors, execute
from simdist.framework.tensor import Tensor
from simdist.hardware import bounded_memo


class Kernel(NamedTuple):   # not a dataclass: ~1 ms less at MirroredStrategy()
    """A TF op that combines replicas' values, with what it accepts."""

    name: str
    dtypes: tuple  # dtype names it is registered for; () = any
    collective: bool  # every replica runs its own op (vs one device adding all inputs)
    gather: bool = False


_NUMBERS = ("float32", "float64", "int32", "uint8", "int16", "int8", "complex64", "int64",
            "bfloat16", "uint16", "complex128", "float16", "uint32", "uint64")

KERNELS = {k.name: k for k in (
    Kernel("AddN", _NUMBERS, collective=False),
    Kernel("CollectiveReduceV2", ("bfloat16", "float32", "float16", "float64", "int32",
                                  "int64"), collective=True),
    Kernel("CollectiveGatherV2", ("float32", "float16", "float64", "int32", "int64"),
           collective=True, gather=True),
    Kernel("ConcatV2", (), collective=False, gather=True),
)}

# TF's DataType enum values (types.proto), which a collective's type error prints.
_DATA_TYPE = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6,
              "string": 7, "complex64": 8, "int64": 9, "bool": 10, "bfloat16": 14,
              "uint16": 17, "complex128": 18, "float16": 19, "uint32": 22, "uint64": 23}

_ADVICE = ("Every replica must produce a tensor of the same dtype and shape for a "
           "cross-replica reduction or gather.")


def kernel_for(tensors, gather: bool = False, cross_device_ops=None) -> str:
    """The kernel TF 2.21's MirroredStrategy runs for a replica-context collective.

    int32 values (and a strategy built with ReductionToOneDevice) are combined on one
    device (AddN / ConcatV2); other values by the collective ops.
    """
    from simdist.distribute.cross_device_ops import ReductionToOneDevice

    if isinstance(cross_device_ops, ReductionToOneDevice) or any(
            t.dtype.name == "int32" for t in tensors):
        return "ConcatV2" if gather else "AddN"
    return "CollectiveGatherV2" if gather else "CollectiveReduceV2"


_local = threading.local()   # .passed: {(kernel, ids): tensors} inside ``remembered``;
                             # .handed: (values, their structure) inside ``handing``


@contextlib.contextmanager
def remembered():
    """Within: a ``check_reduce(..., keep=True)`` that passed is not repeated for the same
    tensors and kernel (see the module docstring). Nested scopes share the outer one's."""
    outer = getattr(_local, "passed", None)
    if outer is None:
        _local.passed = {}
    try:
        yield
    finally:
        if outer is None:
            _local.passed = None


def structure(values) -> tuple | None:
    """The key of a batch of distributed ``values`` that the checks read (see the module
    docstring); None unless every component is a Tensor holding a NumPy array (other
    batches are checked every time)."""
    key = []
    for v in values:
        if not isinstance(v, DistributedValues):
            return None
        row = [type(v)]
        for c in v._values:
            a = c._value if type(c) is Tensor else None
            if type(a) is not np.ndarray:
                return None
            row.append((c._device.serial, a.dtype, a.shape))   # holds no device
        key.append(tuple(row))
    return tuple(key)


_PASSED: dict = {}   # (what passed, structure) -> True: ``passed`` / ``keep_pass``
_LIMIT = 64   # structures kept (a program has a few, not many: a full memo starts over)


def passed(what, key) -> bool:
    """Whether checks ``what`` (a kernel's name, or a caller's label of its own checks)
    passed for a batch of structure ``key`` (None: never kept)."""
    return key is not None and (what, key) in _PASSED


def keep_pass(what, key) -> None:
    """Keep that checks ``what`` passed for a batch of structure ``key`` (see ``passed``)."""
    if key is not None:
        bounded_memo.keep(_PASSED, (what, key), True, _LIMIT)


def batch_structure(values):
    """``structure(values)``, the key a caller built for these very values where it handed
    it down (``handing``): an all-reduce's batch is keyed once per call."""
    handed = getattr(_local, "handed", None)
    if handed is not None and len(handed[0]) == len(values) and all(
            map(operator.is_, handed[0], values)):
        return handed[1]
    return structure(values)


class handing:   # noqa: N801 - a scope, used as ``with handing(values, key):``
    """Within: ``batch_structure`` of the same ``values`` (by identity) is ``key`` (a
    class, not a generator's context manager: every all-reduce enters one)."""

    __slots__ = ("handed", "outer")

    def __init__(self, values, key):
        self.handed = (values, key)

    def __enter__(self):
        self.outer = getattr(_local, "handed", None)
        _local.handed = self.handed

    def __exit__(self, *exc):
        _local.handed = self.outer


def check_reduce_of(value, tensors, kernel: str) -> None:
    """``check_reduce(tensors, kernel)`` of distributed ``value``'s ``tensors``, kept per
    the value's structure (a training step's loss, reduced step after step)."""
    key = structure((value,))
    if not passed(kernel, key):
        check_reduce(tensors, kernel)
        keep_pass(kernel, key)


def check_reduce(tensors, kernel: str, keep: bool = False) -> None:
    """Raise TF's error if ``tensors`` (one per replica) cannot be reduced by ``kernel``.

    ``keep``: inside ``remembered``, the caller's values hold ``tensors`` until the scope
    ends (they are not temporaries), so a pass is kept for a later check of the same ones.
    """
    passed = getattr(_local, "passed", None)
    if passed is not None:
        key = (kernel, *map(id, tensors))
        seen = passed.get(key)
        if seen is not None and all(a is b for a, b in zip(seen, tensors)):
            return
    k = KERNELS[kernel]
    _check_dtypes(tensors, k)
    _check_shapes(tensors, k, axis=None)
    if passed is not None and keep:
        passed[key] = tuple(tensors)


def check_gather(tensors, axis: int, kernel: str) -> None:
    """Raise TF's error if ``tensors`` cannot be gathered along ``axis`` by ``kernel``."""
    k = KERNELS[kernel]
    if k.collective and tensors[0].ndim:
        check_gather_axis(int(axis), tensors[0].ndim)
    _check_dtypes(tensors, k)
    _check_shapes(tensors, k, axis=axis)


def check_gather_axis(axis: int, rank: int) -> None:
    """TF's error for an all-gather ``axis`` outside [0, rank): CollectiveReplicaLauncher
    permutes ``axis`` to the front with ``range(axis)`` and ``range(axis + 1, rank)``, so a
    negative axis fails in the first Range and one past the rank in the second, while the
    gather is traced (cross_device_utils.py)."""
    if 0 <= axis < rank:
        return
    start, limit, node, given = ((0, axis, "allgather/range", "allgather/range/limit")
                                 if axis < 0 else
                                 (axis + 1, rank, "allgather/range_1", "allgather/Rank"))
    hint = f" (axis={axis % rank} for {axis})" if -rank <= axis < 0 else ""
    raise ValueError(
        f"in user code:\n\n\n    ValueError: Requires start <= limit when delta > 0: "
        f"{start}/{limit} for '{{{{node {node}}}}} = Range[Tidx=DT_INT32]({node}/start, "
        f"{given}, {node}/delta)' with input shapes: [], [], [] and with computed input "
        f"tensors: input[0] = <{start}>, input[1] = <{limit}>, input[2] = <1>.\n"
        f"The collective all-gather (CollectiveAllReduce) takes an axis in [0, {rank}) of "
        f"each replica's value, not a negative one{hint}.")


def _where(tensors, i) -> str:
    return f"replica {i} on {tensors[i].device}"


def _check_dtypes(tensors, k: Kernel) -> None:
    if k.dtypes:
        for i, t in enumerate(tensors):
            if t.dtype.name not in k.dtypes:
                _refuse_dtype(tensors, i, k)
    if k.collective:
        first = tensors[0].dtype
        for i, t in enumerate(tensors[1:], start=1):
            if t.dtype != first:
                raise errors.InternalError(
                    None, None,
                    f"Collective ops is aborted by: Collective instance expected data_type "
                    f"{_DATA_TYPE.get(first.name, '?')} ({first.name}) but got data_type "
                    f"{_DATA_TYPE.get(t.dtype.name, '?')} ({t.dtype.name}) from "
                    f"{_where(tensors, i)} [Op:{k.name}]. {_ADVICE} Cast with tf.cast "
                    "inside strategy.run first.")
    else:
        execute.check_same_dtype(k.name, *tensors)


def _refuse_dtype(tensors, i, k: Kernel) -> None:
    name = tensors[i].dtype.name
    where = _where(tensors, i)
    if k.gather:
        raise TypeError(
            f"Value passed to parameter 'input' has DataType {name} not in list of allowed "
            f"values: {', '.join(k.dtypes)} ({k.name}; {where}). Cast to a number type "
            "before gathering.")
    allowed = ", ".join(execute.kernel_dtype_name(d) for d in k.dtypes)
    raise errors.InvalidArgumentError(
        None, None,
        f"Value for attr 'T' of {execute.kernel_dtype_name(tensors[i].dtype)} is not in the "
        f"list of allowed values: {allowed} [Op:{k.name}] ({where}). TensorFlow does not "
        "sum, average, min or max this dtype across replicas (a bool SUM is not a logical "
        "OR): cast to a number type with tf.cast first.")


def _text(shape) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def _shape(t) -> tuple:
    """``tuple(t.shape)``: for a plain tensor of a NumPy array, the array's shape (the
    same ints, without building a TensorShape: every all-reduce checks every value)."""
    value = t._value if type(t) is Tensor else None
    return value.shape if type(value) is np.ndarray else tuple(t.shape)


def _check_shapes(tensors, k: Kernel, axis) -> None:
    first = _shape(tensors[0])
    for i, t in enumerate(tensors[1:], start=1):
        shape = _shape(t)
        if axis is None:
            same = shape == first
        else:
            a = axis % len(first) if first else 0
            same = len(shape) == len(first) and all(
                x == y for d, (x, y) in enumerate(zip(shape, first)) if d != a)
        if same:
            continue
        if k.name == "ConcatV2":
            return  # tf.concat's own check says which dimension differs
        if k.collective:
            raise errors.InvalidArgumentError(
                None, None,
                f"Collective ops is aborted by: Shape mismatch in the collective instance. "
                f"Op at device {tensors[0].device} expected shape {_text(first)} but another "
                f"member in the group expected shape {_text(shape)}. This is likely due to "
                f"different input shapes at different members of the collective op "
                f"[Op:{k.name}] ({_where(tensors, i)}; replica 0 has {_text(first)}). "
                f"{_ADVICE}")
        raise errors.InvalidArgumentError(
            None, None,
            f"Inputs to operation {k.name} of type {k.name} must have the same size and "
            f"shape.  Input 0: {_text(first)} != input {i}: {_text(shape)} [Op:{k.name}] "
            f"({_where(tensors, i)}). {_ADVICE}")
