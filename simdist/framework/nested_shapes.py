"""TF's shape inference through a nested function's body while its caller traces.

Glossary:
  call op shapes -- TF gives a nested function's call op (``PartitionedCall``) its output
                    shapes by running the shape functions of the function's body on the
                    caller's static input shapes. A body traced for shapes it does not know
                    (an ``input_signature`` of unknown rank) therefore fails at the
                    caller's trace when the caller's known shapes do not fit, as the
                    body's node's ValueError (``Dimensions must be equal, but are 3 and 4
                    for '{{node MatMul}} = BatchMatMulV2[...](x, y)' with input shapes:
                    [2,3], [4,5].``), in the caller's user code. Its kernel would otherwise
                    fail only at execution.
  dry failure   -- simdist runs the body on the caller's placeholders (func_graph's dry
                    run); a node whose kernel fails there notes its call on the error
                    (``note``). Where that node's tensor inputs are all the caller's
                    symbolic tensors of fully known shape (the placeholders' sizes are then
                    the real ones), the node's shape function (shape_errors.RULES) is asked
                    with the body's names for its inputs and TF's graph op type.

Mirrors tensorflow/core/common_runtime/shape_refiner.cc (InferShapesForFunction: the
body's shape functions run on the call's input shapes) and python/ops/math_ops.py (matmul
records BatchMatMulV2 for inputs whose rank is not known to be 2).
"""

from __future__ import annotations

from simdist.framework import nest, shape_errors


def note(error, node, args, kwargs, slots) -> None:
    """Keep on ``error`` the innermost node call that raised it in a dry run (``slots``:
    id of each argument the graph fed -> its tensor id there)."""
    if getattr(error, "_dry_call", None) is None:
        error._dry_call = (node, args, kwargs, slots)


def at_call(error, graph, flat_args):
    """TF's ValueError for the kernel ``error`` a node of the nested function ``graph``
    raised while its caller traced with ``flat_args`` (the call's flat arguments), or None
    when TF's shape inference would not see it (see the module docstring)."""
    from simdist.framework.func_graph import SymbolicTensor

    found = getattr(error, "_dry_call", None)
    if found is None:
        return None
    node, args, kwargs, slots = found
    leaves = [v for v in nest.flatten((args, kwargs)) if hasattr(v, "_value")]
    symbolic = [v for v in flat_args if isinstance(v, SymbolicTensor)]
    callers = {id(v) for v in symbolic}
    # the body's own tensors have their real sizes only when the caller's are all known
    known = all(v._static_shape.is_fully_defined() for v in symbolic)
    if not leaves or not all(id(v) in callers or known for v in leaves):
        return None
    names = _tensor_names(graph)
    by_id = {i: names.get(sid) for i, sid in slots.items()}
    return shape_errors.at_trace(error, node.fn, node.name, args, kwargs,
                                 names=lambda v: by_id.get(id(v)),
                                 op_type=_graph_op_type(node, graph, slots, leaves))


def _tensor_names(graph) -> dict:
    """tensor id -> its op's name in ``graph`` (``x`` for ``x:0``; ``split:1`` kept)."""
    from simdist.framework.func_graph import SymbolicTensor

    out = {sid: spec[0] for sid, spec in graph.tensor_specs.items()}
    out.update((t._id, t._name) for t in nest.flatten(graph.structured_inputs)
               if isinstance(t, SymbolicTensor))
    return {sid: name[:-2] if name.endswith(":0") else name for sid, name in out.items()}


def _graph_op_type(node, graph, slots, leaves):
    """The op type TF's graph holds for ``node`` where it is not its kernel's eager one:
    a matmul of inputs whose rank was not known to be 2 when the body traced is
    BatchMatMulV2."""
    if getattr(node.fn, "__name__", "") not in ("matmul", "__matmul__"):
        return None
    from simdist.framework.func_graph import SymbolicTensor

    ranks = {t._id: t._static_shape.rank for t in nest.flatten(graph.structured_inputs)
             if isinstance(t, SymbolicTensor)}
    ranks.update((sid, spec[2].rank) for sid, spec in graph.tensor_specs.items())
    if all(ranks.get(slots.get(id(v))) == 2 for v in leaves[:2]):
        return None
    return "BatchMatMulV2"
