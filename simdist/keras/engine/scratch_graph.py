"""A user layer called on KerasTensors runs its ``call`` once in a scratch graph, on symbolic
tensors, as tf-keras's functional construction does.

Glossary:
  scratch graph  -- a FuncGraph of its own per symbolic call (TF's ``scratch_graph``): the
                    layer's ``call`` runs there once, its ops recorded, never executed.
  AutoGraph      -- the call runs converted (``if`` on a tensor becomes a tf.cond), as
                    tf-keras converts a subclassed layer's call for its scratch graph.
  training       -- as the call passes it (None when not given: the scratch call does not
                    choose one, unlike the run on zeros, which is for inference).
  placeholders   -- the symbolic tensors standing for the call's KerasTensors, of their
                    shapes (batch ``None``) and dtypes, named ``Placeholder``,
                    ``Placeholder_1`` ... in order (the inputs, args, kwargs, then the
                    inputs' masks), as tf-keras's ``keras_tensor_to_placeholder``: inside
                    ``call``, ``x.shape`` is ``(None, 3)``, ``tf.shape(x)`` a symbolic
                    tensor, ``x.numpy()`` TF's AttributeError, Python side effects happen
                    once.
  outputs        -- the call's symbolic outputs become KerasTensors of their static shapes
                    and dtypes, named as the graph named them (``my_layer/mul:0``).
  losses         -- what the call adds (``add_loss``) stays on the layer as the graph's
                    symbolic tensors until its next call, as TF shows them (``d/Sum:0``).
  names asked    -- simdist's own layers find their shapes on zeros; their outputs' names
                    come from a scratch graph of their call when first asked
                    (``name_outputs``).
  fallback       -- code the graph cannot record (``NotTraceable``) makes the symbolic call
                    run the layer on zeros instead (node.py), as it did before.
Only layers that are not simdist's own go through the scratch graph at every symbolic call:
simdist's layers declare their shapes, and running them on zeros is cheaper.

Mirrors tf_keras/src/engine/base_layer.py (``_functional_construction_call``,
``_infer_output_signature``) and keras_tensor.py (``keras_tensor_to_placeholder``,
``keras_tensor_from_tensor``).
"""

from __future__ import annotations

from simdist.framework import context, execute, func_graph, function_variables, nest, variables
from simdist.framework import tape as tape_lib
from simdist.framework.ops import random_ops
from simdist.framework.tensor import NotTraceable
from simdist.framework.thread_local import ThreadLocalValue
from simdist.keras import backend
from simdist.keras.engine.keras_tensor import KerasTensor

_calling = ThreadLocalValue(None)   # the layer whose symbolic call runs now (this thread)
_autographed = ThreadLocalValue(None)   # (that layer, its call as AutoGraph converted it)


def is_scratch_traced(layer) -> bool:
    """Whether a symbolic call of ``layer`` runs its ``call`` in a scratch graph: a user's
    layer (simdist's own find their shapes on zeros)."""
    return not type(layer).__module__.startswith("simdist.")


def call_object_name(layer) -> str:
    """How a call's error names ``layer``: ``layer "n" (type N)`` in its symbolic call,
    ``layer 'n' (type N)`` in any other (a layer it calls inside included), as tf-keras's
    two ``inject_argument_info_in_traceback`` do."""
    quote = '"' if _calling.value is layer else "'"
    return f"layer {quote}{layer.name}{quote} (type {type(layer).__name__})"


def call_fn(layer):
    """The ``call`` a layer's ``__call__`` runs: in its own symbolic call, the call as
    AutoGraph converts it (tf-keras's ``_autographed_call`` of a subclassed layer: Python
    control flow on a tensor becomes graph control flow; an error inside is TF's "in user
    code:" text); ``layer.call`` anywhere else."""
    found = _autographed.value
    if found is None or found[0] is not layer:
        return layer.call
    converted = found[1]

    def run(*args, **kwargs):
        try:
            return converted(*args, **kwargs)
        except NotTraceable:
            raise
        except Exception as e:
            from simdist.autograph.impl import error_utils

            wrapped = error_utils.in_user_code(e)
            if wrapped is None:
                raise
            raise wrapped from None

    return run


def traced_call(layer, inputs, args, kwargs):
    """``layer`` called once in a scratch graph on placeholders for its KerasTensors: its
    outputs as KerasTensors (masks included), or None where the graph cannot record the
    call (the caller runs it on zeros then).

    Raises:
      Exception: what the layer's ``call`` raised on the symbolic tensors (TF's errors:
        ``x.numpy()`` an AttributeError, ``bool(x)`` an OperatorNotAllowedInGraphError).
    """
    graph = func_graph.FuncGraph(f"{layer.name}_scratch_graph")
    device = context.current_device()
    keras_tensors = [t for t in nest.flatten([inputs, list(args), dict(kwargs)])
                     if isinstance(t, KerasTensor)]
    made = {}
    for t in keras_tensors:
        made[id(t)] = graph.symbolic_like(t.shape, t.dtype, device, "Placeholder")
    for t in keras_tensors:   # the masks' placeholders after the tensors' (TF's order)
        mask = getattr(t, "_keras_mask", None)
        if mask is not None:
            backend.set_keras_mask(made[id(t)], graph.symbolic_like(
                mask.shape, mask.dtype, device, "Placeholder"))

    def placeholder(x):
        return made[id(x)] if isinstance(x, KerasTensor) else x

    saved_tapes = list(tape_lib.stack())
    tape_lib.stack().clear()   # the scratch call is seen by no tape
    try:
        with execute.shape_inference(), context.inside_function(), \
                func_graph.building(graph), \
                random_ops.function_scope(random_ops.FunctionRandomState()), \
                variables.variable_creator_scope(
                    function_variables.creator_for(graph, function_variables.ALLOW)), \
                _calling.scope(layer), _autographed.scope((layer, _converted(layer))):
            out = layer(nest.map_structure(placeholder, inputs),
                        *nest.map_structure(placeholder, list(args)),
                        **nest.map_structure(placeholder, dict(kwargs)))
    except NotTraceable:
        return None
    except Exception as e:   # a NotTraceable the layer's error context wrapped
        if isinstance(e.__cause__, NotTraceable) or isinstance(e.__context__, NotTraceable):
            return None
        raise
    finally:
        tape_lib.stack()[:] = saved_tapes
    return nest.map_structure(_keras_tensor_from, out)


def name_outputs(node) -> None:
    """Name ``node``'s KerasTensor outputs as the scratch graph of its call names them
    (simdist's own layers, which find their shapes on zeros, are traced only when a name
    is asked for); the layer's name where the call cannot be traced."""
    inputs, *args = node.call_args
    try:
        traced = traced_call(node.layer, inputs, args, node.call_kwargs)
    except Exception:  # noqa: BLE001 - a name is asked for: the layer's, as simdist gave
        traced = None
    flat = nest.flatten(traced) if traced is not None else []
    outputs = nest.flatten(node.outputs)
    for i, t in enumerate(outputs):
        if isinstance(t, KerasTensor) and t._name is None:
            found = flat[i] if len(flat) == len(outputs) else None
            t._name = found.name if isinstance(found, KerasTensor) else node.layer.name


def _converted(layer):
    """``layer.call`` converted by AutoGraph (a user's layer: tf-keras's
    ``_should_use_autograph``), or as it is where it cannot be (after TF's warning)."""
    from simdist.autograph.impl import conversion

    return conversion.convert(layer.call)


def _keras_tensor_from(t):
    """A KerasTensor for a symbolic output (its mask too); anything else as it is."""
    if not func_graph.is_symbolic(t):
        return t
    out = KerasTensor(t.shape, t.dtype, name=t.name)
    mask = backend.get_keras_mask(t)
    if func_graph.is_symbolic(mask):
        out._keras_mask = KerasTensor(mask.shape, mask.dtype, name=mask.name)
    return out

