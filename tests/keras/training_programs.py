"""The training programs of the Keras conformance suite, written once for both runtimes.

Each function takes the module it runs under (``tensorflow`` when record_tf_training.py
records the fixture, ``simdist`` when test_training_tf_conformance.py replays it) and
returns plain, JSON-able results, so both sides run exactly the same code.
"""

import numpy as np


def build_model(tf, features=10):
    """The tutorial model: Dense 16 relu, Dense 8 relu, Dense 1 sigmoid."""
    return tf.keras.Sequential([
        tf.keras.layers.Dense(16, activation="relu", input_shape=(features,)),
        tf.keras.layers.Dense(8, activation="relu"),
        tf.keras.layers.Dense(1, activation="sigmoid"),
    ])


def _weights(model):
    return [w.tolist() for w in model.get_weights()]


def custom_loop(tf, strategy, opt_name, x, y, weights, global_batch, epochs):
    """strategy.run + compute_average_loss + strategy.reduce over a distributed dataset."""
    with strategy.scope():
        model = build_model(tf)
        model.set_weights(weights)
        opt = (tf.keras.optimizers.SGD(learning_rate=0.1) if opt_name == "sgd"
               else tf.keras.optimizers.Adam(learning_rate=0.01))
        loss_object = tf.keras.losses.BinaryCrossentropy(
            reduction=tf.keras.losses.Reduction.NONE)
        acc = tf.keras.metrics.BinaryAccuracy()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(global_batch)
    dist = strategy.experimental_distribute_dataset(ds)

    def step_fn(inputs):
        xb, yb = inputs
        with tf.GradientTape() as tape:
            pred = model(xb, training=True)
            loss = tf.nn.compute_average_loss(loss_object(yb, pred),
                                              global_batch_size=global_batch)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        acc.update_state(yb, pred)
        return loss

    losses, accs = [], []
    for _ in range(epochs):
        acc.reset_state()
        for batch in dist:
            per_replica = strategy.run(step_fn, args=(batch,))
            losses.append(float(strategy.reduce("SUM", per_replica, axis=None)))
        accs.append(float(acc.result()))
    return {"losses": losses, "accuracy": accs, "weights": _weights(model),
            "iterations": int(opt.iterations.numpy())}


def fit_run(tf, strategy, x, y, weights, fit_batch, epochs):
    """model.fit + evaluate, with the loss of every step."""

    class StepLosses(tf.keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            self.losses = []

        def on_train_batch_end(self, batch, logs=None):
            self.losses.append(float(logs["loss"]))

    with strategy.scope():
        model = build_model(tf)
        model.set_weights(weights)
        model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
                      loss="binary_crossentropy", metrics=["accuracy"])
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(fit_batch)
    cb = StepLosses()
    hist = model.fit(ds, epochs=epochs, verbose=0, callbacks=[cb])
    ev = model.evaluate(ds, verbose=0, return_dict=True)
    return {"history": {k: [float(v) for v in vs] for k, vs in hist.history.items()},
            "step_losses": cb.losses, "evaluate": {k: float(v) for k, v in ev.items()},
            "weights": _weights(model)}


def loss_scale_run(tf, strategy, x, y, weights, global_batch, poison_steps, steps=8):
    """LossScaleOptimizer (growth every 2 good steps) with inf gradients on replica 1."""
    with strategy.scope():
        model = build_model(tf)
        model.set_weights(weights)
        opt = tf.keras.mixed_precision.LossScaleOptimizer(
            tf.keras.optimizers.SGD(learning_rate=0.1), dynamic_growth_steps=2)
        loss_object = tf.keras.losses.BinaryCrossentropy(
            reduction=tf.keras.losses.Reduction.NONE)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(global_batch).repeat()
    dist = iter(strategy.experimental_distribute_dataset(ds))

    def step_fn(inputs, factor):
        xb, yb = inputs
        with tf.GradientTape() as tape:
            pred = model(xb, training=True)
            loss = tf.nn.compute_average_loss(loss_object(yb, pred),
                                              global_batch_size=global_batch)
            scaled = opt.get_scaled_loss(loss)
        grads = opt.get_unscaled_gradients(tape.gradient(scaled, model.trainable_variables))
        grads = [grads[0] * factor] + list(grads[1:])
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    scales, iterations, counters = [], [], []
    for step in range(steps):
        bad = step in poison_steps

        def factor_fn(ctx, bad=bad):
            return tf.constant(np.inf if bad and ctx.replica_id_in_sync_group == 1 else 1.0)

        factor = strategy.experimental_distribute_values_from_function(factor_fn)
        strategy.run(step_fn, args=(next(dist), factor))
        scales.append(float(opt.loss_scale))
        iterations.append(int(opt.iterations.numpy()))
        counters.append(int(opt.dynamic_counter.numpy()))
    return {"poison_steps": list(poison_steps), "loss_scale": scales,
            "iterations": iterations, "good_steps": counters, "weights": _weights(model)}
