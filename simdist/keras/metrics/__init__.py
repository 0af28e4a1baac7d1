"""``tf.keras.metrics``: metric classes and functions by name (one table, ``METRICS``)."""

from simdist.keras.metrics.accuracy import (
    Accuracy,
    BinaryAccuracy,
    CategoricalAccuracy,
    SparseCategoricalAccuracy,
    accuracy,
    binary_accuracy,
    categorical_accuracy,
    sparse_categorical_accuracy,
)
from simdist.keras.metrics.base_metric import Mean, MeanMetricWrapper, Metric, Reduce, Sum

METRICS = {
    "accuracy": Accuracy, "binary_accuracy": BinaryAccuracy,
    "categorical_accuracy": CategoricalAccuracy,
    "sparse_categorical_accuracy": SparseCategoricalAccuracy, "mean": Mean, "sum": Sum,
}


def get(identifier):
    """A metric class instance or function for ``identifier``."""
    if isinstance(identifier, Metric) or callable(identifier):
        return identifier
    if isinstance(identifier, str):
        try:
            return METRICS[identifier]()
        except KeyError:
            raise ValueError(f"Unknown metric function: '{identifier}'. Please ensure you "
                             "are using a `keras.utils.custom_object_scope` and that this "
                             "object is included in the scope.") from None
    raise ValueError(f"Could not interpret metric identifier: {identifier}")
