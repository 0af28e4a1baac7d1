"""``tf.keras.models`` (names only)."""

