"""``Layer.add_metric``: a value a layer's call reports as a metric of the model.

Glossary:
  added metric  -- ``self.add_metric(value, name=...)`` inside ``call``: the layer keeps a
                   ``Mean`` metric of that name (made at the first call, of the value's
                   dtype; a later call with the name finds it) and updates it with the
                   value. The model lists it in ``metrics`` after the compiled ones, so
                   fit's History and evaluate report it by name, averaged over the epoch
                   (under a strategy: over the replicas' values, as any Mean). It is not
                   one of the layer's weights.
  aggregation   -- the one keyword accepted (tf-keras's backward compatibility): a value
                   is always averaged.
  in a call     -- inside a layer's ``call`` (eager, traced, or its symbolic call on
                   KerasTensors, where the update is recorded in the scratch graph and never
                   runs); outside one, only a KerasTensor (a functional model's own
                   metric) is accepted, which simdist does not model yet.

Mirrors tf_keras/src/engine/base_layer.py (``Layer.add_metric``, ``_get_existing_metric``).
"""

from __future__ import annotations

from simdist.keras.engine.keras_tensor import KerasTensor


def add_metric(layer, value, name, kwargs, in_call: bool) -> None:
    """Report ``value`` as the metric ``name`` of ``layer`` (see the module docstring).

    Raises:
      TypeError: a keyword other than ``aggregation``.
      ValueError: no name; a value that is not a KerasTensor outside a call.
      NotImplementedError: a KerasTensor added to a functional model outside a call.
    """
    if len(kwargs) > 1 or (len(kwargs) == 1 and "aggregation" not in kwargs):
        raise TypeError(f"Unknown keyword arguments: {kwargs.keys()}. Expected `aggregation`.")
    if name is None:
        raise ValueError("Please provide a name for your metric like "
                         "`self.add_metric(tf.reduce_sum(inputs), name='mean_activation')`")
    if not in_call and not isinstance(value, KerasTensor):
        raise ValueError("Expected a symbolic Tensor for the metric value, received: "
                         + str(value))
    if not in_call:
        raise NotImplementedError(
            "simdist does not add a metric of KerasTensors to a functional model (tf-keras's "
            "AddMetric layer); call add_metric inside a layer's call instead.")
    _update_impl(layer, value, name)


def _update_impl(layer, value, name: str) -> None:
    from simdist.keras.metrics import base_metric

    metrics = layer.__dict__.setdefault("_metrics", [])
    match = next((m for m in metrics if m.name == name), None)
    if match is None:
        match = base_metric.Mean(name=name, dtype=getattr(value, "dtype", None))
        metrics.append(match)   # listed, not tracked: its state is no weight of the layer
    match(value)
