"""simdist's Keras training against numbers recorded from TensorFlow 2.15 (Keras 2).

The fixture (tests/keras/fixtures/tf_training.json, written by record_tf_training.py) holds
the data, the fixed initial weights and TF's per-step losses, accuracies, final weights and
loss-scale sequence on 4 replicas (and on one device).
"""

import json
import os

import numpy as np
import pytest

import simdist as tf
from simdist.keras.engine.data_adapter import split_batch

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "tf_training.json")
REC = json.load(open(FIXTURE))
X = np.asarray(REC["x"], np.float32)
Y = np.asarray(REC["y"], np.float32)
W0 = [np.asarray(w, np.float32) for w in REC["initial_weights"]]
RTOL, ATOL = 2e-5, 2e-6


def build_model():
    return tf.keras.Sequential([
        tf.keras.layers.Dense(16, activation="relu", input_shape=(10,)),
        tf.keras.layers.Dense(8, activation="relu"),
        tf.keras.layers.Dense(1, activation="sigmoid"),
    ])


def distribute(strategy, batch):
    if strategy.num_replicas_in_sync == 1:
        return batch
    return split_batch(strategy, batch)


def batches(size, repeat=False):
    while True:
        for i in range(0, len(X), size):
            yield tf.constant(X[i:i + size]), tf.constant(Y[i:i + size])
        if not repeat:
            return


def strategies():
    return {"mirrored": tf.distribute.MirroredStrategy(),
            "one_device": tf.distribute.OneDeviceStrategy("/gpu:0")}


def custom_loop(strategy, opt_name):
    gb = REC["global_batch"]
    with strategy.scope():
        model = build_model()
        model.set_weights(W0)
        opt = (tf.keras.optimizers.SGD(learning_rate=0.1) if opt_name == "sgd"
               else tf.keras.optimizers.Adam(learning_rate=0.01))
        loss_object = tf.keras.losses.BinaryCrossentropy(
            reduction=tf.keras.losses.Reduction.NONE)
        acc = tf.keras.metrics.BinaryAccuracy()

    def step_fn(inputs):
        xb, yb = inputs
        with tf.GradientTape() as tape:
            pred = model(xb, training=True)
            loss = tf.nn.compute_average_loss(loss_object(yb, pred), global_batch_size=gb)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        acc.update_state(yb, pred)
        return loss

    losses, accs = [], []
    for _ in range(REC["epochs"]):
        acc.reset_state()
        for batch in batches(gb):
            per_replica = strategy.run(step_fn, args=(distribute(strategy, batch),))
            losses.append(float(strategy.reduce("SUM", per_replica, axis=None)))
        accs.append(float(acc.result()))
    return losses, accs, model.get_weights(), int(opt.iterations.numpy())


@pytest.mark.parametrize("opt_name", ["sgd", "adam"])
@pytest.mark.parametrize("where", ["mirrored", "one_device"])
def test_custom_loop_matches_tf(opt_name, where):
    strategy = strategies()[where]
    key = f"custom_{opt_name}" + ("" if where == "mirrored" else "_one_device")
    losses, accs, weights, iterations = custom_loop(strategy, opt_name)
    ref = REC[key]
    np.testing.assert_allclose(losses, ref["losses"], rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(accs, ref["accuracy"], rtol=RTOL)
    for w, r in zip(weights, ref["weights"]):
        np.testing.assert_allclose(w, np.asarray(r, np.float32), rtol=1e-4, atol=2e-6)
    assert iterations == ref["iterations"]


def test_correct_custom_loop_on_4_replicas_equals_one_device():
    for opt_name in ("sgd", "adam"):
        many = np.asarray(REC[f"custom_{opt_name}"]["losses"])
        one = np.asarray(REC[f"custom_{opt_name}_one_device"]["losses"])
        np.testing.assert_allclose(many, one, rtol=1e-5)  # TF's own numbers agree
    l4, _, w4, _ = custom_loop(tf.distribute.MirroredStrategy(), "sgd")
    l1, _, w1, _ = custom_loop(tf.distribute.OneDeviceStrategy("/gpu:0"), "sgd")
    np.testing.assert_allclose(l4, l1, rtol=1e-5, atol=1e-6)
    for a, b in zip(w4, w1):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


class StepLosses(tf.keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        self.losses = []

    def on_train_batch_end(self, batch, logs=None):
        self.losses.append(float(logs["loss"]))


@pytest.mark.parametrize("where", ["mirrored", "one_device"])
def test_fit_matches_tf_including_uneven_batches(where):
    strategy = strategies()[where]
    with strategy.scope():
        model = build_model()
        model.set_weights(W0)
        model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
                      loss="binary_crossentropy", metrics=["accuracy"])
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(REC["fit_batch"])
    cb = StepLosses()
    hist = model.fit(ds, epochs=REC["epochs"], verbose=0, callbacks=[cb])
    ev = model.evaluate(ds, verbose=0, return_dict=True)
    ref = REC["fit" if where == "mirrored" else "fit_one_device"]
    for k in ("loss", "accuracy"):
        np.testing.assert_allclose(hist.history[k], ref["history"][k], rtol=RTOL)
        np.testing.assert_allclose(ev[k], ref["evaluate"][k], rtol=RTOL)
    np.testing.assert_allclose(cb.losses, ref["step_losses"], rtol=RTOL)
    for w, r in zip(model.get_weights(), ref["weights"]):
        np.testing.assert_allclose(w, np.asarray(r, np.float32), rtol=1e-4, atol=2e-6)


def test_fit_with_uneven_batches_differs_from_one_device_as_in_tf():
    assert REC["fit"]["history"]["loss"] != REC["fit_one_device"]["history"]["loss"]


def test_loss_scale_sequence_matches_tf():
    ref = REC["loss_scale"]
    strategy = tf.distribute.MirroredStrategy()
    gb = REC["global_batch"]
    with strategy.scope():
        model = build_model()
        model.set_weights(W0)
        opt = tf.keras.mixed_precision.LossScaleOptimizer(
            tf.keras.optimizers.SGD(learning_rate=0.1), dynamic_growth_steps=2)
        loss_object = tf.keras.losses.BinaryCrossentropy(
            reduction=tf.keras.losses.Reduction.NONE)

    def step_fn(inputs, factor):
        xb, yb = inputs
        with tf.GradientTape() as tape:
            pred = model(xb, training=True)
            loss = tf.nn.compute_average_loss(loss_object(yb, pred), global_batch_size=gb)
            scaled = opt.get_scaled_loss(loss)
        grads = opt.get_unscaled_gradients(tape.gradient(scaled, model.trainable_variables))
        grads = [grads[0] * factor] + list(grads[1:])
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    data = batches(gb, repeat=True)
    scales, iterations, counters = [], [], []
    for step in range(8):
        bad = step in ref["poison_steps"]

        def factor_fn(ctx, bad=bad):
            return tf.constant(np.inf if bad and int(ctx.replica_id_in_sync_group) == 1
                               else 1.0)

        factor = strategy.experimental_distribute_values_from_function(factor_fn)
        strategy.run(step_fn, args=(distribute(strategy, next(data)), factor))
        scales.append(float(opt.loss_scale))
        iterations.append(int(opt.iterations.numpy()))
        counters.append(int(opt.dynamic_counter.numpy()))
    assert scales == ref["loss_scale"]
    assert iterations == ref["iterations"]
    assert counters == ref["good_steps"]
    for w, r in zip(model.get_weights(), ref["weights"]):
        np.testing.assert_allclose(w, np.asarray(r, np.float32), rtol=1e-4, atol=2e-6)
