"""``tf.nn``: activations, cross-entropies, convolution, pooling and the distributed-loss
helpers (names only; the latter, which read the strategy, load tf.distribute on first use)."""

from simdist.framework import dispatch as _dispatch  # noqa: E402
from simdist.framework.ops.conv_ops import conv2d, conv2d_transpose  # noqa: F401
from simdist.framework.ops.dropout_ops import dropout  # noqa: F401
from simdist.framework.ops.embedding_ops import (  # noqa: F401
    embedding_lookup,
    embedding_lookup_sparse,
)
from simdist.framework.ops.math_ops import l2_normalize  # noqa: F401
from simdist.framework.ops.nn_impl import moments  # noqa: F401
from simdist.framework.ops.nn_ops import (  # noqa: F401
    bias_add,
    elu,
    gelu,
    l2_loss,
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
    softplus,
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
from simdist.framework.ops.sort_ops import top_k  # noqa: F401

_dispatch.export_ops(globals(), "nn")

# The distributed-loss helpers live in simdist/distribute/nn_impl.py (they read the current
# strategy); loaded on first use, so ``import simdist`` does not load tf.distribute.
_DISTRIBUTED = ("compute_average_loss", "scale_regularization_loss")


def __getattr__(name):
    if name not in _DISTRIBUTED:
        raise AttributeError(f"module 'simdist.nn' has no attribute {name!r}")
    from simdist.distribute import nn_impl

    loaded = {name: getattr(nn_impl, name)}
    _dispatch.export_ops(loaded, "nn", __name__)  # as the names above: KerasTensors make op layers
    globals()[name] = loaded[name]
    return loaded[name]


def __dir__():
    return sorted(set(globals()) | set(_DISTRIBUTED))
