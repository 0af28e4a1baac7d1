"""Gradients of tf.gather / embedding lookups as TF 2.21 gives them, eagerly and inside a
traced tf.function (record_tf_function.py records into fixtures/tf_indexed_slices.json;
test_indexed_slices.py replays): TF's gradient with respect to the gathered params is a
``tf.IndexedSlices`` (the gathered rows' gradients, their indices, the params' dense shape),
two of them add up by concatenation, and a dense use of the same params makes it dense."""

SLICES = """
def slices(g):
    if not isinstance(g, tf.IndexedSlices):
        return ['dense', g]
    return [type(g).__name__, g.indices, g.values, g.dense_shape, tf.convert_to_tensor(g)]
"""

CASES = {
    "gather gradient of a variable in a traced function": SLICES + """
emb = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
@tf.function
def f(ids):
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(emb, ids) * 2.0)
    return t.gradient(y, emb)
out = [slices(f(tf.constant([0, 2, 0]))), slices(f(tf.constant([1])))]
""",
    "gather gradient of a variable eagerly": SLICES + """
emb = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape() as t:
    y = tf.reduce_sum(tf.gather(emb, tf.constant([2, 1])) * 3.0)
out = slices(t.gradient(y, emb))
""",
    "two gathers of one variable add up by concatenation": SLICES + """
emb = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
@tf.function
def f():
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(emb, [0, 1])) + tf.reduce_sum(tf.gather(emb, [1]) * 5.0)
    return t.gradient(y, emb)
out = slices(f())
""",
    "a dense use of the gathered variable makes the gradient dense": SLICES + """
emb = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
@tf.function
def f():
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(emb, [2])) + tf.reduce_sum(emb * 0.5)
    return t.gradient(y, emb)
out = slices(f())
""",
    "an Embedding layer trained in a traced step": SLICES + """
layer = tf.keras.layers.Embedding(4, 2, embeddings_initializer='ones')
layer.build((None,))
opt = tf.keras.optimizers.SGD(0.5)
@tf.function
def step(ids):
    with tf.GradientTape() as t:
        loss = tf.reduce_sum(layer(ids) ** 2)
    g = t.gradient(loss, layer.trainable_variables)
    opt.apply_gradients(zip(g, layer.trainable_variables))
    return g[0]
out = [slices(step(tf.constant([[1, 3], [1, 0]]))), layer.get_weights()]
""",
}
