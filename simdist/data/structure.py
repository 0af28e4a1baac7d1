"""Element structures: how a dataset element is nested, converted, described and placed.

Glossary:
  structure     -- a dataset element: a leaf (one tensor) or tuples / namedtuples / dicts of
                   structures. Python *lists are leaves* (converted to one tensor), as in
                   tf.data, unlike ``tf.nest``.
  value         -- inside simdist.data an element is carried as a structure of backend
                   arrays (``xp``); Tensors are made only when an element leaves the pipeline
                   (iteration) or enters a user function (``map``, ``filter``).
  element_spec  -- the same structure with a :class:`TensorSpec` per leaf.
  host          -- the host CPU device every pipeline runs on (tf.data runs on the CPU).

Mirrors tensorflow/python/data/util/nest.py and tensorflow/python/data/util/structure.py.
"""

from __future__ import annotations

import contextlib

import numpy as np

from simdist.data import composite_rows
from simdist.framework import context, dtypes, execute
from simdist.framework.none_tensor import NoneTensorSpec
from simdist.framework.tensor import Tensor, tracing
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.tensor_spec import TensorSpec
from simdist.hardware import array_api, backend
from simdist.hardware import machine as machine_lib


def is_structure(x) -> bool:
    """Tuples, namedtuples and dicts nest; everything else (lists included) is a leaf."""
    return isinstance(x, (tuple, dict))


def flatten(structure) -> list:
    """The leaves in tf.data order (dict values by sorted key)."""
    if _flat_tuple(structure):   # (features, labels): its own leaves
        return list(structure)
    if isinstance(structure, dict):
        return [leaf for k in sorted(structure) for leaf in flatten(structure[k])]
    if isinstance(structure, tuple):
        return [leaf for child in structure for leaf in flatten(child)]
    return [structure]


def pack(structure, leaves):
    """Rebuild ``structure`` from ``leaves`` (the inverse of :func:`flatten`)."""
    if _flat_tuple(structure) and type(leaves) is list and len(leaves) == len(structure):
        return tuple(leaves)   # (features, labels): the leaves are the tuple
    it = iter(leaves)
    out = _pack(structure, it)
    return out


def _flat_tuple(structure) -> bool:
    """Whether ``structure`` is a plain tuple of leaves (every element of a dataset's
    usual (features, labels) batch: flattened and packed per replica at every step)."""
    if type(structure) is not tuple:
        return False
    for x in structure:   # (a loop: any() of a generator costs more than the 2 checks)
        if isinstance(x, (tuple, dict)):
            return False
    return True


def _pack(structure, it):
    if isinstance(structure, dict):
        packed = {k: _pack(structure[k], it) for k in sorted(structure)}
        return type(structure)((k, packed[k]) for k in structure)
    if isinstance(structure, tuple):
        items = [_pack(child, it) for child in structure]
        return type(structure)(*items) if hasattr(structure, "_fields") else tuple(items)
    return next(it)


def map_leaves(fn, structure):
    """Apply ``fn`` to every leaf of ``structure`` (a None component and its spec stay as
    they are: TF's NoneTensor)."""
    if not isinstance(structure, (tuple, dict)):
        return structure if _is_none(structure) else fn(structure)
    if type(structure) is tuple and not any(isinstance(x, (tuple, dict)) for x in structure):
        return tuple(x if _is_none(x) else fn(x) for x in structure)  # (features, labels)
    return pack(structure, [leaf if _is_none(leaf) else fn(leaf) for leaf in flatten(structure)])


def _is_none(leaf) -> bool:
    return leaf is None or isinstance(leaf, NoneTensorSpec)


def none_specs(spec):
    """``spec`` with its None leaves (a None component's) as ``NoneTensorSpec()``."""
    if spec is None or not any(leaf is None for leaf in flatten(spec)):
        return spec
    return pack(spec, [NoneTensorSpec() if leaf is None else leaf for leaf in flatten(spec)])


def spec_key(spec):
    """A hashable stand-in for an element spec: equal for equal nesting and leaf specs
    (how tf.function tells datasets of one spec apart from others)."""
    return repr(map_leaves(lambda _: None, spec)), tuple(flatten(spec))


def assert_same_structure(a, b, what="elements") -> None:
    """Raise TypeError (as tf.data does) when two element structures differ."""
    if type(a) is not type(b) and (is_structure(a) or is_structure(b)):
        raise TypeError(f"The two {what} do not have the same nested structure: {a!r} vs {b!r}")
    if isinstance(a, dict):
        if sorted(a) != sorted(b):
            raise TypeError(f"The two {what} do not have the same keys: {sorted(a)} vs {sorted(b)}")
        for k in a:
            assert_same_structure(a[k], b[k], what)
    elif isinstance(a, tuple):
        if len(a) != len(b):
            raise TypeError(f"The two {what} do not have the same length: {len(a)} vs {len(b)}")
        for x, y in zip(a, b):
            assert_same_structure(x, y, what)


# --- placement and conversion -------------------------------------------------------------
_host_cache: list = [None, None]  # (machine, device): find_device parses names, so cache it


def host_device():
    """The host CPU device of the current machine (where input pipelines run)."""
    m = machine_lib.get_machine()
    if _host_cache[0] is not m:
        _host_cache[:] = [m, machine_lib.find_device("/cpu:0")]
    return _host_cache[1]


def to_array(value, dtype=None):
    """Convert one leaf (Tensor, NumPy array, Python value) to a backend array, TF's dtypes."""
    if isinstance(value, Tensor):
        if dtype is not None and value.dtype != dtypes.as_dtype(dtype):
            raise ValueError(f"Expected {dtypes.as_dtype(dtype).name}, got {value.dtype.name}.")
        return value._value
    if hasattr(value, "_values") and hasattr(value, "element_spec"):   # a dataset: stays one
        return value
    if composite_rows.is_composite(value):   # a RaggedTensor or a SparseTensor: itself
        return value
    hook = getattr(value, "_as_tensor", None)
    if hook is not None:
        return to_array(hook(), dtype)
    if dtype is None and isinstance(value, list) and any(
            isinstance(v, (np.ndarray, np.generic, Tensor)) for v in value):
        # TF packs a list of arrays with the arrays' dtype (float64 stays float64)
        value = np.asarray([np.asarray(v) for v in value])
    with context.device(host_device()), outside_trace():
        t = execute.convert_to_tensor(value, dtype=dtype)
    return t._value


def to_values(structure):
    """A user structure (tuples, dicts, arrays, lists, Tensors) -> structure of arrays."""
    if isinstance(structure, list):
        # tf.data converts a returned/sliced list to one tensor (lists are leaves), tuples of
        # numbers inside it too ([(1, 2), (3, 4)] is a 2x2 tensor) ...
        if any(is_structure(x) for x in structure) and not _numeric_array(structure):
            # ... unless it holds other structures, which TF reads as a tuple.
            return tuple(to_values(x) for x in structure)
    return map_leaves(to_array, structure)


def _numeric_array(value) -> bool:
    """True when ``value`` (nested lists/tuples of Python numbers) is a rectangular array."""
    if any(isinstance(v, dict) or hasattr(v, "shape") for v in _python_leaves(value)):
        return False
    try:
        return np.asarray(value).dtype != object
    except ValueError:
        return False


def _python_leaves(value):
    if isinstance(value, (list, tuple)):
        for v in value:
            yield from _python_leaves(v)
    else:
        yield value


def to_tensors(values):
    """Wrap a structure of backend arrays as host Tensors (an element leaving the pipeline)."""
    dev = host_device()
    with outside_trace():   # a window's component is a dataset: it stays one
        return map_leaves(lambda v: v if hasattr(v, "_values") else Tensor(_as_array(v), dev),
                          values)


@contextlib.contextmanager
def dataset_function():
    """Where a tf.data function runs (``map``, ``filter``, ``interleave``'s, an eager
    ``reduce``'s): on the host, out of any tf.function trace, and not executing eagerly --
    TF runs it as a graph of its own, so ``tf.executing_eagerly()`` is False there and a
    ``tf.TensorArray`` made there is a graph array (a write not kept is lost)."""
    with context.device(host_device()), outside_trace(), context.inside_function():
        yield


def outside_trace():
    """The pipeline's own work, out of any tf.function trace: a dataset built while a
    function traces (``create_per_worker_dataset``'s dataset_fn) captures Python values as
    constants and runs its element functions as graphs of their own (TF's dataset
    functions), not as ops of the caller's graph."""
    return tracing.scope(None)


def _as_array(v):
    return array_api.from_host(v)


def to_numpy(values):
    """A structure of backend arrays -> NumPy values (scalars for rank 0), as TF's numpy()."""
    def one(v):
        host = np.asarray(backend.to_host(v))
        return host[()] if host.ndim == 0 else host.copy()

    return map_leaves(one, values)


# --- specs ------------------------------------------------------------------------------
def stand_in(spec, fill: int = 0, unknown_rank: tuple = (1,)):
    """An element of ``spec`` (zeros, or ``fill``; empty strings; unknown dims 1, an unknown
    rank ``unknown_rank``'s dims): what a dataset function is traced on when its input has
    no element to give."""
    def one(s):
        dims = unknown_rank if s.shape.rank is None else \
            tuple(1 if d is None else d for d in s.shape)
        if s.dtype.is_string:
            return np.full(dims, b"", dtype=object)
        return _as_array(np.full(dims, fill, dtype=s.dtype.as_numpy_dtype))

    return map_leaves(one, spec)


def spec_of(values):
    """The element_spec of a structure of arrays (and composite leaves)."""
    return none_specs(map_leaves(
        lambda v: composite_rows.spec(v) if composite_rows.is_composite(v) else
        TensorSpec(tuple(v.shape), dtypes.as_dtype(v.dtype)), values))


def batch_spec(spec, batch_size):
    """Add a leading dimension (``None`` when unknown) to every leaf spec (a spec of
    unknown rank stays unknown, as in TF)."""
    return map_leaves(
        lambda s: composite_rows.batch_spec(s, batch_size)
        if composite_rows.is_composite_spec(s) else
        TensorSpec(TensorShape(None if s.shape.rank is None
                               else [batch_size] + _dims(s)), s.dtype, s.name),
        spec)


def unbatch_spec(spec):
    """Remove the leading dimension of every leaf spec.

    Raises:
      ValueError: for a scalar component, as TF does.
    """
    def one(s):
        dims = _dims(s)
        if s.shape.rank == 0:
            raise ValueError("Cannot unbatch an input with scalar components.")
        if composite_rows.is_composite_spec(s):
            return composite_rows.unbatch_spec(s)
        return TensorSpec(TensorShape(None if s.shape.rank is None else dims[1:]), s.dtype, s.name)

    return map_leaves(one, spec)


def relax_spec(a, b):
    """The most specific spec compatible with both (dims that differ become ``None``)."""
    return pack(a, [x if composite_rows.is_composite_spec(x) else
                    TensorSpec(x.shape.most_specific_compatible_shape(y.shape), x.dtype, x.name)
                    for x, y in zip(flatten(a), flatten(b))])


def _dims(spec) -> list:
    return [] if spec.shape.rank is None else list(spec.shape.as_list())


def leading_dim(spec):
    """The static batch size shared by all leaves, or None (``compute_batch_size``)."""
    dims = set()
    for s in flatten(spec):
        if s.shape.rank is None or s.shape.rank == 0:
            return None
        dims.add(s.shape[0])
    if len(dims) != 1:
        return None
    return dims.pop()
