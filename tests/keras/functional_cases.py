"""Functional-API programs (``tf.keras.Model(inputs, outputs)``) whose results TF 2.21
recorded (record_tf_layers.py functional) and simdist must reproduce
(test_layers_tf_conformance.py): KerasTensors, graphs with several inputs and outputs and
shared layers, summaries with their "Connected to" column, calls with lists and dicts,
fit / evaluate / predict from fixed weights under a 4-replica MirroredStrategy (several
outputs too), nesting, and the errors of a broken graph.

Same conventions as layer_cases.py (``tf``, ``np``, ``L``, ``S`` in scope; ``out`` is the
result). Weights are set explicitly (the cases predate simdist drawing TF's numbers).
"""

HELP = """
def R(*shape, seed=0):
    return np.random.RandomState(seed).normal(size=shape).astype('float32')
def C(*shape, seed=0):
    return tf.keras.initializers.Constant(R(*shape, seed=seed) * 0.5)
def summary(m):
    buf = []
    m.summary(print_fn=lambda s, **k: buf.append(s))
    return buf
"""

# Two inputs through one shared Dense, joined by Add and Concatenate, to two outputs.
TWO_TOWERS = HELP + """
def towers():
    a = tf.keras.Input(shape=(3,), name='a')
    b = tf.keras.Input(shape=(3,), name='b')
    shared = L.Dense(4, activation='relu', kernel_initializer=C(3, 4, seed=1), name='shared')
    sa, sb = shared(a), shared(b)
    added = L.Add(name='add')([sa, sb])
    joined = L.Concatenate(name='cat')([sa, sb])
    o1 = L.Dense(1, kernel_initializer=C(4, 1, seed=2), name='o1')(added)
    o2 = L.Dense(2, kernel_initializer=C(8, 2, seed=3), name='o2')(joined)
    return a, b, o1, o2, shared
"""

# A subclass of Model made with inputs and outputs ("Customizing what happens in fit()").
SUBCLASS = HELP + """
class CustomModel(tf.keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)
        self.optimizer.apply_gradients(zip(tape.gradient(loss, self.trainable_variables),
                                           self.trainable_variables))
        self.compiled_metrics.update_state(y, y_pred)
        return {m.name: m.result() + 1000.0 for m in self.metrics}
inp = tf.keras.Input(shape=(3,))
m = CustomModel(inp, L.Dense(1, kernel_initializer=C(3, 1, seed=1))(inp))
"""

CASES = {
    "a Model subclass made with inputs and outputs is functional and keeps its train_step":
        SUBCLASS + """
m.compile(optimizer='sgd', loss='mse', metrics=['mae'])
h = m.fit(R(8, 3), R(8, 1, seed=2), batch_size=4, epochs=2, verbose=0, shuffle=False)
out = [m.name, [type(c).__name__ for c in type(m).__mro__[:3]], summary(m), h.history,
       m.get_config()['name'], len(m.layers)]
""",
    "a Model subclass calling super().__init__(inputs, outputs)": HELP + """
class Tower(tf.keras.Model):
    def __init__(self):
        inp = tf.keras.Input(shape=(2,))
        super().__init__(inp, L.Dense(2, kernel_initializer=C(2, 2, seed=3))(inp))
        self.extra = 5
t = Tower()
out = [t.name, t.extra, t(R(2, 2)), t.output_shape]
""",
    "functional CNN: summary, names and shapes": HELP + """
inp = tf.keras.Input(shape=(28, 28, 1))
x = L.Conv2D(32, 3, activation='relu')(inp)
x = L.MaxPooling2D()(x)
x = L.Flatten()(x)
x = L.Dense(64, activation='relu')(x)
out = L.Dense(10)(x)
m = tf.keras.Model(inp, out)
out = [summary(m), m.name, str(inp), str(inp.shape), inp.dtype.name,
       [l.name for l in m.layers], [w.name for w in m.weights], str(m.input_shape),
       str(m.output_shape), m.input_names, m.output_names, type(m).__name__,
       str(m.layers[0].output_shape), str(m.layers[1].input_shape)]
""",
    "two towers: summary with connections, weights counted once": TWO_TOWERS + """
a, b, o1, o2, shared = towers()
m = tf.keras.Model([a, b], [o1, o2], name='towers')
out = [summary(m), [l.name for l in m.layers], len(m.weights), m.count_params(),
       str(m.input_shape), str(m.output_shape), str(shared.output_shape), m.output_names]
""",
    "two towers: calls with a list, a dict by input name, and float64": TWO_TOWERS + """
a, b, o1, o2, shared = towers()
m = tf.keras.Model([a, b], [o1, o2], name='towers')
xa, xb = R(2, 3, seed=4), R(2, 3, seed=5)
out = [m([xa, xb]), m({'a': xa, 'b': xb}), m([xa.astype('float64'), xb])[0].dtype.name]
""",
    "dict inputs and dict outputs": HELP + """
a = tf.keras.Input(shape=(2,), name='in_a')
b = tf.keras.Input(shape=(2,), name='in_b')
s = L.Add(name='s')([a, b])
m = tf.keras.Model({'x': a, 'y': b}, {'sum': s, 'dense': L.Dense(1, kernel_initializer='ones',
                                                                name='d')(s)})
r = m({'x': R(1, 2), 'y': R(1, 2, seed=1)})
out = [sorted(r), r['sum'], r['dense'], str(m.output_shape), m.input_names]
""",
    "a shared layer called on other shapes has no single output shape": HELP + """
a = tf.keras.Input(shape=(3,)); b = tf.keras.Input(shape=(5, 3))
d = L.Dense(2, name='d')
m = tf.keras.Model([a, b], [d(a), d(b)])
out = [summary(m), d.output_shape]
""",
    "Input without shape": "out = tf.keras.Input()",
    "Input with batch_size and dtype": """
t = tf.keras.Input(shape=(2, 3), batch_size=4, dtype='int32', name='ids')
out = [str(t.shape), t.dtype.name, t.name, str(t)]
""",
    "graph disconnected": """
a = tf.keras.Input(shape=(3,), name='a'); b = tf.keras.Input(shape=(3,), name='b')
out = tf.keras.Model(a, L.Add(name='add')([a, b]))
""",
    "outputs that are not KerasTensors": """
a = tf.keras.Input(shape=(3,), name='a')
out = tf.keras.Model(a, np.ones((2, 3)))
""",
    "the wrong number of inputs in a call": """
a = tf.keras.Input(shape=(3,), name='a'); b = tf.keras.Input(shape=(3,), name='b')
m = tf.keras.Model([a, b], L.Add(name='add')([a, b]))
out = m([np.ones((1, 3), np.float32)] * 3)
""",
    "a dict missing an input's name": """
a = tf.keras.Input(shape=(3,), name='a'); b = tf.keras.Input(shape=(3,), name='b')
m = tf.keras.Model([a, b], L.Add(name='add')([a, b]))
out = m({'a': np.ones((1, 3), np.float32), 'c': np.ones((1, 3), np.float32)})
""",
    "a functional model nested in another, and a Sequential led by an Input": HELP + """
i = tf.keras.Input(shape=(4,), name='i')
inner = tf.keras.Model(i, L.Dense(3, kernel_initializer=C(4, 3), name='d1')(i), name='inner')
j = tf.keras.Input(shape=(4,), name='j')
outer = tf.keras.Model(j, L.Dense(1, kernel_initializer=C(3, 1, seed=1), name='d2')(inner(j)),
                       name='outer')
seq = tf.keras.Sequential([tf.keras.Input(shape=(4,)), L.Dense(2, name='sd')], name='seq')
out = [summary(outer), [w.name for w in outer.weights], outer(R(2, 4, seed=2)),
       summary(seq), [l.name for l in seq.layers]]
""",
    "training flows into a Dropout inside": HELP + """
i = tf.keras.Input(shape=(100,))
m = tf.keras.Model(i, L.Dropout(0.5, name='do')(i))
x = np.ones((2, 100), np.float32)
out = [m(x), bool(np.any(m(x, training=True).numpy() == 0.0)),
       sorted(set(np.round(m(x, training=True).numpy().ravel(), 3).tolist()))]
""",
    "integer ids through an Embedding": HELP + """
ids = tf.keras.Input(shape=(3,), dtype='int32', name='ids')
e = L.Embedding(6, 2, embeddings_initializer=C(6, 2), name='e')(ids)
m = tf.keras.Model(ids, L.Flatten(name="f")(e))
out = [m(np.array([[0, 5, 2]])), str(m.output_shape), summary(m)]
""",
    "fit, evaluate and predict on 4 replicas": HELP + """
x, y = R(24, 5), (np.arange(24) % 3)
with S.scope():
    i = tf.keras.Input(shape=(5,))
    h = L.Dense(4, activation='relu', kernel_initializer=C(5, 4, seed=1), name='h')(i)
    o = L.Dense(3, kernel_initializer=C(4, 3, seed=2), name='o')(h)
    m = tf.keras.Model(i, o)
    m.compile(tf.keras.optimizers.SGD(0.1),
              tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])
hist = m.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
out = [hist.history, m.evaluate(x, y, verbose=0), m.predict(x[:5], verbose=0),
       m.get_weights(), type(m.weights[0]).__name__]
""",
    "two outputs: losses, loss weights and metrics per output on 4 replicas": TWO_TOWERS + """
xa, xb = R(16, 3, seed=4), R(16, 3, seed=5)
y1, y2 = R(16, 1, seed=6), (np.arange(16) % 2)
with S.scope():
    a, b, o1, o2, shared = towers()
    m = tf.keras.Model([a, b], [o1, o2], name='towers')
    m.compile(tf.keras.optimizers.SGD(0.05),
              loss=['mse', tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)],
              loss_weights=[1.0, 0.5], metrics=['mae'])
hist = m.fit([xa, xb], [y1, y2], batch_size=8, epochs=2, shuffle=False, verbose=0)
p = m.predict([xa[:3], xb[:3]], verbose=0)
out = [sorted(hist.history), [hist.history[k] for k in sorted(hist.history)],
       m.evaluate([xa, xb], [y1, y2], verbose=0), m.metrics_names, p]
""",
    "two outputs: losses and metrics by output name": TWO_TOWERS + """
xa, xb = R(8, 3, seed=4), R(8, 3, seed=5)
y1, y2 = R(8, 1, seed=6), (np.arange(8) % 2)
a, b, o1, o2, shared = towers()
m = tf.keras.Model({'a': a, 'b': b}, {'o1': o1, 'o2': o2})
m.compile(tf.keras.optimizers.SGD(0.05),
          loss={'o1': 'mse', 'o2': tf.keras.losses.SparseCategoricalCrossentropy(True)},
          metrics={'o2': ['accuracy']})
hist = m.fit({'a': xa, 'b': xb}, {'o1': y1, 'o2': y2}, batch_size=4, epochs=1, shuffle=False,
             verbose=0)
out = [hist.history, m.evaluate({'a': xa, 'b': xb}, {'o1': y1, 'o2': y2}, verbose=0,
                                return_dict=True)]
""",
    "a loss list shorter than the outputs leaves the last ones without a loss": TWO_TOWERS + """
a, b, o1, o2, shared = towers()
m = tf.keras.Model([a, b], [o1, o2])
m.compile('sgd', loss=['mse'])
out = m.fit([R(4, 3), R(4, 3)], [R(4, 1), R(4, 2)], verbose=0).history
""",
    "an empty name is kept by a layer and a subclassed model, not by Functional": HELP + """
class Block(tf.keras.Model):
    def __init__(self):
        super().__init__(name='')
        self.d, self.e = L.Dense(2, name='d'), L.Dense(1, name='e')
    def call(self, x):
        return self.e(self.d(x))
b = Block()
_ = b(tf.zeros([1, 3]))
i = tf.keras.Input(shape=(3,))
out = [b.name, [w.name for w in b.weights], summary(b)[0], L.Dense(1, name='').name,
       tf.keras.Model(i, L.Dense(1, name='o')(i), name='').name == '',
       tf.keras.Sequential(name='').name == '']
""",
    "a layer named by a number": "out = L.Dense(1, name=3)",
    "a Sequential conforms (batch,) inputs to its (batch, 1) Input; an adapted Normalization's"
    " mean gives the next layer its last dimension": """
norm = L.Normalization(axis=-1)
norm.adapt(np.arange(12, dtype=np.float32).reshape(4, 3))
lin = tf.keras.Sequential([norm, L.Dense(1, kernel_initializer='ones', name='d')])
one = L.Normalization(input_shape=[1,], axis=None)
one.adapt(np.array([1., 2., 3., 4.]))
m = tf.keras.Sequential([one, L.Dense(1, kernel_initializer='ones', name='e')])
out = [str(lin.output_shape), lin.predict(np.ones((2, 3)), verbose=0), str(m.output_shape),
       m.predict(np.array([1., 5.]), verbose=0), m(np.array([[2.], [3.]])),
       m(tf.constant([2., 3.])), str(norm.compute_output_shape((None, None)))]
""",
    "an Input(ragged=True): Embedding and GlobalAveragePooling1D of RaggedTensor rows; call, "
    "predict, fit": """
tf.keras.utils.set_random_seed(0)
x = tf.keras.Input(shape=[None], dtype=tf.int64, ragged=True)
e = L.Embedding(10, 4)(x)
p = L.GlobalAveragePooling1D()(e)
m = tf.keras.Model(x, L.Dense(1)(p))
data = tf.ragged.constant([[1, 2, 3], [4], [5, 6], [7, 8, 9, 1]], dtype=tf.int64)
called, predicted = m(data), m.predict(data, verbose=0)
m.compile(optimizer='sgd', loss='mse')
history = m.fit(data, tf.constant([[1.], [0.], [1.], [0.]]), epochs=2, verbose=0).history
out = [repr(x), str(x), repr(e), repr(p), called, predicted, history, m.get_weights(),
       m.layers[0].get_config()]
""",
}
