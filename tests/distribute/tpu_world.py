"""The simulated TPU the TPUStrategy tests run on: a fresh world with a v3-8 slice, its
resolver connected and initialized (TF's "Use TPUs" guide's setup)."""

import simdist as tf
from simdist.testing import reset_world


def tpu_strategy():
    """A TPUStrategy over the 8 cores of a fresh v3-8 world."""
    reset_world("tpu-v3-8")
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="local")
    tf.config.experimental_connect_to_cluster(resolver)
    tf.tpu.experimental.initialize_tpu_system(resolver)
    return tf.distribute.TPUStrategy(resolver)
