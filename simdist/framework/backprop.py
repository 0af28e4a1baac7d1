"""``GradientTape``: reverse-mode autodiff over the ops a tape recorded.

Glossary:
  watch                   -- follow a tensor or variable; trainable variables that are read
                             inside the tape are watched automatically.
  gradient                -- d(target)/d(sources): walks the records backwards, calling one
                             rule per op from ``execute.GRADIENTS``. Gradient ops are ops too,
                             so an outer tape records them (gradients of gradients).
  UnconnectedGradients    -- what a source the target does not depend on gets: ``NONE``
                             (``None``, TF's default) or ``ZERO``.

Mirrors tensorflow/python/eager/backprop.py.
"""

from __future__ import annotations

import contextlib
import enum

from simdist import warnings as teach
from simdist.framework import backprop_util, execute, nest, op_recording
from simdist.framework import tape as tape_lib
from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.tape_order import tape_order
from simdist.framework.tensor import NotTraceable, tracing
from simdist.framework.thread_local import ThreadLocalValue
from simdist.platform import tf_logging


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


def _record_event(event: str, gradient_tape, *args) -> None:
    """Record a tape's ``event`` in the graph being traced (func_graph's replay of it)."""
    from simdist.framework import func_graph  # loaded: a graph is being traced

    func_graph.record_tape_event(getattr(func_graph, f"_replay_{event}"), gradient_tape, *args)


def _trainable(t) -> bool:
    """Whether a tape can differentiate ``t``'s dtype (TF's backprop_util.IsTrainable)."""
    dtype = getattr(t, "dtype", None)
    return dtype is None or dtype.is_floating or dtype.name in (
        "complex64", "complex128", "resource", "variant")


def _tape_key(source):
    """The object a tape follows for ``source`` (distributed variables name their local copy)."""
    resolve = getattr(source, "_tape_source", None)
    return resolve() if resolve is not None else source


def _reaches_unscaled_regularization(records, targets) -> bool:
    """Whether a weight penalty reaches a target other than through a scaling for the
    replicas (tf.nn.scale_regularization_loss, Keras's scale_loss_for_distribution)."""
    needed = {t._id for t in targets if hasattr(t, "_id")}
    for record in reversed(records):
        if not any(getattr(o, "_id", None) in needed for o in record.outputs):
            continue
        for x in record.inputs:
            if teach.tagged(x, "regularization"):
                return True
            if not teach.tagged(x, "scaled_for_replicas") and hasattr(x, "_id"):
                needed.add(x._id)
    return False


class GradientTape:
    """Record operations for automatic differentiation (``tf.GradientTape``)."""

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._tape: tape_lib.Tape | None = None
        self._used = False
        self._in_context = False
        self._entered_in = None

    def __enter__(self):
        if self._in_context:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter "
                             "an already-active tape.")
        if self._tape is None:
            self._tape = tape_lib.Tape(self._persistent, self._watch_accessed_variables)
        self._tape.recording = True
        tape_lib.stack().append(self._tape)
        self._in_context = True
        self._entered_in = tracing.value   # the graph being traced there, or None
        if tracing.value is not None:   # in a tf.function: the execution enters one too
            _record_event("tape_enter", self)
        return self

    def __exit__(self, *exc):
        s = tape_lib.stack()
        if self._tape in s:
            s.remove(self._tape)
        self._in_context = False
        if tracing.value is not None:
            _record_event("tape_exit", self)
        return False

    def watch(self, tensor) -> None:
        """Ensure ``tensor`` (or a structure of tensors/variables) is traced by this tape.

        Raises:
          ValueError: for a value that is not a floating tensor or variable.
        """
        if self._tape is None:
            self._tape = tape_lib.Tape(self._persistent, self._watch_accessed_variables)
        if tracing.value is not None:
            _record_event("watch", self, tensor)
        for t in nest.flatten(tensor):
            t = _tape_key(t)
            if not hasattr(t, "_id"):
                raise ValueError(
                    f"Passed in object {t!r} of type {type(t).__name__!r}, not tf.Tensor or "
                    "tf.Variable. Convert it with tf.convert_to_tensor first."
                )
            if not _trainable(t):   # TF watches it all the same, and says so (5 times)
                import logging

                tf_logging.log_first_n(
                    logging.WARNING, "The dtype of the watched tensor must be floating (e.g. "
                    "tf.float32), got %r", 5, t.dtype)
            self._tape.watch(t)

    def watched_variables(self) -> tuple:
        return tuple(self._tape.variables.values()) if self._tape else ()

    @contextlib.contextmanager
    def stop_recording(self):
        """Temporarily stop recording operations on this tape (only this one: TF pops it
        from the thread's tapes, the others and tapes entered inside the block record).

        Raises:
          RuntimeError: the tape was never entered.
          ValueError: the tape is not recording (exited, or already in this block).
        """
        if self._tape is None:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        if not self._in_context or not self._tape.recording:
            raise ValueError("Tape is not recording.")
        if tracing.value is not None and self._tape not in tape_lib.stack():
            # The caller's tape, in a tf.function: it differentiates the function's graph,
            # which this does not change (TF 2.21 gives the gradient through the block).
            yield
            return
        traced = tracing.value is not None   # a tape of the trace: its executions stop too
        if traced:
            _record_event("recording", self, False)
        self._tape.recording = False
        try:
            yield
        finally:
            self._tape.recording = True
            if traced:
                _record_event("recording", self, True)

    def reset(self) -> None:
        """Forget everything recorded so far; inside the context, go on recording (in a
        tf.function: at every execution too, as TF's graph tape is reset when traced).

        Raises:
          ValueError: the tape is not recording (outside its context, in ``stop_recording``,
            after a non-persistent tape's ``gradient``), TF's message.
        """
        s = tape_lib.stack()
        if tracing.value is not None and self._in_context and \
                self._entered_in is not tracing.value:
            # the caller's tape, entered outside the function: not one of the graph's
            raise NotTraceable("GradientTape.reset of a tape entered outside the function")
        if not self._in_context or self._tape not in s or not self._tape.recording:
            raise ValueError("Tape is not recording.")
        if tracing.value is not None:
            _record_event("reset", self)
        new = tape_lib.Tape(self._persistent, self._watch_accessed_variables)
        s[s.index(self._tape)] = new
        self._tape = new
        self._used = False

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """Compute the gradient of ``target`` with respect to ``sources``.

        Returns:
          A structure like ``sources`` of Tensors (or ``None`` for unconnected sources).

        Raises:
          RuntimeError: a non-persistent tape used twice, or ``gradient`` called inside it.
          TypeError: a ``None`` target.
          ValueError: a target that is not a tensor or variable, or a source that is not
            differentiable.
          LookupError: an op on the path that has no gradient rule.
        """
        if target is None:
            raise TypeError(
                "Argument `target` should be a list or nested structure of Tensors, Variables "
                "or CompositeTensors to be differentiated, but received None.")
        if tracing.value is not None:   # a node: computed now for shapes, and at execution
            from simdist.framework import func_graph  # loaded: a graph is being traced

            return func_graph.record_tape_gradient(
                self, (target, sources, output_gradients, unconnected_gradients))
        return self._gradient(target, sources, output_gradients, unconnected_gradients)

    def _gradient(self, target, sources, output_gradients, unconnected_gradients):
        if self._tape is None:
            raise RuntimeError("GradientTape.gradient can only be called once on "
                               "non-persistent tapes.")
        if self._used and not self._persistent:
            raise RuntimeError(
                "A non-persistent GradientTape can only be used to compute one set of "
                "gradients (or jacobians). Create the tape with persistent=True to call "
                "gradient() more than once."
            )
        unconnected_gradients = UnconnectedGradients(
            getattr(unconnected_gradients, "value", unconnected_gradients)
        )
        self._used = True
        flat_sources = [_tape_key(s) for s in nest.flatten(sources)]
        for s in flat_sources:
            if not hasattr(s, "_id"):
                raise ValueError(
                    f"Argument `sources` must be a structure of tf.Tensor or tf.Variable; "
                    f"got {s!r} of type {type(s).__name__}."
                )
        flat_targets = [_tape_key(t) for t in nest.flatten(target)]
        flat_out_grads = (nest.flatten(output_gradients) if output_gradients is not None
                          else [None] * len(flat_targets))
        if teach.enabled() and teach.regularization_pending() \
                and _reaches_unscaled_regularization(self._tape.records, flat_targets):
            teach.warn("unscaled_regularization", replicas=teach.replicas_here())
        was_recording = self._tape.recording
        if not self._persistent:
            # A non-persistent tape stops recording here; a persistent one inside its
            # context records the gradient computation too (higher derivatives), as in TF.
            self._tape.recording = False
        if not _RULES_LOADED:
            _load_rules()
        try:
            sweep = _sweep.value or _backprop
            grads = sweep(self._tape, flat_targets, flat_out_grads, flat_sources)
        finally:
            self._tape.recording = was_recording
            if not self._persistent:
                self._release()
        out = []
        for s in flat_sources:
            # Only floating sources have gradients (TF logs that an integer one gets None).
            g = grads.get(s._id) if execute.convert_to_tensor(s).dtype.is_floating else None
            if g is None and unconnected_gradients is UnconnectedGradients.ZERO:
                from simdist.framework.ops import array_ops

                g = array_ops.zeros_like(execute.convert_to_tensor(s))
            out.append(g)
        if teach.enabled() and any(teach.tagged(t, "batch_mean") for t in flat_targets):
            for g in out:  # the optimizer checks whether they are summed across replicas
                teach.tag(g, "grad_of_batch_mean")
        return nest.pack_sequence_as(sources, out)

    def _release(self) -> None:
        s = tape_lib.stack()
        if self._tape in s:
            s.remove(self._tape)
        self._tape.records = []

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d(target[i...])/d(source) for every element of ``target``, stacked first.

        Raises:
          RuntimeError: ``experimental_use_pfor=False`` on a non-persistent tape (TF's rule:
            its loop needs the tape once per row).
        """
        from simdist.framework.ops import array_ops

        self._check_loop_allowed(experimental_use_pfor, "jacobian")
        t = execute.convert_to_tensor(target)
        n = t.shape.num_elements()
        seeds = [array_ops.reshape(array_ops.one_hot_vector(i, n, t.dtype), list(t.shape))
                 for i in range(n)]
        rows = self._rows(t, sources, seeds, unconnected_gradients)
        src_list = nest.flatten(sources)
        stacked = []
        for j, s in enumerate(src_list):
            col = [nest.flatten(r)[j] for r in rows]
            if any(c is None for c in col):
                stacked.append(None)
                continue
            st = array_ops.stack(col)
            stacked.append(array_ops.reshape(st, list(t.shape) + list(s.shape)))
        return nest.pack_sequence_as(sources, stacked)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """d(target[b, i...])/d(source[b, j...]) for each example ``b`` of the batch, shape
        ``[batch, target dims..., source dims...]``: each target element's gradient summed
        over the batch, which is that example's when the examples are independent (TF
        computes it so, and checks only that the first dimensions match); zeros for an
        unconnected source, as TF.

        Raises:
          ValueError: a target or source of rank below 2, or batch dimensions that differ.
          RuntimeError: ``experimental_use_pfor=False`` on a non-persistent tape.
        """
        from simdist.framework.ops import array_ops

        t = execute.convert_to_tensor(target)
        src = execute.convert_to_tensor(_tape_key(source))
        for x in (t, src):
            if x.shape.rank is not None and x.shape.rank < 2:
                raise ValueError(f"Shape {x.shape} must have rank at least 2")
        if t.shape[0] != src.shape[0]:
            raise ValueError(f"Need first dimension of target shape ({t.shape}) and source "
                             f"shape ({src.shape}) to match.")
        self._check_loop_allowed(experimental_use_pfor, "batch_jacobian")
        batch, inner = t.shape[0], list(t.shape)[1:]
        n = t.shape.num_elements() // batch if batch else 0
        seeds = [array_ops.reshape(array_ops.tile(array_ops.reshape(
                     array_ops.one_hot_vector(i, n, t.dtype), [1, n]), [batch, 1]),
                     list(t.shape)) for i in range(n)]
        rows = self._rows(t, source, seeds, unconnected_gradients)
        shape = [batch] + inner + list(src.shape)[1:]
        if not rows or any(r is None for r in rows):
            # TF returns zeros here whatever ``unconnected_gradients`` says
            return array_ops.zeros(shape, t.dtype)
        stacked = array_ops.stack(rows, axis=1)   # [batch, n, source dims...]
        return array_ops.reshape(stacked, shape)

    def _check_loop_allowed(self, experimental_use_pfor, what) -> None:
        if not experimental_use_pfor and not self._persistent:
            raise RuntimeError(
                f"GradientTape must be created with persistent=True to compute the {what} "
                + _LOOP_ERROR_ENDS[what])

    def _rows(self, t, sources, seeds, unconnected_gradients) -> list:
        """The gradient of ``t`` seeded with each of ``seeds`` (the tape kept between)."""
        persistent, self._persistent = self._persistent, True
        self._tape.persistent = True
        try:
            rows = []
            for seed in seeds:
                self._used = False
                rows.append(self.gradient(t, sources, output_gradients=seed,
                                          unconnected_gradients=unconnected_gradients))
        finally:
            self._persistent = persistent
            self._tape.persistent = persistent
        return rows


# TF's texts (their double spaces included).
_RULES_LOADED = False


def _load_rules() -> None:
    global _RULES_LOADED
    execute.gradient_rules()
    _RULES_LOADED = True


_LOOP_ERROR_ENDS = {
    "jacobian": "with eager execution enabled and with  experimental_use_pfor set to False.",
    "batch_jacobian": "with eager execution enabled and  with experimental_use_pfor set to "
                      "False.",
}

_sweep = ThreadLocalValue(None)   # what replaces _backprop on this thread (gradient_plan)


def sweep_scope(fn):
    """Inside, ``gradient`` sweeps with ``fn(tape, targets, output_gradients, sources)``
    (returning {id: gradient} as ``_backprop``) on this thread: gradient_plan's program."""
    return _sweep.scope(fn)


# Ops whose gradient rule takes a sparse (IndexedSlices) gradient and keeps it sparse.
_SPARSE_THROUGH = frozenset(("ReadVariableOp", "Identity", "Cast"))


def _backprop(tape, targets, out_grads, sources):
    """Reverse sweep over ``tape.records``; returns id -> accumulated gradient Tensor."""
    from simdist.framework.ops import array_ops, math_ops

    # Forward pass over the records: keep only ops on a path from a source, so the
    # reverse sweep never computes gradients nobody asked for (TF prunes the same way).
    reach = {s._id for s in sources}
    relevant = []
    for rec in tape.records:  # plain loops: this visits every recorded op
        needs = None
        for k, i in enumerate(rec.inputs):
            if getattr(i, "_id", None) in reach:
                if needs is None:
                    needs = [False] * len(rec.inputs)
                needs[k] = True
        if needs is not None:
            rec.needs = tuple(needs)
            relevant.append(rec)
            for o in rec.outputs:
                reach.add(o._id)
    grads: dict[int, object] = {}
    for t, g in zip(targets, out_grads):
        # A variable target is followed as TF follows its handle: a source when it is one
        # of the sources (its gradient is the seed), unconnected to anything else.
        if not hasattr(t, "_id"):
            raise ValueError(
                f"Target {t!r} is not a Tensor or Variable; the target of gradient() must be "
                "tensors or variables computed from the sources."
            )
        if t._id not in reach:
            continue
        seed = array_ops.ones_like(t) if g is None else execute.convert_to_tensor(g, t.dtype)
        grads[t._id] = [None, seed] if t._id not in grads else [
            None, math_ops.add(grads[t._id][1], seed)]
    # grads: tensor id -> [record, gradient, ...]: one dense gradient, or the gradients
    # records' rules gave it, summed when read (total) in the order of TF's tape (eagerly,
    # or with IndexedSlices among them); in a trace or a graph's execution dense ones add
    # up as they come (reverse record order, which matched TF's traced sums recorded).
    order = []
    eager = tracing.value is None and op_recording.execution_values() is None

    def total(key):
        found = grads.get(key)
        if found is None or len(found) == 2:
            return None if found is None else found[1]
        if len(found) == 4 and not any(isinstance(g, IndexedSlices) for g in found[1::2]):
            g = math_ops.add(found[1], found[3])   # two: either order, the same bits
            grads[key] = [None, g]
            return g
        if not order:
            order.append(tape_order(tape.records, [t._id for t in targets],
                                    {s._id for s in sources}))
        pairs = sorted(zip(found[::2], found[1::2]),
                       key=lambda p: -1 if p[0] is None else order[0].get(id(p[0]), 1 << 62))
        g = backprop_util.aggregate_grads([g for _, g in pairs])
        grads[key] = [None, g]
        return g

    for rec in reversed(relevant):
        outputs = rec.outputs
        if len(outputs) == 1:  # most ops: no lists to build
            g = total(outputs[0]._id)
            if g is None:
                continue
            if isinstance(g, IndexedSlices) and rec.type not in _SPARSE_THROUGH:
                g = execute.convert_to_tensor(g)   # rules take dense gradients
            out_g = [g]
        else:
            out_g = [total(o._id) for o in outputs]
            if rec.type not in _SPARSE_THROUGH:   # rules take dense gradients
                out_g = [execute.convert_to_tensor(g) if isinstance(g, IndexedSlices) else g
                         for g in out_g]
            if all(g is None for g in out_g):
                continue
        if rec.type not in execute.GRADIENTS:
            raise LookupError(
                f"gradient registry has no entry for: {rec.type}")
        rule = execute.GRADIENTS[rec.type]
        if rule is None:
            continue
        if len(out_g) == 1:
            in_g = rule(rec, out_g[0])
        else:
            out_g = [array_ops.zeros_like(o) if g is None else g
                     for o, g in zip(rec.outputs, out_g)]
            in_g = rule(rec, *out_g)
        if not isinstance(in_g, (list, tuple)):
            in_g = (in_g,)
        for inp, need, g in zip(rec.inputs, rec.needs, in_g):
            if g is None or not need:
                continue
            found = grads.get(inp._id)
            if found is None:
                grads[inp._id] = [rec, g]
            elif not eager and len(found) == 2 and not isinstance(found[1], IndexedSlices) \
                    and not isinstance(g, IndexedSlices):
                found[1] = math_ops.add(g, found[1])
            else:
                found += (rec, g)
    return {key: total(key) for key in grads}
