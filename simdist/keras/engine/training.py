"""``Model``: a Layer with ``compile``, ``fit``, ``evaluate``, ``predict`` and ``summary``.

Glossary:
  distribute_strategy -- the strategy whose scope the model was created in (the default
                         strategy otherwise); ``fit`` runs every step through it:
                         ``strategy.run(train_step, (batch,))`` on the per-replica batches.
  train_step          -- forward pass, compiled loss (mean loss / num_replicas), gradients,
                         ``optimizer.minimize`` (which all-reduces them), metrics update;
                         returns the metrics' results (the same on every replica).
  logs                -- Python floats of the running metric means; ``History`` keeps the
                         last logs of each epoch.
  compile checks      -- a model built outside a strategy's scope and compiled inside it
                         raises TF's ValueError.

Mirrors keras/src/engine/training.py.
"""

from __future__ import annotations

import os
import weakref

import numpy as np

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import backprop, context, execute, function, graph_errors, nest
from simdist.framework.ops import array_ops as A
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_spec import TensorSpec
from simdist.keras import callbacks as callbacks_module
from simdist.keras import metrics as metrics_mod
from simdist.keras import optimizers
from simdist.keras.engine import (
    compile_utils,
    data_adapter,
    ps_training,
    step_functions,
    summary,
)
from simdist.keras.engine import steps_per_execution as executions_lib
from simdist.keras.engine.base_layer import Layer, _dedup, _values
from simdist.keras.engine.keras_tensor import is_keras_tensor

SUBCLASSES = weakref.WeakValueDictionary()  # 'module:qualname' -> Model subclass


def _to_python(v):
    v = np.asarray(v.numpy() if hasattr(v, "numpy") else v)
    return v.item() if v.ndim == 0 else v


class Model(Layer):
    """A trainable group of layers (``tf.keras.Model``); subclass it and define ``call``."""

    def __init_subclass__(cls, **kwargs):
        # Every subclass by 'module:qualname', so a SavedModel directory of a subclassed
        # model loads wherever its class is defined (simdist rebuilds it from the class).
        super().__init_subclass__(**kwargs)
        SUBCLASSES[f"{cls.__module__}:{cls.__qualname__}"] = cls

    def __new__(cls, *args, **kwargs):
        # Model(inputs, outputs) makes a Functional model (Python then runs its __init__).
        from simdist.keras.engine import functional

        if cls is Model and functional.is_functional_init(args, kwargs):
            return object.__new__(functional.Functional)
        return object.__new__(cls)

    def __init__(self, *args, **kwargs):
        from simdist.keras.engine import functional

        if functional.is_functional_init(args, kwargs) or "inputs" in kwargs or \
                "outputs" in kwargs:
            # A subclass called with (or calling super().__init__ with) inputs and outputs
            # becomes functional: Keras puts Functional in its bases (its train_step etc. stay).
            # Other positional arguments are ignored, as tf-keras ignores them
            # (``super().__init__(self)`` in TF's "Effective TensorFlow 2" guide).

            functional.inject_functional_model_class(type(self))
            functional.Functional.__init__(self, *args, **kwargs)
            return
        super().__init__(**kwargs)
        self._distribution_strategy = (ds_context.get_strategy() if ds_context.has_strategy()
                                       else None)
        self.optimizer = None
        self.compiled_loss = None
        self.compiled_metrics = None
        self.stop_training = False
        self.history = None
        self._is_compiled = False
        self._run_eagerly = None
        self.train_function = self.test_function = self.predict_function = None
        self.train_tf_function = None   # the traced train function (PS: the scheduled one)
        self._built_strategy = None
        self._compile_args = None
        self._saved_model_inputs_spec = None  # the first call's inputs, batch dim None
        self._init_batch_counters()

    def _init_batch_counters(self):
        """Keras's untracked mini-batch counters (in no ``weights``, no checkpoint), made
        with the model, as tf-keras does: in a ParameterServerStrategy scope they take their
        turn in the round-robin placement on the parameter servers."""
        if not context.executing_eagerly():
            return
        from simdist.framework import variables

        agg = variables.VariableAggregation.ONLY_FIRST_REPLICA
        for name in ("_train_counter", "_test_counter", "_predict_counter"):
            setattr(self, name, variables.Variable(0, dtype="int64", aggregation=agg))

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A model from ``get_config()``: a functional config rebuilds its graph (Keras's
        ``Model.from_config``); any other config goes to the constructor."""
        from simdist.keras.engine import functional

        if "input_layers" in config and "output_layers" in config:
            return functional.Functional._from_config_with(config, custom_objects)
        return cls(**config)

    def call(self, inputs, training=None, mask=None):
        raise NotImplementedError(
            "Unimplemented `tf.keras.Model.call()`: if you intend to create a `Model` with "
            "the Functional API, please provide `inputs` and `outputs` arguments. Otherwise, "
            "subclass `Model` with an overridden `call()` method.")

    # --- weights: sub-layers first, in the order they were tracked (Keras's Model order) --
    def _assert_weights_created(self):
        if "build" in type(self).__dict__ and type(self) is not Model and not self.built:
            raise ValueError(
                f"Weights for model '{self.name}' have not yet been created. Weights are "
                "created when the model is first called on inputs or `build()` is called "
                "with an `input_shape`.")

    def _tracked_trackables(self) -> list:
        """The sub-layers and the Metrics kept as attributes, in the order they were
        tracked (tf-keras's ``_self_tracked_trackables``; a functional or Sequential
        model's own layers first): a model, unlike a layer, counts its metrics' state
        variables among its non-trainable weights."""
        tracked = self.__dict__.get("_tracked", ())
        ids = {id(t) for t in tracked}
        return [lay for lay in self._layers if id(lay) not in ids] + list(tracked)

    @property
    def trainable_weights(self) -> list:
        self._assert_weights_created()
        if not self._trainable:
            return []
        out = [w for layer in self._tracked_trackables() for w in layer.trainable_weights]
        return _dedup(out + self._trainable_weights)

    @property
    def non_trainable_weights(self) -> list:
        self._assert_weights_created()
        tracked = self._tracked_trackables()
        out = [w for layer in tracked for w in layer.non_trainable_weights]
        if not self._trainable:
            trainable = [w for layer in tracked for w in layer.trainable_weights]
            return _dedup(trainable + self._trainable_weights + out +
                          self._non_trainable_weights)
        return _dedup(out + self._non_trainable_weights)

    @property
    def weights(self) -> list:
        """Layer by layer (and attribute metric), each one's own order (trainable then
        not), then the model's."""
        self._assert_weights_created()
        out = [w for layer in self._tracked_trackables() for w in layer.weights]
        return _dedup(out + self._trainable_weights + self._non_trainable_weights)

    def _layer_weights(self) -> list:
        """``weights`` without the attribute metrics' state: what an .h5 file holds (Keras
        writes the weights of ``model.layers``, where metrics are not)."""
        metric_vars = {id(v) for t in self._tracked_trackables()
                       if getattr(type(t), "_is_keras_metric", False) for v in t.variables}
        return [w for w in self.weights if id(w) not in metric_vars]

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    def get_layer(self, name=None, index=None):
        """A sub-layer by ``name`` or by ``index``.

        Raises:
          ValueError: neither or both given, or no such layer.
        """
        if index is not None and name is not None:
            raise ValueError("Provide only a layer name or a layer index. Received: "
                             f"index={index}, name={name}.")
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model "
                                 f"only has {len(self.layers)} layers.")
            return self.layers[index]
        if name is not None:
            for layer in self.layers:
                if layer.name == name:
                    return layer
            raise ValueError(f"No such layer: {name}. Existing layers are: "
                             f"{[layer.name for layer in self.layers]}.")
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")

    @property
    def distribute_strategy(self):
        return self._distribution_strategy or ds_context.get_strategy()

    def _maybe_build(self, inputs):
        if self.built:
            return
        self._built_strategy = ds_context.get_strategy() if ds_context.has_strategy() else None
        if type(self).build is not Model.build and not getattr(self, "_is_sequential", False):
            super()._maybe_build(inputs)  # a user-defined build()
        elif getattr(self, "_is_sequential", False):
            first = nest.flatten(inputs)[0]
            self.build((None,) + tuple(first.shape)[1:])
        # A subclassed model's sub-layers build themselves during this first call.
        self.built = True

    def build(self, input_shape):
        """Build the model by calling it on zeros of ``input_shape`` (batch dim may be None)."""
        if self.built:
            return
        if input_shape is None:
            raise ValueError("Input shape must be defined when calling `build()` on a "
                             "`Model` subclass.")
        if type(self).call is not Model.call:
            shape = [1 if d is None else d for d in input_shape]
            self.built = True  # call() builds the sub-layers
            self._built_strategy = ds_context.get_strategy() if ds_context.has_strategy() else None
            # Keras builds in a scratch graph, outside the model's name scope:
            # model.build() names weights 'dense/kernel', a first call 'model/dense/kernel'.
            with execute.shape_inference():
                self.call(A.zeros(shape, dtype=self.compute_dtype))
        self.built = True

    # --- compile -----------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
                weighted_metrics=None, run_eagerly=None, steps_per_execution=None,
                jit_compile=None, pss_evaluation_shards=0, **kwargs):
        """Configure the model for training.

        Raises:
          ValueError: the model was built outside the current strategy's scope.
          RuntimeError: the model was made under another strategy's scope (TF's "Mixing
            different tf.distribute.Strategy objects").
        """
        with self._scope():  # as Keras, which compiles inside the model's own strategy
            self._check_built_in_current_scope()
        if self._distribution_strategy is None and ds_context.has_strategy():
            self._distribution_strategy = ds_context.get_strategy()
        self._compile_args = {"loss": loss, "loss_weights": loss_weights, "metrics": metrics,
                              "weighted_metrics": weighted_metrics}
        self._steps_per_execution = steps_per_execution
        self._run_eagerly = run_eagerly
        # compile drops the step functions (tf-keras's _reset_compile_cache)
        self.train_function = self.test_function = self.predict_function = None
        self.train_tf_function = None   # the traced train function (PS: the scheduled one)
        with self._scope():
            self.optimizer = self._get_optimizer(optimizer)
            names = getattr(self, "output_names", None)
            self.compiled_loss = compile_utils.LossesContainer(loss, loss_weights, names)
            self.compiled_metrics = compile_utils.MetricsContainer(
                _metric_specs(metrics), _metric_specs(weighted_metrics), names)
            self._check_metrics_strategy()
        self._is_compiled = True
        self.stop_training = False

    def _check_built_in_current_scope(self):
        """Keras's ValueError for a model whose weights were made outside this scope."""
        if self.built and ds_context.has_strategy():
            strategy = ds_context.get_strategy()
            if self._built_strategy is not strategy and self.variables:
                v = self.variables[0]
                raise ValueError(
                    f"Variable ({v!r}) was not created in the distribution "
                    f"strategy scope of ({strategy}). It is most likely "
                    "because some layers, model, or optimizer was being "
                    "created outside the distribution strategy scope. Try "
                    "to make sure your code looks similar "
                    "to the following.\nwith strategy.scope():\n"
                    "  model=_create_model()\n"
                    "  model.compile(...)")

    def _get_optimizer(self, optimizer):
        """The optimizer ``compile`` keeps: under a mixed_float16 model, Keras wraps it in a
        LossScaleOptimizer (float16 gradients underflow without loss scaling)."""
        from simdist.keras.mixed_precision import loss_scale_optimizer as lso

        opt = optimizers.get(optimizer)
        if self.dtype_policy.name == "mixed_float16" and \
                not isinstance(opt, lso.LossScaleOptimizer):
            opt = lso.LossScaleOptimizer(opt)
        return opt

    def _check_metrics_strategy(self):
        """Keras's error for a Metric object made in another strategy's scope."""
        strategy = self.distribute_strategy
        for m in self.compiled_metrics.user_metrics:
            if isinstance(m, metrics_mod.Metric) and \
                    m._strategy is not self._distribution_strategy:
                raise ValueError(
                    f"Metric ({m}) passed to `model.compile` was created inside a different "
                    "distribution strategy scope than the model. All metrics must be "
                    "created in the same distribution strategy scope as the model (in this "
                    f"case {strategy}). If you pass in a string identifier for a metric to "
                    "compile, the metric will automatically be created in the correct "
                    "distribution strategy scope.")

    def _scope(self):
        import contextlib

        # The model's own strategy, entered again even when it is current (TF allows that);
        # under another strategy's scope this raises TF's "Mixing different ..." error.
        s = self._distribution_strategy
        return contextlib.nullcontext() if s is None else s.scope()

    @property
    def metrics(self) -> list:
        """The compiled loss's and metrics' (once built), then the Metric objects the model
        and its sub-layers keep as attributes (Keras's ``Layer._metrics``)."""
        out = []
        if self.compiled_loss is not None:
            out += self.compiled_loss.metrics
        if self.compiled_metrics is not None:
            out += self.compiled_metrics.metrics
        for layer in (self, *self._flatten_layers()):
            out += layer.__dict__.get("_metrics", [])
        return out

    @property
    def metrics_names(self) -> list:
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        for m in self.metrics:
            m.reset_state()

    # --- steps -------------------------------------------------------------------------
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None):
        return self.compiled_loss(y, y_pred, sample_weight, regularization_losses=self.losses)

    def compute_metrics(self, x, y, y_pred, sample_weight):
        self.compiled_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def train_step(self, data):
        """One optimisation step on one replica's batch; returns the metrics' results."""
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        with backprop.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
        self.optimizer.minimize(loss, self.trainable_variables, tape=tape)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data):
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        self.compute_loss(x, y, y_pred, sample_weight)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        x, _, _ = data_adapter.unpack_x_y_sample_weight(data)
        return self(x, training=False)

    @property
    def run_eagerly(self) -> bool:
        """Whether the steps run as Python (a ``dynamic`` model, ``compile(run_eagerly=
        True)``, or ``tf.config.run_functions_eagerly(True)`` when run_eagerly was not
        given).

        Raises:
          ValueError: a dynamic model with ``run_eagerly=False`` (TF's message).
        """
        from simdist.framework import eager_function_run

        if self.dynamic and self._run_eagerly is False:
            raise ValueError(
                "Your model contains layers that can only be successfully run in eager "
                "execution (layers constructed with `dynamic=True`). You cannot set "
                "`run_eagerly=False`.")
        if self.dynamic:
            return True
        if self._run_eagerly is None:
            return eager_function_run.functions_run_eagerly()
        return bool(self._run_eagerly)

    @run_eagerly.setter
    def run_eagerly(self, value):
        self._run_eagerly = value

    def make_train_function(self, force=False):
        """The function ``fit`` and ``train_on_batch`` call with the data iterator (made
        once per compile; ``force`` makes a new one): step_functions."""
        return step_functions.make_function(self, "train", force)

    def make_test_function(self, force=False):
        """The function ``evaluate`` and ``test_on_batch`` call (see make_train_function)."""
        return step_functions.make_function(self, "test", force)

    def make_predict_function(self, force=False):
        """The function ``predict`` calls (see make_train_function)."""
        return step_functions.make_function(self, "predict", force)

    def _execute(self, fn, batches, handler):
        """One call of a step function on ``batches`` (one execution)."""
        feed = step_functions.BatchFeed(batches, getattr(handler, "static_batch", False),
                                        self.distribute_strategy)
        if isinstance(fn, function.Function):
            feed.relax(fn)
        return fn(feed)

    def _check_compiled(self, what):
        if not self._is_compiled:
            raise RuntimeError("You must compile your model before training/testing. Use "
                               "`model.compile(optimizer, loss)`.")

    # --- fit / evaluate / predict ------------------------------------------------------
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq=1, **kwargs):
        """Train for ``epochs`` epochs; returns a ``History``."""
        self._check_compiled("fit")
        if ps_training.uses_coordinator(self):
            return ps_training.fit(self, x, y, batch_size, epochs, verbose, callbacks,
                                   steps_per_epoch, initial_epoch, shuffle)
        verbose = 1 if verbose == "auto" else verbose
        if validation_split and validation_data is None:
            if data_adapter._is_dataset(x):
                raise ValueError("`validation_split` is only supported for Tensors or NumPy "
                                 "arrays, found following types in the input: "
                                 f"{[type(x)]}")
            n = len(np.asarray(_host0(x)))
            split = int(n * (1.0 - validation_split))
            validation_data = (_slice(x, split, None), _slice(y, split, None))
            x, y = _slice(x, 0, split), _slice(y, 0, split)
        handler = data_adapter.DataHandler(x, y, sample_weight, batch_size, steps_per_epoch,
                                           epochs, shuffle, self.distribute_strategy,
                                           class_weight=class_weight)
        spe = executions_lib.validate(getattr(self, "_steps_per_execution", None))
        executions_lib.check_data_size(spe, handler.steps)
        train_function = self.make_train_function()
        cbks = callbacks_module.CallbackList(callbacks, add_history=True,
                                             add_progbar=verbose != 0, model=self,
                                             verbose=verbose, epochs=epochs,
                                             steps=handler.steps)
        self.stop_training = False
        self._initial_counters_from_backup = None
        self._reset_counter("train")
        cbks.on_train_begin()
        initial_step = 0
        if self._initial_counters_from_backup is not None:  # BackupAndRestore's, as Keras
            initial_epoch, initial_step = self._initial_counters_from_backup
        logs, epoch_logs = {}, None
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            cbks.on_epoch_begin(epoch)
            for step, batches in executions_lib.executions(
                    handler.epoch_iterator(initial_step, None if self.run_eagerly
                                           else self._input_error), spe, handler.steps):
                cbks.on_train_batch_begin(step)
                logs = self._execute(train_function, batches, handler)
                logs = {k: _to_python(v) for k, v in logs.items()}
                cbks.on_train_batch_end(step + len(batches) - 1, logs)
                if self.stop_training:
                    break
            initial_step = 0
            if handler.ran_out:  # short of steps_per_epoch, or learning an unknown length
                self._count_the_step_past_the_end()
            if handler.insufficient_data and not logs:
                break
            logs = self._validate_and_get_metrics_result(logs)
            epoch_logs = dict(logs)
            if validation_data is not None and self._should_eval(epoch, validation_freq):
                vx, vy, vsw = data_adapter.unpack_x_y_sample_weight(validation_data)
                val = self.evaluate(vx, vy, sample_weight=vsw,
                                    batch_size=validation_batch_size or batch_size,
                                    steps=validation_steps, verbose=0, return_dict=True,
                                    _callbacks=cbks)
                epoch_logs.update({"val_" + k: v for k, v in val.items()})
            cbks.on_epoch_end(epoch, epoch_logs)
            if self.stop_training or handler.insufficient_data:
                break
        finalize = getattr(self.optimizer, "finalize_variable_values", None)
        if finalize is not None and epochs > 0:   # (use_ema: the moving averages)
            finalize(self.trainable_variables)
        cbks.on_train_end(epoch_logs)  # the last epoch's logs, validation included
        return self.history

    def _input_error(self, error):
        """TF's error of fit's train_function whose IteratorGetNext failed (a class-weight
        map's gather, data_adapter): a graph execution error through IteratorGetNext, and
        the optimizer counted the step (recorded from TF 2.21: a failing second batch
        leaves ``iterations`` at 2)."""
        self._count_the_step_past_the_end()
        return graph_errors.execution_error(error, graph_errors.inference_name(
            "train_function"), after=("IteratorGetNext",))

    def _count_the_step_past_the_end(self):
        """The input ran out inside a compiled train step (before steps_per_epoch, or at the
        end of a first epoch of unknown length): TF's optimizer (not a legacy one) has
        counted that step already (see Optimizer._counts_the_step_past_the_end)."""
        if not self.run_eagerly and getattr(self.optimizer, "_counts_the_step_past_the_end",
                                             False):
            with self._scope():
                self.optimizer.iterations.assign_add(1)

    @staticmethod
    def _should_eval(epoch, validation_freq):
        """Whether ``fit`` validates after ``epoch`` (0-based): every ``validation_freq``
        epochs, or on the 1-based epochs a list names.

        Raises:
          ValueError: ``validation_freq`` is neither an int nor a list (Keras checks it only
            when the first validation is due, so the error comes after an epoch's training).
        """
        epoch += 1
        if isinstance(validation_freq, int):
            return epoch % validation_freq == 0
        if isinstance(validation_freq, list):
            return epoch in validation_freq
        raise ValueError(
            "Expected `validation_freq` to be a list or int. Received: "
            f"validation_freq={validation_freq} of the type {type(validation_freq)}.")

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, return_dict=False, _callbacks=None, **kwargs):
        """Loss and metrics of the model on the data (a list, or a dict)."""
        self._check_compiled("evaluate")
        if ps_training.uses_coordinator(self):
            return ps_training.evaluate(self, x, y, batch_size, verbose, callbacks, steps,
                                        return_dict)
        verbose = 1 if verbose == "auto" else verbose
        handler = data_adapter.DataHandler(x, y, sample_weight, batch_size, steps, 1, False,
                                           self.distribute_strategy)
        spe = executions_lib.validate(getattr(self, "_steps_per_execution", None))
        executions_lib.check_data_size(spe, handler.steps)
        test_function = self.make_test_function()
        cbks = _callbacks or callbacks_module.CallbackList(
            callbacks, add_progbar=verbose != 0, model=self, verbose=verbose, epochs=1,
            steps=handler.steps)
        self.reset_metrics()
        self._reset_counter("test")
        cbks.on_test_begin()
        logs = {}
        for step, batches in executions_lib.executions(handler.epoch_iterator(), spe,
                                                       handler.steps):
            cbks.on_test_batch_begin(step)
            logs = self._execute(test_function, batches, handler)
            logs = {k: _to_python(v) for k, v in logs.items()}
            cbks.on_test_batch_end(step + len(batches) - 1, logs)
        logs = self._validate_and_get_metrics_result(logs)
        cbks.on_test_end(logs)
        return self._returned_logs(logs, return_dict)

    def get_metrics_result(self) -> dict:
        """The results of ``self.metrics`` by name (a metric whose result is a dict adds
        its entries)."""
        out = {}
        for metric in self.metrics:
            result = metric.result()
            if isinstance(result, dict):
                out.update(result)
            else:
                out[metric.name] = result
        return out

    def _validate_and_get_metrics_result(self, logs):
        """What an epoch of fit, and evaluate, end with: the results of ``self.metrics`` in
        place of the last step's logs when they have the same names (Keras's override; a
        custom step returning other names keeps its logs)."""
        metric_logs = self.get_metrics_result()
        if isinstance(logs, dict) and set(logs) == set(metric_logs):
            return {k: _to_python(v) for k, v in metric_logs.items()}
        return logs

    def _returned_logs(self, logs, return_dict):
        """evaluate's result: the logs dict, or its values in ``metrics_names`` order."""
        if return_dict:
            return logs
        values = [logs[n] for n in self.metrics_names if n in logs]
        return values[0] if len(values) == 1 else values

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None,
                **kwargs):
        """The model's outputs on ``x``, concatenated over the batches (NumPy); with
        ``steps_per_execution`` N, each predict_function call runs N batches and gives
        their outputs concatenated (the callbacks' ``outputs``). Under
        ParameterServerStrategy it runs on the coordinator (ps_training.predict)."""
        if ps_training.uses_coordinator(self):
            return ps_training.predict(self, x, batch_size, verbose, steps, callbacks)
        verbose = 1 if verbose == "auto" else verbose
        handler = data_adapter.DataHandler(x, None, None, batch_size, steps, 1, False,
                                           self.distribute_strategy)
        cbks = callbacks_module.CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                             verbose=verbose, epochs=1, steps=handler.steps)
        self._reset_counter("predict")
        return self._predict_batches(handler, cbks)

    def _predict_batches(self, handler, cbks):
        spe = executions_lib.validate(getattr(self, "_steps_per_execution", None))
        cbks.on_predict_begin()
        outputs = []
        strategy = self.distribute_strategy
        predict_function = self.make_predict_function()
        for step, batches in executions_lib.executions(handler.epoch_iterator(), spe,
                                                       handler.steps):
            cbks.on_predict_batch_begin(step)
            out = self._execute(predict_function, batches, handler)
            if strategy is ds_context.get_default_strategy():
                out = nest.map_structure(np.asarray, out)
            else:
                out = nest.map_structure(_concat_replicas(strategy), out)
            outputs.append(out)
            # Callbacks see the batch's outputs as one array (the replicas' concatenated),
            # as Keras's logs are NumPy by the time a callback reads them.
            cbks.on_predict_batch_end(step + len(batches) - 1, {"outputs": outputs[-1]})
        cbks.on_predict_end()
        if not outputs:
            raise ValueError("Expected input data to be non-empty.")
        return nest.map_structure(lambda *parts: np.concatenate(parts, axis=0), *outputs)

    def predict_on_batch(self, x):
        """The model's output for one batch (NumPy); the predict counter goes on."""
        handler = data_adapter.DataHandler(x, None, None, len(np.asarray(_host0(x))), None,
                                           1, False, self.distribute_strategy)
        return self._predict_batches(handler, callbacks_module.CallbackList(None, model=self))

    def _reset_counter(self, kind):
        """tf-keras sets the step counter of ``fit`` / ``evaluate`` / ``predict`` back to 0
        when each begins (the ``*_on_batch`` methods go on counting)."""
        counter = getattr(self, f"_{kind}_counter", None)
        if counter is not None:
            with self._scope():
                counter.assign(0)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None,
                       reset_metrics=True, return_dict=False):
        """One training step on one (global) batch; returns its loss and metrics."""
        return self._on_batch("fit", x, y, sample_weight, class_weight, reset_metrics,
                              return_dict)

    def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True,
                      return_dict=False):
        """Loss and metrics of one (global) batch."""
        return self._on_batch("evaluate", x, y, sample_weight, None, reset_metrics,
                              return_dict)

    def _on_batch(self, what, x, y, sample_weight, class_weight, reset_metrics, return_dict):
        self._check_compiled(what)
        handler = data_adapter.DataHandler(x, y, sample_weight, len(np.asarray(_host0(x))),
                                           None, 1, False, self.distribute_strategy,
                                           class_weight=class_weight)
        if reset_metrics:
            self.reset_metrics()
        step_fn = self.make_train_function() if what == "fit" else self.make_test_function()
        logs = {}
        for _, batch in handler.epoch_iterator():
            logs = {k: _to_python(v) for k, v in self._execute(step_fn, [batch], handler).items()}
        return self._returned_logs(logs, return_dict)

    def __call__(self, inputs, *args, **kwargs):
        if self._saved_model_inputs_spec is None and all(
                isinstance(t, Tensor) or hasattr(t, "__array__") and not is_keras_tensor(t)
                for t in nest.flatten(inputs)):
            self._saved_model_inputs_spec = nest.map_structure(_input_spec, inputs)
        return super().__call__(inputs, *args, **kwargs)

    def save_spec(self, dynamic_batch=True):
        """``(args, kwargs)`` of TensorSpecs of the first call's inputs (batch dimension
        None), or None before any call; what saving needs of a subclassed model."""
        if self._saved_model_inputs_spec is None:
            return None
        spec = self._saved_model_inputs_spec
        if not dynamic_batch:
            return [spec], {}
        return [nest.map_structure(lambda s: TensorSpec((None, *s.shape.as_list()[1:]),
                                                        s.dtype, s.name), spec)], {}

    def save(self, filepath, overwrite=True, save_format=None, **kwargs):
        """Save the whole model: a SavedModel directory, or a ``.keras`` / ``.h5`` file
        (see keras/saving/saving_api.py for what simdist writes there).

        Raises:
          ValueError: a subclassed model that was never called or built.
        """
        from simdist.keras.saving import saving_api

        saving_api.save_model(self, filepath, overwrite, save_format, **kwargs)

    # --- weights on disk ---------------------------------------------------------------
    def save_weights(self, filepath, overwrite=True, save_format=None, options=None):
        """Save the weights (and a compiled model's optimizer state) to ``filepath``.

        As Keras 2: TF's checkpoint format (``filepath.index`` and ``.data-*``, keys by
        layer, and the directory's ``checkpoint`` file) unless the name ends in .h5, .hdf5
        or .keras; those get one file of the weights by position (an ``.npz`` inside, not
        HDF5).
        """
        path = os.fspath(filepath)
        if not _is_hdf5(path, save_format):
            from simdist.train import checkpoint, checkpoint_management

            checkpoint.write_graph(self, path)
            checkpoint_management.update_checkpoint_state(os.path.dirname(path) or ".", path)
            return
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "wb") as f:
            np.savez(f, *_values(self._layer_weights()))

    def load_weights(self, filepath, skip_mismatch=False, by_name=False, options=None):
        """Load weights saved by :meth:`save_weights`; a TF-format load returns its status
        (values for layers not built yet are assigned when they are).

        Raises:
          AssertionError: a TF-format checkpoint matched none of the model's variables.
        """
        path = os.fspath(filepath)
        if not _is_hdf5(path, None):
            from simdist.train import checkpoint

            return checkpoint.restore_graph(self, path).assert_nontrivial_match()
        with np.load(path) as data:
            self._set_weights_impl(self._layer_weights(),
                                   [data[f"arr_{i}"] for i in range(len(data.files))])
        return None

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False,
                show_trainable=False, layer_range=None):
        """Print Keras's summary table.

        Raises:
          ValueError: the model has not been built yet.
        """
        if not self.built:
            raise ValueError(
                "This model has not yet been built. Build the model first by calling "
                "`build()` or by calling the model on a batch of data.")
        summary.print_summary(self, line_length, positions, print_fn)


def layer_children(layers) -> dict:
    """Keras's checkpoint names for a graph network's layers (Sequential, functional):
    ``layer_with_weights-i`` counts the layers that hold weights (the names a checkpoint's
    values get), ``layer-i`` all of them (so a model restored before it is built finds its
    layers)."""
    weighted = [layer for layer in layers if layer.weights]
    out = {f"layer_with_weights-{i}": layer for i, layer in enumerate(weighted)}
    out.update({f"layer-{i}": layer for i, layer in enumerate(layers)})
    return out


def _is_hdf5(path: str, save_format) -> bool:
    """Keras's choice of format: h5 by name or by ``save_format``, else TF's checkpoint."""
    if save_format is not None:
        return str(save_format).lower() in ("h5", "hdf5")
    return path.endswith((".h5", ".hdf5", ".keras"))


def _metric_specs(metrics):
    """compile's ``metrics``: a list, a dict by output name, or one metric (as a list)."""
    if metrics is None or isinstance(metrics, (list, tuple, dict)):
        return metrics
    return [metrics]


def _input_spec(value):
    """The TensorSpec of a first call's input, named 'input_1' as Keras names it."""
    t = value if isinstance(value, Tensor) else execute.convert_to_tensor(value)
    return TensorSpec(t.shape, t.dtype, "input_1")


def _concat_replicas(strategy):
    """One array of a per-replica output: the replicas' parts in order (an empty replica's
    part is skipped unless every part is empty)."""
    def concat(value):
        parts = [np.asarray(v) for v in strategy.experimental_local_results(value)]
        return np.concatenate([p for p in parts if p.size or p.ndim > 1] or parts, axis=0)
    return concat


def _host0(x):
    return nest.flatten(x)[0]


def _slice(x, start, stop):
    if x is None:
        return None
    return nest.map_structure(lambda a: np.asarray(a)[start:stop], x)
