"""``tf.nn``: activations, cross-entropies and the distributed-loss helpers (names only)."""

from simdist.framework.ops.nn_ops import (  # noqa: F401
    compute_average_loss,
    log_softmax,
    relu,
    scale_regularization_loss,
    sigmoid,
    sigmoid_cross_entropy_with_logits,
    softmax,
    softmax_cross_entropy_with_logits,
    sparse_softmax_cross_entropy_with_logits,
    tanh,
)
