"""Layers, models, summary, initializers, fit/evaluate/predict and callbacks."""

import re

import numpy as np
import pytest

import simdist as tf

BLANK = " " * 65
TF_SUMMARY = "\n".join([  # recorded from TensorFlow 2.15
    'Model: "sequential"',
    "_" * 65,
    " Layer (type)                Output Shape              Param #   ",
    "=" * 65,
    " dense (Dense)               (None, 16)                176       ",
    BLANK,
    " dense_1 (Dense)             (None, 8)                 136       ",
    BLANK,
    " dense_2 (Dense)             (None, 1)                 9         ",
    BLANK,
    "=" * 65,
    "Total params: 321 (1.25 KB)",
    "Trainable params: 321 (1.25 KB)",
    "Non-trainable params: 0 (0.00 Byte)",
    "_" * 65,
]) + "\n"


def tutorial_model():
    return tf.keras.Sequential([
        tf.keras.layers.Dense(16, activation="relu", input_shape=(10,)),
        tf.keras.layers.Dense(8, activation="relu"),
        tf.keras.layers.Dense(1, activation="sigmoid"),
    ])


def data(n=200, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.normal(size=(n, 10)).astype(np.float32)
    y = (x.sum(1, keepdims=True) > 0).astype(np.float32)
    return x, y


def test_summary_prints_like_keras(capsys):
    tutorial_model().summary()
    assert capsys.readouterr().out == TF_SUMMARY


class Sub(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d = tf.keras.layers.Dense(4)
        self.bn = tf.keras.layers.BatchNormalization()
        self.drop = tf.keras.layers.Dropout(0.5, seed=3)

    def call(self, x, training=False):
        return self.drop(self.bn(self.d(x), training=training), training=training)


def test_subclassed_model_weights_names_and_training_flag(capsys):
    m = Sub()
    x = np.ones((6, 3), np.float32)
    out_inf = m(x)
    assert [w.name for w in m.weights] == [
        "sub/dense/kernel:0", "sub/dense/bias:0", "sub/batch_normalization/gamma:0",
        "sub/batch_normalization/beta:0", "sub/batch_normalization/moving_mean:0",
        "sub/batch_normalization/moving_variance:0"]
    assert len(m.trainable_variables) == 4
    out_train = m(x, training=True).numpy()
    assert (out_train == 0).any()  # dropout is active in training only
    # training=True moved the moving statistics (momentum 0.99), so inference changed
    assert np.abs(m.bn.moving_mean.numpy()).sum() > 0
    assert not np.allclose(m(x).numpy(), out_inf.numpy())
    m.summary()
    assert "multiple" in capsys.readouterr().out


def test_get_set_weights_and_seeded_initializers():
    # tf.random.set_seed alone would not do: unseeded initializers take their seeds from
    # set_random_seed's generator (or Python's random), as Keras 2's do.
    tf.keras.utils.set_random_seed(5)
    a = tutorial_model().get_weights()
    tf.keras.backend.clear_session()
    tf.keras.utils.set_random_seed(5)
    b = tutorial_model().get_weights()
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    limit = np.sqrt(6 / (10 + 16))
    assert np.abs(a[0]).max() <= limit and not a[1].any()
    init = tf.keras.initializers.RandomNormal(stddev=1.0, seed=1)
    np.testing.assert_array_equal(init([3]).numpy(), init([3]).numpy())
    m = tutorial_model()
    m.set_weights(a)
    np.testing.assert_array_equal(m.get_weights()[0], a[0])
    with pytest.raises(ValueError, match="expecting 6 weights"):
        m.set_weights(a[:2])


def test_set_random_seed_seeds_python_numpy_and_tf_at_once():
    import random

    def draw():
        return random.random(), np.random.rand(), tf.random.normal([3]).numpy().tolist(), \
            tutorial_model().get_weights()[0].tolist()

    tf.keras.utils.set_random_seed(7)
    first = draw()
    tf.keras.utils.set_random_seed(7)
    assert draw() == first
    tf.keras.utils.set_random_seed(8)
    assert all(a != b for a, b in zip(draw(), first))
    with pytest.raises(ValueError, match="Expected `seed` argument to be an integer"):
        tf.keras.utils.set_random_seed(1.5)


def test_fit_evaluate_predict_learn_and_history():
    x, y = data()
    m = tutorial_model()
    m.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="binary_crossentropy",
              metrics=["accuracy"])
    h = m.fit(x, y, batch_size=32, epochs=8, verbose=0, validation_data=(x, y))
    assert set(h.history) == {"loss", "accuracy", "val_loss", "val_accuracy"}
    assert h.epoch == list(range(8))
    assert h.history["loss"][-1] < h.history["loss"][0]
    assert h.history["accuracy"][-1] > 0.9
    loss, acc = m.evaluate(x, y, verbose=0)
    assert acc > 0.9 and isinstance(loss, float)
    assert m.predict(x, verbose=0).shape == (200, 1)
    assert int(m.optimizer.iterations.numpy()) == 8 * 7


def test_predict_with_fewer_rows_than_replicas_leaves_some_replicas_empty():
    """3 rows over 4 replicas: one replica gets a [0, ...] batch, and Flatten copes as TF's."""
    x, _ = data(n=3)
    one = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(10,)),
                               tf.keras.layers.Dense(2)])
    with tf.distribute.MirroredStrategy().scope():
        four = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(10,)),
                                    tf.keras.layers.Dense(2)])
    four.set_weights(one.get_weights())
    # One row per replica against three rows at once: the matmul may round the last bit
    # differently, so an output near zero needs an absolute tolerance too.
    np.testing.assert_allclose(four.predict(x, verbose=0), one.predict(x, verbose=0),
                               rtol=1e-6, atol=1e-6)


def test_fit_under_mirrored_strategy_keeps_copies_identical():
    x, y = data()
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        m = tutorial_model()
        m.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    m.fit(x, y, batch_size=64, epochs=2, verbose=0)
    for w in m.weights:
        copies = [c.numpy() for c in w.values]
        for c in copies[1:]:
            np.testing.assert_array_equal(c, copies[0])
    slots = m.optimizer.variables[2:]
    assert all(type(s).__name__ == "MirroredVariable" for s in slots)


def test_model_built_outside_and_compiled_inside_raises_tf_error():
    m = tutorial_model()
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope(), pytest.raises(ValueError,
                                         match="was not created in the distribution strategy"):
        m.compile(optimizer="adam", loss="binary_crossentropy")


def test_progress_bar_text(capsys):
    x, y = data(100)
    m = tutorial_model()
    m.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    m.fit(x, y, batch_size=32, epochs=2, verbose=2)
    out = capsys.readouterr().out
    assert re.fullmatch(
        r"Epoch 1/2\n4/4 - \d+s - loss: \d\.\d{4} - accuracy: \d\.\d{4} - \d+m?s/epoch - "
        r"\d+[mu]?s/step\nEpoch 2/2\n4/4 - .*\n", out)
    m.fit(x, y, batch_size=32, epochs=1, verbose=1)
    out = capsys.readouterr().out
    assert re.search(r"\r4/4 \[==============================\] - \d+s \d+[mu]?s/step - loss: "
                     r"\d\.\d{4} - accuracy: \d\.\d{4}\n$", out)


def test_progress_bar_formats_negative_values_as_tf_does(capsys):
    # Keras's verbose=2 line picks '%.4f' when ``avg > 1e-3`` (signed), verbose=1 when
    # ``abs(avg) > 1e-3``: recorded from TF 2.15 (times masked).
    rng = np.random.RandomState(0)
    x = rng.normal(size=(16, 2)).astype(np.float32)
    y = np.eye(2, dtype=np.float32)[(x[:, 0] > 0).astype(np.int64)]
    m = tf.keras.Sequential([tf.keras.layers.Dense(2, activation="softmax", input_shape=(2,))])
    m.set_weights([np.array([[0.3, -0.2], [0.1, 0.4]], np.float32), np.zeros(2, np.float32)])
    m.compile(tf.keras.optimizers.SGD(0.1), loss="cosine_similarity", metrics=["mae"])
    m.fit(x, y, batch_size=8, epochs=2, verbose=2, shuffle=False)
    m.fit(x, y, batch_size=8, epochs=1, verbose=1, shuffle=False)
    m.evaluate(x, y, verbose=2)
    out = re.sub(r"\d+[mu]?s/(epoch|step)", r"T/\1", capsys.readouterr().out)
    out = re.sub(r"(\d/\d|\]) - \d+s ", r"\1 - Ns ", out)   # whole seconds: 1s when loaded
    assert out.split("\n")[:4] == [
        "Epoch 1/2", "2/2 - Ns - loss: -5.4787e-01 - mae: 0.6017 - T/epoch - T/step",
        "Epoch 2/2", "2/2 - Ns - loss: -6.1561e-01 - mae: 0.5555 - T/epoch - T/step"]
    assert out.split("\n")[4].endswith(
        "\r2/2 [==============================] - Ns T/step - loss: -0.6854 - mae: 0.5063")
    assert out.split("\n")[5:] == [
        "1/1 - Ns - loss: -7.3608e-01 - mae: 0.4683 - T/epoch - T/step", ""]


def test_early_stopping_and_model_checkpoint(tmp_path):
    x, y = data(64)
    m = tutorial_model()
    m.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="binary_crossentropy")
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=1)
    ck = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "w-{epoch}.npz"),
                                            save_weights_only=True)
    h = m.fit(x, y, epochs=10, verbose=0, callbacks=[stop, ck], shuffle=False)
    assert len(h.epoch) == 2 and m.stop_training
    # A name not ending in .h5 gets TF's checkpoint format, as in Keras 2.
    assert (tmp_path / "w-1.npz.index").exists() and (tmp_path / "w-2.npz.index").exists()
    m2 = tutorial_model()
    m2.load_weights(str(tmp_path / "w-2.npz"))
    np.testing.assert_array_equal(m2.get_weights()[0], m.get_weights()[0])


def test_backup_and_restore_resumes_after_interruption(tmp_path):
    x, y = data(64)

    class Crash(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            if epoch == 1:
                raise RuntimeError("preempted")

    backup = tf.keras.callbacks.BackupAndRestore(str(tmp_path))
    m = tutorial_model()
    m.compile(optimizer="adam", loss="binary_crossentropy")
    with pytest.raises(RuntimeError):
        m.fit(x, y, epochs=4, verbose=0, callbacks=[backup, Crash()])
    it = int(m.optimizer.iterations.numpy())
    m2 = tutorial_model()
    m2.compile(optimizer="adam", loss="binary_crossentropy")
    h = m2.fit(x, y, epochs=4, verbose=0, callbacks=[backup])
    assert h.epoch == [2, 3]
    assert int(m2.optimizer.iterations.numpy()) == it + 2 * 2


def test_sync_batch_normalization_uses_global_batch_statistics():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        bn = tf.keras.layers.experimental.SyncBatchNormalization()
        bn.build((None, 2))
    x = np.arange(16, dtype=np.float32).reshape(8, 2)
    vals = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(x[2 * ctx.replica_id_in_sync_group:
                                  2 * ctx.replica_id_in_sync_group + 2]))
    from simdist.distribute.distribute_lib import ReplicaContext

    calls = []
    real = ReplicaContext.all_reduce

    def counted(ctx, reduce_op, value, options=None):
        calls.append(len(tf.nest.flatten(value)))
        return real(ctx, reduce_op, value, options)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ReplicaContext, "all_reduce", counted)
        out = strategy.run(lambda v: bn(v, training=True), args=(vals,))
    full = np.concatenate([o.numpy() for o in strategy.experimental_local_results(out)])
    expected = (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-3)
    np.testing.assert_allclose(full, expected, rtol=1e-4, atol=1e-5)
    # Keras's three separate all-reduces (sum, sum of squares, count) on each replica.
    assert calls == [1, 1, 1] * strategy.num_replicas_in_sync


def test_an_input_leads_a_sequential_stack():
    inputs = tf.keras.Input((3,))
    model = tf.keras.Sequential([inputs, tf.keras.layers.Dense(2)])
    assert model.built and [tuple(w.shape) for w in model.weights] == [(3, 2), (2,)]


def test_a_single_input_layer_refuses_a_dict_with_a_type_error():
    # TF 2.15 raises TypeError too, from deep inside build ("Failed to convert ... to a shape").
    x = np.ones((2, 3), np.float32)
    with pytest.raises(TypeError, match="takes one tensor, not a dict"):
        tf.keras.layers.Dense(2)({"a": x})
