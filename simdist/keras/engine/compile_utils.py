"""What ``compile`` builds: the loss container and the metrics container.

Glossary:
  LossesContainer  -- calls the loss (AUTO/SUM_OVER_BATCH_SIZE allowed here), feeds the
                      'loss' Mean metric with ``loss`` weighted by the local batch size, and
                      returns ``loss / num_replicas_in_sync`` so that the gradients summed
                      across replicas are those of the global mean.
  MetricsContainer -- turns 'accuracy' into binary/sparse/categorical accuracy from the
                      shapes of the labels and predictions, as Keras does, and updates them.
  metrics          -- each container lists its metrics only once a step has used it, as
                      Keras's do (``model.metrics_names`` is [] from compile until the first
                      fit, evaluate or train_on_batch step).

Mirrors keras/src/engine/compile_utils.py.
"""

from __future__ import annotations

from simdist.distribute import distribution_strategy_context as ds
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras import losses as losses_mod
from simdist.keras import metrics as metrics_mod
from simdist.keras.utils import losses_utils


def match_dtype_and_rank(y_t, y_p, sw):
    if y_t.ndim == 1 and y_p.ndim == 2:
        y_t = A.expand_dims(y_t, -1)
    if sw is not None and sw.ndim == 1 and y_p.ndim == 2:
        sw = A.expand_dims(sw, -1)
    if (y_t.dtype.is_floating and y_p.dtype.is_floating) or (
            y_t.dtype.is_integer and y_p.dtype.is_integer):
        y_t = A.cast(y_t, y_p.dtype)
    if sw is not None:
        sw = A.cast(sw, y_p.dtype)
    return y_t, y_p, sw


class LossesContainer:
    """The compiled loss of a single-output model."""

    def __init__(self, loss, loss_weights=None):
        loss = losses_mod.get(loss)
        if loss is not None and not isinstance(loss, losses_mod.Loss):
            loss = losses_mod.LossFunctionWrapper(loss, name=getattr(loss, "__name__", None))
        if loss is not None:
            loss._allow_sum_over_batch_size = True
        self._loss = loss
        self._loss_weight = loss_weights
        self._total_loss_mean = metrics_mod.Mean(name="loss")
        self._called = False

    @property
    def metrics(self):
        return [self._total_loss_mean] if self._called else []

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        self._called = True
        if self._loss is None or y_true is None:
            return None
        y_t, y_p, sw = match_dtype_and_rank(A._t(y_true), A._t(y_pred),
                                            None if sample_weight is None else A._t(
                                                sample_weight))
        loss_value = self._loss(y_t, y_p, sample_weight=sw)
        mean_value = loss_value
        if self._loss.reduction == losses_utils.ReductionV2.SUM:
            mean_value = M.multiply(mean_value, A.constant(
                float(ds.get_strategy().num_replicas_in_sync), dtype=mean_value.dtype))
        if self._loss_weight is not None:
            w = A.constant(float(self._loss_weight), dtype=loss_value.dtype)
            loss_value, mean_value = M.multiply(loss_value, w), M.multiply(mean_value, w)
        if self._loss.reduction in (losses_utils.ReductionV2.SUM_OVER_BATCH_SIZE,
                                    losses_utils.ReductionV2.AUTO):
            loss_value = losses_utils.scale_loss_for_distribution(loss_value)
        totals, values = [mean_value], [loss_value]
        for reg in regularization_losses or []:
            totals.append(reg)
            values.append(losses_utils.scale_loss_for_distribution(reg))
        batch_dim = y_t.shape[0]
        self._total_loss_mean.update_state(M.add_n(totals) if len(totals) > 1 else totals[0],
                                           sample_weight=batch_dim)
        return M.add_n(values) if len(values) > 1 else values[0]

    def reset_state(self):
        self._total_loss_mean.reset_state()


def _accuracy_for(name, y_t, y_p):
    """Keras's choice of accuracy function for 'accuracy'/'acc' from the shapes."""
    is_binary = y_p.shape[-1] == 1
    is_sparse = y_t.ndim < y_p.ndim or (y_t.shape[-1] == 1 and y_p.shape[-1] > 1)
    if is_binary:
        cls = metrics_mod.BinaryAccuracy
    elif is_sparse:
        cls = metrics_mod.SparseCategoricalAccuracy
    else:
        cls = metrics_mod.CategoricalAccuracy
    return cls(name=name)


class MetricsContainer:
    """The compiled metrics of a single-output model (built from the first batch's shapes).

    ``metrics`` ignore sample weights, ``weighted_metrics`` use them; a weighted metric whose
    name is taken gets the prefix ``weighted_`` (Keras's naming).
    """

    def __init__(self, metrics=None, weighted_metrics=None):
        self._user = list(metrics or [])
        self._user_weighted = list(weighted_metrics or [])
        self._metrics = None
        self._weighted = None
        self._updated = False  # built before the first step (in cross-replica context)

    @property
    def user_metrics(self):
        return self._user + self._user_weighted

    @property
    def built(self):
        return self._metrics is not None

    @property
    def metrics(self):
        if not self._updated:
            return []
        return list(self._metrics or []) + list(self._weighted or [])

    def _make(self, m, y_true, y_pred):
        if isinstance(m, str) and m in ("accuracy", "acc"):
            return _accuracy_for(m, y_true, y_pred)
        if isinstance(m, str):
            obj = metrics_mod.get(m)
            return obj if isinstance(obj, metrics_mod.Metric) \
                else metrics_mod.MeanMetricWrapper(obj, name=m)
        if isinstance(m, metrics_mod.Metric):
            return m
        return metrics_mod.MeanMetricWrapper(m, name=m.__name__)

    def build(self, y_true, y_pred):
        self._metrics = [self._make(m, y_true, y_pred) for m in self._user]
        self._weighted = [self._make(m, y_true, y_pred) for m in self._user_weighted]
        names = set()
        for m in self._metrics:
            if m.name in names:
                raise ValueError(f"Found two metrics with the same name: {m.name}. All the "
                                 "metrics added to the model need to have unique names.")
            names.add(m.name)
        for m in self._weighted:
            if m.name in names:
                m.name = "weighted_" + m.name
            if m.name in names:
                raise ValueError(f"Found two metrics with the same name: {m.name}. All the "
                                 "metrics added to the model need to have unique names.")
            names.add(m.name)

    def update_state(self, y_true, y_pred, sample_weight=None):
        self._updated = True
        y_t, y_p, sw = match_dtype_and_rank(A._t(y_true), A._t(y_pred),
                                            None if sample_weight is None else A._t(
                                                sample_weight))
        for m in self._metrics or []:
            m.update_state(y_t, y_p)
        for m in self._weighted or []:
            m.update_state(y_t, y_p, sample_weight=sw)

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()
