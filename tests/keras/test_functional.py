"""The functional API under every strategy simdist has: a two-input, two-output model with
a shared layer trains to the same weights under each as without one (TF's recorded run on
4 replicas is in functional_cases.py), and a model made under one strategy's scope keeps
its variables there."""

import numpy as np
import pytest

import simdist as tf

L = tf.keras.layers


def _strategies():
    return {
        "default": None,
        "OneDevice": lambda: tf.distribute.OneDeviceStrategy("/gpu:0"),
        "Mirrored": lambda: tf.distribute.MirroredStrategy(),
        "Mirrored on 3": lambda: tf.distribute.MirroredStrategy(
            ["/gpu:0", "/gpu:1", "/gpu:2"]),
        "CentralStorage": lambda: tf.distribute.experimental.CentralStorageStrategy(),
        "MultiWorkerMirrored": lambda: tf.distribute.MultiWorkerMirroredStrategy(),
    }


def _train(make_strategy):
    rng = np.random.RandomState(0)
    xa, xb = rng.normal(size=(24, 3)), rng.normal(size=(24, 3))
    y1, y2 = rng.normal(size=(24, 1)), np.arange(24) % 2
    strategy = make_strategy() if make_strategy else None
    scope = strategy.scope() if strategy else tf.distribute.get_strategy().scope()
    with scope:
        a, b = tf.keras.Input((3,), name="a"), tf.keras.Input((3,), name="b")
        shared = L.Dense(4, activation="tanh", kernel_initializer="ones", name="shared")
        sa, sb = shared(a), shared(b)
        o1 = L.Dense(1, kernel_initializer="ones", name="o1")(L.Add()([sa, sb]))
        o2 = L.Dense(2, kernel_initializer="ones", name="o2")(L.Concatenate()([sa, sb]))
        model = tf.keras.Model([a, b], [o1, o2])
        model.compile(tf.keras.optimizers.SGD(0.05),
                      ["mse", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)],
                      loss_weights=[1.0, 0.5])
    # 12 rows a step split evenly over 1, 3 or 4 replicas: an uneven split would weight the
    # replicas' means unequally (TF's SUM_OVER_BATCH_SIZE on each replica), not a bug.
    hist = model.fit([xa, xb], [y1, y2], batch_size=12, epochs=2, shuffle=False, verbose=0)
    return hist.history, model.get_weights(), model


@pytest.mark.parametrize("name", sorted(_strategies()))
def test_a_functional_model_trains_the_same_under_every_strategy(name):
    tf.keras.backend.clear_session()
    want_hist, want_weights, _ = _train(None)
    tf.keras.backend.clear_session()
    hist, weights, model = _train(_strategies()[name])
    assert sorted(hist) == ["loss", "o1_loss", "o2_loss"]
    for k in hist:
        np.testing.assert_allclose(hist[k], want_hist[k], rtol=1e-5)
    for w, v in zip(weights, want_weights):
        np.testing.assert_allclose(w, v, rtol=1e-5, atol=1e-6)
    assert want_hist["loss"][1] < want_hist["loss"][0]  # it did learn something
    if name in ("Mirrored", "Mirrored on 3"):
        assert type(model.weights[0]).__name__ == "MirroredVariable"


def test_a_shared_layer_is_built_once_and_its_weights_counted_once():
    a, b = tf.keras.Input((3,)), tf.keras.Input((3,))
    d = L.Dense(2)
    model = tf.keras.Model([a, b], L.Add()([d(a), d(b)]))
    assert len(model.weights) == 2 and model.count_params() == 8
    assert len(d._inbound_nodes) == 2
    x = np.ones((1, 3), np.float32)
    np.testing.assert_allclose(model([x, 2 * x]), 3 * d(x).numpy(), rtol=1e-6)


def test_a_symbolic_call_takes_no_device_time():
    from simdist.hardware.machine import find_device

    gpu = find_device("/gpu:0")
    with tf.device("/gpu:0"):
        conv = L.Conv2D(8, 3)
        conv.build((None, 64, 64, 3))  # initializing the weights does take time
        before = gpu.clock
        out = conv(tf.keras.Input((64, 64, 3)))
    assert gpu.clock == before and out.shape.as_list() == [None, 62, 62, 8]
