"""``tf.keras.layers.LSTMCell`` as TF 2.21 (tf-keras) runs it (record_tf_layers.py rnn records,
test_layers_tf_conformance.py replays): a step's output and ``[h, c]`` state from fixed
weights, two steps chained, the gradient of a step, the weights' names, shapes and the
unit-forget bias, ``get_initial_state``, ``get_config``, the cell stepped by a traced
``tf.range`` loop over a TensorArray (TF's "Effective TensorFlow 2" guide) and its errors."""

from tf_snippets import MODULE

COMMON = """
def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return [type(e).__name__, str(e).split(" [Op:")[0]]
    return "no error"
def fixed(cell, scale=0.3):
    rng = np.random.RandomState(5)
    cell.set_weights([rng.uniform(-scale, scale, w.shape).astype(np.float32)
                      for w in cell.weights])
x = tf.constant(np.random.RandomState(6).uniform(-1, 1, (2, 3)).astype(np.float32))
"""

STEP = COMMON + """
cell = tf.keras.layers.LSTMCell(4)
h0, c0 = cell.get_initial_state(batch_size=2, dtype=tf.float32)
cell(x, [h0, c0])
fixed(cell)
out1, (h1, c1) = cell(x, [h0, c0])
out2, (h2, c2) = cell(x * 2., [h1, c1])
with tf.GradientTape() as tape:
    y, _ = cell(x, [h1, c1])
    loss = tf.reduce_sum(y ** 2)
grads = tape.gradient(loss, cell.trainable_weights)
relu = tf.keras.layers.LSTMCell(2, activation="relu", recurrent_activation="hard_sigmoid",
                                use_bias=False)
relu(x, relu.get_initial_state(inputs=x))
fixed(relu, 0.8)
out = [out1, h1, c1, out2, c2, grads, relu(x, [tf.ones([2, 2]), tf.ones([2, 2])]),
       [w.name for w in cell.weights], [w.name for w in relu.weights]]
"""

WEIGHTS = COMMON + """
cell = tf.keras.layers.LSTMCell(3)
cell(x, cell.get_initial_state(batch_size=2, dtype=tf.float32))
plain = tf.keras.layers.LSTMCell(3, unit_forget_bias=False, bias_initializer="ones")
plain(x, plain.get_initial_state(batch_size=2, dtype=tf.float32))
k = cell.recurrent_kernel.numpy()
out = [[tuple(w.shape) for w in cell.weights], cell.bias, plain.bias, cell.state_size,
       cell.output_size, cell.units, np.allclose(k.T @ k, np.eye(12), atol=1e-5) or
       np.allclose(k @ k.T, np.eye(3), atol=1e-5),
       float(tf.reduce_max(tf.abs(cell.kernel))) <= (6 / (3 + 12)) ** 0.5,
       [t.shape for t in cell.get_initial_state(batch_size=5, dtype=tf.float64)],
       [t.dtype.name for t in cell.get_initial_state(batch_size=5, dtype=tf.float64)],
       error(lambda: cell.get_initial_state()), error(lambda: tf.keras.layers.LSTMCell(0)),
       sorted(cell.get_config()), [(k, v) for k, v in sorted(cell.get_config().items())
                                    if not isinstance(v, dict) and k != "name"],
       cell.get_config()["recurrent_initializer"]["class_name"]]
"""

TRACED_LOOP = COMMON + """
import numpy as np
class DynamicRNN(tf.keras.Model):
    def __init__(self, rnn_cell):
        super(DynamicRNN, self).__init__(self)
        self.cell = rnn_cell

    @tf.function(input_signature=[tf.TensorSpec(dtype=tf.float32, shape=[None, None, 3])])
    def call(self, input_data):
        input_data = tf.transpose(input_data, [1, 0, 2])
        timesteps = tf.shape(input_data)[0]
        batch_size = tf.shape(input_data)[1]
        outputs = tf.TensorArray(tf.float32, timesteps)
        state = self.cell.get_initial_state(batch_size=batch_size, dtype=tf.float32)
        for i in tf.range(timesteps):
            output, state = self.cell(input_data[i], state)
            outputs = outputs.write(i, output)
        return tf.transpose(outputs.stack(), [1, 0, 2]), state

cell = tf.keras.layers.LSTMCell(units=5)
rnn = DynamicRNN(cell)
data = tf.constant(np.random.RandomState(7).normal(size=(2, 4, 3)).astype(np.float32))
first, _ = rnn(data)
fixed(cell)
outputs, state = rnn(data)
out = [first.shape, outputs, state, rnn(data[:, :2])[0], len(rnn.trainable_weights)]
"""

DROPOUT = COMMON + """
def cell_with(**kw):
    cell = tf.keras.layers.LSTMCell(4, **kw)
    cell(x, cell.get_initial_state(batch_size=2, dtype=tf.float32))   # built (masks: ones)
    fixed(cell)
    cell.reset_dropout_mask()
    cell.reset_recurrent_dropout_mask()
    return cell
zeros = [tf.zeros([2, 4]), tf.zeros([2, 4])]
both = cell_with(dropout=0.5, recurrent_dropout=0.25, seed=3)
a, state = both(x, zeros, training=True)            # masks drawn: seeds 3 .. 10
b, _ = both(x * 2.0, state, training=True)          # the same masks (cached)
both.reset_dropout_mask()
c, _ = both(x, state, training=True)                # new input masks, the recurrent ones kept
both.reset_recurrent_dropout_mask()
d, _ = both(x, state, training=True)
e, _ = both(x, state)                               # training not given: the cached masks
inputs_only = cell_with(dropout=0.4, seed=11)
f, _ = inputs_only(x, zeros, training=True)
recurrent_only = cell_with(recurrent_dropout=0.6, seed=5)
g, _ = recurrent_only(x, [tf.ones([2, 4]), tf.ones([2, 4])], training=True)
first_off = cell_with(dropout=0.5, seed=2)
h, _ = first_off(x, zeros, training=False)          # caches the ones
k, _ = first_off(x, zeros, training=True)           # still the ones
with tf.GradientTape() as tape:
    y, _ = both(x, state, training=True)
    loss = tf.reduce_sum(y ** 2)
grads = tape.gradient(loss, both.trainable_weights)
out = [a, state, b, c, d, e, f, g, h, k, grads,
       [both.implementation, inputs_only.implementation, recurrent_only.implementation],
       [both.get_config()["dropout"], both.get_config()["recurrent_dropout"]]]
"""

DROPOUT_TRACED = COMMON + """
tf.keras.utils.set_random_seed(4)
cell = tf.keras.layers.LSTMCell(3, dropout=0.5, recurrent_dropout=0.5)
cell(x, cell.get_initial_state(batch_size=2, dtype=tf.float32))
fixed(cell)
@tf.function
def two_steps(x):
    state = cell.get_initial_state(batch_size=2, dtype=tf.float32)
    y1, state = cell(x, state, training=True)
    y2, state = cell(x, state, training=True)    # the trace's masks again
    return y1, y2, state
runs = [two_steps(x), two_steps(x)]              # each execution draws its masks
out = [runs, two_steps.experimental_get_tracing_count()]
"""

CASES = {
    "LSTMCell: a step, two steps, a step's gradient, relu / hard_sigmoid without bias":
        STEP,
    "LSTMCell: weights, unit-forget bias, initial state, config, errors": WEIGHTS,
    "LSTMCell stepped by a traced tf.range loop over a TensorArray (Effective TF2 guide)":
        MODULE + f"out = run_module('rnn_cell_case_loop', {TRACED_LOOP!r})\n",
}
CASES["LSTMCell dropout and recurrent_dropout: masks drawn once, cached, reset"] = DROPOUT
CASES["LSTMCell dropout in a tf.function: the trace's masks, new at each execution"] = \
    DROPOUT_TRACED
