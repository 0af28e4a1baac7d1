"""fit's ``class_weight`` as TF 2.21 + tf-keras handles it (recorded by record_tf_keras.py,
group class_weight): tf-keras maps data_adapter._make_class_weight_map_fn over the
adapter's dataset, so the keys are checked when fit starts, the function is traced then
(a nested or missing target fails at that moment) and the weights are the gather of the
target's classes (argmax over the last axis of one-hot targets)."""

from keras_cases import PRELUDE

_CASES = {
    "class_weight empty dict: no weighting": """
m = mk(loss='sparse_categorical_crossentropy')
h = m.fit(X, YI, batch_size=8, class_weight={}, shuffle=False, verbose=0)
out = [h.history['loss'], m.get_weights()]
""",
    "class_weight keys missing a class": """
m = mk(loss='sparse_categorical_crossentropy')
out = m.fit(X, YI, class_weight={0: 1.0, 2: 3.0}, verbose=0)
""",
    "class_weight string keys": """
m = mk(loss='sparse_categorical_crossentropy')
out = m.fit(X, YI, class_weight={'a': 1.0, 'b': 3.0}, verbose=0)
""",
    "class_weight keys of mixed types": """
m = mk(loss='sparse_categorical_crossentropy')
out = m.fit(X, YI, class_weight={0: 1.0, 'b': 3.0}, verbose=0)
""",
    "class_weight float keys are class ids": """
m = mk(loss='sparse_categorical_crossentropy')
h = m.fit(X, YI, batch_size=8, class_weight={0.0: 1.0, 1.0: 3.0}, shuffle=False, verbose=0)
out = [h.history['loss'], m.get_weights()]
""",
    "class_weight integer weights": """
m = mk(loss='sparse_categorical_crossentropy')
h = m.fit(X, YI, batch_size=8, class_weight={0: 1, 1: 3}, shuffle=False, verbose=0)
out = [h.history['loss'], m.get_weights()]
""",
    "class_weight without targets": """
m = mk(loss='sparse_categorical_crossentropy')
out = m.fit(X, class_weight={0: 1.0, 1: 3.0}, verbose=0)
""",
    "class_weight with a dataset of x only": """
m = mk(loss='sparse_categorical_crossentropy')
out = m.fit(tf.data.Dataset.from_tensor_slices(X).batch(8), class_weight={0: 1.0, 1: 3.0},
            verbose=0)
""",
    "class_weight with a dataset yielding (x, y)": """
m = mk(loss='sparse_categorical_crossentropy')
h = m.fit(tf.data.Dataset.from_tensor_slices((X, YI)).batch(8),
          class_weight={0: 1.0, 1: 3.0}, verbose=0)
out = [h.history['loss'], m.get_weights()]
""",
    "class_weight with a dataset yielding (x, y, sample_weight)": """
m = mk(loss='sparse_categorical_crossentropy')
h = m.fit(tf.data.Dataset.from_tensor_slices((X, YI, SW)).batch(8),
          class_weight={0: 1.0, 1: 3.0}, verbose=0)
out = [h.history['loss'], m.get_weights()]
""",
    "class_weight with float64 sample weights": """
m = mk(loss='sparse_categorical_crossentropy')
h = m.fit(X, YI, sample_weight=SW.astype('float64'), batch_size=8,
          class_weight={0: 1.0, 1: 3.0}, shuffle=False, verbose=0)
out = [h.history['loss'], m.get_weights()]
""",
    "class_weight with sample weights and a partial last batch": """
m = mk(loss='sparse_categorical_crossentropy')
h = m.fit(X, YI, sample_weight=SW, batch_size=5, class_weight={0: 1.0, 1: 3.0},
          shuffle=False, verbose=0)
out = [h.history['loss'], m.get_weights()]
""",
    "class_weight with a dataset yielding (x, y, sample_weight) of a static batch": """
m = mk(loss='sparse_categorical_crossentropy')
h = m.fit(tf.data.Dataset.from_tensor_slices((X, YI, SW)).batch(8, drop_remainder=True),
          class_weight={0: 1.0, 1: 3.0}, verbose=0)
out = [h.history['loss'], m.get_weights()]
""",
    "class_weight with a multi-output model": """
i = tf.keras.Input((2,))
m = tf.keras.Model(i, [L.Dense(2, name='a')(i), L.Dense(2, name='b')(i)])
m.compile('sgd', 'mse')
out = m.fit(X, (Y1, Y1), class_weight={0: 1.0, 1: 3.0}, verbose=0)
""",
    "class_weight with a dict of targets": """
i = tf.keras.Input((2,))
m = tf.keras.Model(i, {'a': L.Dense(2, name='a')(i)})
m.compile('sgd', 'mse')
out = m.fit(X, {'a': Y1}, class_weight={0: 1.0, 1: 3.0}, verbose=0)
""",
    "class_weight with one-column targets: rounded": """
m = tf.keras.Sequential([L.Dense(1, input_shape=(2,), name='d', kernel_initializer='ones')])
m.compile(tf.keras.optimizers.SGD(0.1), 'mse')
h = m.fit(X, (YI[:, None] * 0.8).astype('float32'), batch_size=8,
          class_weight={0: 1.0, 1: 3.0}, shuffle=False, verbose=0)
out = [h.history['loss'], m.get_weights()]
""",
    "class_weight with sequence targets: classes on the last axis": """
m = tf.keras.Sequential([L.Dense(2, input_shape=(3, 2), name='d', kernel_initializer='ones')])
m.compile(tf.keras.optimizers.SGD(0.1), 'mse')
x3 = np.stack([X[:, ::-1], X, -X], axis=1)[:8]
y3 = np.eye(2, dtype='float32')[(x3[..., 0] > 0).astype('int64')]
h = m.fit(x3, y3, batch_size=4, class_weight={0: 1.0, 1: 3.0}, shuffle=False, verbose=0)
out = [h.history['loss'], m.get_weights()]
""",
    "class_weight with sequence targets and sample weights": """
m = tf.keras.Sequential([L.Dense(2, input_shape=(3, 2), name='d', kernel_initializer='ones')])
m.compile(tf.keras.optimizers.SGD(0.1), 'mse')
x3 = np.stack([X[:, ::-1], X, -X], axis=1)[:8]
y3 = np.eye(2, dtype='float32')[(x3[..., 0] > 0).astype('int64')]
h = m.fit(x3, y3, sample_weight=SW[:8], batch_size=4, class_weight={0: 1.0, 1: 3.0},
          shuffle=False, verbose=0)
out = [h.history['loss'], m.get_weights()]
""",
    "class_weight in train_on_batch": """
m = mk(loss='sparse_categorical_crossentropy')
out = [m.train_on_batch(X, YI, class_weight={0: 1.0, 1: 3.0}), m.get_weights()]
""",
    "class_weight not a dict": """
m = mk(loss='sparse_categorical_crossentropy')
out = m.fit(X, YI, class_weight=[1.0, 3.0], verbose=0)
""",
}

CASES = {name: PRELUDE + code for name, code in _CASES.items()}
