"""Keras masking as TF 2.21 (tf-keras) runs it (record_tf_layers.py masking records,
test_layers_tf_conformance.py replays): ``Embedding(mask_zero=True)`` and ``Masking`` give
their outputs a ``_keras_mask``, layers that support masking carry it on (Dense, Dropout,
Activation), others drop it; ``GlobalAveragePooling1D`` averages the unmasked steps; LSTM,
GRU and SimpleRNN keep state and output at masked steps (loop and unrolled, go_backwards,
``zero_output_for_mask``), with gradients; masks through functional and Sequential models;
a fit whose loss and metrics are weighted by the output's mask; Add and Concatenate
combining masks; ``Bidirectional`` (merge
modes, states, masks, a backward layer, config, errors) and the RNN text classifier's model
(stacked Bidirectional LSTMs on a mask_zero Embedding) fit."""

from rnn_layer_cases import COMMON as RNN_COMMON

COMMON = RNN_COMMON + """
def mask_of(t):
    return getattr(t, "_keras_mask", None)
ids = np.array([[3, 1, 4, 0, 0], [5, 0, 2, 6, 0], [0, 0, 1, 2, 3]], np.int32)
rows = np.random.RandomState(6).uniform(-1, 1, (3, 5, 3)).astype(np.float32)
rows[0, 3:] = 0.0
rows[1, 1] = 0.0
rows[2, :2] = 0.0
x = tf.constant(rows)
def fixed_layers(model, inputs=ids):
    model(inputs)
    for layer in model.layers:
        fixed(layer)
    return model
"""

LAYERS = COMMON + """
emb = tf.keras.layers.Embedding(7, 3, mask_zero=True)
emb(ids)
fixed(emb)
e = emb(ids)
plain = tf.keras.layers.Embedding(7, 3)
masked = tf.keras.layers.Masking()(x)
other = tf.keras.layers.Masking(mask_value=0.5)(tf.constant([[[0.5, 0.5], [0.5, 1.0]]]))
dense = tf.keras.layers.Dense(2)
d = dense(e)
drop = tf.keras.layers.Dropout(0.5)(e)
act = tf.keras.layers.Activation("relu")(e)
flat = tf.keras.layers.Flatten()(e)
gap = tf.keras.layers.GlobalAveragePooling1D()
out = [e, mask_of(e), emb.compute_mask(ids), plain.compute_mask(ids), emb.supports_masking,
       plain.supports_masking, emb.get_config()["mask_zero"],
       masked, mask_of(masked), other, mask_of(other),
       mask_of(d), mask_of(drop), mask_of(act), mask_of(flat), d.shape,
       gap(e), mask_of(gap(e)), tf.keras.layers.GlobalAveragePooling1D(keepdims=True)(e),
       gap(e, mask=tf.constant([[True, False, False, False, False]] * 3)),
       gap(masked), gap(x),
       error(lambda: tf.keras.layers.Flatten().compute_mask(x, tf.ones([3, 5], tf.bool))),
       tf.keras.layers.Dense(2).compute_mask(x, tf.ones([3, 5], tf.bool)),
       tf.keras.layers.Masking(0.5).get_config()["mask_value"],
       gap.supports_masking, tf.keras.layers.Flatten().supports_masking,
       tf.keras.layers.Dense(1).supports_masking,
       tf.keras.layers.Masking().compute_mask(x)]
"""

RNNS = COMMON + """
masked = tf.keras.layers.Masking()(x)
out = []
for make in (tf.keras.layers.LSTM, tf.keras.layers.GRU, tf.keras.layers.SimpleRNN):
    layer = make(4, return_sequences=True, return_state=True)
    layer(x)
    fixed(layer)
    seqs, *states = layer(masked)
    last = make(4)
    last(x)
    fixed(last)
    back = make(4, go_backwards=True, return_sequences=True)
    back(x)
    fixed(back)
    unrolled = make(4, unroll=True, return_sequences=True, return_state=True)
    unrolled(x)
    fixed(unrolled)
    explicit = last(x, mask=tf.constant([[True, True, False, True, False]] * 3))
    with tf.GradientTape() as tape:
        y = last(masked)
        loss = tf.reduce_sum(y ** 2)
    grads = tape.gradient(loss, last.trainable_weights)
    out.append([seqs, mask_of(seqs), states, [mask_of(s) for s in states], last(masked),
                mask_of(last(masked)), back(masked), unrolled(masked), explicit, grads])
cell = tf.keras.layers.RNN(tf.keras.layers.SimpleRNNCell(3), return_sequences=True,
                           zero_output_for_mask=True)
cell(x)
fixed(cell)
cell_last = tf.keras.layers.RNN(tf.keras.layers.GRUCell(3), zero_output_for_mask=True,
                                go_backwards=True)
cell_last(x)
fixed(cell_last)
out.append([cell(masked), cell_last(masked), cell.get_config()["zero_output_for_mask"],
            "zero_output_for_mask" in tf.keras.layers.LSTM(2).get_config()])
"""

MODELS = COMMON + """
inputs = tf.keras.Input((None,), dtype="int32")
h = tf.keras.layers.Embedding(7, 4, mask_zero=True)(inputs)
seq = tf.keras.layers.LSTM(3, return_sequences=True)(h)
pooled = tf.keras.layers.GlobalAveragePooling1D()(seq)
outputs = tf.keras.layers.Dense(2)(pooled)
model = tf.keras.Model(inputs, [outputs, seq])
for layer in model.layers[1:]:
    fixed(layer)
res, seq_out = model(ids)
seqm = tf.keras.Sequential([tf.keras.layers.Embedding(7, 4, mask_zero=True),
                            tf.keras.layers.GRU(3, return_sequences=True),
                            tf.keras.layers.Dense(1)])
fixed_layers(seqm)
sy = seqm(ids)
out = [res, mask_of(res), seq_out, mask_of(seq_out), sy, mask_of(sy),
       seqm.compute_mask(tf.constant(ids), None),
       model.compute_mask(tf.constant(ids), None)[1],
       hasattr(h, "_keras_mask"), hasattr(pooled, "_keras_mask"),
       tuple(h._keras_mask.shape), seqm.predict(ids, verbose=0)]
"""

FIT = COMMON + """
tf.keras.utils.set_random_seed(2)
ys = np.random.RandomState(9).uniform(-1, 1, (3, 5, 1)).astype(np.float32)
model = tf.keras.Sequential([tf.keras.layers.Embedding(7, 4, mask_zero=True),
                             tf.keras.layers.LSTM(3, return_sequences=True),
                             tf.keras.layers.Dense(1)])
fixed_layers(model)
model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"],
              weighted_metrics=["mse"])
history = model.fit(ids, ys, epochs=3, batch_size=3, verbose=0)
evaluated = model.evaluate(ids, ys, verbose=0)
weighted = model.evaluate(ids, ys, sample_weight=np.array([1.0, 2.0, 0.5]), verbose=0)
loss_fn = tf.keras.losses.MeanSquaredError()
pred = model(ids)
cls = tf.keras.Sequential([tf.keras.layers.Embedding(7, 4, mask_zero=True),
                           tf.keras.layers.GlobalAveragePooling1D(),
                           tf.keras.layers.Dense(1)])
fixed_layers(cls)
cls.compile(optimizer="adam", loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
            metrics=[tf.keras.metrics.BinaryAccuracy(threshold=0.0)])
ch = cls.fit(ids, np.array([1.0, 0.0, 1.0], np.float32), epochs=3, verbose=0)
out = [history.history, evaluated, weighted, loss_fn(ys, pred), loss_fn(ys, pred.numpy()),
       ch.history, model.get_weights()]
"""

BIDIRECTIONAL = COMMON + """
masked = tf.keras.layers.Masking()(x)
out = []
for mode in ("concat", "sum", "ave", "mul", None):
    layer = tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2, return_sequences=True),
                                          merge_mode=mode)
    layer(x)
    fixed(layer)
    y = layer(masked)
    out.append([y, [mask_of(t) for t in y] if mode is None else mask_of(y), layer(x)])
gru = tf.keras.layers.Bidirectional(tf.keras.layers.GRU(3, return_state=True))
gru(x)
fixed(gru)
states = gru(masked)
seqs = tf.keras.layers.Bidirectional(tf.keras.layers.SimpleRNN(2, return_sequences=True,
                                                                 return_state=True),
                                     merge_mode=None)
seqs(x)
fixed(seqs)
with tf.GradientTape() as tape:
    y = gru(masked)[0]
    loss = tf.reduce_sum(y ** 2)
grads = tape.gradient(loss, gru.trainable_weights)
back = tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2),
                                     backward_layer=tf.keras.layers.GRU(2, go_backwards=True))
back(x)
fixed(back)
config = gru.get_config()
again = tf.keras.layers.Bidirectional.from_config(config)
out += [states, [mask_of(s) for s in states], seqs(masked), grads,
        [w.name for w in gru.weights], back(masked), [w.name for w in back.weights],
        gru.forward_layer.name, gru.backward_layer.name, gru.backward_layer.go_backwards,
        seqs.forward_layer.zero_output_for_mask, gru.forward_layer.zero_output_for_mask,
        sorted(config), config["merge_mode"], config["layer"]["class_name"],
        again.forward_layer.units, gru.compute_output_shape((None, 5, 3)),
        seqs.compute_output_shape((None, 5, 3)),
        error(lambda: tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2), merge_mode="x")),
        error(lambda: tf.keras.layers.Bidirectional(3)),
        error(lambda: tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2),
                                                    backward_layer=tf.keras.layers.LSTM(2))),
        error(lambda: tf.keras.layers.Bidirectional(
            tf.keras.layers.LSTM(2), backward_layer=tf.keras.layers.LSTM(
                2, go_backwards=True, return_sequences=True)))]
"""

RNN_CLASSIFIER = COMMON + """
tf.keras.utils.set_random_seed(4)
model = tf.keras.Sequential([
    tf.keras.layers.Embedding(7, 4, mask_zero=True),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(4, return_sequences=True)),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(3)),
    tf.keras.layers.Dense(4, activation="relu"),
    tf.keras.layers.Dropout(0.5),
    tf.keras.layers.Dense(1)])
fixed_layers(model)
before = model(ids)
padded = model(np.concatenate([ids, np.zeros((3, 4), np.int32)], axis=1))
model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
              optimizer=tf.keras.optimizers.Adam(1e-2), metrics=["accuracy"])
history = model.fit(ids, np.array([1, 0, 1]), epochs=3, verbose=0)
lines = []
model.summary(print_fn=lines.append)
out = [before, padded, history.history, lines, model.predict(ids, verbose=0)]
"""

MERGING = COMMON + """
emb = tf.keras.layers.Embedding(7, 2, mask_zero=True)
emb(ids)
fixed(emb)
other = np.array([[1, 0, 2, 3, 4], [5, 6, 0, 0, 1], [2, 2, 2, 2, 2]], np.int32)
a, b = emb(ids), emb(other)
plain = tf.ones([3, 5, 2])
added = tf.keras.layers.Add()([a, b])
half = tf.keras.layers.Add()([a, plain])
joined = tf.keras.layers.Concatenate()([a, b])
inputs = [tf.keras.Input((None,), dtype="int32"), tf.keras.Input((None,), dtype="int32")]
e = tf.keras.layers.Embedding(7, 2, mask_zero=True)
h = tf.keras.layers.Concatenate()([e(inputs[0]), e(inputs[1])])
y = tf.keras.layers.SimpleRNN(2)(h)
model = tf.keras.Model(inputs, y)
for layer in model.layers[2:]:
    fixed(layer)
out = [added, mask_of(added), mask_of(half), joined, mask_of(joined),
       model([ids, other]), tf.keras.layers.Add().compute_mask([a, b], [None, None]),
       error(lambda: tf.keras.layers.Add().compute_mask([a, b], a._keras_mask)),
       error(lambda: tf.keras.layers.Concatenate().compute_mask([a, b], [a._keras_mask])),
       error(lambda: tf.keras.layers.Add().compute_mask(a, [a._keras_mask]))]
"""

CASES = {
    "masking: Embedding(mask_zero), Masking, masks carried or dropped, "
    "GlobalAveragePooling1D with a mask": LAYERS,
    "masking: LSTM, GRU, SimpleRNN keep state and output at masked steps": RNNS,
    "masking: masks through functional and Sequential models": MODELS,
    "masking: a fit weighted by the output's mask; a mask_zero classifier": FIT,
    "Bidirectional: merge modes, masks, states, gradients, weight names, config, errors":
        BIDIRECTIONAL,
    "Bidirectional LSTMs on mask_zero embeddings (the RNN text classifier's model) fit":
        RNN_CLASSIFIER,
    "masking: Add and Concatenate combine their inputs' masks": MERGING,
}
