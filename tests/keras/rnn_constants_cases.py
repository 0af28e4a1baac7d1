"""Recurrent ``constants`` and a tensor ``training`` as TF 2.21 (tf-keras) runs them
(record_tf_layers.py rnn_constants records, test_layers_tf_conformance.py replays): an RNN
whose cell's ``call`` takes ``constants`` (given as a tensor or a list; with a mask,
``go_backwards``, ``unroll``, states; gradients into the constants; a functional model with
the constants as an Input; ``num_constants`` in the config; ``Bidirectional`` over such
an RNN), a cell that takes none
(TF's ValueError); ``LSTMCell`` / ``GRUCell`` / ``LSTM`` / ``Dropout`` given ``training``
as a boolean tensor, eagerly and in a ``tf.function`` (one trace, the dropout drawn or not
by the tensor's value); ``BatchNormalization`` (plain and fused) given such a ``training``
(one trace; batch or moving statistics and the moving averages' update by its value); an
unseeded traced LSTM / GRU with recurrent dropout under a global seed (TF's op seeds: the
loop body draws masks of its own at every step)."""

from masking_cases import COMMON

CONSTANTS = COMMON + """
class ConstantCell(tf.keras.layers.Layer):
    def __init__(self, units, constant_dim=2, **kwargs):
        self.units, self.state_size, self.constant_dim = units, units, constant_dim
        super().__init__(**kwargs)

    def build(self, input_shape):
        self.built_with = str(input_shape)
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units),
                                      initializer="uniform", name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units),
                                                initializer="uniform", name="recurrent_kernel")
        self.constant_kernel = self.add_weight(shape=(self.constant_dim, self.units),
                                               initializer="uniform", name="constant_kernel")
        self.built = True

    def call(self, inputs, states, constants):
        h = tf.matmul(inputs, self.kernel) + tf.matmul(states[0], self.recurrent_kernel)
        h = tf.tanh(h + tf.matmul(constants[0], self.constant_kernel))
        return h, [h]

    def get_config(self):
        return dict(super().get_config(), units=self.units, constant_dim=self.constant_dim)

c = tf.constant(np.random.RandomState(8).uniform(-1, 1, (3, 2)).astype(np.float32))
layer = tf.keras.layers.RNN(ConstantCell(4), return_sequences=True, return_state=True)
layer(x, constants=c)
fixed(layer)
seqs, state = layer(x, constants=c)
back = tf.keras.layers.RNN(ConstantCell(4), go_backwards=True, unroll=True)
back(x, constants=[c])
fixed(back)
masked = tf.keras.layers.Masking()(x)
with tf.GradientTape() as tape:
    tape.watch(c)
    loss = tf.reduce_sum(back(x, constants=[c]) ** 2)
grads = tape.gradient(loss, [c] + back.trainable_weights)
xi = tf.keras.Input(shape=(None, 3))
ci = tf.keras.Input(shape=(2,))
rnn = tf.keras.layers.RNN(ConstantCell(3), return_sequences=True)
model = tf.keras.Model([xi, ci], rnn(xi, constants=ci))
fixed(rnn)
config = rnn.get_config()
both = tf.keras.layers.Bidirectional(tf.keras.layers.RNN(ConstantCell(2), return_sequences=True))
both(x, constants=c)
fixed(both)
both_state = tf.keras.layers.Bidirectional(tf.keras.layers.RNN(ConstantCell(2),
                                                               return_state=True),
                                           merge_mode="sum")
both_state(x, constants=[c])
fixed(both_state)
bad = error(lambda: tf.keras.layers.RNN(tf.keras.layers.SimpleRNNCell(2))(x, constants=c))
out = [seqs, state, layer(x, constants=[c], initial_state=tf.ones([3, 4]))[1],
       layer.cell.built_with, back(x, constants=c), back(masked, constants=c), grads,
       [w.name for w in back.weights], model([x, c]), model.predict([rows, c.numpy()], verbose=0),
       model.output_shape, config.get("num_constants"), both(x, constants=c),
       both_state(x, constants=c, initial_state=[tf.ones([3, 2]), tf.zeros([3, 2])]),
       both(masked, constants=c), both.get_config().get("num_constants"),
       [w.name for w in both.weights], [(k, config[k]) for k in
       ("return_sequences", "go_backwards")],
       [bad[0], bad[1].split("RNN cell <")[0], bad[1].split(" object at 0x")[0].split(".")[-1],
        bad[1].split(">")[1].split("Received")[0]]]
"""

TRAINING = COMMON + """
x0 = x[:, 0]
lstm_cell = tf.keras.layers.LSTMCell(3, dropout=0.5, recurrent_dropout=0.4, seed=7)
gru_cell = tf.keras.layers.GRUCell(3, dropout=0.5, recurrent_dropout=0.4, seed=9)
h = tf.constant(np.random.RandomState(9).uniform(-1, 1, (3, 3)).astype(np.float32))
for cell, state in ((lstm_cell, [h, h * 0.5]), (gru_cell, h)):
    cell(x0, state)
    fixed(cell)

def fresh(cell):
    cell.reset_dropout_mask()
    cell.reset_recurrent_dropout_mask()

eager = []
for cell, state in ((lstm_cell, [h, h * 0.5]), (gru_cell, h)):
    for value in (True, False, True):
        fresh(cell)
        eager.append(cell(x0, state, training=tf.constant(value))[0])

@tf.function
def lstm_step(training):
    fresh(lstm_cell)
    return lstm_cell(x0, [h, h * 0.5], training=training)

@tf.function
def gru_step(training):
    fresh(gru_cell)
    return gru_cell(x0, h, training=training)

lstm = tf.keras.layers.LSTM(3, dropout=0.3, seed=3, return_sequences=True)
lstm(x)
fixed(lstm)
cell_lstm = tf.keras.layers.LSTM(2, dropout=0.3, recurrent_dropout=0.2, seed=3)
cell_lstm(x)
fixed(cell_lstm)
tf.random.set_seed(5)   # the cell's masks: TF gives the layer's seed to the layer only
eager_lstm = [cell_lstm(x, training=tf.constant(True)), cell_lstm(x, training=tf.constant(False))]
drop = tf.keras.layers.Dropout(0.5, seed=5)

@tf.function
def layers_step(training):
    return lstm(x, training=training), drop(x, training=training)

traced = [lstm_step(tf.constant(True)), lstm_step(tf.constant(False)),
          gru_step(tf.constant(True)), gru_step(tf.constant(False)),
          gru_step(tf.constant(True)), layers_step(tf.constant(True)),
          layers_step(tf.constant(False))]
out = [eager, eager_lstm, traced, lstm_step.experimental_get_tracing_count(),
       gru_step.experimental_get_tracing_count(), layers_step.experimental_get_tracing_count()]
"""

BATCH_NORM = COMMON + """
rng = np.random.RandomState(3)
out = []
for shape in ((4, 3), (2, 3, 3, 2), (2, 3, 4)):
    x = tf.constant(rng.randn(*shape).astype(np.float32))
    bn = tf.keras.layers.BatchNormalization(momentum=0.5)
    bn.build(x.shape)
    fixed(bn, seed=4)
    traces = []
    @tf.function
    def step(x, training):
        traces.append(1)
        return bn(x, training=training)
    seen = [bn(x, training=tf.constant(False)), bn.moving_mean.numpy()]
    for value in (True, False, True):
        y = step(x, tf.constant(value))
        seen.append([y, bn.moving_mean.numpy(), bn.moving_variance.numpy()])
    out.append([seen, len(traces)])
frozen = tf.keras.layers.BatchNormalization()
frozen.trainable = False
@tf.function
def frozen_step(x, training):
    return frozen(x, training=training)
out.append([frozen_step(x, tf.constant(True)), frozen.moving_mean.numpy()])
"""

UNSEEDED = COMMON + """
tf.random.set_seed(11)
x = tf.constant(np.random.RandomState(2).uniform(-1, 1, (2, 4, 3)).astype(np.float32))
out = []
for kind, kw, calls in ((tf.keras.layers.LSTM, dict(recurrent_dropout=0.4), 2),
                        (tf.keras.layers.LSTM, dict(dropout=0.3, recurrent_dropout=0.4), 1),
                        (tf.keras.layers.GRU, dict(recurrent_dropout=0.4), 1)):
    rnn = kind(2, **kw)
    rnn(x)
    rnn.set_weights([np.full(w.shape, 0.3, np.float32) for w in rnn.get_weights()])
    @tf.function
    def step(x):
        return rnn(x, training=True)
    out.append([step(x) for _ in range(calls)])
"""

CASES = {
    "RNN constants: a cell taking constants, masks, go_backwards, unroll, gradients, a "
    "functional model, config, a cell without constants": CONSTANTS,
    "LSTMCell, GRUCell, LSTM and Dropout given a boolean tensor training, eagerly and "
    "traced": TRAINING,
    "BatchNormalization given a boolean tensor training: traced once, plain and fused":
        BATCH_NORM,
    "unseeded LSTM and GRU with recurrent dropout, traced: TF's op seeds (the loop body's "
    "own masks)": UNSEEDED,
}
