"""TF's TensorList: the variant tensor a ``tf.TensorArray`` is made of in a graph, and its ops.

Glossary:
  TensorList     -- an immutable list of element tensors (``None``: not set yet), with the
                    element dtype and the element shape it was made with; the value of a
                    scalar ``variant`` tensor (TF's TensorList variant).
  flow           -- that scalar tensor. Each op takes a list and gives a new one, never
                    changing its input, so a graph loop or cond carries it like any tensor.
  unset element  -- read, stacked or gathered as zeros of the element shape, which must then
                    be known (the list's, the op's, or that of an element that is set; TF's
                    kernel errors otherwise).
  gradients      -- a list holds the very tensors written, and the ops that read them
                    (stack, gather, concat, get_item) are the tensor ops ``Pack``,
                    ``GatherV2``... on the tapes, so a gradient reaches what was written
                    with no rule for the list itself (TF's list grads give the same values).
  graph ops      -- each op is a recorded op under TF's op name (``TensorListSetItem`` ...;
                    a TensorArray's reserve is named ``TensorArrayV2``, as TF's scope names it).
  shape inference -- while a tf.function traces, an op runs on placeholder values, whose
                    indices and lengths are not the real ones: value checks are left to
                    execution (TF checks them in the kernel, at run time, too).

Mirrors tensorflow/python/ops/list_ops.py and tensorflow/core/kernels/list_kernels.{h,cc}.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, errors, execute, func_graph
from simdist.framework.ops import array_ops
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_shape import TensorShape
from simdist.hardware import backend


class TensorList:
    """The value of a TensorList variant: elements, their dtype and their shape."""

    __slots__ = ("items", "element_dtype", "element_shape")

    def __init__(self, items, element_dtype, element_shape):
        self.items = tuple(items)
        self.element_dtype = element_dtype
        self.element_shape = TensorShape(element_shape)

    def replaced(self, items) -> TensorList:
        return TensorList(items, self.element_dtype, self.element_shape)

    def __repr__(self):
        return f"TensorList(<{len(self.items)} elements>, {self.element_dtype.name})"


def _flow(tensor_list: TensorList, inputs) -> Tensor:
    """A scalar variant tensor holding ``tensor_list`` (on the op's device; no tape records:
    gradients go through the elements, see the module docstring)."""
    value = np.empty((), dtype=dtypes.variant._np)
    value[()] = (tensor_list,)
    return execute.execute("TensorList", (), value, device=execute.placement(inputs))


def _list(handle) -> TensorList:
    value = handle._value[()]
    return value[0]


def _host(x):
    """A tensor's value on the host (a symbolic one's placeholder, while tracing)."""
    return np.asarray(backend.to_host(x._value)) if isinstance(x, Tensor) else np.asarray(x)


def _int(x) -> int:
    return int(_host(x))


def _ints(x) -> list:
    if isinstance(x, (list, tuple)):   # may hold tensors: [0, n - 1]
        return [int(_host(i)) for i in x]
    return [int(i) for i in np.ravel(_host(x))]


def _shape(element_shape) -> TensorShape:
    if element_shape is None:
        return TensorShape(None)
    if isinstance(element_shape, Tensor):
        dims = _ints(element_shape)
        return TensorShape(None) if dims == [-1] and element_shape.ndim == 0 else \
            TensorShape([None if d < 0 else d for d in dims])
    return TensorShape(element_shape)


def _type_name(dtype) -> str:
    return execute.kernel_dtype_name(dtype)


def _zeros_like_element(tl: TensorList, shape: TensorShape, what: str):
    """Zeros standing for an unset element; ``what`` is TF's error when ``shape`` is not
    fully defined (None: make one up, only while tracing)."""
    if shape.is_fully_defined():
        return array_ops.zeros(shape.as_list(), tl.element_dtype)
    if execute.in_shape_inference():   # the real shape is known only at execution
        dims = [] if shape.rank is None else [1 if d is None else d for d in shape.as_list()]
        return array_ops.zeros(dims, tl.element_dtype)
    raise errors.InvalidArgumentError(None, None, what)


def _known_shape(tl: TensorList, element_shape) -> TensorShape:
    """The element shape the list and the op know, completed by the elements that are set."""
    shape, given = tl.element_shape, _shape(element_shape)
    if shape.is_compatible_with(given):
        shape = shape.merge_with(given)
    for item in tl.items:
        if shape.is_fully_defined():
            break
        if item is not None and shape.is_compatible_with(item.shape):
            shape = shape.merge_with(item.shape)
    return shape


def _check_dtype(tl: TensorList, element_dtype, what: str = "list elements") -> None:
    if element_dtype is not None and dtypes.as_dtype(element_dtype) != tl.element_dtype:
        raise errors.InvalidArgumentError(
            None, None, f"Invalid data types; op elements {_type_name(element_dtype)} but "
                        f"{what} {_type_name(tl.element_dtype)}")


# --- making lists -----------------------------------------------------------------------
@func_graph.recorded(name="TensorArrayV2")
def tensor_list_reserve(element_shape, num_elements, element_dtype, name=None) -> Tensor:
    """A list of ``num_elements`` unset elements (TF's ``TensorListReserve``)."""
    n = _int(num_elements)
    tl = TensorList([None] * max(n, 0), dtypes.as_dtype(element_dtype), _shape(element_shape))
    return _flow(tl, ())


@func_graph.recorded(name="TensorListFromTensor")
def tensor_list_from_tensor(tensor, element_shape, name=None) -> Tensor:
    """A list of ``tensor``'s rows (TF's ``TensorListFromTensor``)."""
    t = execute.convert_to_tensor(tensor)
    if t.ndim == 0:
        raise errors.InvalidArgumentError(
            None, None, "Tensor must be at least a vector, but saw shape: []")
    rows = array_ops.unstack(t) if t.shape[0] else []
    return _flow(TensorList(rows, t.dtype, _shape(element_shape)), (t,))


@func_graph.recorded(name="TensorListSplit")
def tensor_list_split(tensor, element_shape, lengths, name=None) -> Tensor:
    """A list of ``tensor``'s consecutive slices of ``lengths`` rows (TF's
    ``TensorListSplit``)."""
    t = execute.convert_to_tensor(tensor)
    sizes = _ints(lengths)
    if t.ndim == 0:
        raise errors.InvalidArgumentError(
            None, None, "Tensor must be at least a vector, but saw shape: []")
    if sum(sizes) != t.shape[0]:
        if not execute.in_shape_inference():
            raise errors.InvalidArgumentError(
                None, None, f"Unused values in tensor. Length of tensor: {t.shape[0]} Values "
                            f"used: {sum(sizes)}")
        t = array_ops.zeros([sum(sizes)] + t.shape.as_list()[1:], t.dtype)   # shapes only
    parts = array_ops.split(t, sizes) if sizes else []
    return _flow(TensorList(parts, t.dtype, _shape(element_shape)), (t,))


# --- writing ----------------------------------------------------------------------------
@func_graph.recorded(name="TensorListSetItem")
def tensor_list_set_item(input_handle, index, item, resize_if_index_out_of_bounds=False,
                         name=None) -> Tensor:
    """The list with element ``index`` replaced by ``item`` (TF's ``TensorListSetItem``).

    Raises:
      InvalidArgumentError: another dtype than the list's, or an index outside the list
        (unless ``resize_if_index_out_of_bounds``), TF's texts.
    """
    tl = _list(input_handle)
    item = execute.convert_to_tensor(item)
    _check_dtype(tl, item.dtype)
    i = _int(index)
    items = list(tl.items)
    if resize_if_index_out_of_bounds and i >= len(items):
        items.extend([None] * (i + 1 - len(items)))
    if not 0 <= i < len(items):
        if not execute.in_shape_inference():
            raise errors.InvalidArgumentError(
                None, None, f"Trying to modify element {i} in a list with {len(items)} "
                            "elements.")
        i = min(max(i, 0), len(items) - 1) if items else None
        if i is None:
            items, i = [None], 0
    items[i] = item
    return _flow(tl.replaced(items), (input_handle, item))


@func_graph.recorded(name="TensorListScatterIntoExistingList")
def tensor_list_scatter(tensor, indices, element_shape=None, input_handle=None,
                        name=None) -> Tensor:
    """The list (a new one without ``input_handle``) with ``tensor``'s rows written at
    ``indices``, grown to hold the largest (TF's ``TensorListScatterIntoExistingList``)."""
    t = execute.convert_to_tensor(tensor)
    idx = _ints(indices)
    if input_handle is None:
        tl = TensorList([], t.dtype, _shape(element_shape))
    else:
        tl = _list(input_handle)
        _check_dtype(tl, t.dtype)
    if any(i < 0 for i in idx):
        if not execute.in_shape_inference():
            raise errors.InvalidArgumentError(
                None, None, "Indices in TensorListScatter must all be non-negative.")
        idx = [max(i, 0) for i in idx]
    if t.ndim == 0 or (t.shape[0] != len(idx) and not execute.in_shape_inference()):
        raise errors.InvalidArgumentError(
            None, None, f"Expected len(indices) == tensor.shape[0], but saw: {len(idx)} vs. "
                        f"{t.shape[0] if t.ndim else 0}")
    rows = array_ops.unstack(t) if t.shape[0] else []
    items = list(tl.items)
    if idx:
        items.extend([None] * (max(idx) + 1 - len(items)))
    for i, row in zip(idx, rows):
        items[i] = row
    return _flow(tl.replaced(items),
                 (t,) if input_handle is None else (input_handle, t))


# --- reading ----------------------------------------------------------------------------
@func_graph.recorded(name="TensorListGetItem")
def tensor_list_get_item(input_handle, index, element_dtype, element_shape=None,
                         name=None) -> Tensor:
    """Element ``index`` (zeros when it is unset; TF's ``TensorListGetItem``)."""
    tl = _list(input_handle)
    _check_dtype(tl, element_dtype)
    item = tl.items[_in_range(tl, [_int(index)], "access")[0]]
    if item is None:
        shape = _known_shape(tl, element_shape)
        return _zeros_like_element(tl, shape, (
            "Trying to read an uninitialized tensor but element_shape is not fully "
            f"defined: {shape} and no list element is set."))
    return array_ops.identity(item)


def _in_range(tl: TensorList, positions: list, verb: str) -> list:
    """``positions`` checked against the list's length (TF's text names the first one out
    of range); while shapes are inferred on placeholders, a non-empty list clamps them."""
    n = len(tl.items)
    bad = [i for i in positions if not 0 <= i < n]
    if not bad:
        return positions
    if execute.in_shape_inference() and n:
        return [min(max(i, 0), n - 1) for i in positions]
    raise errors.InvalidArgumentError(
        None, None, f"Trying to {verb} element {bad[0]} in a list with {n} elements.")


def _elements(tl: TensorList, element_shape, positions, empty_text):
    """The elements at ``positions``, zeros for the unset ones."""
    shape = _known_shape(tl, element_shape)
    chosen = [tl.items[i] for i in positions]
    if any(x is None for x in chosen):
        zero = _zeros_like_element(tl, shape, empty_text.format(shape=shape))
        chosen = [zero if x is None else x for x in chosen]
    return chosen, shape


@func_graph.recorded(name="TensorListStack")
def tensor_list_stack(input_handle, element_dtype, num_elements=-1, element_shape=None,
                      name=None) -> Tensor:
    """The elements stacked on a new first axis (TF's ``TensorListStack``).

    Raises:
      InvalidArgumentError: a list of another length than ``num_elements``, or unset
        elements of an unknown shape (TF's texts).
    """
    tl = _list(input_handle)
    _check_dtype(tl, element_dtype)
    n = len(tl.items)
    if num_elements is not None and num_elements != -1 and num_elements != n and \
            not execute.in_shape_inference():
        raise errors.InvalidArgumentError(
            None, None, f"Operation expected a list with {num_elements} elements but got a "
                        f"list with {n} elements.")
    if not n:
        shape = _known_shape(tl, element_shape)
        if not shape.is_fully_defined():
            if not execute.in_shape_inference():
                raise errors.InvalidArgumentError(
                    None, None, "Tried to stack elements of an empty list with "
                                f"non-fully-defined element_shape: {shape}")
            shape = TensorShape([] if shape.rank is None else
                                [1 if d is None else d for d in shape.as_list()])
        return array_ops.zeros([0] + shape.as_list(), tl.element_dtype)
    chosen, _ = _elements(tl, element_shape, range(n), (
        "Tried to stack list which only contains uninitialized tensors and has a "
        "non-fully-defined element_shape: {shape}"))
    return array_ops.stack(chosen)


@func_graph.recorded(name="TensorListGather")
def tensor_list_gather(input_handle, indices, element_dtype, element_shape=None,
                       name=None) -> Tensor:
    """The elements at ``indices``, stacked (TF's ``TensorListGather``)."""
    tl = _list(input_handle)
    _check_dtype(tl, element_dtype)
    idx = _in_range(tl, _ints(indices), "gather")
    if not idx:
        shape = _known_shape(tl, element_shape)
        dims = [1 if d is None else d for d in shape.as_list()] if shape.rank else []
        return array_ops.zeros([0] + dims, tl.element_dtype)
    chosen, _ = _elements(tl, element_shape, idx, (
        "Tried to gather uninitialized tensors from a list with non-fully-defined "
        "element_shape: {shape}"))
    return array_ops.stack(chosen)


@func_graph.recorded(name="TensorListConcatV2")
def tensor_list_concat(input_handle, element_dtype, element_shape=None, name=None) -> Tensor:
    """The elements joined along their first axis (TF's ``TensorListConcatV2``)."""
    tl = _list(input_handle)
    _check_dtype(tl, element_dtype)
    n = len(tl.items)
    if not n:
        shape = _known_shape(tl, element_shape)
        rest = shape.as_list()[1:] if shape.rank else []
        return array_ops.zeros([0] + [1 if d is None else d for d in rest], tl.element_dtype)
    chosen, _ = _elements(tl, element_shape, range(n), (
        "All except the first dimension must be fully defined when concating an "
        "uninitialized list. Got: {shape}"))
    for i, t in enumerate(chosen):
        if t.ndim == 0:
            raise errors.InvalidArgumentError(
                None, None, f"Concat saw a scalar shape at index {i} but requires at least "
                            "vectors.")
    return array_ops.concat(chosen, 0)


@func_graph.recorded(name="TensorListLength")
def tensor_list_length(input_handle, name=None) -> Tensor:
    """The number of elements, an int32 scalar (TF's ``TensorListLength``)."""
    return array_ops.constant(len(_list(input_handle).items), dtypes.int32)
