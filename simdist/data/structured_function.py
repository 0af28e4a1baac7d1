"""A tf.data user function (``map``, ``filter``, ``scan``'s ...) traced once into a graph
of its own, as TF's StructuredFunctionWrapper does.

Glossary:
  trace         -- when the dataset is made, the function runs once on symbolic tensors of
                   the input's element spec (unknown sizes stay ``None``), AutoGraph-converted
                   as TF converts dataset functions; its Python side effects (``print``)
                   happen then, once, as in TF.
  output_spec   -- the element spec TF reads off the traced outputs' static shapes: a
                   dynamic ``TensorArray.stack()``, ``tf.range(x)``, a ``tf.cond`` whose
                   branches differ, a ``tf.concat`` of unknown sizes are ``(None, ...)``.
  execution     -- each element runs the recorded graph (no Python of the user's function).
  captures      -- made inside a ``tf.function``, the function may read tensors of that
                   trace (``lambda r: r * k``): they become extra inputs of its graph, fed
                   the execution's values (``func_graph.bound_captures``) by the iterator.
  datasets      -- a dataset argument (a window's component: DatasetSpec) is a
                   DatasetArgument while tracing and the given dataset at execution; a
                   returned dataset (interleave's) is traced as a template whose needed
                   tensors are extra outputs of the graph, and each execution gives it back
                   bound to them (simdist.data.bound_dataset).
  lists         -- a returned list is a tuple; a list inside what it returns is packed
                   into one tensor (``tf.stack``, TF's auto-packing): its tensors' dtype
                   rules, Python numbers converted to it; anything else there is TF's
                   "Unsupported return value" TypeError.
  eager fallback -- a function simdist cannot record (its code reads a value in Python,
                   returns a list of tensors ...) runs its Python on each element instead
                   (``graph`` is None), its printing dropped (TF's graph prints nothing;
                   simdist.framework.held_output); its spec then comes from a first
                   element (simdist.data.mapping.traced).

Mirrors tensorflow/python/data/ops/structured_function.py.
"""

from __future__ import annotations

import numpy as np

from simdist.data import composite_rows, structure
from simdist.data.bound_dataset import BoundDataset, DatasetArgument, needed
from simdist.data.dataset_ops import DatasetV2
from simdist.data.iterator_pass import kernels_of
from simdist.framework import composite_specs, context, errors, func_graph, held_output
from simdist.framework.none_tensor import NoneTensorSpec
from simdist.framework.tensor import NotTraceable, Tensor
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.tensor_spec import TensorSpec

_OUT_OF_SCOPE = "is out of scope and cannot be used here"


class StructuredFunction:
    """``fn`` over elements of ``input_spec``, traced now (see the module docstring).

    Attributes:
      graph: the traced FuncGraph, or None when ``fn`` runs eagerly per element.
      output_spec: the spec of what ``fn`` returns (None when eager: read it off a value).
      captured: the tensors of an enclosing trace that ``fn`` reads.
    """

    def __init__(self, fn, input_spec, name: str, wrap=None):
        from simdist.framework.ops import random_ops

        self._fn = fn
        self._wrap = wrap   # what TF's wrapper does to the output (a conversion), or None
        self._input_spec = input_spec
        self.graph = None
        self.output_spec = None
        self.captured: list = []
        self._needed: list = []        # what its returned datasets read, per execution
        self._dataset_args: list = []  # its DatasetArguments, in flat order
        self._checked = False          # outputs whose shapes only execution shows: checked
        self.printed = [0]             # the writes (print) its trace made: their count
        self._randomness = random_ops.FunctionRandomState()
        self._own_kernels = self._randomness.kernels   # for calls outside any iterator
        if input_spec is None:
            return
        try:
            self._trace(name)
        except NotTraceable:
            self.graph, self.output_spec, self.captured = None, None, []

    def _trace(self, name: str) -> None:
        from simdist.framework.ops import random_ops

        graph = func_graph.FuncGraph(name)
        graph.outer_captures = []
        graph.lent_captures = []   # its tensors that functions of its datasets capture
        graph.constant_folding = False   # TF's x / c stays a division in tf.data functions
        fn, graph.autograph_pending = _converted(self._fn)
        converted = fn is not self._fn or not graph.autograph_pending
        host = structure.host_device()
        args = symbolic_args(graph, host, self._input_spec)
        # the graph takes a RaggedTensor's or SparseTensor's components as its inputs
        inputs = composite_specs.component_leaves(structure.flatten(args))
        graph.inputs = [(i, t._id, t.dtype) for i, t in enumerate(inputs)
                        if func_graph.is_symbolic(t)]
        try:
            with context.device(host), context.inside_function(), \
                    func_graph.captured_by_use(None), func_graph.building(graph), \
                    random_ops.function_scope(random_ops.FunctionRandomState()):
                graph._base_device = context.explicit_device()
                with held_output.counted() as self.printed:   # (shown once: held_output)
                    out = fn(*args)
                out = _packed(out, name)
                if self._wrap is not None:
                    out = self._wrap(out)
        except TypeError as e:   # a tensor of the enclosing trace read in Python
            if _OUT_OF_SCOPE not in str(e):
                _raise_call_error(e, self._fn, converted)
                _raise_in_user_code(e)
            raise NotTraceable("a dataset function read a tensor of the enclosing "
                               "trace in Python") from None
        except NotTraceable:
            raise
        except Exception as e:   # noqa: BLE001 - TF's "in user code:" text, same type
            _raise_in_user_code(e)
        for leaf in structure.flatten(out):   # an enclosing trace's tensor returned as it is
            if func_graph.is_symbolic(leaf) and leaf._graph is not graph and \
                    not graph._capture(leaf):
                raise NotTraceable("a dataset function returned another trace's tensor")
        self._needed = self._needed_by(graph, out)
        graph.outputs = (out, self._needed) if self._needed else out
        self._dataset_args = [a for a in inputs if isinstance(a, DatasetArgument)]
        n = len(inputs)
        graph.inputs += [(n + k, t._id, t.dtype) for k, t in enumerate(graph.outer_captures)]
        graph.finalize()
        self.graph = graph
        self.captured = list(graph.outer_captures)
        self.output_spec = _output_spec(out, name)
        self._checked = any(getattr(node, "fn", None) in _UNKNOWN_SHAPE_OPS
                            for node in graph.nodes)

    @staticmethod
    def _needed_by(graph, out) -> list:
        """The tensors the datasets in ``out`` read at iteration; those of an enclosing
        trace become inputs of ``graph`` (its captures).

        Raises:
          NotTraceable: a tensor of ``graph`` is captured by a dataset function that is not
            part of a returned dataset (one iterated inside the function), or by another
            tf.data function's graph.
        """
        tensors: list = []
        for leaf in structure.flatten(out):
            if isinstance(leaf, DatasetV2):
                tensors += [t for t in needed(leaf) if all(t is not u for u in tensors)]
        for t in tensors:
            if t._graph is not graph and not graph._capture(t):
                raise NotTraceable("a dataset made of another tf.data function's tensors")
        if any(all(t is not u for u in tensors) for t in graph.lent_captures):
            raise NotTraceable("a dataset function iterated inside a dataset function "
                               "reads its tensors")
        return tensors

    @property
    def traced(self) -> bool:
        """Whether the function runs as its graph (else eagerly, per element)."""
        return self.graph is not None

    def __call__(self, values):
        """``fn`` of one element (a structure of arrays): the result as arrays."""
        from simdist.framework.ops import random_ops

        if self.graph is None:
            from simdist.data.mapping import call

            fn = self._fn if self._wrap is None else \
                (lambda *a: self._wrap(self._fn(*a)))
            with held_output.held():   # TF runs the graph: its Python printed once, traced
                return call(fn, values)
        host = structure.host_device()
        flat = composite_specs.component_leaves(   # a RaggedTensor, a SparseTensor: its parts
            [v if composite_rows.is_composite(v) or isinstance(v, DatasetV2) else
             Tensor(structure._as_array(v), host) for v in structure.flatten(values)])
        if self.captured:
            bound = func_graph.bound_values()
            flat += [bound[t._id] for t in self.captured]
        # the seeds are the trace's; the kernels the pulling iterator's (iterator_pass)
        self._randomness.kernels = kernels_of(self, self._own_kernels)
        if not (self._needed or self._dataset_args):
            with structure.dataset_function(), random_ops.function_scope(self._randomness):
                out = structure.to_values(self.graph.execute(flat))
            if self._checked:
                _check_shapes(self.output_spec, out)
            return out
        binding = {**func_graph.bound_values(),
                   **{a.key: v for a, v in zip(self._dataset_args,
                                               (v for v in flat if isinstance(v, DatasetV2)))}}
        with structure.dataset_function(), random_ops.function_scope(self._randomness), \
                func_graph.bound_captures(binding):
            out = self.graph.execute(flat)
        if self._needed:
            out, extra = out
            binding.update((t._id, v) for t, v in zip(self._needed, extra))
        return structure.to_values(structure.map_leaves(
            lambda leaf: BoundDataset(leaf, binding) if isinstance(leaf, DatasetV2) else leaf,
            out))


# TF's names of the transformations, for its "Unsupported return value" text.
_TRANSFORMATIONS = {"map_function": "Dataset.map()", "filter_predicate": "Dataset.filter()",
                    "take_while_predicate": "Dataset.take_while()",
                    "interleave_function": "Dataset.interleave()",
                    "scan_function": "Dataset.scan()", "reduce_func": "Dataset.group_by_window()",
                    "key_func": "Dataset.group_by_window()",
                    "window_size_func": "Dataset.group_by_window()"}


def check_callable(func) -> None:
    """TF's check of a transformation's function (StructuredFunctionWrapper).

    Raises:
      ValueError: ``func`` is not callable.
    """
    if not callable(func):
        raise ValueError(f"Argument `func` must be a callable. Received func={func} "
                         f"(of type {type(func)})")


_MAP_DATASET_OP = (
    "Op<name=MapDataset; signature=input_dataset:variant, other_arguments: -> handle:variant; "
    "attr=f:func; attr=Targuments:list(type),min=0; attr=output_types:list(type),min=1; "
    "attr=output_shapes:list(shape),min=1; attr=use_inter_op_parallelism:bool,default=true; "
    "attr=preserve_cardinality:bool,default=false; attr=force_synchronous:bool,default=false; "
    'attr=metadata:string,default="">')


def _output_spec(out, name: str):
    """The spec of what a dataset function returned, checked as TF's wrapper and op do.

    Raises:
      TypeError: a value no tensor can hold (TF's "Unsupported return value ..."; a None
        component is TF's NoneTensor: its spec ``NoneTensorSpec()``).
      InvalidArgumentError: a map function returning no tensor at all (None, (), {}): TF's
        MapDataset op needs at least one output.
      ValueError: a predicate returning None (TF's "Invalid `predicate`" text).
    """
    if out is None or (name == "map_function" and not structure.flatten(out)):
        from simdist.framework import errors

        if name == "map_function":   # (TF names output_types or output_shapes, run to run)
            raise errors.InvalidArgumentError(
                None, None, "Length for attr 'output_types' of 0 must be at least minimum 1\n"
                f"\t; NodeDef: {{{{node MapDataset}}}}; {_MAP_DATASET_OP} [Op:MapDataset] "
                "name: ")
        if name in ("filter_predicate", "take_while_predicate"):   # TF's NoneTensorSpec
            raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar "
                             "tensor, but its return type is NoneTensorSpec().")
    try:
        return structure.none_specs(structure.map_leaves(_spec_of_output, out))
    except (TypeError, ValueError):
        raise TypeError(f"Unsupported return value from function passed to "
                        f"{_TRANSFORMATIONS.get(name, name)}: {out}.") from None


def _packed(out, name: str):
    """What a dataset function returned as TF's wrapper takes it: a list is a tuple, and a
    list inside the structure is one tensor (structured_function.wrapper_helper,
    structure.type_spec_from_value's ``convert_to_tensor`` fallback).

    Raises:
      TypeError: a list mixing dtypes, or holding what no tensor can hold (a dataset).
      ValueError: a list of tensors whose shapes differ.
    """
    if isinstance(out, list):
        out = tuple(out)

    def pack(leaf):
        if not isinstance(leaf, list):
            return leaf
        try:
            return _auto_packed(leaf)
        except _Unsupported:
            raise TypeError(f"Unsupported return value from function passed to "
                            f"{_TRANSFORMATIONS.get(name, name)}: {out}.") from None

    return structure.map_leaves(pack, out)


class _Unsupported(Exception):
    """A list TF's auto-packing cannot turn into a tensor."""


def _auto_packed(values: list):
    """``values`` as one tensor, as TF's ``_autopacking_conversion_function``: the dtype of
    its first tensor (nested lists searched in order), Python numbers converted to it;
    without tensors, a constant. Mirrors tensorflow/python/ops/array_ops.py."""
    from simdist.framework.ops import array_ops

    dtype = _first_dtype(values)
    if dtype is None:
        try:
            return array_ops.convert_to_tensor(values)
        except (TypeError, ValueError):
            raise _Unsupported from None

    def cast(v):
        if isinstance(v, list):
            return [cast(x) for x in v]
        if _is_tensor(v):
            if v.dtype != dtype:
                raise _Unsupported
            return v
        try:
            return array_ops.convert_to_tensor(v, dtype=dtype)
        except (TypeError, ValueError):
            raise _Unsupported from None

    def stack(v):
        parts = [stack(x) if isinstance(x, list) else x for x in v]
        if any(p.shape != parts[0].shape for p in parts[1:]):
            raise ValueError(f"Value {values} is not convertible to a tensor with dtype "
                             f"{dtype} and shape {TensorShape(_packed_dims(values))}.")
        return array_ops.stack(parts)

    return stack(cast(values))


def _packed_dims(v):
    """The dims TF's spec gives a nested list: its length, then the dims its elements
    share (None where they differ); None (unknown rank) where their ranks differ."""
    if not isinstance(v, list):
        return list(v.shape)
    inner = [_packed_dims(x) for x in v]
    if any(d is None or len(d) != len(inner[0]) for d in inner):
        return None
    return [len(v)] + [a if all(d[i] == a for d in inner) else None
                       for i, a in enumerate(inner[0])]


def _first_dtype(values: list):
    for v in values:
        if isinstance(v, list):
            found = _first_dtype(v)
            if found is not None:
                return found
        elif _is_tensor(v):
            return v.dtype
    return None


def _is_tensor(v) -> bool:
    return func_graph.is_symbolic(v) or isinstance(v, Tensor)


# AutoGraph's converted copy of a function is made inside its factories (TF: this name)
_FACTORY = "outer_factory.<locals>.inner_factory.<locals>."


def _raise_call_error(error: TypeError, fn, converted: bool) -> None:
    """Raise TF's text for a function called with arguments it does not take (a map of
    pairs given a function of one argument): AutoGraph called the function's converted
    copy, ``<factories>.tf__<name>`` (a lambda's: ``<lambda>``), and the error is "in user
    code" with no frame of it. Nothing when ``fn`` was not converted, is not a plain
    function, or the error came from inside it."""
    import types

    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    called = f"{getattr(fn, '__qualname__', '')}("
    if not converted or not isinstance(fn, types.FunctionType) or tb is None or \
            tb.tb_frame.f_code is not StructuredFunction._trace.__code__ or \
            not str(error).startswith(called):
        return
    from simdist.autograph.impl import error_utils

    name = fn.__name__ if fn.__name__ == "<lambda>" else f"tf__{fn.__name__}"
    cause = f"TypeError: {_FACTORY}{name}({str(error)[len(called):]}"
    new = TypeError(error_utils.message([], cause))
    new.ag_error_metadata = error_utils.ErrorMetadata(cause)
    raise new from None


def _raise_in_user_code(error):
    """Raise ``error`` as TF does from a dataset function's trace: with its "in user code:"
    frames (autograph error_utils) where it passed through converted code."""
    from simdist.autograph.impl import error_utils

    wrapped = error_utils.in_user_code(error)
    if wrapped is None:
        raise error
    raise wrapped from None


def _unknown_shape_ops() -> set:
    from simdist.framework.ops import script_ops

    return {script_ops._graph_op.__recorded_op__}


_UNKNOWN_SHAPE_OPS = _unknown_shape_ops()   # a numpy_function's: its shapes set by hand


def _check_shapes(spec, values) -> None:
    """TF's check of a dataset function's outputs against its element spec (a
    ``numpy_function``'s result given a shape by ``set_shape``).

    Raises:
      InvalidArgumentError: a known dimension the value does not have.
    """
    for i, (s, v) in enumerate(zip(structure.flatten(spec), structure.flatten(values))):
        if isinstance(s, TensorSpec) and not s.shape.is_compatible_with(
                TensorShape(tuple(v.shape))):
            raise errors.InvalidArgumentError(
                None, None, f"Incompatible shapes at component {i}: expected "
                            f"{_shape_text(s.shape)} but got {_shape_text(v.shape)}.")


def _shape_text(shape) -> str:
    dims = shape.dims if isinstance(shape, TensorShape) else list(shape)
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def symbolic_args(graph, host, spec) -> tuple:
    """The positional arguments a dataset function gets for an element of ``spec``, as
    symbolic tensors of ``graph`` (a tuple element is unpacked; a dataset component, as a
    window's, is a DatasetArgument of its element spec)."""
    from simdist.data.windowing import DatasetSpec

    flat = [DatasetArgument(s.element_spec) if isinstance(s, DatasetSpec) else
            None if isinstance(s, NoneTensorSpec) else
            _symbolic_composite(graph, host, s, f"args_{i}") if _is_composite_spec(s) else
            graph.symbolic_like(s.shape, s.dtype, host, f"args_{i}")
            for i, s in enumerate(structure.flatten(spec))]
    args = structure.pack(spec, flat)
    return args if type(args) is tuple else (args,)


def _is_composite_spec(s) -> bool:
    """A RaggedTensorSpec of a ragged dimension, or a SparseTensorSpec (a RaggedTensorSpec
    of ragged_rank 0 is a dense tensor's)."""
    return composite_rows.is_composite_spec(s) and getattr(s, "ragged_rank", 1) > 0


def symbolic_leaf(graph, device, spec, name):
    """A symbolic value of ``spec`` on ``device``: a tensor, or a RaggedTensor or
    SparseTensor of symbolic components (an iterator's next element while tracing)."""
    if _is_composite_spec(spec):
        return _symbolic_composite(graph, device, spec, name)
    return graph.symbolic_like(spec.shape, spec.dtype, device, name)


def _symbolic_composite(graph, host, spec, name):
    """A RaggedTensor or SparseTensor of symbolic components for an argument of ``spec``."""
    parts = composite_specs.spec_parts(spec)   # (a RaggedTensor's uniform lengths kept)
    return partitioned(type(parts).rebuild([graph.symbolic_like(c.shape, c.dtype, host, name)
                                            if isinstance(c, TensorSpec) else c
                                            for c in parts]))


def partitioned(value):
    """``value``; a RaggedTensor of symbolic components with placeholder row splits that
    partition its placeholder values (spread evenly over the rows; an unknown number of
    rows 2 and 3, as a batch's placeholders have), so the ops a trace runs on them see a
    valid RaggedTensor (zeros or ones do not start at 0 or end at the values' length)."""
    from simdist.framework.ragged_tensor import RaggedTensor
    from simdist.hardware import array_api

    if not isinstance(value, RaggedTensor) or not func_graph.is_symbolic(value.flat_values):
        return value
    splits = list(value.nested_row_splits)
    if not all(func_graph.is_symbolic(s) for s in splits):
        return value
    fixed = [list(s._placeholders) for s in splits]
    for v in range(2):
        inner = int(value.flat_values._placeholders[v].shape[0])
        for k in reversed(range(len(splits))):
            length = int(splits[k]._placeholders[v].shape[0])
            if k == 0 and splits[0].shape[0] is None:   # rows as a batch's placeholders
                length = 3 + v
            row = np.arange(length) * inner // max(length - 1, 1)
            fixed[k][v] = array_api.from_host(row.astype(splits[k].dtype.as_numpy_dtype))
            inner = length - 1
    for s, f in zip(splits, fixed):
        s._placeholders = tuple(f)
    return value


def _spec_of_output(leaf):
    """The TensorSpec of one traced output: a symbolic tensor's static shape; a Python
    value's as tf.data converts it."""
    if func_graph.is_symbolic(leaf):
        return TensorSpec(leaf.shape, leaf.dtype)
    if isinstance(leaf, DatasetV2):
        from simdist.data.windowing import DatasetSpec

        return DatasetSpec(leaf.element_spec)
    if isinstance(leaf, Tensor) or (hasattr(leaf, "assign") and hasattr(leaf, "dtype")):
        return TensorSpec(leaf.shape, leaf.dtype)
    return structure.spec_of(structure.to_array(leaf))


def _converted(fn):
    """(``fn`` as AutoGraph converts it, whether conversion is still pending): a function
    AutoGraph cannot convert runs as it is, and Python control flow on a tensor there makes
    it run eagerly."""
    from simdist.autograph.impl import api

    if api.disabled() or getattr(fn, "__ag_do_not_convert__", False):
        return fn, False
    try:
        return api.to_graph(fn), False
    except Exception:  # noqa: BLE001 - runs unconverted (eagerly where it needs AutoGraph)
        return fn, True
