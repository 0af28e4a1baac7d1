"""``Layer.add_metric``: a value a layer's call reports as a metric of the model.

Glossary:
  added metric  -- ``self.add_metric(value, name=...)`` inside ``call``: the layer keeps a
                   ``Mean`` metric of that name (made at the first call, of the value's
                   dtype; a later call with the name finds it) and updates it with the
                   value. The model lists it in ``metrics`` after the compiled ones, so
                   fit's History and evaluate report it by name, averaged over the epoch
                   (under a strategy: over the replicas' values, as any Mean). It is not
                   one of the layer's weights.
  a Metric's result -- ``self.add_metric(self.acc(y, p), name=...)``: the value a Metric
                   call returned adds that Metric itself (under its own name, its state
                   already updated), as tf-keras does for a value with ``_metric_obj``.
  aggregation   -- the one keyword accepted (tf-keras's backward compatibility): a value
                   is always averaged.
  in a call     -- inside a layer's ``call`` (eager, traced, or its symbolic call on
                   KerasTensors, where the update is recorded in the scratch graph and never
                   runs); outside one, only a KerasTensor of a functional model (its own
                   metric: an AddMetric layer, add_loss_layers.py).

Mirrors tf_keras/src/engine/base_layer.py (``Layer.add_metric``, ``_get_existing_metric``).
"""

from __future__ import annotations

import weakref

from simdist.keras.engine.keras_tensor import KerasTensor

_results: dict = {}   # id(tensor) -> (weak reference to it, the Metric whose result it is)


def mark_metric_result(tensor, metric) -> None:
    """Remember that ``tensor`` is what calling ``metric`` returned (tf-keras's
    ``_metric_obj`` on the result)."""
    key = id(tensor)
    try:
        ref = weakref.ref(tensor, lambda _ref, key=key: _results.pop(key, None))
    except TypeError:   # not a tensor (nothing to remember)
        return
    _results[key] = (ref, metric)


def metric_of(value):
    """The Metric whose call returned ``value``, or None."""
    entry = _results.get(id(value))
    return entry[1] if entry is not None and entry[0]() is value else None


def add_metric(layer, value, name, kwargs, in_call: bool) -> None:
    """Report ``value`` as the metric ``name`` of ``layer`` (see the module docstring).

    Raises:
      TypeError: a keyword other than ``aggregation``.
      ValueError: no name; a value that is not a KerasTensor outside a call; a Metric's
        result outside a call.
      NotImplementedError: a KerasTensor added to a layer (not a functional model) outside
        a call.
    """
    if len(kwargs) > 1 or (len(kwargs) == 1 and "aggregation" not in kwargs):
        raise TypeError(f"Unknown keyword arguments: {kwargs.keys()}. Expected `aggregation`.")
    metric = metric_of(value)
    if name is None and metric is None:
        raise ValueError("Please provide a name for your metric like "
                         "`self.add_metric(tf.reduce_sum(inputs), name='mean_activation')`")
    if not in_call and not isinstance(value, KerasTensor):
        raise ValueError("Expected a symbolic Tensor for the metric value, received: "
                         + str(value))
    if not in_call and metric is not None:
        raise ValueError("Using the result of calling a `Metric` object when calling "
                         "`add_metric` on a Functional Model is not supported. Please pass the "
                         "Tensor to monitor directly.")
    if not in_call and getattr(layer, "_is_graph_network", False):
        from simdist.keras.engine import add_loss_layers

        add_loss_layers.add_metric(layer, value, kwargs.get("aggregation"), name)
        return
    if not in_call:
        raise NotImplementedError(
            "simdist does not add a metric of KerasTensors to a layer outside its call; call "
            "add_metric inside the layer's call instead.")
    _update_impl(layer, value, name if metric is None else metric.name, metric)


def _update_impl(layer, value, name: str, metric) -> None:
    from simdist.keras.metrics import base_metric

    metrics = layer.__dict__.setdefault("_metrics", [])
    match = next((m for m in metrics if m.name == name), None)
    if match is None:
        match = metric or base_metric.Mean(name=name, dtype=getattr(value, "dtype", None))
        metrics.append(match)   # listed, not tracked: its state is no weight of the layer
    if metric is None:   # a Metric's result: its call updated it already
        match(value)
