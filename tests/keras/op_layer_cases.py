"""TF ops and Python operators applied to KerasTensors (op layers: TFOpLambda,
SlicingOpLambda) whose results TF 2.21 recorded (record_tf_layers.py op_layers) and simdist
must reproduce (test_layers_tf_conformance.py): the layers' names, classes, shapes, dtypes
and configs, the summary, a model's outputs and gradients through them, fit under a
4-replica MirroredStrategy, ``model.save`` / ``load_model`` (.keras, .h5 and a SavedModel
directory), mixed precision (no autocast) and the parameter-server tutorial's embedding
mean.

Same conventions as layer_cases.py.
"""

HELP = """
import os, tempfile
def R(*shape, seed=0):
    return np.random.RandomState(seed).normal(size=shape).astype('float32')
def C(*shape, seed=0):
    return tf.keras.initializers.Constant(R(*shape, seed=seed) * 0.5)
def summary(m):
    buf = []
    m.summary(print_fn=lambda s, **k: buf.append(s))
    return buf
def layers(m):
    return [[l.name, type(l).__name__, str(l.output_shape)] for l in m.layers]
def ops_model(init=True):
    x = tf.keras.Input(shape=(3, 4), name='x')
    h = L.Dense(4, kernel_initializer=C(4, 4, seed=1) if init else 'zeros', name='d')(x)
    m = tf.reduce_mean(h, axis=1)
    z = tf.nn.relu(m * 2.0 + 1.0) - x[:, 0]
    s = tf.reshape(tf.concat([z, tf.math.square(z)], axis=-1), (-1, 2, 4))
    o = L.Dense(1, kernel_initializer=C(4, 1, seed=2) if init else 'zeros', name='o')
    out = o(tf.reduce_sum(s, axis=1))
    return tf.keras.Model(x, out, name='ops')
"""

CASES = {
    "op layers: names, classes, shapes, dtypes of TF ops and operators": HELP + """
x = tf.keras.Input(shape=(3, 4), name='x')
b = tf.keras.Input(shape=(4,), dtype=tf.bool, name='b')
ys = [tf.reduce_mean(x, axis=1), tf.math.reduce_max(x, axis=[1, 2], keepdims=True),
      tf.reduce_sum(x), x + 1.0, 1.0 + x, x - 2.0, 3.0 - x, x * x, 2.0 * x, x / 2.0,
      1.0 / x, x ** 2.0, -x, abs(x), x > 0.0, x <= 1.0, x == 1.0, x != 1.0, ~b, b & b, b | b,
      x @ tf.ones((4, 2)), x[:, 0], x[..., 1:], x[0], tf.cast(x, tf.int32),
      tf.reshape(x, (-1, 12)), tf.transpose(x, [0, 2, 1]), tf.expand_dims(x, -1),
      tf.concat([x, x], axis=1), tf.stack([x, x], axis=1), tf.nn.relu(x),
      tf.nn.softmax(x), tf.math.sigmoid(x), tf.matmul(x, x, transpose_b=True),
      tf.squeeze(tf.expand_dims(x, 1), axis=1), tf.shape(x), tf.gather(x, [0, 2], axis=1),
      tf.one_hot(tf.cast(x[:, 0, 0], tf.int32), 5), tf.where(x > 0.0, x, 0.0),
      tf.math.reduce_std(x, axis=-1), tf.clip_by_value(x, 0.0, 1.0)]
out = [[y.node.layer.name, type(y.node.layer).__name__, str(y.shape), y.dtype.name]
       for y in ys]
""",
    "op layers: the model summary and its layers": HELP + """
m = ops_model()
out = [summary(m), layers(m), m.count_params(), len(m.weights)]
""",
    "op layers: config names the op; slices kept as dicts": HELP + """
m = ops_model()
cfg = m.get_config()
ops = [l for l in cfg['layers'] if l['class_name'] in ('TFOpLambda', 'SlicingOpLambda')]
out = [[l['class_name'], sorted(l['config'].items())] for l in ops]
""",
    "op layers: outputs and gradients of a model through them": HELP + """
m = ops_model()
xs = R(5, 3, 4, seed=3)
with tf.GradientTape() as tape:
    y = m(xs)
    loss = tf.reduce_mean(y ** 2)
g = tape.gradient(loss, m.trainable_variables)
out = [y, loss, g, m.predict(xs, verbose=0)]
""",
    "op layers: fit on 4 replicas": HELP + """
with S.scope():
    m = ops_model()
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss='mse')
xs, ys = R(16, 3, 4, seed=4), R(16, 1, seed=5)
h = m.fit(xs, ys, batch_size=8, epochs=2, shuffle=False, verbose=0)
out = [h.history['loss'], m.get_weights(), m.evaluate(xs, ys, verbose=0)]
""",
    "op layers: saved and loaded (.keras, .h5, SavedModel directory)": HELP + """
m = ops_model(init=False)
m.set_weights([R(4, 4, seed=10), np.zeros(4), R(4, 1, seed=11), np.zeros(1)])
xs = R(4, 3, 4, seed=6)
D = tempfile.mkdtemp()
out = []
for name in ['m.keras', 'm.h5', 'saved']:
    path = os.path.join(D, name)
    m.save(path)
    r = tf.keras.models.load_model(path)
    out.append([layers(r), r(xs), type(r.layers[3]).__name__])
""",
    "op layers: no autocast under mixed_float16": HELP + """
tf.keras.mixed_precision.set_global_policy('mixed_float16')
try:
    x = tf.keras.Input(shape=(3,))
    h = L.Dense(2, kernel_initializer=C(3, 2))(x)
    ys = [h, tf.cast(h, tf.float32), x * 2.0, tf.cast(h, tf.float32) + x[:, :2],
          L.Dense(2, kernel_initializer=C(2, 2))(tf.cast(h, tf.float32) + 1.0)]
    m = tf.keras.Model(x, ys)
    out = [[y.dtype.name for y in ys], m(R(2, 3, seed=7))]
finally:
    tf.keras.mixed_precision.set_global_policy('float32')
""",
    "op layers: the parameter-server tutorial's embedding mean": HELP + """
inp = tf.keras.Input(shape=(3,), dtype=tf.int64, name='model_input')
emb = L.Embedding(input_dim=4, output_dim=5,
                  embeddings_initializer=C(4, 5, seed=8))(inp)
mean = tf.reduce_mean(emb, axis=1)
out_t = L.Dense(1, activation='sigmoid', kernel_initializer=C(5, 1, seed=9))(mean)
m = tf.keras.Model({'features': inp}, out_t)
out = [summary(m), str(mean.shape), mean.dtype.name,
       m({'features': np.array([[0, 1, 2], [3, 3, 1]])})]
""",
    "op layers: a layer name taken is not reused; names count from zero": HELP + """
x = tf.keras.Input(shape=(2,))
a, b, c = x + 1.0, x + 2.0, tf.reduce_mean(x, axis=1)
d = L.Dense(1, name='tf.math.reduce_mean_1')(x)
e = tf.reduce_mean(x, axis=1)
out = [a.node.layer.name, b.node.layer.name, c.node.layer.name, e.node.layer.name]
""",
    "op layers: a TF API that does not dispatch refuses a KerasTensor": """
tf.constant(tf.keras.Input(shape=(2,)))
""",
    "op layers: an op's own error on KerasTensors of wrong shapes": """
x, y = tf.keras.Input(shape=(2,)), tf.keras.Input(shape=(3,))
out = x + y
""",
    "op layers: x[..., 1:] saved: .h5 and SavedModel hold the ellipsis, .keras refuses it": """
import os, tempfile
x = tf.keras.Input(shape=(3, 4))
m = tf.keras.Model(x, x[..., 1:] * 2.0)
D = tempfile.mkdtemp()
out = []
for name in ['m.h5', 'saved', 'm.keras']:
    try:
        m.save(os.path.join(D, name))
        r = tf.keras.models.load_model(os.path.join(D, name))
        out.append(r(np.arange(12, dtype='float32').reshape(1, 3, 4)))
    except TypeError as e:
        out.append(str(e))
""",
    "tf.sort, tf.argsort and tf.math.top_k on a KerasTensor make op layers": """
x = tf.keras.Input(shape=(4,))
m = tf.keras.Model(x, [tf.sort(x, direction='DESCENDING'), tf.math.top_k(x, k=2).values,
                       tf.argsort(x), tf.nn.top_k(x, k=1).indices])
out = [[layer.name for layer in m.layers], [type(layer).__name__ for layer in m.layers],
       m(np.array([[3.0, 1.0, 4.0, 2.0]], 'float32'))]
""",
    "image, tensordot, l2_loss, moments and identity_n on a KerasTensor make op layers": """
x = tf.keras.Input(shape=(2, 3, 1))
v = tf.keras.Input(shape=(3,))
mean, var = tf.nn.moments(v, [1])
m = tf.keras.Model([x, v], [tf.image.flip_left_right(x), tf.image.rot90(x),
                            tf.tensordot(v, tf.ones((3, 2)), 1), tf.nn.l2_loss(v), mean, var,
                            tf.identity_n([v, v])[1]])
a = np.arange(6, dtype='float32').reshape(1, 2, 3, 1)
out = [[layer.name for layer in m.layers], [type(layer).__name__ for layer in m.layers],
       m([a, np.array([[3.0, 1.0, 4.0]], 'float32')])]
""",
}
