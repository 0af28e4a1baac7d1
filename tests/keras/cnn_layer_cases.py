"""Convolution, pooling, reshaping, embedding, merging and layer-normalization programs whose
results TF 2.21 recorded (record_tf_layers.py cnn) and simdist must reproduce
(test_cnn_layers_tf_conformance.py): the ops' values and gradients, the layers' shapes,
weights, configs, summaries and errors, and a small CNN trained from fixed weights under a
4-replica MirroredStrategy.

Same conventions as layer_cases.py (``tf``, ``np``, ``L``, ``S`` in scope; ``out`` is the
result; an exception is the result when it raises). Weights are set explicitly or only
their shapes and bounds are compared (random initial values are TF's, but are compared in
tests/framework/test_random_streams.py, not here).
"""

HELP = """
def R(*shape, seed=0):
    return np.random.RandomState(seed).normal(size=shape).astype('float32')
def grads(f, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as t:
        for x in xs:
            t.watch(x)
        y = f(*xs)
        s = tf.reduce_sum(y * tf.constant(R(*y.shape, seed=9)))
    return [y] + [tf.convert_to_tensor(g) for g in t.gradient(s, xs)]
def summary(m):
    buf = []
    m.summary(print_fn=lambda s, **k: buf.append(s))
    return buf
"""

# TF's CPU kernels have no dilated Conv2DBackpropInput (its GPU kernels do, and so does
# simdist, checked by finite differences in tests/framework/test_gradients.py): dilated
# cases compare the forward values only.
OPS = {
    f"conv2d {pad} strides {s} dilations {d}": HELP + f"""
x, f = R(2, 7, 6, 3), R(3, 2, 3, 4, seed=1)
out = (grads(lambda x, f: tf.nn.conv2d(x, f, {s}, '{pad}'), x, f) if {d} == 1
       else tf.nn.conv2d(x, f, {s}, '{pad}', dilations={d}))
""" for pad in ("VALID", "SAME") for s, d in ((1, 1), (2, 1), ([1, 2], 1), (1, 2), (2, 2),
                                                ([1, 3, 2, 1], 1), (1, [2, 1]))
}
OPS.update({
    "conv2d explicit padding": HELP + """
out = grads(lambda x, f: tf.nn.conv2d(x, f, 2, [[0, 0], [1, 2], [0, 1], [0, 0]]),
            R(1, 5, 5, 2), R(3, 3, 2, 2, seed=1))
""",
    "conv2d filter larger than the input (VALID) is empty": HELP + """
out = tf.nn.conv2d(R(1, 2, 2, 1), R(3, 3, 1, 1), 1, 'VALID')
""",
    "conv2d channel mismatch": HELP + """
out = tf.nn.conv2d(R(1, 4, 4, 2), R(3, 3, 3, 1), 1, 'VALID')
""",
    "conv2d bad padding": HELP + "out = tf.nn.conv2d(R(1, 4, 4, 2), R(3, 3, 2, 1), 1, 'FOO')",
    "conv2d int input": """
out = tf.nn.conv2d(tf.ones((1, 3, 3, 1), tf.int32), tf.ones((1, 1, 1, 1), tf.int32), 1, 'SAME')
""",
    "conv2d strides over batch": HELP + """
out = tf.nn.conv2d(R(1, 4, 4, 2), R(3, 3, 2, 1), [2, 1, 1, 1], 'VALID')
""",
    "conv2d float64": HELP + """
out = tf.nn.conv2d(R(1, 4, 4, 2).astype('float64'), R(2, 2, 2, 1).astype('float64'), 1, 'SAME')
""",
})
OPS.update({
    f"{op} {pad} k {k} s {s}": HELP + f"""
out = grads(lambda x: tf.nn.{op}(x, {k}, {s}, '{pad}'), R(2, 5, 6, 3))
""" for op in ("max_pool2d", "avg_pool2d") for pad in ("VALID", "SAME")
    for k, s in ((2, 2), (3, 2), ([2, 3], 1), (3, [1, 2]))
})
OPS.update({
    "max_pool2d ties give the gradient to the first maximum": """
x = tf.constant(np.array([1, 3, 3, 2, 3, 0, 1, 3, 3], np.float32).reshape(1, 3, 3, 1))
with tf.GradientTape() as t:
    t.watch(x)
    y = tf.nn.max_pool2d(x, 2, 1, 'VALID')
out = [y, t.gradient(y, x)]
""",
    "max_pool gradient of gradient": HELP + """
x = tf.constant(R(1, 4, 4, 2))
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = tf.nn.max_pool2d(x, 2, 1, 'SAME')
        s = tf.reduce_sum(y * y)
    g = inner.gradient(s, x)
    z = tf.reduce_sum(g * tf.constant(R(1, 4, 4, 2, seed=3)))
out = [g, outer.gradient(z, x)]
""",
    "conv2d gradient of gradient": HELP + """
x, f = tf.constant(R(1, 5, 5, 2)), tf.constant(R(2, 2, 2, 3, seed=1))
with tf.GradientTape(persistent=True) as outer:
    outer.watch([x, f])
    with tf.GradientTape() as inner:
        inner.watch([x, f])
        y = tf.nn.conv2d(x, f, 2, 'SAME')
        s = tf.reduce_sum(y * y)
    gx, gf = inner.gradient(s, [x, f])
    z = tf.reduce_sum(gx * tf.constant(R(1, 5, 5, 2, seed=3))) + tf.reduce_sum(gf)
out = [gx, gf] + outer.gradient(z, [x, f])
""",
    "avg_pool2d bad ksize length": HELP + """
out = tf.nn.avg_pool2d(R(1, 4, 4, 1), [2, 2, 2], 1, 'VALID')
""",
    "max_pool2d NCHW on CPU": HELP + """
out = tf.nn.max_pool2d(R(1, 1, 4, 4), 2, 2, 'VALID', data_format='NCHW')
""",
})

CONV_LAYER = {
    "Conv2D weights, names and glorot bounds": """
c = L.Conv2D(8, (3, 2), name='c')
y = c(np.ones((2, 7, 6, 3), np.float32))
k = c.kernel.numpy()
limit = np.sqrt(6.0 / (3 * 2 * 3 + 3 * 2 * 8))
out = [str(y.shape), [w.name for w in c.weights], [str(tuple(w.shape)) for w in c.weights],
       bool(np.abs(k).max() <= limit), bool(np.abs(k).max() > limit / 2),
       c.bias.numpy(), c.count_params()]
""",
    "Conv2D output from set weights": HELP + """
c = L.Conv2D(4, 3, strides=2, padding='same', activation='relu', name='c')
c.build((None, 7, 6, 3))
c.set_weights([R(3, 3, 3, 4, seed=1), R(4, seed=2)])
out = grads(lambda x: c(x), R(2, 7, 6, 3))
""",
    "Conv2D dilated, no bias": HELP + """
c = L.Conv2D(2, 2, dilation_rate=2, use_bias=False, name='c')
c.build((None, 6, 6, 1))
c.set_weights([R(2, 2, 1, 2, seed=1)])
out = [c(R(1, 6, 6, 1)), len(c.weights)]
""",
    "Conv2D kernel gradient": HELP + """
c = L.Conv2D(3, 2, name='c')
c.build((None, 4, 4, 2))
c.set_weights([R(2, 2, 2, 3, seed=1), R(3, seed=2)])
x = tf.constant(R(2, 4, 4, 2))
with tf.GradientTape() as t:
    y = tf.reduce_sum(c(x) ** 2)
out = t.gradient(y, c.trainable_weights)
""",
    "Conv2D get_config": """
out = sorted((k, str(v)) for k, v in L.Conv2D(4, 3, name='c').get_config().items())
""",
    "Conv2D compute_output_shape": """
out = [str(L.Conv2D(4, 3, name='a').compute_output_shape((None, 28, 28, 1))),
       str(L.Conv2D(4, 3, strides=2, padding='same', name='b').compute_output_shape(
           (None, 7, 8, 1))),
       str(L.Conv2D(4, 3, dilation_rate=2, name='c').compute_output_shape((2, 9, 9, 1)))]
""",
    "Conv2D strides with dilation": "out = L.Conv2D(2, 3, strides=2, dilation_rate=2, name='c')",
    "Conv2D zero kernel size": "out = L.Conv2D(2, (0, 3), name='c')",
    "Conv2D negative filters": "out = L.Conv2D(-1, 3, name='c')",
    "Conv2D bad padding": "out = L.Conv2D(2, 3, padding='full', name='c')",
    "Conv2D bad kernel tuple": "out = L.Conv2D(2, (3, 3, 3), name='c')",
    "Conv2D input too small": "out = L.Conv2D(2, 5, name='c')(np.ones((1, 3, 3, 1), np.float32))",
    "Conv2D rank-3 input": "out = L.Conv2D(2, 2, name='c')(np.ones((3, 3, 1), np.float32))",
    "Conv2D channels_first on CPU": """
out = L.Conv2D(2, 2, data_format='channels_first', name='c')(np.ones((1, 2, 4, 4), np.float32))
""",
    "Conv2D wrong channels on a second call": """
c = L.Conv2D(2, 2, name='c')
c(np.ones((1, 3, 3, 1), np.float32))
out = c(np.ones((1, 3, 3, 2), np.float32))
""",
}

POOL_LAYERS = {
    "MaxPooling2D and AveragePooling2D defaults": HELP + """
x = R(2, 5, 7, 3)
out = [L.MaxPooling2D(name='m')(x), L.AveragePooling2D(name='a')(x),
       L.MaxPooling2D(3, 2, padding='same', name='m2')(x),
       L.AveragePooling2D((2, 3), strides=1, padding='same', name='a2')(x)]
""",
    "pooling get_config": """
out = [L.MaxPooling2D(name='m').get_config(),
       L.AveragePooling2D(3, 1, 'same', name='a').get_config()]
""",
    "pooling compute_output_shape": """
out = [str(L.MaxPooling2D(name='m').compute_output_shape((None, 27, 27, 32))),
       str(L.AveragePooling2D(3, 2, 'same', name='a').compute_output_shape((None, 7, 8, 3)))]
""",
    "pooling rank-3 input": "out = L.MaxPooling2D(name='m')(np.ones((4, 4, 1), np.float32))",
    "pooling bad padding": "out = L.MaxPooling2D(padding='causal2', name='m')",
    "GlobalAveragePooling2D": HELP + """
x = R(2, 3, 4, 5)
g, k = L.GlobalAveragePooling2D(name='g'), L.GlobalAveragePooling2D(keepdims=True, name='k')
out = grads(lambda t: g(t), x) + [k(x), g.get_config(),
                                  str(k.compute_output_shape((None, 3, 4, 5))),
                                  L.GlobalMaxPooling2D(name='gm')(x)]
""",
    "GlobalAveragePooling2D zero-size axis": """
out = L.GlobalAveragePooling2D(name='g')(np.ones((1, 0, 3, 2), np.float32))
""",
}

OTHER_LAYERS = {
    "Reshape": HELP + """
r = L.Reshape((3, -1), name='r')
out = grads(lambda t: r(t), R(2, 6, 2)) + [str(r.compute_output_shape((None, 6, 2))),
                                          str(r.compute_output_shape((None, None, 2))),
                                          r.get_config()]
""",
    "Reshape size mismatch": "out = L.Reshape((5,), name='r')(np.ones((2, 6), np.float32))",
    "Reshape two unknowns": "out = L.Reshape((-1, -1), name='r')(np.ones((2, 6), np.float32))",
    "Embedding": HELP + """
e = L.Embedding(5, 3, name='e')
e.build((None, 2))
e.set_weights([R(5, 3)])
ids = tf.constant([[0, 4], [4, 1]])
with tf.GradientTape() as t:
    y = e(ids)
    s = tf.reduce_sum(y * tf.constant(R(2, 2, 3, seed=2)))
out = [y, tf.convert_to_tensor(t.gradient(s, e.embeddings)), [w.name for w in e.weights],
       e(tf.constant([[1.0, 2.7]])), str(e.compute_output_shape((None, 2))), e.get_config()]
""",
    "Embedding uniform initializer bounds": """
e = L.Embedding(50, 4, name='e')
e.build((None,))
v = e.embeddings.numpy()
out = [bool(np.abs(v).max() <= 0.05), bool(np.abs(v).max() > 0.03)]
""",
    "Embedding in a Sequential": """
m = tf.keras.Sequential([L.Embedding(10, 4, name='e'), L.Flatten(name='f')], name='s')
out = [str(m(np.zeros((2, 3), np.int64)).shape), str(m.layers[0].output_shape)]
""",
    "Embedding id out of range": """
out = L.Embedding(3, 2, name='e')(tf.constant([[5]]))
""",
    "Embedding zero input_dim": "out = L.Embedding(0, 2, name='e')",
    "Add and Concatenate": HELP + """
a, c, c1 = L.Add(name='a'), L.Concatenate(name='c'), L.Concatenate(axis=1, name='c1')
out = (grads(lambda x, y: a([x, y]), R(2, 3), R(2, 3, seed=1))
       + grads(lambda x, y: c([x, y]), R(2, 3), R(2, 1, seed=1))
       + [c1([R(2, 3, 2), R(2, 1, 2)]), a([R(2, 3), R(2, 1, seed=1)]),
          c.get_config(), a.get_config(),
          str(c1.compute_output_shape([(None, 3, 2), (None, 1, 2)])),
          str(a.compute_output_shape([(None, 3), (None, 3)])),
          tf.keras.layers.add([R(1, 2), R(1, 2)]), tf.keras.layers.concatenate([R(1, 2), R(1, 2)])])
""",
    "Add incompatible shapes": """
out = L.Add(name='a')([np.ones((2, 3), np.float32), np.ones((2, 4), np.float32)])
""",
    "Add of one tensor": "out = L.Add(name='a')(np.ones((2, 3), np.float32))",
    "Add different batch sizes": """
out = L.Add(name='a')([np.ones((2, 3), np.float32), np.ones((3, 3), np.float32)])
""",
    "Concatenate mismatched shapes": """
out = L.Concatenate(name='c')([np.ones((2, 3), np.float32), np.ones((3, 3), np.float32)])
""",
    "LayerNormalization": HELP + """
n = L.LayerNormalization(name='n')
n.build((None, 3, 4))
n.set_weights([R(4, seed=1), R(4, seed=2)])
out = grads(lambda x: n(x), R(2, 3, 4) * 3 + 1) + [[w.name for w in n.weights], n.get_config()]
""",
    "LayerNormalization axes and small epsilon (unfused)": HELP + """
n = L.LayerNormalization(axis=[1, 2], epsilon=1e-6, name='n')
n.build((None, 3, 4))
n.set_weights([R(3, 4, seed=1), R(3, 4, seed=2)])
m = L.LayerNormalization(axis=1, center=False, name='m')
out = grads(lambda x: n(x), R(2, 3, 4) * 3 + 1) + [m(R(2, 3, 4)), len(m.weights), list(n.axis)]
""",
    "LayerNormalization weight gradients": HELP + """
n = L.LayerNormalization(name='n')
x = tf.constant(R(3, 5))
with tf.GradientTape() as t:
    y = tf.reduce_sum(n(x) * tf.constant(R(3, 5, seed=4)))
out = t.gradient(y, n.trainable_weights)
""",
    "LayerNormalization bad axis": """
out = L.LayerNormalization(axis=3, name='n')(np.ones((2, 3), np.float32))
""",
    "LayerNormalization axis string": "out = L.LayerNormalization(axis='1', name='n')",
}

KERAS_TUTORIAL_MODEL = """
model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(32, 3, activation='relu', input_shape=(28, 28, 1)),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(64, activation='relu'),
    tf.keras.layers.Dense(10)
])
"""
MODELS = {
    "summary of the Distributed-training-with-Keras CNN": HELP + KERAS_TUTORIAL_MODEL + """
out = summary(model) + [str(model.output_shape)]
""",
    "summary of the custom-training CNN built on (None, 28, 28, 1)": HELP + """
model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(32, 3, activation='relu'),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Conv2D(64, 3, activation='relu'),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(64, activation='relu'),
    tf.keras.layers.Dense(10)
])
model.build((None, 28, 28, 1))
out = summary(model)
""",
    "summary of every new layer": HELP + """
m = tf.keras.Sequential([
    L.Conv2D(4, 3, padding='same', input_shape=(8, 8, 2), name='conv'),
    L.AveragePooling2D(name='avg'), L.LayerNormalization(name='ln'),
    L.Conv2D(6, 2, strides=2, name='conv2'), L.GlobalAveragePooling2D(name='gap'),
    L.Reshape((3, 2), name='rs'), L.Flatten(name='f'), L.Dense(2, name='d')], name='all')
out = summary(m)
""",
    "a small CNN fit from fixed weights on 4 replicas": HELP + """
x, y = np.abs(R(20, 6, 6, 1)), np.arange(20) % 3
with S.scope():
    m = tf.keras.Sequential([
        L.Conv2D(3, 3, activation='relu', input_shape=(6, 6, 1), name='c'),
        L.MaxPooling2D(name='p'), L.Flatten(name='f'), L.Dense(3, name='d')])
    m.set_weights([R(3, 3, 1, 3, seed=1) * 0.5, np.zeros(3, np.float32),
                   R(12, 3, seed=2) * 0.3, np.zeros(3, np.float32)])
    m.compile(optimizer=tf.keras.optimizers.SGD(0.1),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])
h = m.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
out = [h.history['loss'], h.history['accuracy'], m.get_weights(), m.evaluate(x, y, verbose=0),
       m.predict(x[:3], verbose=0)]
""",
}

# tf.nn.conv2d_transpose (TF's Conv2DBackpropInput) and the Conv2DTranspose layer of the
# "Customizing what happens in fit()" GAN; LeakyReLU and ReLU layers.
TRANSPOSED = {
    f"conv2d_transpose {pad} strides {s} to {shape}": HELP + f"""
x, f = R(2, 4, 3, 3), R(3, 2, 5, 3, seed=1)
n = tf.nn.conv2d(tf.zeros([2] + {shape} + [5]), f, {s}, '{pad}').shape
out = [str(n)] + grads(lambda x, f: tf.nn.conv2d_transpose(x, f, [2] + {shape} + [5], {s},
                                                             '{pad}'), x, f)
""" for pad, s, shape in (("SAME", 1, [4, 3]), ("SAME", 2, [8, 6]), ("SAME", 2, [7, 5]),
                          ("VALID", 2, [9, 6]), ("VALID", [1, 2], [6, 7]))
}
TRANSPOSED.update({
    "conv2d_transpose output_shape a size conv2d would not give": HELP + """
out = tf.nn.conv2d_transpose(R(1, 4, 4, 2), R(3, 3, 1, 2), [1, 10, 8, 1], 2, 'SAME')
""",
    "Conv2DTranspose weights, names and shapes": """
c = L.Conv2DTranspose(4, (4, 3), strides=(2, 2), padding='same', name='t')
y = c(np.ones((2, 7, 5, 3), np.float32))
out = [str(y.shape), [w.name for w in c.weights], [str(tuple(w.shape)) for w in c.weights],
       c.count_params(), str(c.compute_output_shape((None, 7, 5, 3)))]
""",
    "Conv2DTranspose output and gradients from set weights": HELP + """
c = L.Conv2DTranspose(3, 4, strides=2, padding='same', activation='relu', name='t')
c.build((None, 5, 4, 2))
c.set_weights([R(4, 4, 3, 2, seed=1), R(3, seed=2)])
out = grads(lambda x: c(x), R(2, 5, 4, 2))
""",
    "Conv2DTranspose valid padding and output_padding": HELP + """
a = L.Conv2DTranspose(2, 3, strides=2, name='a')
b = L.Conv2DTranspose(2, 3, strides=2, padding='same', output_padding=1, name='b')
x = R(1, 4, 4, 1)
out = [str(a(x).shape), str(b(x).shape), str(a.compute_output_shape((None, 4, 4, 1))),
       str(b.compute_output_shape((None, 4, 4, 1)))]
""",
    "Conv2DTranspose get_config": """
out = L.Conv2DTranspose(4, 3, strides=2, padding='same', output_padding=1, name='t').get_config()
""",
    "Conv2DTranspose output_padding not below the stride": """
out = L.Conv2DTranspose(4, 3, strides=2, output_padding=2, name='t')
""",
    "Conv2DTranspose rank-3 input": """
out = L.Conv2DTranspose(2, 2, name='t')(np.ones((3, 3, 1), np.float32))
""",
    "LeakyReLU and ReLU": HELP + """
x = R(3, 4)
out = (grads(lambda x: L.LeakyReLU(name='l')(x), x) + grads(lambda x: L.LeakyReLU(alpha=0.2)(x), x)
       + grads(lambda x: L.ReLU(max_value=0.5, negative_slope=0.1, threshold=0.2)(x), x)
       + [L.LeakyReLU(alpha=0.2, name='l').get_config(),
          L.ReLU(max_value=6, name='r').get_config()])
""",
    "LeakyReLU alpha None": "out = L.LeakyReLU(alpha=None)",
    "ReLU negative max_value": "out = L.ReLU(max_value=-1.0)",
    "Softmax: axes, masks and config": HELP + """
x = R(2, 3, 4)
m = np.array([[1, 0, 1, 1], [0, 0, 1, 1], [1, 1, 1, 0]] * 2, np.float32).reshape(2, 3, 4)
out = (grads(lambda x: L.Softmax(name='s')(x), x) + grads(lambda x: L.Softmax(axis=1)(x), x)
       + grads(lambda x: L.Softmax(axis=[1, 2])(x), x) + grads(lambda x: L.Softmax(axis=[0])(x), x)
       + [L.Softmax()(x, mask=m), L.Softmax(robust_masking=True)(x, mask=m),
          L.Softmax(robust_masking=True)(x, mask=tf.constant(m > 0)),
          L.Softmax()(x.astype('float16'), mask=m.astype('float16')),
          L.Softmax(axis=(1, 2), robust_masking=True, name='s').get_config(),
          L.Softmax(name='s').compute_output_shape((None, 3))])
""",
    "Softmax robust_masking with a NumPy bool mask": """
out = L.Softmax(robust_masking=True)(np.ones((2, 2), np.float32), mask=np.eye(2) > 0)
""",
    "Softmax of a vector": "out = tf.keras.layers.Softmax()(np.ones(3, np.float32))",
})

# Layers of the Keras functional API guide (tests/tutorials/programs/functional_api.py).
GUIDE_LAYERS = {
    f"Conv1D {name}": HELP + f"""
c = L.Conv1D(4, 3, {kwargs}name='c')
c.build((None, 9, 5))
c.set_weights([R(3, 5, 4, seed=1), R(4, seed=2)])
out = grads(lambda x: c(x), R(2, 9, 5)) + [str(c.compute_output_shape((None, 9, 5))),
                                           str(c.compute_output_shape((None, None, 5)))]
""" for name, kwargs in (("valid", ""), ("strides 2", "strides=2, "),
                         ("same", "padding='same', "),
                         ("causal dilation 2", "padding='causal', dilation_rate=2, "),
                         ("causal strides 2", "padding='causal', strides=2, "))
}
GUIDE_LAYERS.update({
    "Conv1D weights, config and summary": HELP + """
i = tf.keras.Input((10, 5))
c = L.Conv1D(32, 3, activation='relu', name='c')
m = tf.keras.Model(i, c(i))
out = [[w.name for w in c.weights], [str(tuple(w.shape)) for w in c.weights],
       sorted(c.get_config().items()), summary(m)]
""",
    "UpSampling2D values, gradients and shapes": HELP + """
u = L.UpSampling2D((2, 3), name='u')
v = L.UpSampling2D(3, data_format='channels_first', name='v')
out = grads(lambda x: u(x), R(2, 3, 2, 4)) + [
    v(R(1, 2, 3, 2)), str(u.compute_output_shape((None, None, 5, 4))),
    sorted(u.get_config().items()), str(L.UpSampling2D()(tf.keras.Input((None, 4, 1))).shape)]
""",
    "UpSampling2D unknown interpolation": "out = L.UpSampling2D(interpolation='cubic')",
    "Average, Subtract, Multiply, Maximum, Minimum": HELP + """
a, b, c = R(2, 3), R(2, 3, seed=1), R(2, 1, seed=2)
out = [L.average([a, b, c]), L.subtract([a, b]), L.multiply([a, b, c]),
       L.maximum([a, b]), L.minimum([a, b, c]), L.Average(name='v').get_config()]
""",
    "Subtract of three inputs": "out = L.Subtract()([np.ones((1, 2), 'float32')] * 3)",
    "to_categorical": """
u = tf.keras.utils
out = [u.to_categorical([[1], [0], [3]]), u.to_categorical(np.array([[2, 1]]), 4, 'int32'),
       u.normalize(np.array([[3.0, 4.0], [0.0, 0.0]]))]
""",
    "plot_model without pydot": """
i = tf.keras.Input((3,))
out = tf.keras.utils.plot_model(tf.keras.Model(i, L.Dense(2)(i)), 'model.png')
""",
})

CASES = {**OPS, **CONV_LAYER, **POOL_LAYERS, **OTHER_LAYERS, **MODELS, **TRANSPOSED,
         **GUIDE_LAYERS}
