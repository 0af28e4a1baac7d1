"""The functional forms AutoGraph turns ``if`` / ``while`` / ``for`` into, and their checks.

Glossary:
  state             -- the symbols a statement may change that are used later (or are
                       nonlocal): ``get_state()`` returns them, ``set_state(values)`` writes
                       them back; the converted blocks change them through ``nonlocal``.
  if_stmt           -- a tensor condition runs ``tf.cond`` over the state (TF's checks: a
                       boolean scalar condition, every output defined and of one dtype in
                       both branches); anything else is Python's ``if``.
  while_stmt        -- a tensor first condition runs ``tf.while_loop`` over the state (TF's
                       checks after each iteration: same structure, dtype and shape);
                       otherwise a Python loop, which refuses a condition that turns into
                       a tensor inside tf.function.
  for_stmt          -- chosen by what is iterated: first the types registered by the layers
                       above (``register_for_loop``: a tf.data dataset or iterator,
                       simdist.data.dataset_autograph), then a tensor (its first dimension,
                       through tf.while_loop), a distributed dataset (its ``reduce``) or
                       distributed iterator (``get_next_as_optional``); any other iterable
                       is a Python loop.
                       ``extra_test`` is the lowered ``break`` / ``return`` condition.
  undefined symbols -- a loop state symbol with no value before a tensor loop gets its
                       value from the first iteration (TF stages one to learn its type); a
                       loop that then runs zero times fails with TF's runtime message.
Eagerly (concrete tensors) only the taken branch / the real iterations run, so checks that
need both branches traced happen only when tf.function traces
(simdist.framework.func_graph).

Mirrors tensorflow/python/autograph/operators/control_flow.py.
"""

from __future__ import annotations

import functools
import sys

import numpy as np

from simdist.autograph.operators import variables
from simdist.framework import context, dtypes, execute, func_graph, graph_control_flow, nest
from simdist.framework.ops import array_ops, control_flow_ops, control_flow_util
from simdist.framework.ops import cond as cond_lib
from simdist.framework.ops import while_loop as while_lib
from simdist.framework.tensor import Tensor

LEGAL_LOOP_TYPES = "Tensor, int, float, bool or a list, tuple or dict thereof"
_LIMITATIONS = ("https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/"
                "autograph/g3doc/reference/limitations.md"
                "#consistency-of-control-flow-types for more info.")


def is_tensor(x) -> bool:
    """A dense tensor, concrete or symbolic (TF's ``tensors.is_dense_tensor``)."""
    return isinstance(x, Tensor) or func_graph.is_symbolic(x)


def _is_tf_type(x) -> bool:
    return is_tensor(x) or (hasattr(x, "_as_tensor") and hasattr(x, "dtype"))


def _in_function() -> bool:
    return not context.executing_eagerly()


def _is_none_or_undef(value) -> bool:
    return value is None or isinstance(value, (variables.Undefined,
                                                variables.UndefinedReturnValue))


def _as_tensor_if_python(x):
    """A Python value as a tensor: a Const node while tracing (TF's convert_to_tensor in a
    graph), so both branches of a traced ``if`` can be checked."""
    if isinstance(x, (bool, int, float, str, np.ndarray)):
        return array_ops.constant(x)
    return x


# --- checks (TF's texts) ---------------------------------------------------------------
def verify_tf_condition(cond, tag):
    """The condition as a boolean scalar tensor.

    Raises:
      ValueError: not boolean, or more than one element.
    """
    extra_hint = "to check for None, use `is not None`"
    cond = execute.convert_to_tensor(cond)
    if cond.dtype != dtypes.bool_:
        raise ValueError(f"condition of {tag} expected to be `tf.bool` scalar, got {cond!s}"
                         f"; to use as boolean Tensor, use `tf.cast`; {extra_hint}")
    if cond.shape.rank is None:
        return array_ops.reshape(cond, ())
    if cond.shape.rank > 0:
        known = [d for d in cond.shape.as_list() if d is not None]
        if np.prod(known) > 1:
            raise ValueError(f"condition of {tag} expected to be `tf.bool` scalar, got "
                             f"{cond!s}; {extra_hint}")
        cond = array_ops.reshape(cond, ())
    return cond


def verify_loop_init_vars(init_vars, symbol_names, first_iter_vars=None, extra_message=None):
    """Raise TF's errors for a loop variable that is None or undefined before the loop."""
    if not symbol_names:
        return
    if first_iter_vars is None:
        first_iter_vars = (None,) * len(symbol_names)
    for name, val, fi_val in zip(symbol_names, init_vars, first_iter_vars):
        if isinstance(val, variables.UndefinedReturnValue):
            if fi_val:
                raise ValueError("the return value from a TensorFlow loop may only be a "
                                 f"{LEGAL_LOOP_TYPES}; got {type(fi_val)}")
            raise NotImplementedError(
                "a return statement cannot be placed inside this TensorFlow loop; this may "
                "happen if a return statement depends on a static Python condition such as "
                "a hyperparameter")
        error_msg = None
        if val is None:
            error_msg = f"'{name}' is not allowed to be None before the loop"
        elif isinstance(val, variables.Undefined):
            error_msg = f"'{name}' must be defined before the loop"
            if extra_message:
                error_msg += "\n" + extra_message
        if error_msg is not None:
            raise ValueError(error_msg)


def _verify_single_loop_var(name, check_shape, init, entry, exit_, shape_invariant):
    if exit_ is None:
        raise ValueError(f"'{name}' is None at the end of the iteration.")
    init, entry, exit_ = (_as_tensor_if_python(v) for v in (init, entry, exit_))
    if not (_is_tf_type(entry) and _is_tf_type(exit_)):
        return
    if entry.dtype != exit_.dtype:
        raise TypeError(f"'{name}' has dtype {entry.dtype.name} before the loop, but dtype "
                        f"{exit_.dtype.name} after one iteration")
    if not check_shape:
        return
    if shape_invariant is None:
        if not graph_control_flow.is_subshape(exit_.shape, entry.shape):
            raise ValueError(
                f"'{name}' has shape {entry.shape} before the loop, but shape {exit_.shape} "
                "after one iteration. Use tf.autograph.experimental.set_loop_options to set "
                "shape invariants.")
        return
    from simdist.framework.tensor_shape import TensorShape

    shape_invariant = TensorShape(shape_invariant)
    if _is_tf_type(init) and not graph_control_flow.is_subshape(init.shape, shape_invariant):
        raise ValueError(f"'{name}' has shape {init.shape} before the loop, which does not "
                         f"conform with the shape invariant {shape_invariant}.")
    if not graph_control_flow.is_subshape(exit_.shape, shape_invariant):
        raise ValueError(f"'{name}' has shape {exit_.shape} after one iteration, which does "
                         f"not conform with the shape invariant {shape_invariant}.")


def _structure_error(name, what, error):
    return TypeError(f"'{name}' {what}.\n\n{error}")


def verify_tf_loop_vars(init_vars, iter_entry_vars, iter_exit_vars, symbol_names, opts,
                        check_shapes=True):
    """Raise TF's errors when a loop variable changed structure, dtype or shape."""
    invariants = (opts.get("shape_invariants") if check_shapes else None) or (
        (None,) * len(symbol_names))
    for name, init, entry, exit_, invariant in zip(symbol_names, init_vars, iter_entry_vars,
                                                   iter_exit_vars, invariants):
        for a, b in ((init, entry), (entry, exit_)):
            try:
                control_flow_util.assert_same_structure(a, b)
            except (ValueError, TypeError) as e:
                raise _structure_error(
                    name, "does not have the same nested structure after one iteration",
                    e) from e
        if func_graph.is_composite(entry):   # not a tensor: TF checks only its structure
            continue
        inv = (nest.map_structure(lambda _: None, entry) if invariant is None
               else invariant)
        for i, e, x, s in zip(nest.flatten(init), nest.flatten(entry), nest.flatten(exit_),
                              nest.flatten(inv) if nest.is_nested(inv) else [inv]):
            _verify_single_loop_var(name, check_shapes, i, e, x, s)


def verify_single_cond_var(name, body_var, orelse_var):
    """Raise TF's errors when a branch output is None or of another dtype."""
    if body_var is None:
        raise ValueError(f"'{name}' is None at the end of the main branch.")
    if orelse_var is None:
        raise ValueError(f"'{name}' is None at the end of the else branch.")
    body_var, orelse_var = _as_tensor_if_python(body_var), _as_tensor_if_python(orelse_var)
    if not (_is_tf_type(body_var) and _is_tf_type(orelse_var)):
        return
    if body_var.dtype != orelse_var.dtype:
        raise TypeError(f"'{name}' has dtype {body_var.dtype.name} in the main branch, but "
                        f"dtype {orelse_var.dtype.name} in the else branch")


def _verify_tf_cond_branch_vars(vars_, symbol_names, branch_name):
    for name, var_ in zip(symbol_names, vars_):
        if isinstance(var_, variables.Undefined):
            raise ValueError(f"'{name}' must also be initialized in the {branch_name} branch")
        if isinstance(var_, variables.UndefinedReturnValue):
            raise ValueError(f"the {branch_name} branch must also have a return statement.")


def _verify_tf_cond_vars(body_vars, orelse_vars, symbol_names):
    for name, body_var, orelse_var in zip(symbol_names, body_vars, orelse_vars):
        try:
            control_flow_util.assert_same_structure(body_var, orelse_var)
        except (ValueError, TypeError) as e:
            raise TypeError(f"'{name}' must have the same nested structure in the main and "
                            f"else branches:\n\n{e}") from e
        for b, o in zip(nest.flatten(body_var), nest.flatten(orelse_var)):
            verify_single_cond_var(name, b, o)


# --- if --------------------------------------------------------------------------------
def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    """``if cond: body() else: orelse()``; a tensor ``cond`` runs ``tf.cond``."""
    if is_tensor(cond):
        _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts)
    else:
        body() if cond else orelse()


def _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    cond = verify_tf_condition(cond, "if statement")
    if not nouts:
        prev_get_state, prev_set_state = get_state, set_state
        get_state = lambda: (0,) + prev_get_state()  # noqa: E731 - TF's dummy output
        set_state = lambda v: prev_set_state(v[1:])  # noqa: E731
        symbol_names += ("<unused dummy>",)
        nouts = 1
    init_vars = get_state()
    outputs = {}

    def branch(name, fn, other):
        set_state(init_vars)
        fn()
        new_vars = tuple(_as_tensor_if_python(v) for v in get_state()[:nouts])
        outputs[name] = new_vars
        _verify_tf_cond_branch_vars(new_vars, symbol_names, name)
        if other in outputs:
            pair = (new_vars, outputs[other]) if name == "main" else (outputs[other], new_vars)
            _verify_tf_cond_vars(*pair, symbol_names)
        return new_vars

    final = cond_lib.cond(cond, functools.partial(branch, "main", body, "else"),
                          functools.partial(branch, "else", orelse, "main"), strict=True)
    set_state(tuple(final) + tuple(init_vars[nouts:]))


# --- while -----------------------------------------------------------------------------
def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    """``while test(): body()``; a tensor first condition runs ``tf.while_loop``."""
    # while tracing, the first test runs in a throwaway graph (TF's FuncGraph('tmp')): the
    # loop traces its own, and the outer graph keeps no Less of it
    init_test = (graph_control_flow.scratch(func_graph.current(), test) if _in_function()
                 else test())
    if is_tensor(init_test):
        _tf_while_stmt(test, body, get_state, set_state, symbol_names, opts)
        return
    if not init_test:
        return
    body()
    _py_while_stmt(test, body)


def _py_while_stmt(test, body):
    def guarded_test():
        result = test()
        if is_tensor(result) and _in_function():
            raise NotImplementedError(
                "The condition of while loop started as non-Tensor, then changed to Tensor. "
                "This may happen either because variables changed type, or when a break or "
                "return statement inside the loop depends on a Tensor condition. In both "
                "cases, changing to a TF loop should remove the error.\nSee " + _LIMITATIONS)
        return bool(result)

    while guarded_test():
        body()


def _runtime_zero_iterations_errmsg(symbol_names, nulls, init_vars):
    names = ["the function return value" if isinstance(v, variables.UndefinedReturnValue)
             else s for s, n, v in zip(symbol_names, nulls, init_vars) if n]
    return "loop must iterate at least once to initialize " + ", ".join(names)


def _first_iteration(test, body, get_state, set_state, init_vars, nulls, symbol_names):
    """TF stages one iteration to type the undefined loop variables; eagerly it runs.

    Returns the state after it, or None when the loop does not iterate.
    """
    if any(isinstance(v, variables.UndefinedReturnValue) for v in init_vars):
        verify_loop_init_vars(init_vars, symbol_names)  # a return inside a tensor loop
    if not bool(verify_tf_condition(test(), "while loop")):
        return None
    try:
        body()
    except (UnboundLocalError, TypeError, ValueError, KeyError):
        exc = sys.exc_info()
        verify_loop_init_vars(init_vars, symbol_names, extra_message=(
            "Note: AutoGraph tried to define it automatically, but ran into a "
            f"{exc[0].__name__}: {exc[1]}"))
        raise
    first = get_state()
    seeded = tuple(f if n else v for v, n, f in zip(init_vars, nulls, first))
    verify_loop_init_vars(seeded, symbol_names, first)
    return first


def _placeholder_value(like, shape_invariant, original=None):
    """(a zero value like the first iteration's ``like``, the shape invariant it needs):
    TF's stand-in for a loop variable undefined before a staged loop."""
    if like is None or isinstance(like, (variables.Undefined, variables.UndefinedReturnValue)):
        return original, None
    if isinstance(like, (int, float, bool)):
        return type(like)(0), None
    if not is_tensor(like):
        return original, None
    from simdist.framework.tensor_shape import TensorShape

    like_shape = TensorShape(shape_invariant) if shape_invariant is not None else like.shape
    if like_shape.rank is None:
        return array_ops.zeros((), like.dtype), like_shape
    dims = like.shape.as_list()
    inv = like_shape.as_list()
    shape = [(i or 0) if d is None else d for d, i in zip(dims, inv)]
    return array_ops.zeros(shape, like.dtype), (like_shape if None in dims else None)


def _try_handling_undefineds(body, get_state, set_state, init_vars, nulls, symbol_names):
    """In a traced function: stage one iteration of the body into a scratch graph (its
    Python runs, its ops are dropped) to learn the undefined loop variables' types, and start
    them at zeros of those (TF's _try_handling_undefineds).

    Returns (init vars with the stand-ins, their shape invariants).
    """
    state_modified = False
    first_iter_vars = None
    failure_message = None
    invariants = (None,) * len(init_vars)
    try:
        def staged():
            nonlocal state_modified, first_iter_vars
            set_state(nest.map_structure(_as_tensor_if_python, init_vars))
            state_modified = True
            body()
            first_iter_vars = get_state()

        graph_control_flow.scratch(func_graph.current(), staged)
        inits = tuple(_placeholder_value(fi, None, v) if n else (v, None)
                      for v, n, fi in zip(init_vars, nulls, first_iter_vars))
        init_vars, invariants = zip(*inits)
    except (UnboundLocalError, TypeError, ValueError, KeyError):
        exc = sys.exc_info()
        failure_message = ("Note: AutoGraph tried to define it automatically, but ran into a "
                           f"{exc[0].__name__}: {exc[1]}")
    finally:
        if state_modified:
            set_state(init_vars)
    verify_loop_init_vars(init_vars, symbol_names, first_iter_vars,
                          extra_message=failure_message)
    return tuple(init_vars), tuple(invariants)


def _loop_options(opts):
    allowed = ("maximum_iterations", "shape_invariants", "parallel_iterations",
               "swap_memory")
    return {k: opts[k] for k in allowed if k in opts}


def _shape_invariants_by_position(mapping, init_vars):
    """``set_loop_options``'s [(variable, shape)] as one entry per loop variable, matched by
    identity as TF matches them (None where none was given)."""
    by_id = {id(k): (k, v) for k, v in mapping}
    out = []
    for v in init_vars:
        key, shape = by_id.get(id(v), (None, None))
        out.append(shape if key is v else None)
    return tuple(out)


def _tf_while_stmt(test, body, get_state, set_state, symbol_names, opts):
    init_vars = orig_init_vars = get_state()
    if "shape_invariants" in opts:  # in place, as TF does: the loop's blocks read it too
        opts["shape_invariants"] = _shape_invariants_by_position(opts["shape_invariants"],
                                                                 init_vars)
    nulls = tuple(_is_none_or_undef(v) for v in init_vars)
    require_one_iteration = False
    if any(nulls) and func_graph.current() is not None:   # TF stages one iteration
        init_vars, extra = _try_handling_undefineds(body, get_state, set_state, init_vars,
                                                    nulls, symbol_names)
        require_one_iteration = True
        given = opts.get("shape_invariants") or (None,) * len(init_vars)
        if any(e is not None for e in extra):
            opts = dict(opts, shape_invariants=tuple(g if g is not None else e
                                                     for g, e in zip(given, extra)))
    elif any(nulls):   # eagerly the first iteration runs for real
        first = _first_iteration(test, body, get_state, set_state, init_vars, nulls,
                                 symbol_names)
        if first is None:
            control_flow_ops.Assert(False, [_runtime_zero_iterations_errmsg(
                symbol_names, nulls, init_vars)])
        init_vars = first
    if not init_vars:  # TF's while_v2 keeps a counter; eager tf.while_loop needs a variable
        get_state, set_state, symbol_names, init_vars = _with_dummy(get_state, set_state,
                                                                    symbol_names)
    skip = 1 if require_one_iteration else 0

    def aug_test(*loop_vars):
        set_state(loop_vars[skip:])
        return verify_tf_condition(test(), "while loop")

    def aug_body(*loop_vars):
        set_state(loop_vars[skip:])
        body()
        new_loop_vars = get_state()
        verify_tf_loop_vars(init_vars, loop_vars[skip:], new_loop_vars, symbol_names, opts)
        return (True,) * skip + tuple(new_loop_vars)

    loop_opts = _loop_options(opts)
    if skip and "shape_invariants" in loop_opts:
        loop_opts["shape_invariants"] = (None,) + tuple(loop_opts["shape_invariants"])
    graph = func_graph.current()
    if graph is not None and not _is_symbolic_tree(init_vars):
        # While tracing, a loop AutoGraph made a TF loop (over tf.range(10) of a Python
        # int) is a graph while loop even when its state starts as Python values, as TF's
        final = graph.while_loop(aug_test, aug_body, (False,) * skip + tuple(init_vars),
                                 loop_opts.get("shape_invariants"),
                                 loop_opts.get("maximum_iterations"))
    else:
        final = while_lib.while_loop(aug_test, aug_body,
                                     (False,) * skip + tuple(init_vars),
                                     return_same_structure=True, **loop_opts)
    if skip:   # TF's Assert that the loop ran, so the stand-ins were replaced
        control_flow_ops.Assert(final[0], [_runtime_zero_iterations_errmsg(
            symbol_names, nulls, orig_init_vars)])
        final = final[1:]
    set_state(final)


def _is_symbolic_tree(values) -> bool:
    return any(func_graph.is_symbolic(v) for v in nest.flatten(values))


def _with_dummy(get_state, set_state, symbol_names):
    prev_get_state, prev_set_state = get_state, set_state
    return ((lambda: (0,) + prev_get_state()), (lambda v: prev_set_state(v[1:])),
            ("<internal dummy>",) + tuple(symbol_names), (0,) + prev_get_state())


# --- for -------------------------------------------------------------------------------
def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    """``for target in iter_: body(target)`` while ``extra_test()``, by what ``iter_`` is."""
    for_fn = next((fn for accepts, fn in (*_FOR_LOOP_REGISTRY, *_FOR_LOOPS)
                   if accepts(iter_)), _py_for_stmt)
    for_fn(iter_, extra_test, body, get_state, set_state, symbol_names, opts)


def _py_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    if extra_test is None:
        for target in iter_:
            body(target)
        return

    def guarded_extra_test():
        result = extra_test()
        if is_tensor(result) and _in_function():
            raise NotImplementedError(
                "break and return statements which depend on a TF condition are not "
                "supported in Python for loops. Did you intend to make it a TF loop?\nSee "
                + _LIMITATIONS)
        return bool(result)

    if guarded_extra_test():
        for target in iter_:
            body(target)
            if not guarded_extra_test():
                break


def _len(iter_):
    if iter_.shape.rank == 0:
        raise ValueError(f"len requires a non-scalar tensor, got one of shape {iter_.shape}")
    n = iter_.shape.as_list()[0]
    return array_ops.shape(iter_)[0] if n is None else n


def _loop_start(value):
    """A for loop's own counter or flag: TF stages the loop in a graph whatever its state,
    and simdist's while_loop is a graph loop when a loop variable is symbolic, so in a
    trace it starts as a graph constant (else ``tf.range(5)``'s loop would unroll)."""
    return value if func_graph.current() is None else array_ops.constant(value)


def _known_len_tf_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names,
                           opts):
    """A tensor: its rows, through tf.while_loop (TF reads them from a TensorArray)."""
    n = _len(iter_)
    iterate_index = _loop_start(0)

    def aug_get_state():
        return (iterate_index,) + tuple(get_state())

    def aug_set_state(aug_loop_vars):
        nonlocal iterate_index
        iterate_index, *loop_vars = aug_loop_vars
        set_state(tuple(loop_vars))

    def aug_body():
        nonlocal iterate_index
        body(iter_[iterate_index])
        iterate_index += 1

    def aug_test():
        main_test = iterate_index < n
        if extra_test is not None:
            return cond_lib.cond(main_test, extra_test, lambda: False)
        return main_test

    _tf_while_stmt(aug_test, aug_body, aug_get_state, aug_set_state,
                   ("<internal iterate>",) + tuple(symbol_names), opts)


def _tf_iterator_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    """An iterator (tf.data or distributed): ``get_next_as_optional`` until it is empty."""
    symbol_names = ("<internal has_next>",) + tuple(symbol_names)
    has_next = _loop_start(True)

    def aug_get_state():
        return (has_next,) + tuple(get_state())

    def aug_set_state(aug_loop_vars):
        nonlocal has_next
        has_next, *loop_vars = aug_loop_vars
        set_state(tuple(loop_vars))

    init_vars = aug_get_state()
    verify_loop_init_vars(init_vars, symbol_names)

    def aug_body():
        nonlocal has_next
        opt_iterate = iter_.get_next_as_optional()
        has_next = opt_iterate.has_value()
        loop_vars = aug_get_state()

        def main_path():
            body(opt_iterate.get_value())
            new_loop_vars = aug_get_state()
            verify_tf_loop_vars(init_vars, loop_vars, new_loop_vars, symbol_names, opts)
            return new_loop_vars

        aug_set_state(cond_lib.cond(has_next, main_path, lambda: loop_vars, strict=True))

    def aug_test():
        if extra_test is not None:
            return cond_lib.cond(has_next, extra_test, lambda: False)
        return has_next

    _tf_while_stmt(aug_test, aug_body, aug_get_state, aug_set_state, symbol_names, opts)


def _tf_distributed_iterable_for_stmt(iter_, extra_test, body, get_state, set_state,
                                      symbol_names, opts):
    """A distributed dataset: its ``reduce`` over the per-replica batches."""
    if extra_test is not None:
        raise NotImplementedError("break and return statements are not yet supported in "
                                  "for ... in distributed input loops.")
    init_vars = get_state()
    verify_loop_init_vars(init_vars, symbol_names)
    if "shape_invariants" in opts:
        opts["shape_invariants"] = _shape_invariants_by_position(opts["shape_invariants"],
                                                                 init_vars)

    def reduce_body(loop_vars, iterate):
        set_state(loop_vars)
        body(iterate)
        new_loop_vars = get_state()
        verify_tf_loop_vars(init_vars, loop_vars, new_loop_vars, symbol_names, opts)
        return new_loop_vars

    set_state(iter_.reduce(init_vars, reduce_body))


def _instance_of(module: str, name: str):
    """A predicate that does not import ``module`` (the data and distribute layers sit above
    this one): nothing can be an instance of a class that was never loaded."""
    def accepts(x):
        cls = getattr(sys.modules.get(module), name, None)
        return cls is not None and isinstance(x, cls)
    return accepts


# What a for loop iterates decides how it runs: first the types layers above registered
# (TF's for_loop_registry: tf.data's datasets and iterators), then these checks.
_FOR_LOOP_REGISTRY: list = []


def register_for_loop(cls, for_fn) -> None:
    """Run ``for`` statements over instances of ``cls`` with ``for_fn(iter_, extra_test,
    body, get_state, set_state, symbol_names, opts)`` (TF's for_loop_registry.register)."""
    _FOR_LOOP_REGISTRY.append((lambda x: isinstance(x, cls), for_fn))


_FOR_LOOPS = (
    (_is_tf_type, _known_len_tf_for_stmt),
    (_instance_of("simdist.distribute.input_lib", "DistributedIterator"),
     _tf_iterator_for_stmt),
    (_instance_of("simdist.distribute.input_lib", "DistributedDataset"),
     _tf_distributed_iterable_for_stmt),
)
