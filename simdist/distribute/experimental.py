"""``tf.distribute.experimental``: the experimental strategies and options."""

