"""``LossScaleOptimizer``: dynamic loss scaling for float16 training.

Glossary:
  loss scale        -- the loss is multiplied by it before differentiation so float16
                       gradients do not underflow; gradients are divided by it after.
  dynamic scaling   -- start at 2**15; after ``dynamic_growth_steps`` (2000) consecutive
                       steps with finite gradients, double it; on a non-finite gradient,
                       halve it (never below 1), reset the counter and skip the step (the
                       inner optimizer's ``iterations`` still counts it).
  aggregation first -- gradients are summed across replicas *before* the finiteness check,
                       so every replica sees the same inf/nan and all skip together.

Mirrors keras/src/mixed_precision/loss_scale_optimizer.py (``LossScaleOptimizerV3`` and
``_DynamicLossScaleState``).
"""

from __future__ import annotations

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import backprop, dtypes, func_graph, nest, trackable, variables
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers.optimizer import Optimizer, filter_empty_gradients

_DEFAULT_INITIAL_SCALE = 2**15
_DEFAULT_GROWTH_STEPS = 2000


def _is_all_finite(grads):
    flags = [M.reduce_all(M.is_finite(g)) for g in grads if g is not None]
    return bool(M.reduce_all(A.stack(flags))) if flags else True


class _DynamicLossScaleState(trackable.Trackable):
    """The current loss scale and the count of good steps (two variables)."""

    def __init__(self, initial_loss_scale, growth_steps, multiplier):
        self.initial_loss_scale = float(initial_loss_scale)
        self.growth_steps = int(growth_steps)
        self.multiplier = float(multiplier)
        self.current_loss_scale = variables.Variable(
            self.initial_loss_scale, name="current_loss_scale", dtype=dtypes.float32,
            trainable=False)
        self.counter = variables.Variable(0, name="good_steps", dtype=dtypes.int64,
                                          trainable=False)

    def _trackable_children(self) -> dict:
        return {"current_loss_scale": self.current_loss_scale, "good_steps": self.counter}

    def __call__(self):
        return A._t(self.current_loss_scale.read_value())

    def update(self, grads):
        """Grow or shrink the scale; returns whether the gradients should be applied."""
        grads = nest.flatten(grads)
        if ds_context.has_strategy() and ds_context.in_cross_replica_context():
            strategy = ds_context.get_strategy()
            per_replica = strategy.extended.call_for_each_replica(_is_all_finite, args=(grads,))
            is_finite = strategy.experimental_local_results(per_replica)[0]
        else:
            is_finite = _is_all_finite(grads)
        with ds_context.enter_or_assert_strategy(ds_context.strategy_of(self.counter)):
            if is_finite:
                if int(self.counter.numpy()) + 1 >= self.growth_steps:
                    new = M.multiply(A._t(self.current_loss_scale.read_value()),
                                     A.constant(self.multiplier))
                    if bool(M.is_finite(new)):
                        self.current_loss_scale.assign(new)
                    self.counter.assign(A.constant(0, "int64"))
                else:
                    self.counter.assign_add(A.constant(1, "int64"))
            else:
                new = M.maximum(M.divide(A._t(self.current_loss_scale.read_value()),
                                         A.constant(self.multiplier)), A.constant(1.0))
                self.counter.assign(A.constant(0, "int64"))
                self.current_loss_scale.assign(new)
        return is_finite


def _inner(name):
    """A property read from and written to the inner optimizer."""
    return property(lambda self: getattr(self._optimizer, name),
                    lambda self, value: setattr(self._optimizer, name, value),
                    doc=f"The inner optimizer's ``{name}``.")


class LossScaleOptimizer(Optimizer):
    """Wrap an optimizer to scale the loss and unscale (and check) the gradients."""

    def __init__(self, inner_optimizer, dynamic=True, initial_scale=None,
                 dynamic_growth_steps=None):
        if not isinstance(inner_optimizer, Optimizer):
            raise TypeError('"inner_optimizer" must be an instance of '
                            "`tf.keras.optimizers.Optimizer` or "
                            "`tf.keras.optimizers.experimental.Optimizer`, but got: "
                            f"{inner_optimizer}. Pass an optimizer object, e.g. "
                            "tf.keras.optimizers.SGD(), not its name.")
        if not isinstance(dynamic, bool):
            raise TypeError(f'"dynamic" argument to LossScaleOptimizer.__init__ must be a '
                            f"bool, but got: {dynamic!r}")
        if getattr(inner_optimizer, "_is_wrapped_by_loss_scale_optimizer", False):
            raise ValueError('"inner_optimizer" is already wrapped by a LossScaleOptimizer. '
                             "An optimizer can only be wrapped by a single "
                             "LossScaleOptimizer")
        self._optimizer = inner_optimizer
        self._optimizer._is_wrapped_by_loss_scale_optimizer = True
        self._distribution_strategy = inner_optimizer._distribution_strategy
        self.name = "LossScaleOptimizer"
        if dynamic:
            if initial_scale is None:
                initial_scale = _DEFAULT_INITIAL_SCALE
            if dynamic_growth_steps is None:
                dynamic_growth_steps = _DEFAULT_GROWTH_STEPS
            with self._strategy_scope():
                self._loss_scale = _DynamicLossScaleState(initial_scale, dynamic_growth_steps,
                                                          multiplier=2)
        else:
            if initial_scale is None:
                raise ValueError('"initial_scale" must be specified if "dynamic" is False')
            if dynamic_growth_steps is not None:
                raise ValueError('"dynamic_growth_steps" must be None if "dynamic" is False, '
                                 f"but got: {dynamic_growth_steps}")
            self._loss_scale = float(initial_scale)

    # --- properties ----------------------------------------------------------------------
    @property
    def dynamic(self) -> bool:
        return isinstance(self._loss_scale, _DynamicLossScaleState)

    @property
    def loss_scale(self):
        """The current loss scale as a float32 scalar tensor."""
        if self.dynamic:
            with ds_context.enter_or_assert_strategy(
                    ds_context.strategy_of(self._loss_scale.current_loss_scale)):
                return A.identity(A._t(self._loss_scale.current_loss_scale.read_value()))
        return A.constant(self._loss_scale, dtype=dtypes.float32)

    @property
    def dynamic_counter(self):
        return self._loss_scale.counter if self.dynamic else None

    @property
    def initial_scale(self):
        return self._loss_scale.initial_loss_scale if self.dynamic else self._loss_scale

    @property
    def dynamic_growth_steps(self):
        return self._loss_scale.growth_steps if self.dynamic else None

    @property
    def inner_optimizer(self):
        return self._optimizer

    @property
    def iterations(self):
        return self._optimizer.iterations

    learning_rate = _inner("learning_rate")

    @property
    def variables(self):
        """The inner optimizer's variables (the loss scale's are checkpointed, not listed)."""
        return self._optimizer.variables

    # The inner optimizer keeps the moving averages (use_ema): its flags, and its overwrite
    # of the model's variables at the end of fit (tf-keras's LossScaleOptimizerV3).
    use_ema = _inner("use_ema")
    ema_momentum = _inner("ema_momentum")

    def finalize_variable_values(self, var_list):
        self._optimizer.finalize_variable_values(var_list)

    def _trackable_children(self) -> dict:
        """The inner optimizer's children as its own, and ``loss_scale`` (Keras's names)."""
        out = self._optimizer._trackable_children()
        if self.dynamic:
            out["loss_scale"] = self._loss_scale
        return out

    def build(self, var_list):
        self._optimizer._build_in_cross_replica(var_list)

    def _build_for_apply(self, grads_and_vars, name=None):
        self.build([v for _, v in grads_and_vars])

    # --- scaling -------------------------------------------------------------------------
    def get_scaled_loss(self, loss):
        """``loss * loss_scale`` (in the loss's dtype)."""
        if callable(loss):
            return lambda: M.multiply(loss(), A.cast(self.loss_scale, A._t(loss()).dtype))
        loss = A._t(loss)
        return M.multiply(loss, A.cast(self.loss_scale, loss.dtype))

    def get_unscaled_gradients(self, grads):
        """Each gradient divided by the loss scale (None stays None)."""
        reciprocal = M.divide(A.constant(1.0), self.loss_scale)
        return [None if g is None else M.multiply(g, A.cast(reciprocal, A._t(g).dtype))
                for g in grads]

    def compute_gradients(self, loss, var_list, tape=None):
        """Gradients of the scaled loss, unscaled (what ``minimize`` and ``fit`` use)."""
        tape = backprop.GradientTape() if tape is None else tape
        with tape:  # the tape must record the scaling, or the gradients would be None
            loss = self.get_scaled_loss(loss)
        grads_and_vars = self._optimizer.compute_gradients(loss, var_list, tape)
        grads = [g for g, _ in grads_and_vars]
        weights = [v for _, v in grads_and_vars]
        return list(zip(self.get_unscaled_gradients(grads), weights))

    def apply_gradients(self, grads_and_vars, skip_gradients_aggregation=False, **kwargs):
        """Aggregate, check finiteness, update the scale, and apply or skip the step.

        Raises:
          ValueError: called in cross-replica context.
        """
        grads_and_vars = list(grads_and_vars)
        _, trainable_variables = zip(*grads_and_vars)
        if ds_context.has_strategy() and ds_context.in_cross_replica_context():
            raise ValueError("apply_gradients() must be called in a replica context.")
        self.build(list(trainable_variables))
        grads_and_vars = filter_empty_gradients(grads_and_vars)
        if not skip_gradients_aggregation and kwargs.pop("experimental_aggregate_gradients",
                                                         True):
            grads_and_vars = self._optimizer.aggregate_gradients(grads_and_vars)
        grads_and_vars = tuple(grads_and_vars)
        grads = [g for g, _ in grads_and_vars]
        wrapped_vars = [v for _, v in grads_and_vars]

        ctx = ds_context.get_replica_context()
        if ctx is None or not ds_context.has_strategy():
            self._apply_or_skip(None, grads, wrapped_vars)
            return
        ctx.merge_call(self._apply_or_skip, args=(grads, _UnwrapPreventer(wrapped_vars)))

    @func_graph.recorded(kind="stateful", name="LossScaleOptimizer.apply_or_skip")
    def _apply_or_skip(self, distribution, grads, wrapped_vars):
        """Update the scale; apply the gradients (on every replica) or only count the step.

        In a traced function this is one node that decides at each execution on the
        gradients' values (TF's smart_cond on ``should_apply``)."""
        if self.dynamic and not self._loss_scale.update(grads):
            it = self._optimizer.iterations
            with ds_context.enter_or_assert_strategy(ds_context.strategy_of(it)):
                it.assign_add(1)
        elif distribution is None:
            self._apply_gradients(grads, wrapped_vars)
        else:
            distribution.extended.call_for_each_replica(self._apply_gradients,
                                                        args=(grads, wrapped_vars))

    def _apply_gradients(self, grads, wrapped_vars):
        if isinstance(wrapped_vars, _UnwrapPreventer):
            wrapped_vars = wrapped_vars.value
        self._optimizer.apply_gradients(list(zip(grads, wrapped_vars)),
                                        skip_gradients_aggregation=True)

    def get_config(self):
        return {"inner_optimizer": self._optimizer.get_config(), "dynamic": self.dynamic,
                "initial_scale": self.initial_scale,
                "dynamic_growth_steps": self.dynamic_growth_steps}


class _UnwrapPreventer:
    """Keeps distributed variables whole through merge_call/run (TF's ``_UnwrapPreventer``)."""

    def __init__(self, value):
        self.value = value
