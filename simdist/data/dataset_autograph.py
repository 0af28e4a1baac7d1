"""How AutoGraph runs ``for x in dataset`` and ``for x in iterator`` (tf.data's overloads,
registered with simdist.autograph's for-loop registry when simdist.data loads).

Glossary:
  dataset loop   -- in a trace TF scans the dataset with the loop body (take_while for the
                    ``break`` / ``return`` test) and reduces it: the body's Python runs once,
                    its ops at every element, a fresh pass at each execution; here the same
                    as optional_ops.fold, which also relaxes a state whose shape changes, as
                    the scan does. Eagerly the same fold over the elements in Python.
  state          -- the loop's variables must be defined before it (TF's errors); they keep
                    their dtypes but not their shapes (``check_shapes=False``); Python
                    numbers become tensors. A loop with no state carries a dummy one.
  iterator loop  -- ``for x in iter(ds)``: AutoGraph's iterator loop over
                    ``get_next_as_optional`` (simdist.autograph.operators.control_flow).
  builtins       -- in converted code ``enumerate(ds)`` is ``ds.enumerate()``, ``zip`` of
                    datasets ``Dataset.zip``, ``map`` / ``filter`` the dataset's, ``abs``
                    a map, ``len`` the cardinality (checked finite when it runs), ``any`` /
                    ``all`` of bool scalars a reduce (py_builtins' registries).

Mirrors tensorflow/python/data/ops/dataset_autograph.py (_tf_ag_dataset_for_stmt) and
iterator_autograph.py (the for-loop registration).
"""

from __future__ import annotations

from simdist.autograph.operators import control_flow, py_builtins
from simdist.data import traced_reduce
from simdist.data.dataset_ops import (
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
    DatasetV2,
    OwnedIterator,
)
from simdist.framework import dtypes, func_graph, nest


def _dataset_for_stmt(ds, extra_test, body, get_state, set_state, symbol_names, opts):
    init_vars = get_state()
    control_flow.verify_loop_init_vars(init_vars, symbol_names)
    if func_graph.current() is not None:
        _tf_dataset_for_stmt(ds, extra_test, body, get_state, set_state, symbol_names, opts,
                             init_vars)
        return
    loop_vars = init_vars
    for element in ds:
        set_state(loop_vars)
        if extra_test is not None and not bool(extra_test()):
            break
        body(element)
        new_loop_vars = get_state()
        control_flow.verify_tf_loop_vars(init_vars, loop_vars, new_loop_vars, symbol_names,
                                         opts, check_shapes=False)
        loop_vars = new_loop_vars
    set_state(nest.map_structure(control_flow._as_tensor_if_python, tuple(loop_vars)))


def _tf_dataset_for_stmt(ds, extra_test, body, get_state, set_state, symbol_names, opts,
                         init_vars):
    if not init_vars:   # TF's dummy state: a reduce needs one
        init_vars, symbol_names = (0,), ("<internal dummy>",)
        get_state, set_state = (lambda: (0,)), (lambda _: None)

    def reduce_body(loop_vars, iterate):
        set_state(loop_vars)
        body(iterate)
        new_loop_vars = get_state()
        control_flow.verify_tf_loop_vars(init_vars, loop_vars, new_loop_vars, symbol_names,
                                         opts, check_shapes=False)
        return tuple(new_loop_vars)

    def test(loop_vars):
        set_state(loop_vars)
        return extra_test()

    set_state(traced_reduce.fold(ds, tuple(init_vars), reduce_body,
                                 None if extra_test is None else test, scan=True))


def _abs(ds):
    from simdist.framework.ops import math_ops

    if len(nest.flatten(ds.element_spec)) == 1:
        return ds.map(math_ops.abs)
    return ds.map(lambda *e: nest.map_structure(math_ops.abs, e))


def _len(ds):
    """The cardinality, asserted finite and known when it runs (TF's Assert text)."""
    from simdist.framework.ops import array_ops, control_flow_ops, math_ops, string_ops

    n = ds.cardinality()
    known = math_ops.logical_and(math_ops.not_equal(n, INFINITE_CARDINALITY),
                                 math_ops.not_equal(n, UNKNOWN_CARDINALITY))
    message = string_ops.join(["len requires dataset with definitive cardinality, got ",
                               string_ops.as_string(n)])
    control_flow_ops.Assert(known, [message])
    return array_ops.identity(n)


def _zip(*iterables, strict=False):
    if strict:
        raise ValueError("strict zip not supported by Dataset")
    return DatasetV2.zip(iterables)


def _bool_scalars(ds, name: str) -> None:
    specs = nest.flatten(ds.element_spec)
    if len(specs) != 1 or specs[0].dtype != dtypes.bool_:
        raise ValueError(f'in graph mode, the "{name}" builtin only supports datasets that '
                         f"return bool scalars; got: {ds.element_spec}")


def _any(ds):
    from simdist.framework.ops import array_ops

    _bool_scalars(ds, "any")
    return ds.filter(lambda x: x).take(1).reduce(array_ops.constant(False), lambda _, y: y)


def _all(ds):
    from simdist.framework.ops import array_ops, math_ops

    _bool_scalars(ds, "all")
    return ds.filter(math_ops.logical_not).take(1).reduce(array_ops.constant(True),
                                                         lambda _, y: y)


control_flow.register_for_loop(DatasetV2, _dataset_for_stmt)
control_flow.register_for_loop(OwnedIterator, control_flow._tf_iterator_for_stmt)
for _name, _overload in (("abs", _abs), ("len", _len), ("enumerate", lambda ds, start=0:
                                                                ds.enumerate(start)),
                         ("zip", _zip), ("map", lambda fn, *ds: DatasetV2.zip(ds).map(fn)),
                         ("filter", lambda fn, ds: ds.filter(fn)), ("any", _any),
                         ("all", _all)):
    py_builtins.register(_name, DatasetV2, _overload)
