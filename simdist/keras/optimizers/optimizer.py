"""The Keras 2.11+ ``Optimizer``: slots, ``iterations`` and distributed ``apply_gradients``.

Glossary:
  iterations        -- int64 step counter (a variable; mirrored under a strategy).
  slots             -- per-variable state (``m``, ``v``, momentum) created by ``build`` with
                       ``add_variable_from_reference``: created in the optimizer's strategy
                       scope, so they are mirrored like the model variables.
  slot scope        -- ``apply_gradients`` builds the slots under the name scope ``name`` or
                       the optimizer's name, as TF's does: ``Adam/m/dense/kernel:0`` (a
                       direct ``build()`` call names them ``m/dense/kernel:0``).
  aggregate         -- in replica context, ``apply_gradients`` first sums the gradients
                       across replicas: ``merge_call`` -> ``extended.batch_reduce_to(SUM,
                       [(g, v) ...])`` -> each replica gets the summed gradient.
  distributed apply -- a second ``merge_call``; in cross-replica context
                       ``extended.update(var, update_step, args=(grad,))`` runs the update
                       on every copy of every variable, on that copy's device; then
                       ``iterations.assign_add(1)``.
  skip_gradients_aggregation -- the gradients are already summed (LossScaleOptimizer).
  use_ema           -- an ``average`` slot per variable (made first, from its value):
                       ``average = ema_momentum * average + (1 - ema_momentum) * var`` after
                       each step's update; every ``ema_overwrite_frequency`` steps, and at
                       the end of ``fit`` (``finalize_variable_values``), the variables take
                       their averages.
  coefficients      -- the step's scalars (learning rate, Adam's ``alpha`` ...) for one dtype
                       on one device, made by ``_prepare_local`` once per step and shared by
                       every variable copy there (Keras 2's legacy ``apply_state``); Keras
                       2.11+ recomputes them per variable, to the same values.

Mirrors keras/src/optimizers/optimizer.py (``Optimizer``, ``_BaseOptimizer``) and
optimizer_utils.py.
"""

from __future__ import annotations

import logging
import threading

from simdist import warnings as teach
from simdist.distribute import distribution_strategy_context as ds_context
from simdist.distribute.reduce_util import ReduceOp
from simdist.framework import (
    backprop,
    context,
    dtypes,
    execute,
    func_graph,
    name_scope,
    trackable,
    variables,
)
from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import cond as cond_ops
from simdist.framework.ops import math_ops as M
from simdist.keras import backend
from simdist.keras.optimizers import fused_apply, schedules
from simdist.keras.optimizers.sparse_updates import deduplicate_indexed_slices


def filter_empty_gradients(grads_and_vars):
    """Drop (None, var) pairs; raise TF's error when nothing is left."""
    grads_and_vars = tuple(grads_and_vars)
    if not grads_and_vars:
        return grads_and_vars
    filtered, missing = [], []
    for g, v in grads_and_vars:
        if g is None:
            missing.append(v)
        else:
            filtered.append((g, v))
    if not filtered:
        names = ([v.name for _, v in grads_and_vars],)   # TF prints a list in a tuple
        raise ValueError(f"No gradients provided for any variable: {names}. Provided "
                         f"`grads_and_vars` is {grads_and_vars}.")
    if missing:
        import logging

        logging.warning("Gradients do not exist for variables %s when minimizing the loss. "
                        "If you're using `model.compile()`, did you forget to provide a "
                        "`loss` argument?", [v.name for v in missing])
    return tuple(filtered)


def _all_reduce_sum_fn(distribution, grads_and_vars):
    return distribution.extended.batch_reduce_to(ReduceOp.SUM, grads_and_vars)


def _replica_context_for(method):
    """The replica context ``method`` needs, or TF's AttributeError (its first line, then
    why) inside ``strategy.scope()`` but outside ``strategy.run``, where there is none."""
    ctx = ds_context.get_replica_context()
    if ctx is None:
        raise AttributeError(
            f"'NoneType' object has no attribute 'merge_call'\n{method} was called in "
            "cross-replica context (inside `strategy.scope()`, outside `strategy.run`), "
            "where there is no replica context to merge from. Call it in the function "
            "given to strategy.run, or outside the scope.")
    return ctx


def all_reduce_sum_gradients(grads_and_vars):
    """Sum gradients across replicas through ``merge_call`` + ``batch_reduce_to``.

    Raises:
      AttributeError: called in cross-replica context (TF's type: no replica context).
    """
    grads_and_vars = list(grads_and_vars)
    filtered = filter_empty_gradients(grads_and_vars)
    ctx = _replica_context_for("aggregate_gradients")
    if filtered:
        reduced = ctx.merge_call(_all_reduce_sum_fn, args=(list(filtered),))
    else:
        reduced = []
    out, i = [], 0
    for g, v in grads_and_vars:
        if g is None:
            out.append((None, v))
        else:
            out.append((reduced[i], v))
            i += 1
    return out


def var_key(variable):
    """One key per logical variable: a mirrored variable's copies share their container's."""
    container = getattr(variable, "_distributed_container", None)
    return id(container if container is not None else variable)


# In a traced tf.function, apply_gradients is one stateful graph node (it returns the
# iterations variable): its Python, e.g. a LossScaleOptimizer's check of the gradients,
# decides at each execution. Under a strategy it is traced through (its merge_calls need
# the replica threads of the trace).
def _apply_spec(graph, opt, grads_and_vars=(), name=None, *args, **kwargs):
    """apply_gradients' node while tracing: the slots are made now (TF builds them in the
    trace, in init_scope, so a first trace makes every variable and the function traces
    again once), and the node gives the iterations variable."""
    if grads_and_vars:
        opt._build_for_apply(grads_and_vars, name)
        # TF's trace runs update_step once per variable with a gradient
        opt._traced_update_steps(graph, sum(g is not None for g, _ in grads_and_vars))
        if not (args[:1] and args[0]) and kwargs.get("skip_gradients_aggregation") is not True \
                and kwargs.get("experimental_aggregate_gradients", True):
            # the default strategy's all-reduce names an Identity per gradient and an
            # IdentityN in the graph (optimizer_listing), before the outputs' Identities
            for _ in list(grads_and_vars) + [None]:
                graph.unique_name("Identity" if _ is not None else "IdentityN")
    return opt.iterations


def _update_spec(graph, opt, distribution, grads_and_vars, **kwargs):
    """The cross-replica update's node while tracing: TF's trace runs update_step once
    per variable and copy; the node gives the iterations variable."""
    copies = distribution.num_replicas_in_sync
    opt._traced_update_steps(graph, copies * sum(g is not None for g, _ in grads_and_vars))
    return opt.iterations


_RECORDED = {"apply_gradients": ("stateful", _apply_spec, True),
             # ... whose cross-replica update of every copy is then one stateful node (run
             # at each execution in the merge's context, with the fused updates)
             "_distributed_apply_gradients_fn": ("stateful", _update_spec)}


def _check_ema(momentum, overwrite_frequency) -> None:
    """TF's checks of the moving average's arguments (when ``use_ema``).

    Raises:
      ValueError: a momentum outside [0, 1]; a frequency that is not a positive int.
    """
    if momentum > 1 or momentum < 0:
        raise ValueError("`ema_momentum` must be in the range [0, 1]. "
                         f"Received: ema_momentum={momentum}")
    if overwrite_frequency and (not isinstance(overwrite_frequency, int)
                                or overwrite_frequency < 1):
        raise ValueError("`ema_overwrite_frequency` must be an integer > 1 or None. "
                         f"Received: ema_overwrite_frequency={overwrite_frequency}")


class Optimizer(trackable.Trackable):
    """Base class of Keras optimizers (``tf.keras.optimizers.Optimizer``)."""

    use_ema = False   # (the legacy optimizers keep no moving average)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        func_graph.record_methods(cls, _RECORDED)

    # In a compiled (graph) train step, this optimizer's iterations.assign_add does not wait
    # for the input: when fit's data runs out before steps_per_epoch, the failing step still
    # counts (TF 2.21 records one more iteration than steps run; the legacy ones do not).
    _counts_the_step_past_the_end = True

    def __init__(self, name, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, jit_compile=True, learning_rate=None,
                 **kwargs):
        self.name = name
        self.weight_decay = weight_decay
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, \
            global_clipnorm
        if clipnorm is not None and global_clipnorm is not None:
            raise ValueError("At most one of `clipnorm` and `global_clipnorm` can be set. "
                             f"Received: clipnorm={clipnorm}, "
                             f"global_clipnorm={global_clipnorm}.")
        if use_ema:
            _check_ema(ema_momentum, ema_overwrite_frequency)
        self.use_ema = use_ema
        self.ema_momentum, self.ema_overwrite_frequency = ema_momentum, ema_overwrite_frequency
        self.jit_compile = False  # TF compiles with XLA only on a real GPU; nothing to simulate
        self._distribution_strategy = ds_context.get_strategy()
        self._variables = []
        self._built = False
        # thread -> {(device, dtype) -> coefficients} during one step's apply; per thread, as
        # ParameterServerStrategy's workers may apply steps of their own concurrently
        self._apply_states = {}
        self._slot_scope = None  # the name scope of slots made now (see the glossary)
        self._process_kwargs(kwargs)
        self._iterations = variables.Variable(0, name="iteration", dtype=dtypes.int64,
                                              trainable=False)
        self._variables.append(self._iterations)
        if learning_rate is not None:
            self._learning_rate = self._build_learning_rate(learning_rate)

    def _process_kwargs(self, kwargs):
        """Refuse the legacy optimizers' arguments as Keras 2.11+ does.

        ``lr`` is only warned about and then ignored (``Adam(lr=0.3)`` keeps the default
        learning rate 0.001), as in TF 2.15; ``is_legacy_optimizer`` comes from a config.

        Raises:
          ValueError: ``decay``, ``gradient_aggregator`` or ``gradient_transformers``.
          TypeError: any other unknown argument.
        """
        kwargs.pop("is_legacy_optimizer", None)
        if kwargs.pop("lr", None):
            logging.warning(
                "`lr` is deprecated in Keras optimizer, please use `learning_rate` or use "
                f"the legacy optimizer, e.g.,tf.keras.optimizers.legacy.{type(self).__name__}.")
        for k in kwargs:
            if k in ("decay", "gradient_aggregator", "gradient_transformers"):
                raise ValueError(
                    f"{k} is deprecated in the new TF-Keras optimizer, please check the "
                    "docstring for valid arguments, or use the legacy optimizer, e.g., "
                    f"tf.keras.optimizers.legacy.{type(self).__name__}.")
            raise TypeError(f"{k} is not a valid argument, kwargs should be empty  for "
                            "`optimizer_experimental.Optimizer`.")

    # --- hyper-parameters ---------------------------------------------------------------
    def _build_learning_rate(self, learning_rate):
        if isinstance(learning_rate, schedules.LearningRateSchedule):
            # the rate of the present step, set by each apply_gradients (tf-keras's
            # current_learning_rate)
            with name_scope.init_scope():
                current = execute.convert_to_tensor(learning_rate(self.iterations))
                self._current_learning_rate = variables.Variable(
                    current, name="current_learning_rate", dtype=current.dtype,
                    trainable=False)
            return learning_rate
        return variables.Variable(learning_rate, name="learning_rate",
                                  dtype=backend.floatx(), trainable=False)

    def _compute_current_learning_rate(self):
        """A schedule's rate at ``iterations``, into ``current_learning_rate``."""
        if isinstance(self._learning_rate, schedules.LearningRateSchedule):
            self._current_learning_rate.assign(self._learning_rate(self.iterations))

    @property
    def iterations(self):
        """The number of steps this optimizer has run."""
        return self._iterations

    @iterations.setter
    def iterations(self, variable):
        if self._built:
            raise RuntimeError("Cannot set `iterations` to a new Variable after the "
                               "Optimizer weights have been created.")
        self._iterations = variable

    @property
    def learning_rate(self):
        """The learning rate variable (a schedule's: the rate of the present step)."""
        if isinstance(self._learning_rate, schedules.LearningRateSchedule):
            return self._current_learning_rate
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        """Set the rate (TypeError for an optimizer made with a schedule, as tf-keras)."""
        if isinstance(self._learning_rate, schedules.LearningRateSchedule):
            raise TypeError(
                "This optimizer was created with a `LearningRateSchedule` object as its "
                "`learning_rate` constructor argument, hence its learning rate is not "
                "settable. If you need the learning rate to be settable, you should "
                "instantiate the optimizer with a float `learning_rate` argument.")
        with ds_context.enter_or_assert_strategy(ds_context.strategy_of(self._learning_rate)):
            self._learning_rate.assign(value)

    lr = learning_rate

    @property
    def variables(self) -> list:
        return list(self._variables)

    def _hyper(self, value, dtype):
        """A hyper-parameter (float or variable) as a tensor of ``dtype``."""
        return A.cast(A._t(value) if not isinstance(value, (int, float)) else
                      A.constant(value), dtype)

    def _prepare_local(self, dtype) -> dict:
        """The scalars every update of one step shares, for variables of ``dtype``."""
        return {"lr": A.cast(self.learning_rate, dtype)}

    def _coefficients(self, variable) -> dict:
        """``_prepare_local``'s scalars for ``variable``'s dtype on the current device.

        Made once per step and device (the update of a mirrored variable runs on each copy's
        device), not once per variable copy: the per-op cost of eager simulation makes the
        difference large, the values are the same.
        """
        if self._apply_state is None:  # update_step called outside apply_gradients
            return self._prepare_local(variable.dtype)
        key = (context.current_device(), variable.dtype)
        coefficients = self._apply_state.get(key)
        if coefficients is None:
            coefficients = self._apply_state[key] = self._prepare_local(variable.dtype)
        return coefficients

    def _trackable_children(self) -> dict:
        """Keras's names: ``_iterations``, ``_learning_rate`` and ``_variables/i`` (the slots,
        by creation order, after the iterations at 0)."""
        out = {"_iterations": self._iterations}
        if isinstance(getattr(self, "_learning_rate", None), variables.Variable):
            out["_learning_rate"] = self._learning_rate
        out["_variables"] = list(self._variables)
        return out

    # --- slots ---------------------------------------------------------------------------
    def build(self, var_list):
        """Create the slots; subclasses call ``super().build`` first."""
        if self._built:
            return
        self._index_dict = {var_key(v): i for i, v in enumerate(var_list)}
        if self.use_ema:   # copies of the model variables, before the slots
            self._model_variables_moving_average = [
                self.add_variable_from_reference(v, "average", initial_value=v.read_value())
                for v in var_list]

    def _var_key(self, variable):
        return var_key(variable)

    def _shared_name(self, var):
        return var.name.rpartition(":")[0]

    def _scoped(self, name):
        return f"{self._slot_scope}/{name}" if self._slot_scope else name

    def add_variable_from_reference(self, model_variable, variable_name, shape=None,
                                    initial_value=None):
        """A zero slot shaped like ``model_variable`` (mirrored under the optimizer's strategy)."""
        if initial_value is None:
            initial_value = A.zeros(list(model_variable.shape) if shape is None else shape,
                                    dtype=model_variable.dtype)
        # TF makes slots in colocate_vars_with(model_variable) of the current strategy, which
        # refuses a model variable made outside its scope (a model built and compiled
        # outside, then fit inside ``strategy.scope()``).
        with self._strategy_scope(), \
                ds_context.get_strategy().extended.colocate_vars_with(model_variable):
            v = variables.Variable(initial_value=initial_value,
                                   name=self._scoped(
                                       f"{variable_name}/{self._shared_name(model_variable)}"),
                                   dtype=model_variable.dtype, trainable=False)
        self._variables.append(v)
        trackable.restore_deferred()  # slots restored from a checkpoint before they existed
        return v

    def add_variable(self, shape, dtype=None, initializer="zeros", name=None):
        from simdist.keras import initializers

        init = initializers.get(initializer)
        with self._strategy_scope():
            v = variables.Variable(initial_value=init(shape, dtype or backend.floatx()),
                                   name=self._scoped(name or "Variable"), trainable=False)
        self._variables.append(v)
        trackable.restore_deferred()
        return v

    def _strategy_scope(self):
        s = self._distribution_strategy
        if ds_context.has_strategy() or s is ds_context.get_default_strategy():
            import contextlib

            return contextlib.nullcontext()
        return s.scope()

    # --- applying ------------------------------------------------------------------------
    def compute_gradients(self, loss, var_list, tape=None):
        """``[(gradient, variable)]`` of ``loss`` (a Tensor recorded on ``tape``, or a callable).

        Raises:
          ValueError: a Tensor loss without its tape.
        """
        if not callable(loss) and tape is None:
            raise ValueError("`tape` is required when a `Tensor` loss is passed. Received: "
                             f"loss={loss}, tape={tape}.")
        if tape is None:
            tape = backprop.GradientTape()
        if callable(loss):
            with tape:
                if not callable(var_list):
                    tape.watch(var_list)
                loss = loss()
                if callable(var_list):
                    var_list = var_list()
        if callable(var_list):
            var_list = var_list()
        grads = tape.gradient(loss, var_list)
        return list(zip(grads, var_list))

    def minimize(self, loss, var_list, tape=None):
        """Compute the gradients of ``loss`` (a Tensor on ``tape``, or a callable); apply them."""
        self.apply_gradients(self.compute_gradients(loss, var_list, tape))

    def aggregate_gradients(self, grads_and_vars):
        """Sum the gradients across replicas (in replica context)."""
        return all_reduce_sum_gradients(grads_and_vars)

    def apply_gradients(self, grads_and_vars, name=None, skip_gradients_aggregation=False,
                        **kwargs):
        """Aggregate the gradients across replicas, then update every copy of each variable.

        Returns:
          The ``iterations`` variable.

        Raises:
          ValueError: no gradient for any variable.
          AttributeError: called in cross-replica context (TF's type).
        """
        aggregate = kwargs.pop("experimental_aggregate_gradients", True)
        ctx = _replica_context_for("apply_gradients")  # even with aggregation skipped, as TF
        self._compute_current_learning_rate()   # first, as tf-keras (even with no gradient)
        grads_and_vars = list(grads_and_vars)
        if not grads_and_vars:
            return self._iterations
        if not skip_gradients_aggregation and aggregate:
            if teach.enabled() and ctx.num_replicas_in_sync > 1 and any(
                    teach.tagged(g, "grad_of_batch_mean") for g, _ in grads_and_vars):
                teach.warn("per_replica_mean_loss", replicas=ctx.num_replicas_in_sync)
            grads_and_vars = self.aggregate_gradients(grads_and_vars)
        return self._apply_impl(grads_and_vars, name)

    def _apply_impl(self, grads_and_vars, name=None):
        self._build_for_apply(grads_and_vars, name)
        grads_and_vars = filter_empty_gradients(grads_and_vars)
        if not grads_and_vars:
            return self._iterations
        grads, trainable_variables = zip(*grads_and_vars)
        grads = self._clip_gradients(list(grads))
        grads = [deduplicate_indexed_slices(g) if isinstance(g, IndexedSlices) else g
                 for g in grads]
        self._apply_weight_decay(list(trainable_variables))
        return self._internal_apply_gradients(list(zip(grads, trainable_variables)))

    def _build_for_apply(self, grads_and_vars, name=None):
        """Make the slots of the variables (once), named in apply_gradients' scope."""
        self._slot_scope = name or self.name or "optimizer"  # TF's tf.name_scope(...)
        try:
            self._build_in_cross_replica([v for _, v in grads_and_vars])
        finally:
            self._slot_scope = None

    def _build_in_cross_replica(self, var_list):
        """Create the slots once, in cross-replica context (TF lifts ``build`` out of the
        replica functions with ``init_scope``), so they are mirrored and shared."""
        if self._built:
            return
        ctx = ds_context.get_replica_context()
        if ctx is not None and ds_context.has_strategy() and \
                ds_context.get_strategy().num_replicas_in_sync > 1:
            ctx.merge_call(lambda _strategy, vs: self._build_once(list(vs)),
                           args=(tuple(var_list),))
        else:
            self._build_once(var_list)
        self._built = True

    def _build_once(self, var_list):
        with name_scope.init_scope():   # Keras builds the slots outside a traced graph
            self.build(var_list)
        self._built = True

    def _clip_gradients(self, grads):
        """clipnorm, global_clipnorm or clipvalue; an IndexedSlices is clipped by its
        values, repeated indices not summed (TF's clip ops read ``t.values``)."""
        values = [g.values if isinstance(g, IndexedSlices) else g for g in grads]
        clipped = self._clip_values(values)
        return [IndexedSlices(c, g.indices, g.dense_shape) if isinstance(g, IndexedSlices)
                else c for g, c in zip(grads, clipped)]

    def _clip_values(self, grads):
        if self.clipnorm and self.clipnorm > 0:
            out = []
            for g in grads:
                if g is None:
                    out.append(g)
                    continue
                norm = M.sqrt(M.reduce_sum(M.square(g)))
                c = A.constant(self.clipnorm, dtype=g.dtype)
                out.append(M.divide(M.multiply(g, c), M.maximum(norm, c)))
            return out
        if self.global_clipnorm and self.global_clipnorm > 0:
            norm = M.sqrt(M.add_n([M.reduce_sum(M.square(g)) for g in grads if g is not None]))
            c = A.constant(self.global_clipnorm, dtype=norm.dtype)
            scale = M.divide(c, M.maximum(norm, c))
            return [None if g is None else M.multiply(g, A.cast(scale, g.dtype)) for g in grads]
        if self.clipvalue and self.clipvalue > 0:
            return [None if g is None else M.clip_by_value(g, -self.clipvalue, self.clipvalue)
                    for g in grads]
        return grads

    def _apply_weight_decay(self, variables_):
        if not self.weight_decay:
            return

        def apply_decay(distribution, vs):
            def fn(v):
                lr = A.cast(self.learning_rate, v.dtype)
                wd = A.constant(self.weight_decay, dtype=v.dtype)
                v.assign_sub(M.multiply(M.multiply(v.read_value(), wd), lr))

            for v in vs:
                distribution.extended.update(v, fn, group=False)

        self._maybe_merge_call(apply_decay, variables_)

    def _maybe_merge_call(self, fn, *args):
        ctx = ds_context.get_replica_context()
        strategy = self._distribution_strategy
        # (the default strategy's ``run`` enters a replica context too: merge from it)
        default = ds_context.get_default_strategy().extended._default_replica_context
        if ctx is not None and (ds_context.has_strategy() or ctx is not default):
            return ctx.merge_call(fn, args=args)
        return fn(ds_context.get_strategy() if ds_context.has_strategy() else strategy, *args)

    def _internal_apply_gradients(self, grads_and_vars):
        return self._maybe_merge_call(self._distributed_apply_gradients_fn, grads_and_vars)

    @property
    def _apply_state(self):
        return self.__dict__.setdefault("_apply_states", {}).get(threading.get_ident())

    @_apply_state.setter
    def _apply_state(self, value):
        states = self.__dict__.setdefault("_apply_states", {})
        if value is None:
            states.pop(threading.get_ident(), None)
        else:
            states[threading.get_ident()] = value

    def _distributed_apply_gradients_fn(self, distribution, grads_and_vars, **kwargs):
        """In cross-replica context: update each copy of each variable, then count the step."""

        def apply_grad_to_update_var(var, grad):
            if isinstance(grad, IndexedSlices) and self._takes_indexed_slices:
                return self.update_step(grad, var)
            return self.update_step(A._t(grad), var)

        self._apply_state = {}
        try:
            grads_and_vars = list(grads_and_vars)
            if not fused_apply.apply(self, distribution, grads_and_vars):
                for grad, var in grads_and_vars:
                    distribution.extended.update(var, apply_grad_to_update_var, args=(grad,),
                                                 group=False)
        finally:
            self._apply_state = None
        if self.use_ema:
            self._update_moving_averages(distribution, [v for _, v in grads_and_vars])
        with ds_context.enter_or_assert_strategy(ds_context.strategy_of(self._iterations)):
            return self._iterations.assign_add(1)

    # --- exponential moving average of the model variables (use_ema) ---------------------
    def _average_of(self, variable):
        return self._model_variables_moving_average[self._index_dict[self._var_key(variable)]]

    def _update_moving_averages(self, distribution, var_list):
        """``average = ema_momentum * average + (1 - ema_momentum) * var`` on every copy;
        every ``ema_overwrite_frequency`` steps the variables take their averages (a
        tf.cond on ``(iterations + 1) % frequency == 0``, before the step is counted)."""
        def update_average(average, var):
            average.assign(self.ema_momentum * average + (1 - self.ema_momentum) * var)

        for var in var_list:
            distribution.extended.update(self._average_of(var), update_average, args=(var,),
                                         group=False)
        if self.ema_overwrite_frequency:
            due = (self.iterations + 1) % self.ema_overwrite_frequency == 0
            cond_ops.cond(A.cast(due, dtypes.bool_),
                          true_fn=lambda: self._overwrite_model_variables_with_average_value(
                              var_list),
                          false_fn=lambda: None)

    def _overwrite_model_variables_with_average_value(self, var_list):
        """Every copy of each variable takes its moving average."""
        strategy = self._distribution_strategy
        for var in var_list:
            strategy.extended.update(var, lambda a, b: a.assign(b),
                                     args=(self._average_of(var),))

    def finalize_variable_values(self, var_list):
        """The end of training (``fit`` calls it): with ``use_ema`` the variables take their
        moving averages."""
        if self.use_ema:
            self._overwrite_model_variables_with_average_value(var_list)

    def update_step(self, gradient, variable):
        raise NotImplementedError

    # Whether update_step has a branch for an IndexedSlices gradient (tf-keras's
    # ``isinstance(gradient, tf.IndexedSlices)``); without one, it takes the gradient made
    # dense (TF's ops convert it: the same values).
    _takes_indexed_slices = False

    def _traced_update_steps(self, graph, count) -> None:
        """A trace of ``graph`` ran ``update_step`` ``count`` times (TF runs its Python
        then, once per trace; an optimizer with Python state in it overrides this)."""

    # --- state ---------------------------------------------------------------------------
    def get_config(self) -> dict:
        return {"name": self.name, "weight_decay": self.weight_decay,
                "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm,
                "clipvalue": self.clipvalue, "use_ema": self.use_ema,
                "ema_momentum": self.ema_momentum,
                "ema_overwrite_frequency": self.ema_overwrite_frequency,
                "jit_compile": self.jit_compile, "is_legacy_optimizer": False}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        if "learning_rate" in config and isinstance(config["learning_rate"], dict):
            lr = config["learning_rate"]
            config["learning_rate"] = (lr["config"]["value"] if "value" in lr["config"]
                                       else schedules.deserialize(lr, custom_objects))
        return cls(**config)

    def _serialize_hyperparameter(self, value):
        """A variable's value as NumPy gives it (``np.float32(0.01)``, as TF's config has);
        a schedule as its serialized form."""
        if isinstance(value, schedules.LearningRateSchedule):
            return schedules.serialize(value)
        if hasattr(value, "numpy"):
            return value.numpy()
        return value


func_graph.record_methods(Optimizer, _RECORDED)
