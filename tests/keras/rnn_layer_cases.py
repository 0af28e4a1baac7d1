"""``tf.keras.layers.RNN``, ``LSTM``, ``GRU``, ``SimpleRNN`` and their cells as TF 2.21
(tf-keras) runs them (record_tf_layers.py rnn_layers records, test_layers_tf_conformance.py
replays): outputs, sequences and final states from fixed weights, ``go_backwards``,
``unroll``, ``time_major``, gradients, a custom cell and a stack of cells, GRU's
``reset_after=False``, dropout in training, a stateful layer across calls, a Sequential
fit and its summary, a fit on 4 replicas (MirroredStrategy), weight names and configs, and
the errors."""

COMMON = """
import numpy as np
def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return [type(e).__name__, str(e).split(" [Op:")[0].split("Call arguments")[0]]
    return "no error"
def fixed(layer, scale=0.3, seed=5):
    rng = np.random.RandomState(seed)
    layer.set_weights([rng.uniform(-scale, scale, w.shape).astype(np.float32)
                       for w in layer.weights])
x = tf.constant(np.random.RandomState(6).uniform(-1, 1, (2, 5, 3)).astype(np.float32))
def built(layer, inputs=x, **kw):
    layer(inputs, **kw)
    fixed(layer)
    return layer
"""

LAYERS = COMMON + """
out = []
for make in (tf.keras.layers.LSTM, tf.keras.layers.GRU, tf.keras.layers.SimpleRNN):
    last = built(make(4))(x)
    seqs, *states = built(make(4, return_sequences=True, return_state=True))(x)
    back = built(make(4, go_backwards=True, return_sequences=True))(x)
    unrolled = built(make(4, unroll=True, return_state=True))(x)
    major = built(make(4, time_major=True, return_sequences=True),
                  tf.transpose(x, [1, 0, 2]))(tf.transpose(x, [1, 0, 2]))
    layer = built(make(3))
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_sum(y ** 2)
    grads = tape.gradient(loss, layer.trainable_weights)
    out.append([last, seqs, states, back, unrolled, major, grads,
                [w.name for w in layer.weights], [tuple(w.shape) for w in layer.weights]])
"""

CUSTOM = COMMON + """
class MinimalRNNCell(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        self.units = units
        self.state_size = units
        super(MinimalRNNCell, self).__init__(**kwargs)

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units),
                                      initializer='uniform', name='kernel')
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units),
                                                initializer='uniform', name='recurrent_kernel')
        self.built = True

    def call(self, inputs, states):
        prev_output = states[0]
        h = tf.keras.backend.dot(inputs, self.kernel)
        output = h + tf.keras.backend.dot(prev_output, self.recurrent_kernel)
        return output, [output]

minimal = built(tf.keras.layers.RNN(MinimalRNNCell(4), return_state=True))
stacked = built(tf.keras.layers.RNN([tf.keras.layers.LSTMCell(4), MinimalRNNCell(2),
                                     tf.keras.layers.GRUCell(3)],
                                    return_sequences=True, return_state=True))
seqs, *states = stacked(x)
cells = tf.keras.layers.StackedRNNCells([tf.keras.layers.SimpleRNNCell(2),
                                         tf.keras.layers.LSTMCell(3)])
given = built(tf.keras.layers.RNN(cells, return_state=True))
h0 = [tf.ones([2, 2]), [tf.ones([2, 3]) * 0.5, tf.zeros([2, 3])]]
out = [minimal(x), seqs, states, [tuple(w.shape) for w in stacked.weights],
       [w.name for w in stacked.weights], stacked.cell.state_size, stacked.cell.output_size,
       given(x), given(x, initial_state=h0), cells.state_size]
"""

GRU_VARIANTS = COMMON + """
tf.keras.utils.set_random_seed(3)
before = built(tf.keras.layers.GRU(4, reset_after=False, return_sequences=True))
no_bias = built(tf.keras.layers.GRU(4, use_bias=False))
relu = built(tf.keras.layers.SimpleRNN(4, activation="relu", use_bias=False))
cell = tf.keras.layers.GRUCell(3)
h = cell.get_initial_state(batch_size=2, dtype=tf.float32)
cell(x[:, 0], h)
fixed(cell)
step, new = cell(x[:, 0], h)
out = [before(x), [tuple(w.shape) for w in before.weights], no_bias(x), relu(x), step, new,
       cell.state_size, cell.output_size,
       [tuple(w.shape) for w in built(tf.keras.layers.GRU(4)).weights]]
"""

DROPOUT = COMMON + """
tf.keras.utils.set_random_seed(7)
out = [error(lambda: tf.keras.layers.SimpleRNN(4, seed=3))]
for make in (tf.keras.layers.LSTM, tf.keras.layers.GRU, tf.keras.layers.SimpleRNN):
    layer = built(make(4, dropout=0.5, recurrent_dropout=0.3, return_sequences=True))
    inputs_only = built(make(4, dropout=0.4))
    out.append([layer(x, training=True), layer(x, training=True), layer(x),
                inputs_only(x, training=True), layer.cell.implementation
                if hasattr(layer.cell, "implementation") else None])
seeded = built(tf.keras.layers.GRU(3, dropout=0.5, seed=11))
out.append([seeded(x, training=True), seeded(x, training=True)])
"""

STATEFUL = COMMON + """
layer = tf.keras.layers.LSTM(4, stateful=True, return_state=True)
layer(x)
fixed(layer)
layer.reset_states()
first = layer(x)
second = layer(x)                  # starts from the first call's last states
kept = [s.numpy() for s in layer.states]
layer.reset_states()
third = layer(x)
layer.reset_states([np.ones((2, 4), np.float32), np.zeros((2, 4), np.float32)])
fourth = layer(x)
plain = tf.keras.layers.GRU(2)
out = [first, second, kept, third, fourth, len(layer.states), error(plain.reset_states),
       error(lambda: layer.reset_states([np.ones((2, 4), np.float32)])),
       error(lambda: tf.keras.Sequential([tf.keras.layers.Input((5, 3)),
                                          tf.keras.layers.GRU(2, stateful=True)]))]
"""

MODEL = COMMON + """
tf.keras.utils.set_random_seed(1)
model = tf.keras.Sequential([tf.keras.layers.LSTM(8, return_sequences=True, input_shape=(None, 3)),
                             tf.keras.layers.GRU(4),
                             tf.keras.layers.Dense(1)])
for layer in model.layers:
    fixed(layer)
model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
y = tf.constant([[0.5], [-0.25]])
history = model.fit(x, y, epochs=3, batch_size=2, verbose=0)
lines = []
model.summary(print_fn=lines.append)
inputs = tf.keras.Input((5, 3))
seq, h, c = tf.keras.layers.LSTM(6, return_sequences=True, return_state=True)(inputs)
functional = tf.keras.Model(inputs, [seq, h, c])
config = tf.keras.layers.LSTM(3, dropout=0.1, return_sequences=True).get_config()
out = [history.history["loss"], model.predict(x, verbose=0), lines, model.output_shape,
       [tuple(t.shape) for t in functional.outputs],
       sorted(config), [(k, v) for k, v in sorted(config.items())
                        if not isinstance(v, dict) and k != "name"],
       tf.keras.layers.GRU(3, dropout=0.2).dropout,
       type(tf.keras.layers.LSTM.from_config(config)).__name__]
"""

ERRORS = COMMON + """
out = [error(lambda: tf.keras.layers.LSTM(3)(tf.ones([2, 3]))),
       error(lambda: tf.keras.layers.GRU(0)),
       error(lambda: tf.keras.layers.RNN(3)),
       error(lambda: tf.keras.Sequential([tf.keras.layers.Input((None, 3)),
                                          tf.keras.layers.SimpleRNN(2, unroll=True)])),
       error(lambda: tf.keras.layers.LSTM(3)(x, initial_state=[tf.zeros([2, 3])])),
       error(lambda: tf.keras.layers.SimpleRNN(3)(x, initial_state=[tf.zeros([2, 4])])),
       error(lambda: tf.keras.layers.SimpleRNNCell(3).get_initial_state())]
"""

REPLICAS = COMMON + """
xs = np.random.RandomState(8).uniform(-1, 1, (16, 5, 3)).astype(np.float32)
ys = (np.arange(16) % 3).astype(np.int32)
with S.scope():
    model = tf.keras.Sequential([tf.keras.layers.GRU(6, return_sequences=True,
                                                     input_shape=(5, 3)),
                                 tf.keras.layers.LSTM(4), tf.keras.layers.Dense(3)])
    for layer in model.layers:
        fixed(layer)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    stateful = error(lambda: tf.keras.layers.LSTM(2, stateful=True))
history = model.fit(xs, ys, batch_size=8, epochs=3, shuffle=False, verbose=0)
out = [history.history["loss"], history.history["accuracy"], model.get_weights(),
       model.evaluate(xs, ys, verbose=0), stateful]
"""

CASES = {
    "LSTM, GRU, SimpleRNN from fixed weights: outputs, states, go_backwards, unroll, "
    "time_major, gradients": LAYERS,
    "RNN of a custom cell (Keras's MinimalRNNCell) and of stacked cells, initial_state":
        CUSTOM,
    "GRU reset_after=False, without bias, GRUCell; SimpleRNN relu": GRU_VARIANTS,
    "LSTM, GRU, SimpleRNN dropout and recurrent_dropout in training": DROPOUT,
    "a stateful LSTM carries its states across calls; reset_states": STATEFUL,
    "a Sequential LSTM -> GRU -> Dense fit, its summary, a functional LSTM, configs": MODEL,
    "RNN layers' errors": ERRORS,
    "a GRU -> LSTM -> Dense fit from fixed weights on 4 replicas; stateful refused": REPLICAS,
}
