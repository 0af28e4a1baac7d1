"""Optimizer update formulas, names, distributed aggregation; metrics; mixed precision."""

import numpy as np
import pytest

import simdist as tf


def one_step(opt, g=0.5, w=1.0, steps=1):
    v = tf.Variable([w])
    for _ in range(steps):
        opt.apply_gradients([(tf.constant([g]), v)])
    return float(v.numpy()[0])


def test_sgd_momentum_nesterov_formulas():
    assert one_step(tf.keras.optimizers.SGD(0.1)) == pytest.approx(0.95)
    # m1 = -0.05, w = 0.95; m2 = -0.05 + 0.9 * -0.05 = -0.095, w = 0.855
    assert one_step(tf.keras.optimizers.SGD(0.1, momentum=0.9), steps=2) == \
        pytest.approx(0.855, rel=1e-6)
    # nesterov: w1 = 1 - 0.05 - 0.045
    assert one_step(tf.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True)) == \
        pytest.approx(0.905, rel=1e-6)


def test_adam_and_rmsprop_formulas():
    lr, b1, b2, eps, g = 0.001, 0.9, 0.999, 1e-7, 0.5
    m, v = (1 - b1) * g, (1 - b2) * g * g
    alpha = lr * np.sqrt(1 - b2) / (1 - b1)
    assert one_step(tf.keras.optimizers.Adam()) == pytest.approx(1 - m * alpha /
                                                                 (np.sqrt(v) + eps), rel=1e-6)
    vel = 0.1 * g * g
    assert one_step(tf.keras.optimizers.RMSprop()) == pytest.approx(
        1 - lr * g / np.sqrt(vel + eps), rel=1e-6)
    assert isinstance(tf.keras.optimizers.get("adam"), tf.keras.optimizers.Adam)
    assert isinstance(tf.keras.optimizers.get("RMSprop"), tf.keras.optimizers.RMSprop)
    opt = tf.keras.optimizers.SGD()
    one_step(opt, steps=3)
    assert int(opt.iterations.numpy()) == 3


def test_lr_argument_is_ignored_with_tfs_warning(caplog):
    # TF 2.15 logs this (absl's WARNING) and keeps the default learning rate.
    opt = tf.keras.optimizers.Adam(lr=0.3)
    assert caplog.messages == [
        "`lr` is deprecated in Keras optimizer, please use `learning_rate` or use the legacy "
        "optimizer, e.g.,tf.keras.optimizers.legacy.Adam."]
    assert float(opt.learning_rate.numpy()) == pytest.approx(0.001)


def test_apply_gradients_in_replica_context_sums_gradients_across_replicas():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        v = tf.Variable([1.0])
        opt = tf.keras.optimizers.SGD(0.1, momentum=0.5)
    grads = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([float(ctx.replica_id_in_sync_group) + 1.0]))
    strategy.run(lambda g: opt.apply_gradients([(g, v)]), args=(grads,))
    assert [float(c.numpy()[0]) for c in v.values] == pytest.approx([0.0] * 4)  # 1 - 0.1*10
    assert type(opt.momentums[0]).__name__ == "MirroredVariable"
    assert [int(c.numpy()) for c in opt.iterations.values] == [1] * 4


def test_metrics_are_sync_on_read_and_aggregate_across_replicas():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        acc = tf.keras.metrics.BinaryAccuracy()
        total = tf.keras.metrics.Sum()
    assert type(acc.variables[0]).__name__ == "SyncOnReadVariable"
    y = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([[1.0], [0.0]]))
    p = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([[0.7], [0.4 if ctx.replica_id_in_sync_group else 0.6]]))

    def step(y, p):
        acc.update_state(y, p)
        total.update_state(1.0)
        return acc.result()

    inside = strategy.run(step, args=(y, p))
    assert float(acc.result()) == pytest.approx(7 / 8)
    assert all(float(r) == pytest.approx(7 / 8)
               for r in strategy.experimental_local_results(inside))
    assert float(total.result()) == 4.0
    acc.reset_states()
    assert float(acc.result()) == 0.0


def test_accuracy_metrics():
    m = tf.keras.metrics.SparseCategoricalAccuracy()
    m.update_state([[1], [2]], [[0.1, 0.8, 0.1], [0.9, 0.05, 0.05]])
    assert float(m.result()) == 0.5
    c = tf.keras.metrics.CategoricalAccuracy()
    c.update_state([[0, 1]], [[0.2, 0.8]])
    assert float(c.result()) == 1.0
    a = tf.keras.metrics.Accuracy()
    a.update_state([1, 2, 3], [1, 2, 4])
    assert float(a.result()) == pytest.approx(2 / 3)
    mean = tf.keras.metrics.Mean()
    mean.update_state([1.0, 3.0], sample_weight=[1.0, 3.0])
    assert float(mean.result()) == 2.5


@pytest.mark.array_api  # also on array_api_strict: float16 values are host arrays there
def test_mixed_float16_policy_computes_in_half_keeps_float32_variables():
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    layer = tf.keras.layers.Dense(2)
    out = layer(np.ones((1, 3), np.float32))
    assert out.dtype == tf.float16 and layer.kernel.dtype == tf.float32
    assert tf.keras.mixed_precision.global_policy().name == "mixed_float16"
    tf.keras.mixed_precision.set_global_policy("float32")


def test_loss_scale_optimizer_growth_and_backoff():
    opt = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(1.0),
                                                      dynamic_growth_steps=2)
    assert float(opt.loss_scale) == 2.0**15
    v = tf.Variable([1.0])
    assert float(opt.get_scaled_loss(tf.constant(2.0))) == 2.0**16
    np.testing.assert_allclose(opt.get_unscaled_gradients([tf.constant([2.0**15])])[0].numpy(),
                               [1.0])
    seq = []
    for g in (1.0, 1.0, np.inf, 1.0, np.nan):
        opt.apply_gradients([(tf.constant([g], tf.float32), v)])
        seq.append(float(opt.loss_scale))
    assert seq == [2.0**15, 2.0**16, 2.0**15, 2.0**15, 2.0**14]
    assert float(v.numpy()[0]) == -2.0  # three applied steps of lr 1, two skipped
    assert int(opt.iterations.numpy()) == 5


@pytest.mark.array_api  # also on array_api_strict: float16 values are host arrays there
def test_float16_overflow_is_real():
    x = tf.cast(tf.constant([60000.0]), tf.float16)
    assert not np.isfinite((x * 2.0).numpy()).all()


def test_minimize_takes_a_callable_loss_or_a_tensor_with_its_tape():
    v = tf.Variable([3.0])
    opt = tf.keras.optimizers.SGD(0.25)
    opt.minimize(lambda: tf.reduce_sum(v * v), var_list=[v])  # d/dv v^2 = 6
    assert float(v.numpy()[0]) == pytest.approx(3.0 - 0.25 * 6)
    with pytest.raises(ValueError, match="`tape` is required when a `Tensor` loss is passed"):
        opt.minimize(tf.reduce_sum(v * v), var_list=[v])


def _fit_weights(optimizer, strategy, y_scale=1.0):
    rng = np.random.RandomState(0)
    x = rng.normal(size=(32, 4)).astype(np.float32)
    y = y_scale * rng.normal(size=(32, 1)).astype(np.float32)
    tf.keras.utils.set_random_seed(1)  # the same initial weights for both fits
    with strategy.scope():
        m = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu", input_shape=(4,)),
                                 tf.keras.layers.Dense(1)])
        m.compile(optimizer(), loss="mse")
    history = m.fit(x, y, batch_size=8, epochs=2, verbose=0).history
    return m, history


def test_fit_with_a_loss_scale_optimizer_equals_fit_without_it_in_float32():
    """Scaling by 2**15 and back is exact in float32: fit's path through
    LossScaleOptimizer (scaled loss recorded on the tape) changes no bit."""
    strategy = tf.distribute.MirroredStrategy()
    plain, plain_history = _fit_weights(lambda: tf.keras.optimizers.SGD(0.1), strategy)
    scaled, scaled_history = _fit_weights(
        lambda: tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1)),
        strategy)
    assert scaled_history == plain_history
    for a, b in zip(scaled.get_weights(), plain.get_weights()):
        np.testing.assert_array_equal(a, b)
    assert int(scaled.optimizer.iterations.numpy()) == 8


@pytest.mark.array_api  # also on array_api_strict: float16 values are host arrays there
def test_fit_under_mixed_float16_with_loss_scaling_learns():
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        m, history = _fit_weights(
            lambda: tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.Adam(0.05)),
            tf.distribute.MirroredStrategy(), y_scale=20.0)
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")
    assert m.layers[0].kernel.dtype == tf.float32
    assert history["loss"][-1] < history["loss"][0]
    # With targets 20 times the unit normal's, float16 gradients of the 2**15-scaled loss
    # overflow in the first steps, for real (with TF's initial weights for seed 1, unit
    # targets do not overflow, in TF as here): the scale halves on each (no growth before
    # 2000 good steps), and the weights stay finite.
    scale = float(m.optimizer.loss_scale)
    assert scale < 2.0**15 and np.log2(scale).is_integer()
    assert all(np.isfinite(w).all() for w in m.get_weights())


@pytest.mark.parametrize("name, key, fn", [
    ("mae", "mae", lambda t, p: np.abs(p - t).mean()),
    ("mse", "mse", lambda t, p: ((p - t) ** 2).mean()),
    ("mean_absolute_error", "mean_absolute_error", lambda t, p: np.abs(p - t).mean()),
    (tf.keras.metrics.MeanSquaredError(), "mean_squared_error", lambda t, p: ((p - t) ** 2).mean()),
    ("MeanAbsoluteError", "mean_absolute_error", lambda t, p: np.abs(p - t).mean()),
])
def test_regression_metrics_by_name_and_class(name, key, fn):
    rng = np.random.RandomState(2)
    x = rng.normal(size=(12, 2)).astype(np.float32)
    y = rng.normal(size=(12, 1)).astype(np.float32)
    m = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    m.compile("sgd", loss="mse", metrics=[name])
    logs = m.evaluate(x, y, batch_size=12, verbose=0, return_dict=True)
    assert logs[key] == pytest.approx(fn(y, m.predict(x, verbose=0)), rel=1e-5)


def test_crossentropy_metrics_match_the_losses():
    y = np.array([[0.0], [1.0], [1.0]], np.float32)
    p = np.array([[0.2], [0.7], [0.9]], np.float32)
    bce = tf.keras.metrics.BinaryCrossentropy()
    bce.update_state(y, p)
    expected = -(y * np.log(p) + (1 - y) * np.log(1 - p)).mean()
    assert float(bce.result()) == pytest.approx(expected, rel=1e-5)
    scce = tf.keras.metrics.SparseCategoricalCrossentropy(from_logits=True)
    scce.update_state([0, 2], [[2.0, 1.0, 0.0], [0.0, 0.0, 3.0]])
    logits = np.array([[2.0, 1.0, 0.0], [0.0, 0.0, 3.0]])
    logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    assert float(scce.result()) == pytest.approx(-(logp[0, 0] + logp[1, 2]) / 2, rel=1e-5)
    # an unknown name comes back as it is, as TF 2.21's (compile_error_cases records it)
    assert tf.keras.metrics.get("maee") == "maee"
