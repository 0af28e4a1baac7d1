"""A functional model's own losses and metrics of KerasTensors: ``model.add_loss(t)`` and
``model.add_metric(t, name=...)`` called outside any call, on a KerasTensor computed from
the model's inputs (the functional VAE's ``vae.add_loss(kl_loss)``).

Glossary:
  AddLoss    -- a layer whose call adds its input as a loss of its own and returns it; the
                model calls it on the KerasTensor, so each call of the model computes the
                tensor anew and the loss is among ``model.losses`` (fit adds it to the
                compiled loss, or trains on it alone).
  AddMetric  -- the same for a metric: its call is ``add_metric(inputs, name)``, a Mean of
                that name the model's ``metrics`` list (fit's logs report it).
  endpoint   -- the output of such a layer: the model runs the nodes leading to it on each
                call, as to its outputs; the layers new to the model (the ops' layers, then
                AddLoss / AddMetric) are listed after its own, as tf-keras's
                ``_insert_layers`` appends them.

Mirrors tf_keras/src/engine/base_layer.py (AddLoss, AddMetric) and functional.py
(``_graph_network_add_loss``, ``_graph_network_add_metric``).
"""

from __future__ import annotations

from simdist.keras.engine.base_layer import Layer


class AddLoss(Layer):
    """Adds its input as a loss (tf-keras's ``AddLoss``)."""

    def __init__(self, unconditional=False, **kwargs):
        kwargs["autocast"] = False
        super().__init__(**kwargs)
        self.unconditional = unconditional

    def call(self, inputs):
        self.add_loss(inputs)
        return inputs

    def get_config(self) -> dict:
        return {**super().get_config(), "unconditional": self.unconditional}


class AddMetric(Layer):
    """Reports its input as the metric ``metric_name`` (tf-keras's ``AddMetric``)."""

    def __init__(self, aggregation=None, metric_name=None, **kwargs):
        super().__init__(**kwargs)
        self.aggregation = aggregation
        self.metric_name = metric_name

    def call(self, inputs):
        self.add_metric(inputs, aggregation=self.aggregation, name=self.metric_name)
        return inputs

    def get_config(self) -> dict:
        return {**super().get_config(), "aggregation": self.aggregation,
                "metric_name": self.metric_name}


def add_loss(model, symbolic_loss) -> None:
    """Make ``symbolic_loss`` a loss of every call of the functional ``model``."""
    model._insert_endpoint(AddLoss(unconditional=False, dtype=symbolic_loss.dtype),
                           symbolic_loss)


def add_metric(model, value, aggregation, name) -> None:
    """Make ``value`` the metric ``name`` of every call of the functional ``model``."""
    model._insert_endpoint(AddMetric(aggregation, name, dtype=value.dtype), value)
