"""What ``compile`` builds: the loss container and the metrics container.

Glossary:
  LossesContainer  -- calls each output's loss (AUTO/SUM_OVER_BATCH_SIZE allowed here),
                      feeds the 'loss' Mean metric (and '<output>_loss' ones for several
                      outputs) weighted by the local batch size, and returns the weighted
                      sum / ``num_replicas_in_sync`` so that the gradients summed across
                      replicas are those of the global mean.
  MetricsContainer -- turns 'accuracy' into binary/sparse/categorical accuracy from the
                      shapes of the labels and predictions, as Keras does, and updates them.
  metrics          -- each container lists its metrics only once a step has used it, as
                      Keras's do (``model.metrics_names`` is [] from compile until the first
                      fit, evaluate or train_on_batch step).

Mirrors keras/src/engine/compile_utils.py.
"""

from __future__ import annotations

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import nest
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras import backend
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


def _per_output(value, output_names, what):
    """``value`` for each output: one shared by all, a list in output order, or a dict by
    output name (None where a name is missing).

    Raises:
      ValueError: a dict key that names no output.
    """
    n = len(output_names)
    if isinstance(value, dict):
        unknown = [k for k in value if k not in output_names]
        if unknown:
            raise ValueError(f"Found unexpected {what} key(s) {unknown}. Expected keys in "
                             f"{output_names} (the model's output names).")
        return [value.get(k) for k in output_names]
    if isinstance(value, (list, tuple)) and (n > 1 or len(value) == 1):
        # Keras zips outputs with the list: outputs past its end get none, extras are unused.
        return (list(value) + [None] * n)[:n]
    return [value] * n


def _flat_like_outputs(y, output_names):
    """Labels (or predictions) as a list in output order: a dict is matched by name."""
    if isinstance(y, dict):
        return [y.get(k) for k in output_names]
    flat = nest.flatten(y)
    return flat if len(flat) == len(output_names) else [y]


class LossesContainer:
    """The compiled loss: one loss per model output, their weighted sum, and the 'loss'
    metric (plus '<output>_loss' per output when there are several)."""

    def __init__(self, loss, loss_weights=None, output_names=None):
        self._output_names = list(output_names or ["output_1"])
        multi = len(self._output_names) > 1
        self._user_losses = _per_output(loss, self._output_names, "loss")
        self._losses = None   # made at the first call (Keras's build): a bad name raises there
        self._loss_weights = _per_output(loss_weights, self._output_names, "loss_weights")
        self._total_loss_mean = metrics_mod.Mean(name="loss")
        self._per_output_metrics = [
            metrics_mod.Mean(name=f"{n}_loss") if multi and lo is not None else None
            for n, lo in zip(self._output_names, self._user_losses)]
        self._called = False

    @staticmethod
    def _make(loss):
        loss = losses_mod.get(loss)
        if loss is not None and not isinstance(loss, losses_mod.Loss):
            loss = losses_mod.LossFunctionWrapper(loss, name=getattr(loss, "__name__", None))
        if loss is not None:
            loss._allow_sum_over_batch_size = True
        return loss

    @property
    def metrics(self):
        if not self._called:
            return []
        return [self._total_loss_mean] + [m for m in self._per_output_metrics if m is not None]

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        self._called = True
        if self._losses is None:
            self._losses = [self._make(lo) for lo in self._user_losses]
        no_loss = all(lo is None for lo in self._losses) or y_true is None
        if no_loss and not regularization_losses:
            return None
        # A model compiled without a loss (or fit without targets) minimizes the losses its
        # layers add (add_loss), as tf-keras's container: "Ok for a model to have no
        # compiled loss".
        ys_true = [None] * len(self._output_names) if no_loss else \
            _flat_like_outputs(y_true, self._output_names)
        ys_pred = _flat_like_outputs(y_pred, self._output_names)
        sws = _flat_like_outputs(sample_weight, self._output_names) \
            if sample_weight is not None else [None] * len(ys_pred)
        totals, values, batch_dim = [], [], None
        for y_t, y_p, sw, loss, weight, metric in zip(
                ys_true, ys_pred, sws, self._losses, self._loss_weights,
                self._per_output_metrics):
            if loss is None or y_t is None:
                continue
            y_t, y_p, sw = match_dtype_and_rank(A._t(y_t), A._t(y_p),
                                                None if sw is None else A._t(sw))
            sw = losses_utils.apply_mask(y_p, sw, backend.get_keras_mask(y_p))
            batch_dim = y_t.shape[0]
            if batch_dim is None:   # traced with batch dimension None: tf.shape's
                batch_dim = A.shape(y_t)[0]
            loss_value = loss(y_t, y_p, sample_weight=sw)
            mean_value = loss_value
            if loss.reduction == losses_utils.ReductionV2.SUM:
                # The Mean metric counts each replica as a batch; undo the SUM's split.
                mean_value = M.multiply(mean_value, A.constant(
                    float(ds_context.get_strategy().num_replicas_in_sync), dtype=mean_value.dtype))
            if metric is not None:
                metric.update_state(mean_value, sample_weight=batch_dim)
            if weight is not None:
                w = A.constant(float(weight), dtype=loss_value.dtype)
                loss_value, mean_value = M.multiply(loss_value, w), M.multiply(mean_value, w)
            if loss.reduction in (losses_utils.ReductionV2.SUM_OVER_BATCH_SIZE,
                                  losses_utils.ReductionV2.AUTO):
                loss_value = losses_utils.scale_loss_for_distribution(loss_value)
            totals.append(mean_value)
            values.append(loss_value)
        for reg in regularization_losses or []:
            totals.append(reg)
            values.append(losses_utils.scale_loss_for_distribution(reg))
        self._total_loss_mean.update_state(M.add_n(totals) if len(totals) > 1 else totals[0],
                                           sample_weight=batch_dim)
        return M.add_n(values) if len(values) > 1 else values[0]

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()


_PICKED = {"accuracy": (metrics_mod.BinaryAccuracy, metrics_mod.SparseCategoricalAccuracy,
                        metrics_mod.CategoricalAccuracy),
           "crossentropy": (metrics_mod.binary_crossentropy,
                            metrics_mod.sparse_categorical_crossentropy,
                            metrics_mod.categorical_crossentropy)}
_PICKED.update(acc=_PICKED["accuracy"], ce=_PICKED["crossentropy"])


def _picked_for(name, y_t, y_p):
    """Keras's choice of accuracy or crossentropy for 'accuracy'/'acc'/'crossentropy'/'ce'
    (any case: 'Accuracy' too) from the shapes: binary, sparse or categorical."""
    is_binary = y_p.shape[-1] == 1
    is_sparse = y_t.ndim < y_p.ndim or (y_t.shape[-1] == 1 and y_p.shape[-1] > 1)
    made = _PICKED[name.lower()][0 if is_binary else 1 if is_sparse else 2]
    return made(name=name) if isinstance(made, type) else \
        metrics_mod.MeanMetricWrapper(made, name=name)


class MetricsContainer:
    """The compiled metrics (built from the first batch's shapes), per model output.

    ``metrics`` ignore sample weights, ``weighted_metrics`` use them; a weighted metric whose
    name is taken gets the prefix ``weighted_`` (Keras's naming). With several outputs a flat
    list applies to each output, and each metric's name gets its output's name first
    ('dense_1_accuracy').
    """

    def __init__(self, metrics=None, weighted_metrics=None, output_names=None):
        self._output_names = list(output_names or ["output_1"])
        self._user = metrics
        self._user_weighted = weighted_metrics
        self._metrics = None  # per output: a list of metrics
        self._weighted = None
        self._updated = False  # built, not yet updated (a parameter server's coordinator)

    @property
    def user_metrics(self):
        return [m for group in (self._user, self._user_weighted)
                for m in nest.flatten(group if group is not None else [])]

    @property
    def built(self):
        return self._metrics is not None

    @property
    def metrics(self):
        if not self._updated:
            return []
        return [m for group in (self._metrics or []) + (self._weighted or []) for m in group]

    def _make(self, m, y_true, y_pred):
        if isinstance(m, str) and m.lower() in _PICKED:
            return _picked_for(m, y_true, y_pred)
        obj = metrics_mod.get(m)   # TF's ValueError for what is neither a name nor callable
        if isinstance(obj, metrics_mod.Metric):
            return obj
        return metrics_mod.MeanMetricWrapper(obj, name=m if isinstance(m, str) else m.__name__)

    def _per_output(self, user):
        """The metric specs of each output: a flat list applies to every output."""
        n = len(self._output_names)
        if user is None:
            return [[] for _ in range(n)]
        if isinstance(user, dict):
            return [_as_list(user.get(k)) for k in self._output_names]
        user = list(user)
        if n > 1 and user and all(isinstance(u, (list, tuple)) or u is None for u in user):
            return [_as_list(u) for u in _per_output(user, self._output_names, "metrics")]
        return [list(user) for _ in range(n)]

    def build(self, y_true, y_pred):
        ys_true = _flat_like_outputs(y_true, self._output_names)
        ys_pred = _flat_like_outputs(y_pred, self._output_names)
        multi = len(self._output_names) > 1
        metrics, weighted, names = [], [], set()
        for groups, out in ((self._per_output(self._user), metrics),
                            (self._per_output(self._user_weighted), weighted)):
            for name, specs, y_t, y_p in zip(self._output_names, groups, ys_true, ys_pred):
                y_t, y_p, _ = match_dtype_and_rank(A._t(y_t if y_t is not None else y_p),
                                                   A._t(y_p), None)
                made = [self._make(m, y_t, y_p) for m in specs]
                for m in made:
                    if multi:
                        m._name = f"{name}_{m.name}"
                    if out is weighted and m.name in names:
                        m._name = ("weighted_" + m.name) if not multi else \
                            f"{name}_weighted_{m.name[len(name) + 1:]}"
                    if m.name in names:
                        raise ValueError(f"Found two metrics with the same name: {m.name}. "
                                         "All the metrics added to the model need to have "
                                         "unique names.")
                    names.add(m.name)
                out.append(made)
        self._weighted, self._metrics = weighted, metrics   # built: both set

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.built:   # at the first step (in its trace, in every replica's call:
            self.build(y_true, y_pred)   # their variables are shared), as Keras builds them
        self._updated = True
        ys_true = _flat_like_outputs(y_true, self._output_names)
        ys_pred = _flat_like_outputs(y_pred, self._output_names)
        sws = _flat_like_outputs(sample_weight, self._output_names) \
            if sample_weight is not None else [None] * len(ys_pred)
        for i, (y_t, y_p, sw) in enumerate(zip(ys_true, ys_pred, sws)):
            if y_t is None:
                continue
            y_t, y_p, sw = match_dtype_and_rank(A._t(y_t), A._t(y_p),
                                                None if sw is None else A._t(sw))
            mask = backend.get_keras_mask(y_p)   # a masked output's metrics count its steps
            sw = losses_utils.apply_mask(y_p, sw, mask)
            for m in self._metrics[i]:
                if mask is None:
                    m.update_state(y_t, y_p)
                else:
                    m.update_state(y_t, y_p, sample_weight=mask)
            for m in self._weighted[i]:
                m.update_state(y_t, y_p, sample_weight=sw)

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()


def _as_list(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]
