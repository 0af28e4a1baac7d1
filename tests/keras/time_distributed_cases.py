"""``tf.keras.layers.TimeDistributed`` as TF 2.21 (tf-keras) runs it (record_tf_layers.py
time_distributed records, test_layers_tf_conformance.py replays): a built-in layer applied
to each step by one reshape (Dense, Conv2D, Flatten, Dropout in training), a layer of the
user's own run step by step by ``backend.rnn`` when the batch size is known (a masked step
keeps the previous step's output), the input's mask passed to the inner layer and the
output's mask (the input's, reduced to (batch, time), or the inner layer's own), functional
and Sequential models with an unknown number of steps, gradients, weight names, shapes,
config and errors."""

from masking_cases import COMMON

WRAPPED = COMMON + """
td = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2))
y = td(x)
fixed(td)
y = td(x)
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(td(x) ** 2)
grads = tape.gradient(loss, td.trainable_weights)
images = tf.constant(np.random.RandomState(2).uniform(-1, 1, (2, 3, 4, 4, 1)), tf.float32)
conv = tf.keras.layers.TimeDistributed(tf.keras.layers.Conv2D(2, 3))
conv(images)
fixed(conv)
flat = tf.keras.layers.TimeDistributed(tf.keras.layers.Flatten())(images)
tf.random.set_seed(4)
dropped = tf.keras.layers.TimeDistributed(tf.keras.layers.Dropout(0.5, seed=3))(
    x, training=True)
config = td.get_config()
inputs = tf.keras.Input(shape=(None, 3))
model = tf.keras.Model(inputs, tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(4))(inputs))
fixed_layers(model, x)
seq = tf.keras.Sequential([tf.keras.Input(shape=(5, 3)),
                           tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2)),
                           tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(1))])
fixed_layers(seq, x)
out = [y, grads, [w.name for w in td.weights], [tuple(w.shape) for w in td.weights],
       td.layer.built, conv(images), [w.name for w in conv.weights], flat, dropped,
       sorted(config), config["layer"]["class_name"], config["layer"]["config"]["units"],
       td.compute_output_shape((None, 7, 3)), conv.compute_output_shape((2, 3, 4, 4, 1)),
       model.output_shape, model(x), seq.output_shape, seq(x), seq.predict(rows, verbose=0),
       td.input_spec.shape if hasattr(td.input_spec, "shape") else None,
       error(lambda: tf.keras.layers.TimeDistributed("dense")),
       error(lambda: tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2))(
           tf.ones([2, 3]))),
       error(lambda: td(tf.ones([2, 5, 4])))]
"""

MASKS = COMMON + """
class Doubled(tf.keras.layers.Layer):
    def call(self, inputs):
        return inputs * 2.0 + 1.0

class Summed(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.supports_masking = True
    def call(self, inputs, mask=None):
        if mask is None:
            return tf.reduce_sum(inputs, -1, keepdims=True)
        return tf.reduce_sum(inputs * tf.cast(mask, inputs.dtype)[..., None], -1,
                             keepdims=True)

emb = tf.keras.layers.Embedding(7, 3, mask_zero=True)
e = emb(ids)
fixed(emb)
e = emb(ids)
dense = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2))
d = dense(e)
fixed(dense)
d = dense(e)
masked = tf.keras.layers.Masking()(x)
doubled = tf.keras.layers.TimeDistributed(Doubled())(masked)
plain = tf.keras.layers.TimeDistributed(Doubled())(x)
grid = tf.constant(np.random.RandomState(3).uniform(-1, 1, (3, 2, 4, 2)), tf.float32)
grid_mask = tf.constant(np.random.RandomState(4).uniform(size=(3, 2, 4)) > 0.4)
inner = tf.keras.layers.TimeDistributed(Summed())
summed = inner(grid, mask=grid_mask)
reduced = inner.compute_mask(grid, grid_mask)
inner_masking = tf.keras.layers.TimeDistributed(tf.keras.layers.Masking(0.25))
wrapped_mask = tf.constant(np.random.RandomState(5).uniform(size=(2, 3, 4)) > 0.5)
cube = tf.constant(np.where(np.random.RandomState(7).uniform(size=(2, 3, 4, 2)) > 0.6, 0.25,
                            1.0), tf.float32)
lstm = tf.keras.layers.TimeDistributed(tf.keras.layers.LSTM(2))
lstm(cube)
fixed(lstm)
inp = tf.keras.Input(shape=(5,), dtype="int32")
hidden = tf.keras.layers.Embedding(7, 3, mask_zero=True)(inp)
outp = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(1))(hidden)
model = tf.keras.Model(inp, outp)
fixed_layers(model)
out = [d, mask_of(d), dense.compute_mask(e, mask_of(e)), doubled, mask_of(doubled), plain,
       mask_of(plain), summed, mask_of(summed), reduced,
       inner_masking(cube), mask_of(inner_masking(cube)),
       inner_masking.compute_mask(cube), inner_masking.compute_mask(cube, wrapped_mask),
       lstm(cube), mask_of(lstm(cube)), mask_of(model(ids)), model(ids),
       [w.name for w in lstm.weights]]
"""

CASES = {
    "TimeDistributed: Dense, Conv2D, Flatten, Dropout per step, gradients, weight names, "
    "models, config, errors": WRAPPED,
    "TimeDistributed: masks in and out, a layer of one's own run step by step, an inner "
    "mask-making layer, an LSTM per step": MASKS,
}
