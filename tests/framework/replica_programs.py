"""Programs that train one model on several replicas, shared by the tests of the fast paths
that replay them (section_plan, stacked_sections).
"""

import numpy as np

import simdist as tf


def seed_like(rows=32, batch=8, width=6, activation="relu", loss="bce", steps=2, last=None,
              metric="accuracy"):
    """A seed-001-like custom loop over 4 replicas (Dense, a loss with Reduction.NONE +
    compute_average_loss, Adam, a metric: ``metric``); ``rows`` not a multiple of ``batch``
    makes a smaller last batch (another trace)."""
    def program():
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([
                tf.keras.layers.Dense(width, activation=activation, input_shape=(3,)),
                tf.keras.layers.Dense(1, activation=last or "sigmoid")])
            opt = tf.keras.optimizers.Adam(0.01)
            reduction = tf.keras.losses.Reduction.NONE
            loss_object = tf.keras.losses.BinaryCrossentropy(reduction=reduction) \
                if loss == "bce" else tf.keras.losses.MeanSquaredError(reduction=reduction)
            accuracy = {"accuracy": tf.keras.metrics.BinaryAccuracy,
                        "auc": tf.keras.metrics.AUC,
                        "mse": tf.keras.metrics.MeanSquaredError}[metric]()
        x = np.linspace(-1.0, 1.0, rows * 3, dtype=np.float32).reshape(rows, 3)
        y = (np.sin(7 * x).sum(axis=1, keepdims=True) > 0).astype(np.float32)
        data = strategy.experimental_distribute_dataset(
            tf.data.Dataset.from_tensor_slices((x, y)).batch(batch))

        def fn(features, labels):
            with tf.GradientTape() as tape:
                predictions = model(features, training=True)
                loss_value = tf.nn.compute_average_loss(loss_object(labels, predictions),
                                                        global_batch_size=batch)
            grads = tape.gradient(loss_value, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            accuracy.update_state(labels, predictions)
            return loss_value

        @tf.function
        def step(batch_value):
            return strategy.reduce("SUM", strategy.run(fn, args=batch_value), axis=None)

        out = [step(b) for _ in range(steps) for b in data]
        return out + [w.numpy() for w in model.weights] + [accuracy.result()], step
    return program


def fitted(loss="bce", rows=32, batch=8, epochs=2):
    """Keras's ``fit`` over 4 replicas: a Dense classifier compiled with ``loss`` ("bce": a
    sigmoid output, binary cross-entropy; "sparse": a softmax layer, sparse categorical
    cross-entropy) and accuracy, as the seed listings fit; the History's values, the
    weights and ``model.train_function``."""
    def program():
        strategy = tf.distribute.MirroredStrategy()
        sparse = loss == "sparse"
        with strategy.scope():
            model = tf.keras.Sequential([
                tf.keras.layers.Dense(6, activation="relu", input_shape=(3,)),
                tf.keras.layers.Dense(3 if sparse else 1,
                                      activation=None if sparse else "sigmoid")]
                + ([tf.keras.layers.Activation("softmax")] if sparse else []))
            model.compile(optimizer=tf.keras.optimizers.Adam(0.01), metrics=["accuracy"],
                          loss="sparse_categorical_crossentropy" if sparse else
                          tf.keras.losses.BinaryCrossentropy())
        x = np.linspace(-1.0, 1.0, rows * 3, dtype=np.float32).reshape(rows, 3)
        y = np.argmax(np.sin(7 * x), axis=1) if sparse else \
            (np.sin(7 * x).sum(axis=1, keepdims=True) > 0).astype(np.float32)
        history = model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(batch),
                            epochs=epochs, verbose=0)
        out = [np.float32(v) for values in history.history.values() for v in values]
        return out + [w.numpy() for w in model.weights], model.train_function
    return program
