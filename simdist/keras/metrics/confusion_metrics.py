"""Metrics from confusion-matrix counts per threshold: ``Precision``, ``Recall``, ``AUC``.

Glossary:
  thresholds     -- a prediction counts as positive at threshold ``t`` when ``pred > t``
                    (Precision/Recall: 0.5 by default, or every entry above the ``top_k``
                    predictions' cut); AUC uses ``num_thresholds`` evenly spaced ones, the
                    ends pushed just outside [0, 1] by epsilon.
  counts         -- ``true_positives`` ... one sum per threshold (per label with
                    ``multi_label``), of the sample weights; sync-on-read SUM variables, so
                    a strategy's replicas count apart and are summed when read.
  top_k / class_id -- only the ``k`` largest predictions of a row count as predicted
                    positive; ``class_id`` keeps one column of labels and predictions.
  AUC result     -- a Riemann sum over the thresholds of the ROC (recall against false
                    positive rate) or PR curve: interpolation (mean of neighbours; the PR
                    curve uses Davis & Goadrich's interpolation), minoring or majoring.

Names default as Keras's do ('precision', then 'precision_1' ... in one session).
Mirrors keras/src/metrics/confusion_metrics.py and utils/metrics_utils.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import execute
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras import backend
from simdist.keras.metrics.base_metric import Metric
from simdist.keras.utils import losses_utils, tf_utils

NEG_INF = -1e10
_CURVES = {"roc": "ROC", "pr": "PR", "pr_gain": "PR_GAIN", "prgain": "PR_GAIN"}
_SUMMATIONS = ("interpolation", "minoring", "majoring")


def _to_list(x) -> list:
    return list(x) if isinstance(x, (list, tuple, np.ndarray)) else [x]


def _parse_thresholds(thresholds, default):
    if thresholds is not None:
        invalid = [t for t in _to_list(thresholds) if t is None or t < 0 or t > 1]
        if invalid:
            raise ValueError(f"Threshold values must be in [0, 1]. Received: {invalid}")
    return _to_list(default if thresholds is None else thresholds)


def _filter_top_k(y_pred, k):
    """Keep the ``k`` largest entries of each row; the others become NEG_INF."""
    value = np.asarray(y_pred.numpy())
    order = np.argsort(-value, axis=-1, kind="stable")[..., :k]
    mask = np.zeros(value.shape, dtype=bool)
    np.put_along_axis(mask, order, True, axis=-1)
    return A.where(A.constant(mask), y_pred, A.constant(NEG_INF, dtype=y_pred.dtype))


def update_confusion_matrix(counts: dict, y_true, y_pred, thresholds, top_k=None,
                            class_id=None, sample_weight=None, multi_label=False):
    """Add this batch's weighted counts to ``counts`` ({'tp': var, 'fp': var, ...})."""
    dtype = next(iter(counts.values())).dtype
    y_true = A.cast(execute.convert_to_tensor(y_true), dtype)
    y_pred = A.cast(execute.convert_to_tensor(y_pred), dtype)
    if sample_weight is not None:
        sample_weight = A.cast(execute.convert_to_tensor(sample_weight), dtype)
        y_pred, y_true, sample_weight = losses_utils.squeeze_or_expand_dimensions(
            y_pred, y_true, sample_weight)
    else:
        y_pred, y_true = losses_utils.squeeze_or_expand_dimensions(y_pred, y_true)
    if tuple(y_pred.shape) != tuple(y_true.shape):
        raise ValueError(f"Shapes {tuple(y_pred.shape)} and {tuple(y_true.shape)} are "
                         "incompatible")
    if top_k is not None:
        y_pred = _filter_top_k(y_pred, top_k)
    if class_id is not None:
        y_true, y_pred = y_true[..., class_id], y_pred[..., class_id]
    if multi_label:  # thresholds x examples x labels
        thresh = A.reshape(A.constant(thresholds, dtype=dtype), [-1, 1, 1])
        preds, labels = A.expand_dims(y_pred, 0), A.expand_dims(y_true, 0)
    else:  # thresholds x every prediction
        thresh = A.reshape(A.constant(thresholds, dtype=dtype), [-1, 1])
        preds, labels = A.reshape(y_pred, [1, -1]), A.reshape(y_true, [1, -1])
    pred_pos = M.greater(preds, thresh)
    label_pos = M.not_equal(labels, A.constant(0, dtype=dtype))
    weights = None
    if sample_weight is not None:
        weights = A.broadcast_to(sample_weight, list(y_pred.shape))
        weights = A.expand_dims(weights, 0) if multi_label else A.reshape(weights, [1, -1])
    cases = {"tp": (label_pos, pred_pos), "fp": (M.logical_not(label_pos), pred_pos),
             "fn": (label_pos, M.logical_not(pred_pos)),
             "tn": (M.logical_not(label_pos), M.logical_not(pred_pos))}
    for key, var in counts.items():
        label, pred = cases[key]
        hits = A.cast(M.logical_and(label, pred), dtype)
        if weights is not None:
            hits = M.multiply(hits, weights)
        var.assign_add(M.reduce_sum(hits, axis=1))


class _PrecisionRecall(Metric):
    """Precision and Recall: true positives and one kind of error per threshold."""

    _error = "fp"

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name or backend.unique_name(
            tf_utils.snake_case(type(self).__name__)), dtype=dtype)
        self.init_thresholds = thresholds
        self.top_k, self.class_id = top_k, class_id
        self.thresholds = _parse_thresholds(thresholds, 0.5 if top_k is None else NEG_INF)
        n = len(self.thresholds)
        self.true_positives = self.add_weight("true_positives", shape=(n,))
        names = {"fp": "false_positives", "fn": "false_negatives"}
        setattr(self, names[self._error], self.add_weight(names[self._error], shape=(n,)))
        self._counts = {"tp": self.true_positives, self._error: getattr(self, names[self._error])}

    def update_state(self, y_true, y_pred, sample_weight=None):
        update_confusion_matrix(self._counts, y_true, y_pred, self.thresholds, self.top_k,
                                self.class_id, sample_weight)

    def _result(self):
        tp = self._read(self._counts["tp"])
        result = M.divide_no_nan(tp, M.add(tp, self._read(self._counts[self._error])))
        return result[0] if len(self.thresholds) == 1 else result

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds,
                "top_k": self.top_k, "class_id": self.class_id}


class Precision(_PrecisionRecall):
    """The fraction of predicted positives that are positive (``tf.keras.metrics.Precision``)."""

    _error = "fp"


class Recall(_PrecisionRecall):
    """The fraction of positives predicted positive (``tf.keras.metrics.Recall``)."""

    _error = "fn"


class AUC(Metric):
    """The area under the ROC or PR curve, from counts at many thresholds."""

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation",
                 name=None, dtype=None, thresholds=None, multi_label=False, num_labels=None,
                 label_weights=None, from_logits=False):
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            self.num_thresholds = len(thresholds) + 2
            inner = sorted(thresholds)
        else:
            if num_thresholds <= 1:
                raise ValueError("Argument `num_thresholds` must be an integer > 1. "
                                 f"Received: num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        eps = backend.epsilon()
        self._thresholds = np.array([0.0 - eps] + inner + [1.0 + eps])
        if str(curve).lower() not in _CURVES:
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are '
                             '["PR", "ROC", "PR_GAIN"]')
        self.curve = _CURVES[str(curve).lower()]
        if str(summation_method).lower() not in _SUMMATIONS:
            raise ValueError(f'Invalid AUC summation method value: "{summation_method}". '
                             'Expected values are ["interpolation", "majoring", "minoring"]')
        self.summation_method = str(summation_method).lower()
        super().__init__(name=name or backend.unique_name("auc"), dtype=dtype)
        self.multi_label, self.num_labels = multi_label, num_labels
        self.label_weights = None if label_weights is None else \
            A.constant(label_weights, dtype=self._dtype)
        self._from_logits = from_logits
        self._built = False
        if multi_label and num_labels:
            self._build(num_labels)
        elif not multi_label:
            if num_labels:
                raise ValueError("`num_labels` is needed only when `multi_label` is True.")
            self._build(None)

    @property
    def thresholds(self) -> list:
        return list(self._thresholds)

    def _build(self, num_labels):
        shape = (self.num_thresholds,) if num_labels is None else \
            (self.num_thresholds, num_labels)
        self.true_positives = self.add_weight("true_positives", shape=shape)
        self.true_negatives = self.add_weight("true_negatives", shape=shape)
        self.false_positives = self.add_weight("false_positives", shape=shape)
        self.false_negatives = self.add_weight("false_negatives", shape=shape)
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = execute.convert_to_tensor(y_pred)
        if not self._built:
            if y_pred.ndim != 2:
                raise ValueError("`y_pred` must have rank 2 when `multi_label=True`. Found "
                                 f"rank {y_pred.ndim}. Full shape received for `y_pred`: "
                                 f"{y_pred.shape}")
            self._build(y_pred.shape[1])
        if self._from_logits:
            y_pred = M.sigmoid(y_pred)
        if self.label_weights is not None and not self.multi_label:
            weights = A.broadcast_to(self.label_weights, list(y_pred.shape))
            sample_weight = weights if sample_weight is None else M.multiply(
                A.cast(execute.convert_to_tensor(sample_weight), self._dtype), weights)
        counts = {"tp": self.true_positives, "tn": self.true_negatives,
                  "fp": self.false_positives, "fn": self.false_negatives}
        update_confusion_matrix(counts, y_true, y_pred, self._thresholds,
                                sample_weight=sample_weight, multi_label=self.multi_label)

    def _by_label(self, per_threshold):
        """Sum over thresholds; with several labels, their (weighted) mean."""
        if not self.multi_label:
            return M.reduce_sum(per_threshold)
        by_label = M.reduce_sum(per_threshold, axis=0)
        if self.label_weights is None:
            return M.reduce_mean(by_label)
        return M.divide_no_nan(M.reduce_sum(M.multiply(by_label, self.label_weights)),
                               M.reduce_sum(self.label_weights))

    def _interpolate_pr_auc(self, tp, fp, fn):
        n = self.num_thresholds
        dtp = M.subtract(tp[:n - 1], tp[1:])
        p = M.add(tp, fp)
        dp = M.subtract(p[:n - 1], p[1:])
        zero = A.zeros_like(dp)
        prec_slope = M.divide_no_nan(dtp, M.maximum(dp, zero))
        intercept = M.subtract(tp[1:], M.multiply(prec_slope, p[1:]))
        both = M.logical_and(M.greater(p[:n - 1], zero), M.greater(p[1:], zero))
        ratio = A.where(both, M.divide_no_nan(p[:n - 1], M.maximum(p[1:], zero)),
                        A.ones_like(p[1:]))
        increment = M.divide_no_nan(
            M.multiply(prec_slope, M.add(dtp, M.multiply(intercept, M.log(ratio)))),
            M.maximum(M.add(tp[1:], fn[1:]), zero))
        return self._by_label(increment)

    def _result(self):
        tp, tn, fp, fn = (self._read(v) for v in (self.true_positives, self.true_negatives,
                                                  self.false_positives, self.false_negatives))
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolate_pr_auc(tp, fp, fn)
        recall = M.divide_no_nan(tp, M.add(tp, fn))
        if self.curve == "ROC":
            x, y = M.divide_no_nan(fp, M.add(fp, tn)), recall
        elif self.curve == "PR":
            x, y = recall, M.divide_no_nan(tp, M.add(tp, fp))
        else:
            x, y = self._pr_gain(tp, tn, fp, fn)
        n = self.num_thresholds
        if self.summation_method == "interpolation":
            heights = M.divide(M.add(y[:n - 1], y[1:]), 2.0)
        elif self.summation_method == "minoring":
            heights = M.minimum(y[:n - 1], y[1:])
        else:
            heights = M.maximum(y[:n - 1], y[1:])
        return self._by_label(M.multiply(M.subtract(x[:n - 1], x[1:]), heights))

    @staticmethod
    def _pr_gain(tp, tn, fp, fn):
        scaling = M.divide_no_nan(M.add(tp, fn), M.add(fp, tn))
        no_tp = M.equal(tp, 0.0)
        recall_gain = M.subtract(1.0, M.multiply(scaling, M.divide_no_nan(fn, tp)))
        precision_gain = M.subtract(1.0, M.multiply(scaling, M.divide_no_nan(fp, tp)))
        recall_gain = A.where(no_tp, A.zeros_like(recall_gain), recall_gain)
        precision_gain = A.where(no_tp, A.ones_like(precision_gain), precision_gain)
        return M.maximum(recall_gain, A.zeros_like(recall_gain)), precision_gain

    def reset_state(self):
        if self._built:
            super().reset_state()

    def get_config(self):
        label_weights = None if self.label_weights is None else \
            self.label_weights.numpy().tolist()
        config = {**super().get_config(), "num_thresholds": self.num_thresholds,
                  "curve": self.curve, "summation_method": self.summation_method,
                  "multi_label": self.multi_label, "num_labels": self.num_labels,
                  "label_weights": label_weights, "from_logits": self._from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = self.thresholds[1:-1]
        return config
