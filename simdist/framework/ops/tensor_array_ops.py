"""``tf.TensorArray``: a list of same-dtype tensors, written and read by index, in a loop.

Glossary:
  TensorArray      -- the public class; it picks its implementation when it is made, as TF
                      does: eager (outside tf.function) or graph (while a tf.function
                      traces, and in its body however it runs).
  eager array      -- a Python list of tensors (``None``: not written yet). ``write``,
                      ``unstack``, ``scatter`` and ``split`` change it and return the same
                      TensorArray; ``clear_after_read`` (default True) forgets an element
                      once read. Errors are TF's eager ones (OutOfRangeError ...).
  graph array      -- a ``flow``: a variant tensor holding a TensorList (list_ops). Each write
                      returns a new TensorArray with a new flow and leaves the old one as it
                      was, so the array is a value a graph loop or cond carries (its flow is
                      the loop variable: ``ta = ta.write(i, x)`` in an AutoGraph loop).
                      Value errors come from the list kernels at execution (InvalidArgument).
  element_shape    -- the shape every element must have; with ``infer_shape`` (default) the
                      first write fixes what the argument left unknown, and a later write of
                      another shape raises ValueError. A graph array and the arrays made from
                      it by writes share it (TF's ``build_ta_with_new_flow``), so a shape
                      learnt in a loop body is known after the loop.
  unwritten element -- read or stacked as zeros of the element shape.
  static shapes    -- in a graph, ``stack`` is ``[size or None] + element_shape`` (None when
                      the size is a tensor or ``dynamic_size``), ``gather`` is
                      ``[len(indices)] + element_shape``, ``concat`` is ``[None] + the
                      element shape's rest``, as TF's shape functions give them.
  graph names      -- TF's: a method's ops are named under its name scope
                      (``TensorArrayV2Write/TensorListSetItem``, ``TensorArrayV2Stack/...``;
                      ``gather`` / ``concat`` / ``size`` have none), ``name=`` naming the
                      scope and the op where TF passes it on (``w/w``).
  never used       -- eagerly, ``write``'s result comes back wrapped (tf_should_use): dropped
                      without being used, it logs TF's "Object was never used" error.
  colocate_with_first_write_call -- accepted and unused, as in TF 2's two implementations.
  TensorArraySpec  -- the type spec of an array (element shape, dtype, dynamic_size,
                      infer_shape).

Gradients need no rule of their own: both implementations hold the tensors written, and
``stack`` / ``read`` / ``gather`` / ``concat`` are tensor ops on the tapes (see list_ops).

Mirrors tensorflow/python/ops/tensor_array_ops.py.
"""

from __future__ import annotations

import weakref

import numpy as np

from simdist.framework import (
    context,
    dtypes,
    errors,
    execute,
    func_graph,
    graph_control_flow,
    tf_should_use,
)
from simdist.framework.ops import array_ops, list_ops
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_shape import TensorShape


def _convert(value, dtype_hint):
    """``value`` as a tensor, preferring ``dtype_hint`` for Python values (TF's
    ``convert_to_tensor(value, preferred_dtype=...)``; a graph node while tracing)."""
    if isinstance(value, Tensor):
        return value
    return _convert_op(value, dtype_hint)


@func_graph.recorded(name="value")
def _convert_op(value, dtype_hint):
    return execute.convert_to_tensor(value, dtype_hint=dtype_hint)


def _check_dtypes(value, dtype) -> None:
    """TF logs (does not raise) when a graph write's value has another dtype."""
    if value.dtype != dtype:
        import traceback

        from simdist.platform.tf_logging import get_logger

        get_logger().error(
            f"Error: Input value {value} has dtype {value.dtype}, but expected dtype {dtype}.  "
            "This leads to undefined behavior and will be an error in future versions of "
            "TensorFlow.  Traceback:\n" + "".join(traceback.format_stack()))


def _index(index) -> int:
    return int(index.numpy()) if isinstance(index, Tensor) else int(index)


def _int32_input(value, arg: str, op: str):
    """``value`` as a graph TensorList op takes it: an int32 index (TF's op-def check, a
    TypeError while tracing; eager TensorArrays take any integer).

    Raises:
      TypeError: a tensor of another dtype (TF's text).
    """
    dtype = getattr(value, "dtype", None)
    if isinstance(value, Tensor) and dtype != dtypes.int32:
        raise TypeError(f"Input '{arg}' of '{op}' Op has type {dtype.name} that does not "
                        "match expected type of int32.")
    return value


def _static(t, shape):
    """``t`` (a symbolic tensor) with TF's static ``shape`` where TF's shape function knows
    less than simdist's placeholders do (the same tensor of the graph)."""
    if not func_graph.is_symbolic(t) or shape == t.shape:
        return t
    return func_graph.SymbolicTensor(t._graph, t._name, shape, t._dtype, t._device,
                                     t._placeholders, t._id)


# --- eager -------------------------------------------------------------------------------
class _EagerTensorArray:
    """The eager implementation: a Python list of tensors (TF's _EagerTensorArray)."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        if handle is not None:
            raise ValueError("TensorArray handles are not supported when eager execution is "
                             "enabled.")
        if size is None:
            raise ValueError("Size must be declared for TensorArrays when eager execution is "
                             "enabled.")
        self._handle = None
        self._flow = array_ops.constant(0, dtype=dtypes.int32)   # TF's dummy flow
        self._infer_shape = infer_shape
        self._element_shape = TensorShape(element_shape)
        self._colocate_with_first_write_call = colocate_with_first_write_call
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = dynamic_size or False
        self._clear_after_read = True if clear_after_read is None else clear_after_read
        self._previously_read_indices: list = []
        self._tensor_array: list = [None] * _index(size)

    @property
    def flow(self):
        return self._flow

    @property
    def dtype(self):
        return self._dtype

    @property
    def handle(self):
        return self._handle

    @property
    def element_shape(self):
        return self._element_shape

    def identity(self):
        return self.parent()

    def grad(self, source, flow=None, name=None):
        raise NotImplementedError(
            "TensorArray.grad is not supported when executing eagerly; eager's gradient "
            "implementation does not use/need this function to compute gradients of "
            "operations that use TensorArrays.")

    def read(self, index, name=None):
        index = _index(index)
        if index < 0:
            raise errors.OutOfRangeError(
                None, None, f"Reading from negative indices (index {index}) is not allowed.")
        if index >= len(self._tensor_array):
            raise errors.OutOfRangeError(
                None, None, f"Tried to read from index {index} but array size is: "
                            f"{len(self._tensor_array)} ")
        tensor = self._tensor_array[index]
        if tensor is None:
            if index in self._previously_read_indices:
                raise errors.InvalidArgumentError(
                    None, None, f"Could not read index {index} twice because it was cleared "
                                "after a previous read (perhaps try setting clear_after_read = "
                                "false?)")
            tensor = self._maybe_zero(index)
        if self._clear_after_read:
            self._tensor_array[index] = None
            self._previously_read_indices.append(index)
        return tensor

    def _write(self, index, value):
        index = _index(index)
        if index < 0:
            raise errors.OutOfRangeError(
                None, None, f"Writing to negative indices (index {index}) is not allowed.")
        size = len(self._tensor_array)
        if index >= size:
            if not self._dynamic_size:
                raise errors.OutOfRangeError(
                    None, None, f"Tried to write to index {index} but array is not resizeable "
                                f"and size is: {size} ")
            self._tensor_array.extend([None] * (index - size + 1))
        value = execute.convert_to_tensor(value, dtype_hint=self._dtype)
        if self._dtype != value.dtype:
            raise errors.InvalidArgumentError(
                None, None, f"TensorArray dtype is {self._dtype.name} but Op is trying to write "
                            f"dtype {value.dtype.name} ")
        if not self._element_shape.is_compatible_with(value.shape):
            raise ValueError(f"Incompatible shape for value ({value.shape}), expected "
                             f"({self._element_shape})")
        if self._infer_shape:
            self._element_shape = self._element_shape.merge_with(value.shape)
        self._tensor_array[index] = value

    def write(self, index, value, name=None):
        self._write(index, value)
        return self.parent()

    def _maybe_zero(self, ix):
        val = self._tensor_array[ix]
        if val is None:
            if not self._element_shape.is_fully_defined():
                raise ValueError(f"Cannot convert a partially known TensorShape "
                                 f"{self._element_shape} to a Tensor.")
            val = self._tensor_array[ix] = array_ops.zeros(self._element_shape.as_list(),
                                                           self._dtype)
        return val

    def stack(self, name=None):
        for ix in range(len(self._tensor_array)):
            self._maybe_zero(ix)
        if not self._tensor_array:
            dims = self._element_shape.as_list() if self._element_shape.is_fully_defined() \
                else []
            return array_ops.zeros([0] + dims, self._dtype)
        return array_ops.stack(self._tensor_array)

    def gather(self, indices, name=None):
        if isinstance(indices, Tensor):
            indices = indices.numpy()
        return array_ops.stack([self._maybe_zero(int(i)) for i in indices])

    def concat(self, name=None):
        tensors = [self._maybe_zero(ix) for ix in range(len(self._tensor_array))]
        ndims = [t.ndim for t in tensors]
        if 0 in ndims:   # TF's eager check, reproduced from the graph kernel's
            raise errors.InvalidArgumentError(
                None, None, f"Concat saw a scalar shape at index {ndims.index(0)} but requires "
                            "at least vectors.")
        return array_ops.concat(tensors, 0)

    def unstack(self, value, name=None):
        tensors = array_ops.unstack(value)
        if len(tensors) > len(self._tensor_array) and not self._dynamic_size:
            raise ValueError(f"Cannot unstack {len(tensors)} tensors into a TensorArray of "
                             f"static size {len(self._tensor_array)} ")
        self._tensor_array = list(tensors)
        return self.parent()

    def scatter(self, indices, value, name=None):
        if isinstance(indices, Tensor):
            indices = indices.numpy()
        for index, val in zip(indices, array_ops.unstack(value)):
            self._write(index, val)
        return self.parent()

    def split(self, value, lengths, name=None):
        value = execute.convert_to_tensor(value, dtype_hint=self._dtype)
        _check_dtypes(value, self._dtype)
        lengths = execute.convert_to_tensor(lengths)
        total = int(np.sum(lengths.numpy()))
        if lengths.shape.rank != 1:
            raise errors.InvalidArgumentError(
                None, None, f"Expected lengths to be a vector, received shape: "
                            f"{lengths.shape.as_list()} ")
        if value.shape.rank == 0:
            raise errors.InvalidArgumentError(
                None, None, "Expected value to be at least a vector, but received shape: "
                            f"{value.shape.as_list()} ")
        if total != value.shape.as_list()[0]:
            raise errors.InvalidArgumentError(
                None, None, "Expected sum of lengths to be equal to values.shape[0], but sum "
                            f"of lengths is {total} and value's shape is: "
                            f"{value.shape.as_list()} ")
        if not self._dynamic_size and lengths.shape[0] != len(self._tensor_array):
            raise errors.InvalidArgumentError(
                None, None, "TensorArray's size is not equal to the size of lengths "
                            f"({len(self._tensor_array)} vs. {lengths.shape[0]}), and the "
                            "TensorArray is not marked as dynamically resizeable.")
        self._tensor_array = list(array_ops.split(value, [int(n) for n in lengths.numpy()]))
        return self.parent()

    def size(self, name=None):
        return array_ops.constant(len(self._tensor_array))

    def close(self, name=None):
        del self._tensor_array[:]


# --- graph -------------------------------------------------------------------------------
class _GraphTensorArrayV2:
    """The graph implementation over a TensorList flow (TF's _GraphTensorArrayV2)."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        self._dynamic_size = dynamic_size
        self._size = size
        if flow is not None and (not isinstance(flow, Tensor) or
                                 flow.dtype != dtypes.variant):
            raise TypeError("Expected `flow` to be a variant tensor, but received "
                            f"`{getattr(flow, 'dtype', type(flow).__name__)}` instead.")
        if flow is None and size is None:
            raise ValueError("Argument `size` must be provided if argument `flow` is not "
                             "provided.")
        if flow is not None and size is not None:
            raise ValueError("Cannot provide both `flow` and `size` arguments at the same "
                             "time.")
        if flow is not None and element_shape is not None:
            raise ValueError("Cannot provide both `flow` and `element_shape` argumentsat the "
                             "same time.")
        self._dtype = dtypes.as_dtype(dtype)
        self._element_shape = [TensorShape(element_shape)]
        self._infer_shape = infer_shape
        if flow is None:
            with func_graph.op_name_scope(name, "TensorArrayV2") as scope:
                flow = list_ops.tensor_list_reserve(self._element_shape[0].dims, size,
                                                    self._dtype, name=scope)
        self._flow = flow
        self._colocate_with_first_write_call = None
        self._colocate_with = None

    @property
    def flow(self):
        return self._flow

    @property
    def dtype(self):
        return self._dtype

    @property
    def element_shape(self):
        return self._element_shape[0]

    @property
    def handle(self):
        return None

    def _check_element_shape(self, shape):
        if not shape.is_compatible_with(self.element_shape):
            raise ValueError(f"Inconsistent shapes: saw {shape} but expected "
                             f"{self.element_shape} ")
        if self._infer_shape:
            self._element_shape[0] = self.element_shape.merge_with(shape)

    def _static_size(self):
        """The size TF's shape function knows: a Python int, unless dynamic."""
        if self._dynamic_size or self._size is None or isinstance(self._size, Tensor):
            return None
        return int(self._size)

    def identity(self):
        return build_ta_with_new_flow(self, array_ops.identity(self._flow))

    def grad(self, source, flow=None, name=None):
        raise NotImplementedError()

    def read(self, index, name=None):
        with func_graph.op_name_scope(name, "TensorArrayV2Read"):
            value = list_ops.tensor_list_get_item(
                self._flow, _int32_input(index, "index", "TensorListGetItem"), self._dtype,
                self._shape_arg(), name=name)
        return _static(value, self.element_shape) if self.element_shape.rank is not None \
            else value

    def _shape_arg(self):
        shape = self.element_shape
        return None if shape.rank is None else shape.as_list()

    def write(self, index, value, name=None):
        with func_graph.op_name_scope(name, "TensorArrayV2Write"):
            value = _convert(value, self._dtype)
            _check_dtypes(value, self._dtype)
            self._check_element_shape(value.shape)
            flow_out = list_ops.tensor_list_set_item(
                self._flow, _int32_input(index, "index", "TensorListSetItem"), value,
                bool(self._dynamic_size), name=name)
        return build_ta_with_new_flow(self, flow_out)

    def stack(self, name=None):
        size = self._static_size()
        with func_graph.op_name_scope(name, "TensorArrayV2Stack"):
            value = list_ops.tensor_list_stack(self._flow, self._dtype,
                                               -1 if size is None else size, self._shape_arg())
        return _static(value, TensorShape([size]).concatenate(self.element_shape))

    def gather(self, indices, name=None):
        _int32_input(indices, "indices", "TensorListGather")
        value = list_ops.tensor_list_gather(self._flow, indices, self._dtype, self._shape_arg(),
                                            name=name)
        n = getattr(indices, "shape", None)
        n = n[0] if n is not None and n.rank == 1 else (
            len(indices) if isinstance(indices, (list, tuple)) else None)
        return _static(value, TensorShape([n]).concatenate(self.element_shape))

    def concat(self, name=None):
        shape = self.element_shape
        rest = TensorShape(shape.dims[1:]) if shape.rank else TensorShape(None)
        value = list_ops.tensor_list_concat(
            self._flow, self._dtype, None if shape.rank is None else [None] + shape.dims[1:],
            name=name)
        return _static(value, TensorShape([None]).concatenate(rest)) if shape.rank \
            else value

    def unstack(self, value, name=None):
        with func_graph.op_name_scope(name, "TensorArrayUnstack"):
            value = _convert(value, self._dtype)
            _check_dtypes(value, self._dtype)
            self._check_element_shape(TensorShape(value.shape.dims[1:])
                                      if value.shape.rank else TensorShape(None))
            rest = value.shape.dims[1:] if value.shape.rank else None
            flow_out = list_ops.tensor_list_from_tensor(value, rest)
        return build_ta_with_new_flow(self, flow_out)

    def scatter(self, indices, value, name=None):
        with func_graph.op_name_scope(name, "TensorArrayScatter"):
            value = _convert(value, self._dtype)
            _check_dtypes(value, self._dtype)
            self._check_element_shape(TensorShape(value.shape.dims[1:])
                                      if value.shape.rank else TensorShape(None))
            _int32_input(indices, "indices", "TensorListScatterIntoExistingList")
            flow_out = list_ops.tensor_list_scatter(value, indices, self._shape_arg(),
                                                    self._flow)
        return build_ta_with_new_flow(self, flow_out)

    def split(self, value, lengths, name=None):
        with func_graph.op_name_scope(name, "TensorArraySplit"):
            value = _convert(value, self._dtype)
            _check_dtypes(value, self._dtype)
            if isinstance(lengths, (list, tuple)) and value.shape.rank and lengths and \
                    max(lengths) == min(lengths):
                self._check_element_shape(TensorShape([int(lengths[0])] +
                                                      value.shape.dims[1:]))
            flow_out = list_ops.tensor_list_split(value, self._shape_arg(), lengths, name=name)
        return build_ta_with_new_flow(self, flow_out)

    def size(self, name=None):
        if not self._dynamic_size and self._size is not None:
            return self._size if isinstance(self._size, Tensor) else \
                array_ops.constant(int(self._size), dtypes.int32)
        return list_ops.tensor_list_length(self._flow, name=name)

    def close(self, name=None):
        return None   # TF's no_op


# --- the public class ---------------------------------------------------------------------
class TensorArray:
    """Dynamic-sized, per-time-step tensor arrays (``tf.TensorArray``)."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        if context.executing_eagerly() and (flow is None or
                                            getattr(flow, "dtype", None) != dtypes.variant):
            implementation = _EagerTensorArray
        else:
            implementation = _GraphTensorArrayV2
        self._implementation = implementation(
            dtype, size=size, dynamic_size=dynamic_size, clear_after_read=clear_after_read,
            tensor_array_name=tensor_array_name, handle=handle, flow=flow,
            infer_shape=infer_shape, element_shape=element_shape,
            colocate_with_first_write_call=colocate_with_first_write_call, name=name)
        self._implementation.parent = weakref.ref(self)

    @property
    def flow(self):
        """The flow tensor (in a graph: the TensorList variant the array is)."""
        return self._implementation._flow

    @property
    def dtype(self):
        """The data type of the elements."""
        return self._implementation._dtype

    @property
    def handle(self):
        """The reference to the TensorArray (None: TF 2's arrays have none)."""
        return self._implementation.handle

    @property
    def element_shape(self):
        """The ``tf.TensorShape`` of the elements."""
        return self._implementation.element_shape

    @property
    def dynamic_size(self):
        """Python bool; if True the TensorArray can grow dynamically."""
        return self._implementation._dynamic_size

    @property
    def _infer_shape(self):
        return self._implementation._infer_shape

    @property
    def _type_spec(self):
        return TensorArraySpec.from_value(self)

    def identity(self):
        """A TensorArray with the same content and properties."""
        return self._implementation.identity()

    def grad(self, source, flow=None, name=None):
        return self._implementation.grad(source, flow=flow, name=name)

    def read(self, index, name=None):
        """The element at ``index`` (zeros if it was never written)."""
        return self._implementation.read(index, name=name)

    @tf_should_use.should_use_result(warn_in_eager=True)
    def write(self, index, value, name=None):
        """Write ``value`` at ``index``; use the TensorArray returned from then on (eagerly,
        dropping it unused logs TF's "Object was never used" error)."""
        return self._implementation.write(index, value, name=name)

    def stack(self, name=None):
        """The elements stacked into one tensor (first axis: the index)."""
        return self._implementation.stack(name=name)

    def gather(self, indices, name=None):
        """The elements at ``indices`` stacked into one tensor."""
        return self._implementation.gather(indices, name=name)

    def concat(self, name=None):
        """The elements joined along their first axis."""
        return self._implementation.concat(name=name)

    def unstack(self, value, name=None):
        """Write ``value``'s rows as the elements (``value[i]`` at index ``i``)."""
        return self._implementation.unstack(value, name=name)

    def scatter(self, indices, value, name=None):
        """Write ``value``'s rows at ``indices``."""
        return self._implementation.scatter(indices, value, name=name)

    def split(self, value, lengths, name=None):
        """Write consecutive slices of ``value`` (``lengths`` rows each) as the elements."""
        return self._implementation.split(value, lengths, name=name)

    def size(self, name=None):
        """The size of the TensorArray (an int32 scalar)."""
        return self._implementation.size(name=name)

    def close(self, name=None):
        """Close the TensorArray (eagerly: forget its elements)."""
        return self._implementation.close(name=name)


def build_ta_with_new_flow(old_ta, flow):
    """A TensorArray like ``old_ta`` over the new ``flow`` (sharing its element shape).

    Raises:
      NotImplementedError: ``old_ta`` is an eager array used in a graph (TF's text).
    """
    impl = old_ta._implementation if isinstance(old_ta, TensorArray) else old_ta
    if not context.executing_eagerly() and not isinstance(impl, _GraphTensorArrayV2):
        raise NotImplementedError(
            "Attempting to build a graph-mode TF2-style TensorArray from either an eager-mode "
            "TensorArray or a TF1-style TensorArray.  This is not currently supported.  You "
            "may be attempting to capture a TensorArray inside a tf.function or tf.data map "
            "function. Instead, construct a new TensorArray inside the function.")
    new_ta = TensorArray(dtype=impl.dtype, handle=impl.handle, flow=flow,
                         infer_shape=impl._infer_shape,
                         colocate_with_first_write_call=impl._colocate_with_first_write_call)
    new_impl = new_ta._implementation
    new_impl._dynamic_size = impl._dynamic_size
    new_impl._size = impl._size
    new_impl._colocate_with = impl._colocate_with
    new_impl._element_shape = impl._element_shape   # shared, as in TF
    return new_ta


class TensorArraySpec:
    """The type specification of a ``tf.TensorArray``."""

    __slots__ = ("_element_shape", "_dtype", "_dynamic_size", "_infer_shape")

    def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size=False,
                 infer_shape=True):
        self._element_shape = TensorShape(element_shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = dynamic_size
        self._infer_shape = infer_shape

    @staticmethod
    def from_value(value):
        """The spec of the TensorArray ``value``.

        Raises:
          TypeError: ``value`` is not a TensorArray (TF's text).
        """
        if not isinstance(value, TensorArray):
            raise TypeError(f"Expected value to be a TensorArray, but got: `{type(value)}`")
        return TensorArraySpec(value.element_shape, value.dtype, value.dynamic_size,
                               value._infer_shape)

    def is_compatible_with(self, other):
        if not isinstance(other, TensorArraySpec):
            other = TensorArraySpec.from_value(other) if isinstance(other, TensorArray) \
                else None
        return (other is not None and self._dtype == other._dtype and
                self._element_shape.is_compatible_with(other._element_shape) and
                self._dynamic_size == other._dynamic_size)

    def _key(self):
        return (self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)

    def __eq__(self, other):
        return type(other) is TensorArraySpec and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return (f"TensorArraySpec(TensorShape({self._element_shape.dims}), "
                f"{self._dtype!r}, {self._dynamic_size}, {self._infer_shape})")


# A graph loop or cond carries a TensorArray as its flow (TF's while_v2 / cond_v2).
graph_control_flow.register_flow_type(TensorArray, lambda ta: ta.flow, build_ta_with_new_flow)
