"""Recurrent layers' cells (``tf.keras.layers.LSTMCell``)."""
