"""Record TF 2.15 (Keras 2) training numbers for test_training_tf_conformance.py.

Run with the TensorFlow interpreter (not simdist's venv):
    /tmp/tfenv/bin/python tests/keras/record_tf_training.py

The tutorial model (Dense 16 relu, Dense 8 relu, Dense 1 sigmoid) with FIXED initial weights
and data (both stored in the fixture) is trained under MirroredStrategy on 4 logical CPU
devices: a custom loop with SGD and with Adam (per-step loss, per-epoch accuracy, final
weights), the same loops on one device, ``fit`` with uneven per-replica batches (and on one
device), and a LossScaleOptimizer with non-finite gradients injected on some steps.
Writes tests/keras/fixtures/tf_training.json.
"""

import json
import os

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
N, F = 64, 10
GLOBAL_BATCH = 16
EPOCHS = 2
FIT_BATCH = 18  # 64 = 18+18+18+10: per-replica 5,5,5,3 and 3,3,3,1 (uneven)


def make_data():
    rng = np.random.RandomState(1234)
    x = rng.normal(size=(N, F)).astype(np.float32)
    w = rng.normal(size=(F, 1)).astype(np.float32)
    y = (x @ w > 0).astype(np.float32)
    shapes = [(F, 16), (16,), (16, 8), (8,), (8, 1), (1,)]
    weights = [(rng.uniform(-0.5, 0.5, size=s)).astype(np.float32) for s in shapes]
    return x, y, weights


def build_model():
    return tf.keras.Sequential([
        tf.keras.layers.Dense(16, activation="relu", input_shape=(F,)),
        tf.keras.layers.Dense(8, activation="relu"),
        tf.keras.layers.Dense(1, activation="sigmoid"),
    ])


def custom_loop(strategy, opt_name, x, y, weights):
    with strategy.scope():
        model = build_model()
        model.set_weights(weights)
        opt = (tf.keras.optimizers.SGD(learning_rate=0.1) if opt_name == "sgd"
               else tf.keras.optimizers.Adam(learning_rate=0.01))
        loss_object = tf.keras.losses.BinaryCrossentropy(
            reduction=tf.keras.losses.Reduction.NONE)
        acc = tf.keras.metrics.BinaryAccuracy()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
    dist = strategy.experimental_distribute_dataset(ds)

    def step_fn(inputs):
        xb, yb = inputs
        with tf.GradientTape() as tape:
            pred = model(xb, training=True)
            loss = tf.nn.compute_average_loss(loss_object(yb, pred),
                                              global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        acc.update_state(yb, pred)
        return loss

    losses, accs = [], []
    for _ in range(EPOCHS):
        acc.reset_state()
        for batch in dist:
            per_replica = strategy.run(step_fn, args=(batch,))
            losses.append(float(strategy.reduce("SUM", per_replica, axis=None)))
        accs.append(float(acc.result()))
    return {"losses": losses, "accuracy": accs,
            "weights": [w.tolist() for w in model.get_weights()],
            "iterations": int(opt.iterations.numpy())}


class StepLosses(tf.keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        self.losses = []

    def on_train_batch_end(self, batch, logs=None):
        self.losses.append(float(logs["loss"]))


def fit_run(strategy, x, y, weights):
    with strategy.scope():
        model = build_model()
        model.set_weights(weights)
        model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
                      loss="binary_crossentropy", metrics=["accuracy"])
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(FIT_BATCH)
    cb = StepLosses()
    hist = model.fit(ds, epochs=EPOCHS, verbose=0, callbacks=[cb])
    ev = model.evaluate(ds, verbose=0, return_dict=True)
    return {"history": {k: [float(v) for v in vs] for k, vs in hist.history.items()},
            "step_losses": cb.losses, "evaluate": {k: float(v) for k, v in ev.items()},
            "weights": [w.tolist() for w in model.get_weights()]}


def loss_scale_run(strategy, x, y, weights, poison_steps):
    with strategy.scope():
        model = build_model()
        model.set_weights(weights)
        opt = tf.keras.mixed_precision.LossScaleOptimizer(
            tf.keras.optimizers.SGD(learning_rate=0.1), dynamic_growth_steps=2)
        loss_object = tf.keras.losses.BinaryCrossentropy(
            reduction=tf.keras.losses.Reduction.NONE)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH).repeat()
    dist = iter(strategy.experimental_distribute_dataset(ds))

    def step_fn(inputs, factor):
        xb, yb = inputs
        with tf.GradientTape() as tape:
            pred = model(xb, training=True)
            loss = tf.nn.compute_average_loss(loss_object(yb, pred),
                                              global_batch_size=GLOBAL_BATCH)
            scaled = opt.get_scaled_loss(loss)
        grads = opt.get_unscaled_gradients(tape.gradient(scaled, model.trainable_variables))
        grads = [grads[0] * factor] + list(grads[1:])
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    scales, iterations, counters = [], [], []
    for step in range(8):
        bad = step in poison_steps

        def factor_fn(ctx, bad=bad):
            return tf.constant(np.inf if bad and ctx.replica_id_in_sync_group == 1 else 1.0)

        factor = strategy.experimental_distribute_values_from_function(factor_fn)
        strategy.run(step_fn, args=(next(dist), factor))
        scales.append(float(opt.loss_scale))
        iterations.append(int(opt.iterations.numpy()))
        counters.append(int(opt.dynamic_counter.numpy()))
    return {"poison_steps": list(poison_steps), "loss_scale": scales,
            "iterations": iterations, "good_steps": counters,
            "weights": [w.tolist() for w in model.get_weights()]}


def main():
    cpus = tf.config.list_physical_devices("CPU")
    tf.config.set_logical_device_configuration(
        cpus[0], [tf.config.LogicalDeviceConfiguration()] * 4)
    devices = [d.name for d in tf.config.list_logical_devices("CPU")]
    mirrored = tf.distribute.MirroredStrategy(devices)
    one = tf.distribute.OneDeviceStrategy(devices[0])
    x, y, weights = make_data()
    out = {
        "tf_version": tf.__version__, "devices": devices, "global_batch": GLOBAL_BATCH,
        "fit_batch": FIT_BATCH, "epochs": EPOCHS,
        "x": x.tolist(), "y": y.tolist(), "initial_weights": [w.tolist() for w in weights],
        "custom_sgd": custom_loop(mirrored, "sgd", x, y, weights),
        "custom_adam": custom_loop(mirrored, "adam", x, y, weights),
        "custom_sgd_one_device": custom_loop(one, "sgd", x, y, weights),
        "custom_adam_one_device": custom_loop(one, "adam", x, y, weights),
        "fit": fit_run(mirrored, x, y, weights),
        "fit_one_device": fit_run(one, x, y, weights),
        "loss_scale": loss_scale_run(mirrored, x, y, weights, poison_steps=(2, 5, 6)),
    }
    os.makedirs(os.path.join(HERE, "fixtures"), exist_ok=True)
    with open(os.path.join(HERE, "fixtures", "tf_training.json"), "w") as f:
        json.dump(out, f)
    print("custom_sgd", out["custom_sgd"]["losses"])
    print("fit", out["fit"]["history"], out["fit_one_device"]["history"])
    print("loss_scale", out["loss_scale"]["loss_scale"], out["loss_scale"]["iterations"])


if __name__ == "__main__":
    main()
