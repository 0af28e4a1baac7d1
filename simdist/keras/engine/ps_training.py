"""``fit`` and ``evaluate`` under ParameterServerStrategy: steps scheduled on the workers.

Glossary:
  coordinator    -- ``fit``/``evaluate`` make the strategy's ClusterCoordinator (kept as
                    ``model._cluster_coordinator``) and schedule the train/test function,
                    ``steps_per_execution`` steps per call, on whatever worker is free; the
                    epoch ends with ``join``, and its logs are the last call's. The
                    functions are made once per compile (``make_function``); their first
                    trace, on the coordinator when first scheduled, builds the model and
                    its compiled metrics (no eager call).
  counters       -- ``_train_counter`` / ``_test_counter`` count the steps run (reset to 0
                    when fit / evaluate begin), as under any strategy.
  input          -- a ``DatasetCreator`` (each worker builds its pipeline with
                    ``distribute_datasets_from_function``), a dataset (copied to every
                    worker), or arrays (made a DatasetCreator, as Keras does). A
                    DatasetCreator needs ``steps_per_epoch`` / ``steps``; a finite dataset
                    without them runs until a worker's copy runs out, and the run is
                    cancelled (TF 2.21 raises CancelledError).
  verbosity      -- ``verbose=1`` (a progress bar per step) is refused; "auto" means 2.
  predict        -- runs on the coordinator, the model's strategy set aside (as tf-keras).
  refused        -- ``run_eagerly=True`` and callbacks with batch-level hooks (they would be
                    handed results not computed yet), with TF's ValueErrors.
Batch-level callbacks are called when a step is scheduled, with no logs (TF hands them
RemoteValues not yet computed).

Mirrors the ParameterServerStrategy paths of tf_keras/src/engine/training.py and
data_adapter.py (_ClusterCoordinatorDataHandler).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import errors, function, nest

_NEEDS_STEPS = ("When using a `tf.keras.utils.experimental.DatasetCreator`, `steps_per_epoch`, "
                "`validation_steps`, `steps`, or `pss_evaluation_shards` argument must be "
                "provided in `Model.fit`, `Model.evaluate`, or `Model.predict`.")


def uses_coordinator(model) -> bool:
    strategy = model._distribution_strategy
    return bool(getattr(strategy, "_should_use_with_coordinator", False))


def _verbosity(verbose):
    if verbose == 1:
        raise ValueError("`verbose=1` is not allowed with `ParameterServerStrategy` for "
                         f"performance reasons. Received: verbose={verbose}")
    return 2 if verbose == "auto" else verbose


def _as_creator(x, y, batch_size, shuffle=False):
    """Arrays made a DatasetCreator (Keras's _convert_to_dataset_creator)."""
    from simdist.data.dataset_ops import DatasetV2
    from simdist.keras.utils.dataset_creator import DatasetCreator

    if isinstance(x, DatasetCreator) or isinstance(x, DatasetV2):
        return x
    if isinstance(x, (np.ndarray, list)) or hasattr(x, "numpy"):
        from simdist.data.dataset_ops import Dataset

        data = (x, y) if y is not None else (x,)
        n = len(np.asarray(getattr(x, "numpy", lambda: x)()))

        def dataset_fn(_):
            ds = Dataset.from_tensor_slices(data)
            return (ds.shuffle(n) if shuffle else ds).batch(batch_size or 32)

        return DatasetCreator(dataset_fn)
    raise NotImplementedError("Only `tf.keras.utils.experimental.DatasetCreator`, "
                              "`tf.Tensor`, numpy arrays and pandas dataframes are supported "
                              "types at this time.")


_BATCH_HOOKS = ("on_batch_begin", "on_batch_end", "on_train_batch_begin", "on_train_batch_end",
                "on_test_batch_begin", "on_test_batch_end", "on_predict_batch_begin",
                "on_predict_batch_end")


def _implements_batch_hooks(callback) -> bool:
    """Whether ``callback`` has a batch hook of its own (its class's, or a LambdaCallback's)."""
    from simdist.keras.callbacks import Callback

    return any(name in vars(callback) or getattr(type(callback), name) is not
               getattr(Callback, name) for name in _BATCH_HOOKS)


def _disallow_batch_hooks(callbacks):
    """TF's CallbackList check: batch hooks would get RemoteValues not yet computed."""
    unsupported = [cb for cb in callbacks or ()
                   if not getattr(cb, "_supports_tf_logs", False) and _implements_batch_hooks(cb)]
    if unsupported:
        raise ValueError("Batch-level `Callback`s are not supported with "
                         f"`ParameterServerStrategy`. Found unsupported callbacks: {unsupported}")


def _check(model, callbacks):
    if model._run_eagerly:
        raise ValueError("When using `Model` with `ParameterServerStrategy`, `run_eagerly` "
                         "is not supported.")
    _disallow_batch_hooks(callbacks)


def _per_worker_iterator(model, coordinator, data, steps):
    from simdist.keras.utils.dataset_creator import DatasetCreator

    strategy = model._distribution_strategy
    if isinstance(data, DatasetCreator):
        if steps is None:
            raise ValueError(_NEEDS_STEPS)

        def per_worker_dataset_fn():
            return strategy.distribute_datasets_from_function(data,
                                                              options=data.input_options)

    else:
        if steps is None and int(data.cardinality()) == -1:  # tf.data.INFINITE_CARDINALITY
            raise ValueError("The dataset is infinite and no `steps_per_epoch` (evaluate: "
                             "`steps`) was given: TF would train forever. Give the number of "
                             "steps.")

        def per_worker_dataset_fn():
            return strategy.experimental_distribute_dataset(data)

    return iter(coordinator.create_per_worker_dataset(per_worker_dataset_fn))


def make_function(model, kind, steps_per_execution):
    """``model.<kind>_function`` under ParameterServerStrategy (made once per compile, as
    tf-keras's make_train_function / make_test_function): it schedules a
    ``tf.function(reduce_retracing=True)`` of one step, or of ``steps_per_execution`` steps
    whose number is a tensor argument (one trace for a last, shorter execution too), on the
    model's ClusterCoordinator. Each step runs ``step_functions.counted_step`` (the batch
    counter goes up); the model and its compiled metrics are first built in its first
    trace, on the coordinator. The train one is kept as ``train_tf_function`` (TF's name)."""
    from simdist.keras.engine import step_functions

    attr = f"{kind}_function"
    existing = model.__dict__.get(attr)
    if existing is not None:
        return existing
    strategy = model._distribution_strategy
    run_step = step_functions.counted_step(model, kind)

    def one_step(iterator):
        return strategy.run(run_step, args=(next(iterator),))

    if steps_per_execution == 1:
        def run_steps(iterator):
            return one_step(iterator)
    else:
        def run_steps(iterator, steps_per_execution):
            return step_functions.repeat(one_step, iterator, steps_per_execution)
    run_steps.__name__ = attr
    traced = function.function(run_steps, reduce_retracing=True)
    if kind == "train":
        model.train_tf_function = traced

    def scheduled(iterator, *steps):
        return model._cluster_coordinator.schedule(traced, args=(iterator, *steps))

    setattr(model, attr, scheduled)
    return scheduled


def _steps_args(iterator, spe, n):
    """A scheduled call's arguments: the iterator (and the steps to run, as a tensor)."""
    from simdist.framework.ops import array_ops

    return (iterator,) if spe == 1 else (iterator, array_ops.constant(n, dtype="int64"))


def _run_epoch(model, coordinator, fn, iterator, steps, spe, cbks, stage):
    """Schedule one epoch of ``fn`` (a scheduling ``make_function``); join; the last
    call's logs as Python floats."""
    last = None
    if steps is None:  # a finite dataset without steps: until a worker's copy runs out
        return _run_until_out_of_data(coordinator, fn, iterator, spe)
    for step in range(0, steps, spe):
        getattr(cbks, f"on_{stage}_batch_begin")(step)
        last = fn(*_steps_args(iterator, spe, min(spe, steps - step)))
        getattr(cbks, f"on_{stage}_batch_end")(min(step + spe, steps) - 1, None)
    coordinator.join()
    return {} if last is None else nest.map_structure(float, last.fetch())


def _run_until_out_of_data(coordinator, fn, iterator, spe):
    burst = 4 * len(coordinator._cluster.workers)
    while True:
        for _ in range(burst):
            fn(*_steps_args(iterator, spe, spe))
        try:
            coordinator.join()
        except errors.OutOfRangeError:
            raise errors.CancelledError(
                None, None, "A worker's copy of the dataset ran out of data, and the "
                "functions still queued were cancelled. With ParameterServerStrategy, repeat "
                "the dataset (.repeat()) and give steps_per_epoch (evaluate: steps).") from None


def fit(model, x, y, batch_size, epochs, verbose, callbacks, steps_per_epoch, initial_epoch,
        shuffle=True):
    """``Model.fit`` under ParameterServerStrategy."""
    from simdist.distribute.coordinator import ClusterCoordinator
    from simdist.keras import callbacks as callbacks_module
    from simdist.keras.engine import steps_per_execution as executions_lib

    verbose = _verbosity(verbose)
    _check(model, callbacks)
    coordinator = ClusterCoordinator(model._distribution_strategy)
    model._cluster_coordinator = coordinator
    iterator = _per_worker_iterator(model, coordinator,
                                    _as_creator(x, y, batch_size, shuffle), steps_per_epoch)
    spe = executions_lib.validate(getattr(model, "_steps_per_execution", None))
    train_function = make_function(model, "train", spe)
    cbks = callbacks_module.CallbackList(callbacks, add_history=True, add_progbar=verbose != 0,
                                         model=model, verbose=verbose, epochs=epochs,
                                         steps=steps_per_epoch)
    model.stop_training = False
    model._reset_counter("train")
    cbks.on_train_begin()
    logs = None
    for epoch in range(initial_epoch, epochs):
        model.reset_metrics()
        cbks.on_epoch_begin(epoch)
        logs = _run_epoch(model, coordinator, train_function, iterator, steps_per_epoch, spe,
                          cbks, "train")
        cbks.on_epoch_end(epoch, dict(logs))
        if model.stop_training:
            break
    finalize = getattr(model.optimizer, "finalize_variable_values", None)
    if finalize is not None and epochs > 0:   # (use_ema: the moving averages)
        finalize(model.trainable_variables)
    cbks.on_train_end(logs)
    return model.history


def evaluate(model, x, y, batch_size, verbose, callbacks, steps, return_dict):
    """``Model.evaluate`` under ParameterServerStrategy."""
    from simdist.distribute.coordinator import ClusterCoordinator
    from simdist.keras import callbacks as callbacks_module
    from simdist.keras.engine import steps_per_execution as executions_lib

    verbose = _verbosity(verbose)
    _check(model, callbacks)
    coordinator = ClusterCoordinator(model._distribution_strategy)
    model._cluster_coordinator = coordinator
    iterator = _per_worker_iterator(model, coordinator, _as_creator(x, y, batch_size), steps)
    spe = executions_lib.validate(getattr(model, "_steps_per_execution", None))
    cbks = callbacks_module.CallbackList(callbacks, add_progbar=verbose != 0, model=model,
                                         verbose=verbose, epochs=1, steps=steps)
    test_function = make_function(model, "test", spe)
    model.reset_metrics()
    model._reset_counter("test")
    cbks.on_test_begin()
    logs = _run_epoch(model, coordinator, test_function, iterator, steps, spe, cbks, "test")
    cbks.on_test_end(logs)
    return model._returned_logs(logs, return_dict)


def predict(model, x, batch_size, verbose, steps, callbacks):
    """``Model.predict`` under ParameterServerStrategy: on the coordinator, without the
    strategy (tf-keras sets the model's strategy to None and drops its coordinator for the
    call, and puts the strategy back once it returned; an error leaves it None, as there)."""
    strategy = model._distribution_strategy
    model._distribution_strategy = None
    model._cluster_coordinator = None
    outputs = model.predict(x, batch_size=batch_size, verbose=verbose, steps=steps,
                            callbacks=callbacks)
    model._distribution_strategy = strategy
    return outputs
