"""``tf.nn``: activations, cross-entropies, convolution, pooling and the distributed-loss
helpers (names only)."""

from simdist.distribute.nn_impl import (  # noqa: F401
    compute_average_loss,
    scale_regularization_loss,
)
from simdist.framework import dispatch as _dispatch  # noqa: E402
from simdist.framework.ops.conv_ops import conv2d  # noqa: F401
from simdist.framework.ops.dropout_ops import dropout  # noqa: F401
from simdist.framework.ops.math_ops import l2_normalize  # noqa: F401
from simdist.framework.ops.nn_ops import (  # noqa: F401
    bias_add,
    elu,
    gelu,
    leaky_relu,
    log_softmax,
    relu,
    relu6,
    selu,
    sigmoid,
    sigmoid_cross_entropy_with_logits,
    silu,
    softmax,
    softmax_cross_entropy_with_logits,
    softsign,
    sparse_softmax_cross_entropy_with_logits,
    swish,
    tanh,
)
from simdist.framework.ops.pooling_ops import (  # noqa: F401
    avg_pool,
    avg_pool2d,
    max_pool,
    max_pool2d,
)

_dispatch.export_ops(globals(), "nn")
