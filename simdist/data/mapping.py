"""User functions over elements: ``map`` and ``filter``.

Glossary:
  calling convention -- the function receives the element as host Tensors; a tuple element
                        is unpacked into positional arguments (``lambda x, y: ...``), anything
                        else (a dict, a namedtuple, one tensor) is passed as one argument.
  return value       -- Python values and NumPy arrays are converted with TF's dtype rules;
                        a returned list becomes a tuple, as tf.data does.
  tracing            -- TF traces the function once, symbolically, when the dataset is made
                        (simdist.data.structured_function): the element spec is the traced
                        outputs' static shapes, the Python runs once, each element runs the
                        recorded graph. A function simdist cannot record runs its Python on
                        each element instead; its spec is then read off the first element (a
                        stand-in of the input's spec when there is none or its elements
                        run Python: a generator, a py_function; ``traced``), keeping a
                        dimension ``None`` where the input's was ``None``; only the failed
                        trace's printing is seen (held_output).
  captures           -- in a tf.function, a function that reads a tensor of the trace
                        (``lambda r: r * k``) captures it, as TF's dataset functions do: an
                        input of its graph, given each execution's value by the iterator
                        that runs the pipeline (``_captured``). Run eagerly instead, it is
                        traced again with their placeholders' ones: dims that depend on
                        them are unknown (``tf.fill([k], x)``: ``(None,)``).
  num_parallel_calls / deterministic -- accepted; elements are produced in order.

Mirrors tensorflow/python/data/ops/map_op.py and filter_op.py
(and structured_function.py for the calling convention).
"""

from __future__ import annotations

from simdist.data import iterator_errors, shuffling, structure
from simdist.data.dataset_ops import DatasetV2, outside_the_graph, pipeline
from simdist.data.from_generator import GeneratorDataset
from simdist.data.structured_function import StructuredFunction, check_callable
from simdist.framework import dtypes, errors, func_graph, held_output, variables
from simdist.framework.tensor_spec import TensorSpec
from simdist.hardware import array_api


def call(fn, values):
    """Call ``fn`` on an element (structure of arrays) the way tf.data does; return values."""
    args = structure.to_tensors(values)
    with structure.dataset_function():
        out = fn(*args) if type(args) is tuple else fn(args)
    if isinstance(out, list):
        out = tuple(out)
    return structure.to_values(out)


def _first(dataset):
    """``dataset``'s first element for an eager function's spec, read as no pass (its
    shuffles' seeds are given back: TF's trace runs no iterator); None where its elements
    run user Python (a generator, an eager function), which TF's trace never calls."""
    if _runs_python(dataset):
        return None
    with shuffling.seeds_kept(dataset):
        return next(iter(dataset._values()), None)


def _runs_python(dataset) -> bool:
    for ds in pipeline(dataset):
        function = getattr(ds, "_function", None)
        if isinstance(ds, GeneratorDataset) or (function is not None and (
                function.graph is None or _calls_py_function(function.graph))):
            return True
    return False


def _calls_py_function(graph) -> bool:
    """Whether ``graph`` runs a ``tf.py_function``'s (``numpy_function``'s) Python: in a
    cond's branch, a loop's body or a tf.function it calls too."""
    from simdist.framework.ops import script_ops

    return any(script_ops.runs_python(node) for node in func_graph.walk_called(graph.nodes))


def traced(input_dataset, spec_on, printed: int = 0):
    """``spec_on(element)`` (the spec a dataset function gives) as TF's trace of the
    function learns it: on the input's first element, or a stand-in of its spec when it has
    none (None when neither exists or the stand-in's values fail an op); the dims that
    differ on stand-ins of other values (zeros, ones: ``tf.pad(x, [[x, 0]])``) are unknown,
    as in TF's symbolic trace; a function that read tensors of the trace
    (``func_graph.captured_now``) is run again on their ones, likewise. What the first run
    prints after the ``printed`` writes of the failed trace is seen (TF's trace printed it)."""
    spec = input_dataset.element_spec
    unknown_rank = (1,)   # the dims a stand-in gives a leaf of unknown rank
    # TF's trace runs no op (writes no variable, prints nothing), and its Python printed
    # once: when simdist tried to trace it
    with variables.writes_undone(), held_output.held(everything=True):
        first = _first(input_dataset)
        if first is not None:
            got = traced_on(first, spec_on, printed)
        elif spec is None:
            return None
        else:
            tried = _on_stand_ins(spec, spec_on, printed)
            if tried is None:   # a value the stand-in cannot be: the spec stays a guess
                return None
            got, unknown_rank = tried
        if got is None or spec is None:   # (a predicate's check gives no spec)
            return got
        for fill in (1,) if first is None else (0, 1):
            try:   # a probe
                probed = traced_on(structure.stand_in(spec, fill, unknown_rank), spec_on)
                got = structure.relax_spec(got, probed)
            except Exception:  # noqa: BLE001 - a probe: a value the function does not take
                continue
    return got


def _on_stand_ins(spec, spec_on, printed):
    """``spec_on`` of a stand-in of ``spec`` and the dims it gave an unknown rank (1-d, else
    a scalar); None when neither is a value the function takes."""
    for unknown_rank in ((1,), ()):
        try:
            stand_in = structure.stand_in(spec, unknown_rank=unknown_rank)
            return traced_on(stand_in, spec_on, printed), unknown_rank
        except (errors.OpError, ValueError):
            continue
    return None


def traced_on(element, spec_on, printed=None):
    with held_output.shown_after(printed):
        spec = spec_on(element)
    if spec is None or not func_graph.captured_now():
        return spec
    try:
        with func_graph.captures_read_as(1):
            return structure.relax_spec(spec, spec_on(element))
    except errors.OpError:   # a value-dependent check failed on the ones: the zeros' spec
        return spec


def _relaxed_spec(input_spec, first_input, out_values):
    """The spec of ``out_values`` with dims made ``None`` where the input's were unknown."""
    spec = structure.spec_of(out_values)
    unknown = set()
    for s, v in zip(structure.flatten(input_spec), structure.flatten(first_input)):
        if s.shape.rank is not None:
            unknown.update(v.shape[d] for d, dim in enumerate(s.shape) if dim is None)
    if not unknown:
        return spec

    def relax(s):
        dims = [None if (d == 0 and n in unknown) else n for d, n in enumerate(s.shape)]
        return TensorSpec(dims, s.dtype, s.name)

    return structure.map_leaves(relax, spec)


def _called(fn, values, dataset):
    """``fn(values)``; an op's error in it marked as the function's (iterator_errors); its
    OutOfRangeError is TF's InvalidArgumentError without that context (a function's end of
    sequence is not its input's)."""
    try:
        return fn(values)
    except errors.OutOfRangeError as e:   # captured_function.cc: not the end of the input
        raise errors.InvalidArgumentError(
            None, None, f"Function invocation produced OutOfRangeError: {e.message}") from e
    except errors.OpError as e:
        iterator_errors.in_function(e, dataset)
        raise


class MapDataset(DatasetV2):
    """``map_func`` applied to every element."""

    @outside_the_graph
    def __init__(self, input_dataset, map_func):
        check_callable(map_func)
        self._fn = map_func
        super().__init__((input_dataset,), None)
        self._function = StructuredFunction(map_func, input_dataset.element_spec,
                                            "map_function")
        self._element_spec = self._function.output_spec
        self._captured = self._function.captured
        self._tf_data_number = iterator_errors.number()   # its "MapDataset:<n>"

    @property
    @outside_the_graph
    def element_spec(self):
        if self._element_spec is None:   # an eager function: read off a first element
            self._captured = func_graph.captured_now()   # filled while the function runs
            spec = traced(self._inputs[0], self._spec_on, self._function.printed[0])
            self._element_spec = TensorSpec(None, dtypes.float32) if spec is None else spec
        return self._element_spec

    def _spec_on(self, first):
        return _relaxed_spec(self._inputs[0].element_spec, first, call(self._fn, first))

    def _cardinality(self) -> int:
        return self._inputs[0]._cardinality()

    def _values(self):
        fn = self._function
        for values in self._inputs[0]._values():
            yield _called(fn, values, self)


class FilterDataset(DatasetV2):
    """The elements for which ``predicate`` is ``True``."""

    _function_name = "filter_predicate"   # StructuredFunction's, TF's transformation name

    @outside_the_graph
    def __init__(self, input_dataset, predicate):
        check_callable(predicate)
        self._fn = predicate
        self._tf_data_number = iterator_errors.number()   # its "FilterDataset:<n>"
        super().__init__((input_dataset,), input_dataset.element_spec)
        self._function = StructuredFunction(predicate, input_dataset.element_spec,
                                            self._function_name)
        if self._function.traced:   # TF checks the traced output's spec
            self._check_spec(self._function.output_spec)
            self._captured = self._function.captured
        else:   # run once on a first element, as TF's trace when building
            self._captured = func_graph.captured_now()   # filled while the predicate runs
            traced(input_dataset, self._spec_on, self._function.printed[0])

    def _spec_on(self, first):
        self._check(call(self._fn, first))   # no spec of its own: the input's

    def _check(self, result):
        if structure.is_structure(result) or array_api.kind(result) != "b" or result.ndim != 0:
            self._check_spec(structure.spec_of(result))
        return bool(result)

    # TF's text: filter_op.py's (take_while_op.py's has no comma and no space before the spec)
    _NOT_A_PREDICATE = ("Invalid `predicate`. `predicate` must return a `tf.bool` scalar "
                        "tensor, but its return type is {}.")

    def _check_spec(self, spec) -> None:
        """TF's ``output_structure.is_compatible_with(TensorSpec([], tf.bool))``: a structure
        has no such method (TF's AttributeError); a bool of unknown rank passes."""
        if not hasattr(spec, "is_compatible_with"):
            raise AttributeError(f"'{type(spec).__name__}' object has no attribute "
                                 "'is_compatible_with'")
        if not isinstance(spec, TensorSpec) or not spec.dtype.is_bool or \
                spec.shape.rank not in (None, 0):
            raise ValueError(self._NOT_A_PREDICATE.format(spec))

    def _values(self):
        fn = self._function
        for values in self._inputs[0]._values():
            if self._check(_called(fn, values, self)):
                yield values
