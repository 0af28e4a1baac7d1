"""``tf.keras.layers.MultiHeadAttention`` and ``EinsumDense`` as TF 2.21 (tf-keras) runs
them (record_tf_layers.py multi_head_attention records, test_layers_tf_conformance.py
replays): self- and cross-attention from fixed weights, a separate key, ``value_dim``,
``output_shape``, no biases, an ``attention_mask``, ``use_causal_mask``, masks carried from
an Embedding's mask_zero, the attention scores returned, 2-D attention over axes (2, 3),
gradients, weight names and shapes, a functional model, configs and errors; EinsumDense
equations with an ellipsis ('...')."""

from rnn_layer_cases import COMMON

ATTENTION = COMMON + """
rng = np.random.RandomState(13)
q = tf.constant(rng.uniform(-1, 1, (2, 3, 4)).astype(np.float32))
v = tf.constant(rng.uniform(-1, 1, (2, 5, 4)).astype(np.float32))
k = tf.constant(rng.uniform(-1, 1, (2, 5, 6)).astype(np.float32))
mask = tf.constant(rng.uniform(size=(2, 3, 5)) > 0.3)
out = []
for kwargs in (dict(num_heads=2, key_dim=3), dict(num_heads=3, key_dim=2, value_dim=4),
               dict(num_heads=2, key_dim=2, output_shape=5, use_bias=False),
               dict(num_heads=1, key_dim=4, output_shape=(2, 3))):
    layer = tf.keras.layers.MultiHeadAttention(**kwargs)
    layer(q, v, k)
    fixed(layer, scale=0.6)
    result, scores = layer(q, v, k, attention_mask=mask, return_attention_scores=True)
    with tf.GradientTape() as tape:
        tape.watch(q)
        loss = tf.reduce_sum(layer(q, v, k, use_causal_mask=True) ** 2)
    grads = tape.gradient(loss, [q] + layer.trainable_weights)
    out.append([layer(q, v, k), result, scores, layer(q, v, k, use_causal_mask=True,
                                                     attention_mask=mask), grads,
                [w.name for w in layer.weights], [tuple(w.shape) for w in layer.weights]])
self_att = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=2)
self_att(q, q)
fixed(self_att, scale=0.6)
out.append([self_att(q, q), self_att(q, q, use_causal_mask=True, return_attention_scores=True),
            self_att.compute_output_shape((None, 3, 4), (None, 3, 4))])
"""

MODELS = COMMON + """
rng = np.random.RandomState(14)
ids = np.array([[3, 1, 4, 0], [5, 2, 0, 0], [1, 1, 1, 6]], np.int32)
tokens = tf.keras.Input(shape=(None,), dtype="int32")
e = tf.keras.layers.Embedding(7, 4, mask_zero=True)(tokens)
mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=3, name="mha")
attended, scores = mha(e, e, return_attention_scores=True)
model = tf.keras.Model(tokens, [attended, scores])
for layer in model.layers:
    fixed(layer, scale=0.6)
grid = tf.constant(rng.uniform(-1, 1, (2, 2, 3, 2, 4)).astype(np.float32))
axes = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=2, attention_axes=(2, 3))
axes(grid, grid)
fixed(axes, scale=0.6)
einsum = tf.keras.layers.EinsumDense("ab,bc->ac", output_shape=3, bias_axes="c",
                                     activation="relu")
x2 = tf.constant(rng.uniform(-1, 1, (2, 4)).astype(np.float32))
einsum(x2)
fixed(einsum)
config = mha.get_config()
bad = error(lambda: tf.keras.layers.MultiHeadAttention(2, 2)(q, tf.ones([2, 5, 3]),
                                                            attention_mask=tf.ones([2, 3, 4])))
q = tf.constant(rng.uniform(-1, 1, (2, 3, 4)).astype(np.float32))
out = [model(ids), model.output_shape, getattr(model(ids)[0], "_keras_mask", None),
       axes(grid, grid, return_attention_scores=True), [w.name for w in axes.weights],
       einsum(x2), [w.name for w in einsum.weights], einsum.compute_output_shape((None, 4)),
       sorted(config), [(key, config[key]) for key in ("num_heads", "key_dim", "value_dim",
                                                      "output_shape", "attention_axes",
                                                      "query_shape", "key_shape",
                                                      "value_shape")],
       [type(l).__name__ for l in model.layers],
       error(lambda: tf.keras.layers.MultiHeadAttention(2, 2).compute_output_shape(
           (None, 3, 4), (None, 5, 6))),
       [bad[0], bad[1].split("}} ")[-1]]]
"""

ELLIPSIS = COMMON + """
rng = np.random.RandomState(17)
x4 = tf.constant(rng.uniform(-1, 1, (2, 3, 4, 5)).astype(np.float32))
out = []
for equation, shape, bias in (("...b,bc->...c", 6, "c"), ("...cd,de->...ce", (4, 6), "e"),
                              ("...bcd,de->...bce", (3, 4, 2), "ce"),
                              ("abc...,cd->abd...", (3, 2, 5), "d"),
                              ("ab...,bc->ac...", (2, 4, 5), None)):
    layer = tf.keras.layers.EinsumDense(equation, output_shape=shape, bias_axes=bias)
    layer(x4)
    fixed(layer)
    out.append([layer(x4), [[w.name, str(w.shape)] for w in layer.weights],
                layer.compute_output_shape(x4.shape), layer.get_config()["equation"]])
out += [error(lambda: tf.keras.layers.EinsumDense("a...b,bc->ac", 3)(x4)),
        error(lambda: tf.keras.layers.EinsumDense("...b,bc->...c", 3, bias_axes="x")(x4))]
"""

CASES = {
    "MultiHeadAttention: cross and causal attention, key, value_dim, output_shape, biases, "
    "masks, scores, gradients, weights": ATTENTION,
    "MultiHeadAttention on mask_zero embeddings in a model; attention axes; EinsumDense; "
    "config; errors": MODELS,
    "EinsumDense with an ellipsis on the left and on the right: kernels, biases, outputs":
        ELLIPSIS,
}
