"""``Layer.add_metric``: a value a layer's call reports, averaged by a Mean metric of that
name, in fit's History, evaluate's results and ``model.metrics``, as TF 2.21 with tf-keras
recorded them (record_tf_layers.py add_metric; replayed by test_functional_construction.py).

Same conventions as layer_cases.py (``tf``, ``np``, ``L``, ``S`` in scope; ``out`` is the
result).
"""

LOGGING = """
class MetricLoggingLayer(L.Layer):    # the training-and-evaluation guide's layer
    def call(self, inputs):
        self.add_metric(tf.keras.backend.std(inputs), name='std_of_activation',
                        aggregation='mean')
        self.add_metric(tf.reduce_sum(inputs), name='total')
        return inputs
def model():
    inp = tf.keras.Input(shape=(2,))
    x = MetricLoggingLayer()(inp)
    o = L.Dense(1, kernel_initializer='ones')(x)
    m = tf.keras.Model(inp, o)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss='mse')
    return m
x = np.arange(16, dtype='float32').reshape(8, 2) / 8.0
y = np.ones((8, 1), 'float32')
"""

CASES = {
    "add_metric values are averaged over the epoch in fit's History and evaluate": LOGGING + """
m = model()
names_before = [v.name for v in m.metrics]
h = m.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
ev = m.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
out = [names_before, sorted(h.history), [h.history[k] for k in sorted(h.history)],
       sorted(ev.items()), [v.name for v in m.metrics], len(m.weights)]
""",
    "add_metric under a 4-replica MirroredStrategy": LOGGING + """
with S.scope():
    m = model()
h = m.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
out = [sorted(h.history), [h.history[k] for k in sorted(h.history)]]
""",
    "add_metric in an eager call updates its Mean": """
class Tot(L.Layer):
    def call(self, x):
        self.add_metric(tf.reduce_sum(x), name='tot')
        return x
layer = Tot()
layer(tf.ones((2, 2)))
layer(tf.zeros((2, 2)))
out = [[m.name for m in layer.metrics], layer.metrics[0].result(), type(layer.metrics[0]).__name__]
""",
    "add_metric without a name": """
class NoName(L.Layer):
    def call(self, x):
        self.add_metric(tf.reduce_sum(x))
        return x
NoName()(tf.ones((2, 2)))
""",
    "add_metric with an unknown keyword": """
class Odd(L.Layer):
    def call(self, x):
        self.add_metric(tf.reduce_sum(x), name='s', reduction='sum')
        return x
Odd()(tf.ones((2, 2)))
""",
    "add_metric of a concrete tensor outside a call": """
L.Dense(1).add_metric(tf.constant(1.0), name='one')
""",
}

CASES["compile without a loss: the losses layers add are minimized"] = """
class ActivityRegularizationLayer(L.Layer):    # the custom layers and models guide's
    def __init__(self, rate=1e-2):
        super().__init__()
        self.rate = rate
    def call(self, inputs):
        self.add_loss(self.rate * tf.reduce_sum(inputs))
        return inputs
inputs = tf.keras.Input(shape=(3,))
x = L.Dense(2, kernel_initializer='ones')(inputs)
model = tf.keras.Model(inputs, ActivityRegularizationLayer()(x))
model.compile(optimizer=tf.keras.optimizers.SGD(0.1))
x = np.arange(6, dtype='float32').reshape(2, 3) / 6.0
h = model.fit(x, np.zeros((2, 2), 'float32'), epochs=2, verbose=0)
h2 = model.fit(x, epochs=1, verbose=0)
out = [h.history, h2.history, model.get_weights()]
"""

CASES["add_metric of a Metric's result adds that Metric (the subclassing guide's endpoint)"] = """
class LogisticEndpoint(L.Layer):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.loss_fn = tf.keras.losses.BinaryCrossentropy(from_logits=True)
        self.accuracy_fn = tf.keras.metrics.BinaryAccuracy()
    def call(self, targets, logits, sample_weights=None):
        loss = self.loss_fn(targets, logits, sample_weights)
        self.add_loss(loss)
        acc = self.accuracy_fn(targets, logits, sample_weights)
        self.add_metric(acc, name="accuracy")
        return tf.nn.softmax(logits)
layer = LogisticEndpoint()
y = layer(tf.ones((2, 2)), tf.ones((2, 2)))
eager = [[m.name for m in layer.metrics], float(layer.metrics[0].result())]
inputs = tf.keras.Input(shape=(3,), name="inputs")
targets = tf.keras.Input(shape=(10,), name="targets")
logits = L.Dense(10, kernel_initializer='ones')(inputs)
predictions = LogisticEndpoint(name="predictions")(logits, targets)
model = tf.keras.Model(inputs=[inputs, targets], outputs=predictions)
model.compile(optimizer=tf.keras.optimizers.SGD(0.1))
rng = np.random.RandomState(0)
data = {"inputs": rng.random_sample((3, 3)), "targets": rng.random_sample((3, 10))}
h = model.fit(data, verbose=0)
out = [eager, [m.name for m in model.metrics], h.history]
"""

CASES["add_metric of a Metric's result on a functional model"] = """
inp = tf.keras.Input(shape=(2,))
model = tf.keras.Model(inp, L.Dense(1)(inp))
model.add_metric(tf.keras.metrics.Mean()(tf.constant(1.0)))
"""

# A functional model's own loss and metric of KerasTensors (tf-keras's AddLoss / AddMetric
# layers): each step computes them anew, fit adds the loss to the compiled one (or trains on
# it alone) and reports the metric; the op and Add* layers are listed after the model's own.
KERAS_TENSOR_ENDPOINTS = """
inp = tf.keras.Input(shape=(2,))
h = L.Dense(3, kernel_initializer='ones', name='hidden')(inp)
o = L.Dense(1, kernel_initializer='ones', name='out')(h)
m = tf.keras.Model(inp, o)
m.add_loss(0.1 * tf.reduce_mean(tf.square(h)))
m.add_metric(tf.reduce_sum(h), name='total')
x = np.arange(8, dtype='float32').reshape(4, 2) / 8.0
y = np.ones((4, 1), 'float32')
"""

CASES["add_loss and add_metric of KerasTensors on a functional model"] = (
    KERAS_TENSOR_ENDPOINTS + """
m.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss='mse')
h1 = m.fit(x, y, batch_size=2, epochs=2, verbose=0, shuffle=False)
ev = m.evaluate(x, y, verbose=0, return_dict=True)
m.compile(optimizer=tf.keras.optimizers.SGD(0.05))
h2 = m.fit(x, y, batch_size=4, epochs=1, verbose=0)
out = [h1.history, sorted(ev.items()), h2.history, [type(la).__name__ for la in m.layers],
       [v.name for v in m.metrics], len(m.losses)]
""")

CASES["a functional model's own loss and metric after from_config and a .keras file"] = (
    KERAS_TENSOR_ENDPOINTS + """
import os, tempfile
m2 = tf.keras.Model.from_config(m.get_config())
m2.set_weights(m.get_weights())
path = os.path.join(tempfile.mkdtemp(), 'm.keras')
m.save(path)
out = []
for model in (m2, tf.keras.models.load_model(path)):
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss='mse')
    out += [[type(la).__name__ for la in model.layers],
            sorted(model.evaluate(x, y, verbose=0, return_dict=True).items())]
""")
