"""``tf.keras.layers.Attention`` and ``AdditiveAttention`` as TF 2.21 (tf-keras) runs them
(record_tf_layers.py attention records, test_layers_tf_conformance.py replays): dot and
concat scores, ``use_scale``, a separate key, query and value masks (given and carried
from an Embedding's mask_zero), ``use_causal_mask``, the attention scores returned,
dropout in training, gradients, weights, a functional model, configs and errors."""

from rnn_layer_cases import COMMON

DENSE = COMMON + """
rng = np.random.RandomState(11)
q = tf.constant(rng.uniform(-1, 1, (2, 3, 4)).astype(np.float32))
v = tf.constant(rng.uniform(-1, 1, (2, 5, 4)).astype(np.float32))
k = tf.constant(rng.uniform(-1, 1, (2, 5, 4)).astype(np.float32))
q_mask = tf.constant([[True, True, False], [True, False, True]])
v_mask = tf.constant([[True, True, True, False, False], [True, False, True, True, True]])
out = []
for make in (lambda: tf.keras.layers.Attention(),
             lambda: tf.keras.layers.Attention(use_scale=True),
             lambda: tf.keras.layers.Attention(score_mode="concat"),
             lambda: tf.keras.layers.Attention(use_scale=True, score_mode="concat"),
             lambda: tf.keras.layers.AdditiveAttention(),
             lambda: tf.keras.layers.AdditiveAttention(use_scale=False)):
    layer = make()
    layer([q, v])
    fixed(layer, scale=0.8)
    result, scores = layer([q, v, k], mask=[q_mask, v_mask], return_attention_scores=True)
    with tf.GradientTape() as tape:
        tape.watch(q)
        loss = tf.reduce_sum(layer([q, v, k], mask=[q_mask, v_mask], use_causal_mask=True) ** 2)
    grads = tape.gradient(loss, [q] + layer.trainable_weights)
    out.append([layer([q, v]), result, scores, getattr(result, "_keras_mask", None),
                layer([q, v], use_causal_mask=True, return_attention_scores=True),
                layer([q, v], mask=[None, v_mask]), grads,
                [w.name for w in layer.weights], [tuple(w.shape) for w in layer.weights],
                sorted(layer.get_config().items())])
"""

MODELS = COMMON + """
rng = np.random.RandomState(12)
ids = np.array([[3, 1, 4, 0], [5, 2, 0, 0], [1, 1, 1, 6]], np.int32)
tokens = tf.keras.Input(shape=(None,), dtype="int32")
emb = tf.keras.layers.Embedding(7, 4, mask_zero=True)
e = emb(tokens)
attended, weights = tf.keras.layers.Attention(name="att")([e, e], return_attention_scores=True)
pooled = tf.keras.layers.GlobalAveragePooling1D()(attended)
model = tf.keras.Model(tokens, [pooled, weights])
for layer in model.layers:
    fixed(layer, scale=0.8)
tf.random.set_seed(3)
drop = tf.keras.layers.Attention(dropout=0.5)
q = tf.constant(rng.uniform(-1, 1, (2, 3, 4)).astype(np.float32))
drop([q, q])
out = [model(ids), model.output_shape, getattr(model(ids)[0], "_keras_mask", None),
       [type(l).__name__ for l in model.layers],
       drop([q, q], training=True), drop([q, q]), drop.get_config()["dropout"],
       tf.keras.layers.AdditiveAttention().compute_output_shape([(None, 3, 4), (None, 5, 4)]),
       tf.keras.layers.Attention().compute_mask([q, q], [tf.ones([2, 3], tf.bool), None]),
       error(lambda: tf.keras.layers.Attention(score_mode="add")),
       error(lambda: tf.keras.layers.Attention()(q))[1].split(" Received:")[0],
       error(lambda: tf.keras.layers.Attention()([q])),
       error(lambda: tf.keras.layers.Attention()([q, q], mask=tf.ones([2, 3], tf.bool))),
       error(lambda: tf.keras.layers.Attention()([q, q], mask=[None]))]
"""

CASES = {
    "Attention, AdditiveAttention: scores, scale, key, masks, causal mask, returned scores, "
    "gradients, weights, configs": DENSE,
    "Attention in a functional model on a mask_zero Embedding; dropout in training; "
    "shapes, masks and errors": MODELS,
}
