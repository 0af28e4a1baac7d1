"""``tf.keras.metrics``: metric classes and functions by name (one table, ``METRICS``).

A name in ``METRICS`` maps to a class (``get`` returns an instance) or to a per-example
function (``compile`` wraps it in a ``MeanMetricWrapper`` under the name it was given, as
Keras does: ``metrics=["mae"]`` logs ``mae``).
"""

from simdist.keras import losses as _losses
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
from simdist.keras.metrics.confusion_metrics import AUC, Precision, Recall
from simdist.keras.metrics.probabilistic import (
    BinaryCrossentropy,
    CategoricalCrossentropy,
    SparseCategoricalCrossentropy,
)
from simdist.keras.metrics.regression import MeanAbsoluteError, MeanSquaredError

mean_squared_error = mse = MSE = _losses.mean_squared_error
mean_absolute_error = mae = MAE = _losses.mean_absolute_error
binary_crossentropy = _losses.binary_crossentropy
categorical_crossentropy = _losses.categorical_crossentropy
sparse_categorical_crossentropy = _losses.sparse_categorical_crossentropy

_CLASSES = (Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy, Mean, Sum,
            MeanSquaredError, MeanAbsoluteError, BinaryCrossentropy, CategoricalCrossentropy,
            SparseCategoricalCrossentropy, Precision, Recall, AUC)
_FUNCTIONS = (accuracy, binary_accuracy, categorical_accuracy, sparse_categorical_accuracy,
              mean_squared_error, mean_absolute_error, binary_crossentropy,
              categorical_crossentropy, sparse_categorical_crossentropy)
METRICS = {
    **{cls.__name__: cls for cls in _CLASSES},
    **{fn.__name__: fn for fn in _FUNCTIONS},
    "mean": Mean, "sum": Sum,
    "mse": mse, "MSE": mse, "mae": mae, "MAE": mae,
}


def get(identifier):
    """A metric class instance or function for ``identifier``; an unknown name is returned
    as it is, as tf-keras's deserialize_keras_object returns a name it finds no object for
    (``compile`` then wraps it as a metric function, whose first update raises TypeError
    "'str' object is not callable")."""
    if isinstance(identifier, Metric) or callable(identifier):
        return identifier
    if isinstance(identifier, str):
        entry = METRICS.get(identifier, identifier)
        return entry() if isinstance(entry, type) else entry
    raise ValueError(f"Could not interpret metric identifier: {identifier}")


from simdist.keras.metrics import metric_listing  # noqa: E402, F401 - graph listing
