"""``tf.while_loop``: repeat ``body`` while ``cond`` holds.

Glossary:
  loop_vars           -- a list or tuple (or, TF 1 only, one value) of tensors, Python
                         numbers or nested structures of them; ``body`` returns the next
                         ones, in the same structure (TF's check: counts and list/tuple
                         types must match, else ValueError / TypeError).
  maximum_iterations  -- a scalar bound: the loop also stops after that many iterations
                         (``cond`` is still evaluated at the stop, as TF's logical_and does).
  return_same_structure -- TF 2 (``tf.while_loop``) returns the loop variables in the
                         structure ``body`` built; TF 1 (``tf.compat.v1.while_loop``) unpacks
                         a single loop variable.
  eager loop          -- a Python ``while`` over the values; at the end every value becomes a
                         tensor. Gradients flow through the unrolled iterations' ops.
  graph loop          -- symbolic loop variables (or a symbolic first condition) while
                         tracing: the graph being traced builds the loop
                         (``FuncGraph.while_loop``, simdist.framework.func_graph).
``shape_invariants``, ``parallel_iterations``, ``back_prop`` and ``swap_memory`` change
nothing eagerly (``parallel_iterations`` must still be positive, as TF checks).

Mirrors tensorflow/python/ops/while_loop.py.
"""

from __future__ import annotations

from simdist.framework import execute, func_graph, nest
from simdist.framework.ops import control_flow_util, math_ops
from simdist.framework.tensor_spec import TensorSpec


def _read_variables(loop_vars):
    return nest.map_structure(
        lambda v: v.read_value() if hasattr(v, "assign") and hasattr(v, "read_value") else v,
        loop_vars)


def _spec(value):
    spec = getattr(value, "_type_spec", None)   # a TensorArray: its TensorArraySpec
    return spec if spec is not None else TensorSpec.from_tensor(execute.convert_to_tensor(value))


def _converted(value):
    """A loop's result as a tensor; a TensorArray stays one (TF's eager while_loop)."""
    return value if hasattr(value, "_type_spec") else execute.convert_to_tensor(value)


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, name=None, maximum_iterations=None,
               return_same_structure=False):
    """``tf.compat.v1.while_loop``: the loop variables once ``cond`` is false.

    Raises:
      TypeError: ``cond`` or ``body`` not callable, ``parallel_iterations`` < 1, ``body``
        returning a list where a tuple was (or the reverse).
      ValueError: no ``loop_vars``, a non-scalar ``maximum_iterations``, ``body`` returning
        another number of values.
    """
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    loop_vars = _read_variables(loop_vars)
    graph = control_flow_util.graph_for(loop_vars)
    if (graph is None and func_graph.current() is not None
            and isinstance(loop_vars, (list, tuple))
            and func_graph.is_symbolic(cond(*loop_vars))):
        graph = func_graph.current()  # concrete values, a symbolic condition
    if graph is not None:
        return graph.while_loop(cond, body, loop_vars, shape_invariants,
                                maximum_iterations, name)
    return _eager_while_loop(cond, body, loop_vars, maximum_iterations,
                             return_same_structure)


def _eager_while_loop(cond, body, loop_vars, maximum_iterations, return_same_structure):
    if not loop_vars:
        raise ValueError("'loop_vars' must be provided.")
    try_to_pack = len(loop_vars) == 1 and not return_same_structure
    if maximum_iterations is not None:
        maximum_iterations = execute.convert_to_tensor(maximum_iterations)
        if maximum_iterations.shape.ndims != 0:
            raise ValueError("'maximum_iterations' must be a scalar. "
                             f"Received shape: {maximum_iterations.shape}")
        limit = int(maximum_iterations.numpy())
        orig_cond, orig_body = cond, body
        if try_to_pack:
            loop_vars = (0, loop_vars[0])
            cond = lambda i, lv: math_ops.logical_and(i < limit, orig_cond(lv))  # noqa: E731
            body = lambda i, lv: (i + 1, orig_body(lv))  # noqa: E731
        else:
            loop_vars = (0, loop_vars)
            cond = lambda i, lv: math_ops.logical_and(i < limit, orig_cond(*lv))  # noqa: E731
            body = lambda i, lv: (i + 1, orig_body(*lv))  # noqa: E731
        try_to_pack = False

    packed = False  # whether the body's result was packed into a 1-item tuple
    structure = nest.map_structure(_spec, list(loop_vars))
    while cond(*loop_vars):
        loop_vars = body(*loop_vars)
        if try_to_pack and not isinstance(loop_vars, (list, tuple)):
            packed = True
            loop_vars = (loop_vars,)
        control_flow_util.assert_same_structure(structure, list(loop_vars))

    loop_vars = nest.map_structure(_converted, loop_vars)
    if maximum_iterations is not None:
        return loop_vars[1]
    return loop_vars[0] if packed else loop_vars


def while_loop_v2(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
                  back_prop=True, swap_memory=False, maximum_iterations=None, name=None):
    """``tf.while_loop`` (TF 2): the loop variables, in ``body``'s structure, once ``cond``
    is false. Raises as ``while_loop``."""
    return while_loop(cond, body, loop_vars, shape_invariants=shape_invariants,
                      parallel_iterations=parallel_iterations, back_prop=back_prop,
                      swap_memory=swap_memory, name=name,
                      maximum_iterations=maximum_iterations, return_same_structure=True)
