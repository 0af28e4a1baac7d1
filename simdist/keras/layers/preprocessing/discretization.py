"""``Discretization``: numbers -> the index of the bin they fall in.

Glossary:
  bin_boundaries -- sorted edges; a value's bin is how many edges are ``<=`` it (TF's
                   Bucketize: ``upper_bound`` over float32 edges; integers compared as
                   float32, doubles against the float32 edges).
  num_bins      -- learn ``num_bins - 1`` edges by ``adapt`` instead: each batch (float32)
                   is summarized as every ``step``-th sorted value with weight ``step``
                   (``step = int(size / (1 / epsilon))``, at least 1), merged with the
                   summary so far (sorted stably, compressed to ``1 / epsilon`` points by
                   NumPy interpolation of the cumulative weights once it has that many);
                   the edges are the summary compressed to ``num_bins`` points, the last
                   dropped. simdist keeps the summary as an array (Keras: a non-trainable
                   weight 'summary' of shape (2, None)).
  output_mode   -- 'int' (int64 bins) or 'one_hot' / 'multi_hot' / 'count' vectors of
                   ``len(bin_boundaries) + 1`` (float32).

Mirrors tf_keras/src/layers/preprocessing/discretization.py (summarize, compress,
merge_summaries, get_bin_boundaries) and TF's Bucketize kernel (bucketize_op.cc).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, execute, func_graph
from simdist.hardware import array_api
from simdist.keras.engine.base_preprocessing_layer import PreprocessingLayer
from simdist.keras.layers.preprocessing.hashing import check_output_mode, encode, int_output_dtype

_F = np.float32


def summarize(values, epsilon):
    """One batch's summary: ``[boundaries, weights]`` (see the glossary)."""
    values = np.sort(values.reshape(-1).astype(_F))
    step = int(_F(values.size) / _F(1.0 / epsilon))
    boundaries = values[step::max(step, 1)]
    return np.stack([boundaries, np.full_like(boundaries, _F(max(step, 1)))])


def compress(summary, epsilon):
    """Keras's _compress_summary_numpy: ``1 / epsilon`` interpolated points."""
    if summary.shape[1] * epsilon < 1:
        return summary
    percents = epsilon + np.arange(0.0, 1.0, epsilon)
    cum_weights = summary[1].cumsum()
    cum_weight_percents = cum_weights / cum_weights[-1]
    new_bins = np.interp(percents, cum_weight_percents, summary[0])
    cum_weights = np.interp(percents, cum_weight_percents, cum_weights)
    new_weights = cum_weights - np.concatenate((np.array([0]), cum_weights[:-1]))
    return np.stack((new_bins, new_weights)).astype(_F)


def merge_summaries(prev_summary, next_summary, epsilon):
    """The two summaries side by side, sorted stably by value, compressed."""
    merged = np.concatenate((prev_summary, next_summary), axis=1)
    return compress(merged[:, np.argsort(merged[0], kind="stable")], epsilon)


def _bucketize_spec(graph, inputs, boundaries):
    return graph.symbolic_like(tuple(inputs.shape), dtypes.int32, inputs._device, "Bucketize")


@func_graph.recorded(kind="spec", spec=_bucketize_spec, name="Bucketize")
def bucketize(inputs, boundaries):
    """TF's Bucketize: how many of the float32 ``boundaries`` are ``<=`` each value."""
    x = array_api.to_host(inputs._value)
    edges = np.asarray(boundaries, _F)
    if x.dtype != np.float64:
        x = x.astype(_F)
    out = np.searchsorted(edges.astype(x.dtype), x, side="right").astype(np.int32)
    return execute.execute("Bucketize", [inputs], out)


class Discretization(PreprocessingLayer):
    """Buckets numbers by boundaries (``tf.keras.layers.Discretization``)."""

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int",
                 sparse=False, **kwargs):
        if "bins" in kwargs:
            bins = kwargs.pop("bins")
            if isinstance(bins, int) and num_bins is None:
                num_bins = bins
            elif bin_boundaries is None:
                bin_boundaries = bins
        int_output_dtype(kwargs, output_mode)
        super().__init__(**kwargs)
        check_output_mode(self, output_mode, sparse)
        if num_bins is not None and num_bins < 0:
            raise ValueError("`num_bins` must be greater than or equal to 0. You passed "
                             f"`num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError("Both `num_bins` and `bin_boundaries` should not be set. You "
                             f"passed `num_bins={num_bins}` and "
                             f"`bin_boundaries={bin_boundaries}`")
        if hasattr(bin_boundaries, "numpy"):
            bin_boundaries = bin_boundaries.numpy()
        if isinstance(bin_boundaries, np.ndarray):
            bin_boundaries = bin_boundaries.tolist()
        self.input_bin_boundaries = bin_boundaries
        self.bin_boundaries = bin_boundaries if bin_boundaries is not None else []
        self.num_bins, self.epsilon = num_bins, epsilon
        self.output_mode, self.sparse = output_mode, sparse
        self._summary = np.zeros((2, 0), _F)

    def update_state(self, data):
        if self.input_bin_boundaries is not None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized "
                             "with `bin_boundaries`, use `num_bins` instead. You passed "
                             f"`bin_boundaries={self.input_bin_boundaries}`.")
        values = array_api.to_host(execute.convert_to_tensor(data)._value)
        self._summary = merge_summaries(summarize(values, self.epsilon), self._summary,
                                        self.epsilon)

    def finalize_state(self):
        if self.input_bin_boundaries is not None or not self.built:
            return
        self.bin_boundaries = compress(self._summary, 1.0 / self.num_bins)[0, :-1].tolist()

    def reset_state(self):
        if self.input_bin_boundaries is None:
            self._summary = np.zeros((2, 0), _F)

    def call(self, inputs):
        inputs = execute.convert_to_tensor(inputs)
        indices = bucketize(inputs, tuple(self.bin_boundaries))
        return encode(indices, self.output_mode, len(self.bin_boundaries) + 1,
                      self.compute_dtype)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update(bin_boundaries=self.input_bin_boundaries, num_bins=self.num_bins,
                      epsilon=self.epsilon, output_mode=self.output_mode, sparse=self.sparse)
        return config


