"""tf.function binds each call's arguments to its Python function's signature, which it
keeps between calls: a kept signature still follows a change of the defaults."""

import simdist as tf


def test_a_kept_signature_follows_new_defaults():
    def scale(x, factor=2.0):
        return x * factor

    f = tf.function(scale)
    assert float(f(tf.constant(3.0))) == 6.0
    assert float(f(tf.constant(3.0), factor=2.0)) == 6.0
    assert f.experimental_get_tracing_count() == 1   # the same call, bound by parameter
    scale.__defaults__ = (5.0,)
    assert float(f(tf.constant(3.0))) == 15.0
    assert f._signature() == __import__("inspect").signature(scale)
