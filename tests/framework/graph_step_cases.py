"""Training steps traced in a tf.function, as TF 2.21 (tf-keras) lists their graphs
(record_tf_graph_steps.py records, test_graph_step_listing.py replays): each case's
``out`` is the traced graph's ``get_operations()``, each op as [name, type, input names]:
a tape's gradient of a hand-written loss, Keras loss objects (reductions, sparse labels
from logits) and their gradients, optimizers' apply_gradients (SGD with and without
momentum, nesterov, Adam, amsgrad, AdamW, RMSprop with momentum and centered, Adagrad,
Lion, Adafactor; clipnorm, clipvalue, global_clipnorm, weight_decay), metrics (Mean,
SparseCategoricalAccuracy: update_state, a call's result), the custom training loop
guide's step (labels of shape (batch,) or (batch, 1)), a variable's assign / assign_add /
assign_sub; and tf.linspace, whose ~70 ops TF lists. Snippets as in
tests/tf_snippets.py (straight-line functions: nothing for AutoGraph to convert)."""

OPS = """
def ops(f, *args):
    g = f.get_concrete_function(*args).graph
    return [[o.name, o.type, [t.name for t in o.inputs]] for o in g.get_operations()]
"""

CASES = {
    "tape gradient of a hand-written loss": OPS + """
w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
b = tf.Variable([0.5, -0.5], name="b")
@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        pred = tf.matmul(x, w) + b
        loss = tf.reduce_mean(tf.square(pred - y))
    return loss, tape.gradient(loss, [w, b])
out = ops(step, tf.constant([[1.0, 2.0]]), tf.constant([[0.0, 1.0]]))
""",
    "tape gradient: a watched input, a tensor used twice, division": OPS + """
v = tf.Variable(3.0)
@tf.function
def step(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * v
        z = y * y / (x + 1.0) - v
    return tape.gradient(z, [x, v])
out = ops(step, tf.constant([1.0, 2.0]))
""",
    "Keras losses: reductions and sparse labels": OPS + """
mse = tf.keras.losses.MeanSquaredError()
total = tf.keras.losses.MeanSquaredError(reduction="sum")
each = tf.keras.losses.MeanAbsoluteError(reduction="none")
cce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
@tf.function
def step(x, y, labels):
    return mse(y, x), total(y, x), each(y, x), cce(labels, x), cce([0, 1], x)
out = ops(step, tf.ones([2, 3]), tf.zeros([2, 3]), tf.constant([2, 1]))
""",
    "gradients of Keras losses": OPS + """
w = tf.Variable(tf.ones([3, 3]))
mse = tf.keras.losses.MeanSquaredError()
mae = tf.keras.losses.MeanAbsoluteError()
cce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
@tf.function
def step(x, y, labels):
    with tf.GradientTape(persistent=True) as tape:
        logits = tf.matmul(x, w)
        a, b, c = mse(y, logits), mae(y, logits), cce(labels, logits)
    return [tape.gradient(loss, w) for loss in (a, b, c)]
out = ops(step, tf.ones([2, 3]), tf.zeros([2, 3]), tf.constant([2, 1]))
""",
    "a Dense model's gradients": OPS + """
model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu", input_shape=(2,)),
                             tf.keras.layers.Dense(1)])
loss_fn = tf.keras.losses.MeanSquaredError()
@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    return loss, tape.gradient(loss, model.trainable_variables)
out = ops(step, tf.constant([[1.0, 2.0]]), tf.constant([[1.0]]))
""",
    "apply_gradients: SGD, SGD with momentum, Adam": OPS + """
w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
b = tf.Variable([0.5, -0.5])
sgd = tf.keras.optimizers.SGD(0.1)
momentum = tf.keras.optimizers.SGD(0.1, momentum=0.9)
adam = tf.keras.optimizers.Adam(0.01)
@tf.function
def step(x):
    g = tf.ones_like(w) * x
    sgd.apply_gradients([(g, w)])
    momentum.apply_gradients(zip([g, tf.ones_like(b)], [w, b]))
    adam.apply_gradients([(g, w), (tf.ones_like(b), b)])
    return x + 1.0
out = ops(step, tf.constant(2.0))
""",
    "a Dense model's training step with Adam": OPS + """
model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu", input_shape=(2,)),
                             tf.keras.layers.Dense(1)])
loss_fn = tf.keras.losses.MeanSquaredError()
opt = tf.keras.optimizers.Adam()
@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        pred = model(x, training=True)
        loss = loss_fn(y, pred)
    variables = model.trainable_variables
    opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
    return loss
out = ops(step, tf.constant([[1.0, 2.0]]), tf.constant([[1.0]]))
""",
    "tf.linspace: a traced start and stop, a Python or a tensor num, an axis": OPS + """
@tf.function
def step(x, n):
    a = tf.linspace(x[0], x[1], 5)
    b = tf.linspace(0.0, x[1], n)
    c = tf.linspace(tf.stack([x[0], x[0]]), tf.stack([x[1], x[2]]), 3, axis=-1, name="grid")
    return a, b, c
out = ops(step, tf.constant([1.0, 2.0, 3.0]), tf.constant(4))
""",
    "metrics: update_state and a call's result": OPS + """
mean = tf.keras.metrics.Mean(name="train_loss")
accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
total = tf.keras.metrics.SparseCategoricalAccuracy()
@tf.function
def step(logits, labels, column, loss):
    mean(loss)
    accuracy(labels, logits)
    total.update_state(column, logits)
    mean.update_state(tf.stack([loss, loss]))
    return loss * 2.0
out = ops(step, tf.ones([2, 3]), tf.constant([1, 2]), tf.constant([[1], [0]]),
          tf.constant(0.5))
""",
    "the custom training loop guide's step, labels (batch,) and (batch, 1)": OPS + """
inputs = tf.keras.Input(shape=(4,), name="digits")
hidden = tf.keras.layers.Dense(5, activation="relu")(inputs)
outputs = tf.keras.layers.Dense(3, name="predictions")(hidden)
model = tf.keras.Model(inputs=inputs, outputs=outputs)
optimizer = tf.keras.optimizers.SGD(learning_rate=1e-3)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
train_acc_metric = tf.keras.metrics.SparseCategoricalAccuracy()
@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = loss_fn(y, logits)
    grads = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    train_acc_metric.update_state(y, logits)
    return loss_value
out = [ops(train_step, tf.ones([2, 4]), tf.constant([1, 2])),
       ops(train_step, tf.ones([2, 4]), tf.constant([[1], [2]]))]
""",
    "variable updates: assign, assign_add, assign_sub": OPS + """
v = tf.Variable([1.0, 2.0])
steps = tf.Variable(0, dtype=tf.int64)
@tf.function
def step(x):
    v.assign_add(x)
    v.assign_sub([0.5, 0.5])
    v.assign(v * 2.0)
    steps.assign_add(1)
    v.assign(x, read_value=False)
    return x * 2.0
out = ops(step, tf.constant([1.0, 1.0]))
""",
    "tape gradient through activations: tanh, sigmoid, softmax, exp, log, sqrt": OPS + """
w = tf.Variable([[0.1, 0.2, 0.3], [0.3, 0.4, 0.5]])
@tf.function
def step(x):
    with tf.GradientTape() as tape:
        h = tf.sigmoid(tf.tanh(tf.matmul(x, w)))
        q = tf.exp(tf.nn.softmax(h))
        loss = tf.reduce_sum(tf.sqrt(tf.math.log(q + 1.0)))
    return tape.gradient(loss, w)
out = ops(step, tf.constant([[1.0, 2.0]]))
""",
}
CASES["apply_gradients: RMSprop (plain, momentum, centered), Adagrad"] = OPS + """
w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
b = tf.Variable([0.5, -0.5])
rms = tf.keras.optimizers.RMSprop(0.01)
heavy = tf.keras.optimizers.RMSprop(0.01, momentum=0.9, centered=True)
adagrad = tf.keras.optimizers.Adagrad(0.1)
@tf.function
def step(x):
    g = tf.ones_like(w) * x
    rms.apply_gradients([(g, w)])
    heavy.apply_gradients(zip([g, tf.ones_like(b)], [w, b]))
    adagrad.apply_gradients([(g, w), (tf.ones_like(b), b)])
    return x + 1.0
out = ops(step, tf.constant(2.0))
"""
CASES["apply_gradients: clipnorm, clipvalue, global_clipnorm, weight_decay"] = OPS + """
w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
b = tf.Variable([0.5, -0.5])
by_norm = tf.keras.optimizers.SGD(0.1, clipnorm=1.0)
by_value = tf.keras.optimizers.SGD(0.1, clipvalue=0.5)
by_global = tf.keras.optimizers.Adam(0.01, global_clipnorm=2.0)
decayed = tf.keras.optimizers.SGD(0.1, weight_decay=0.01)
@tf.function
def step(x):
    g = tf.ones_like(w) * x
    pairs = [(g, w), (tf.ones_like(b), b)]
    by_norm.apply_gradients(pairs)
    by_value.apply_gradients(pairs)
    by_global.apply_gradients(pairs)
    decayed.apply_gradients(pairs)
    return x + 1.0
out = ops(step, tf.constant(2.0))
"""
CASES["apply_gradients: nesterov, amsgrad, AdamW"] = OPS + """
w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
nesterov = tf.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True)
amsgrad = tf.keras.optimizers.Adam(0.01, amsgrad=True)
adamw = tf.keras.optimizers.AdamW(0.01, weight_decay=0.004)
@tf.function
def step(x):
    g = tf.ones_like(w) * x
    nesterov.apply_gradients([(g, w)])
    amsgrad.apply_gradients([(g, w)])
    adamw.apply_gradients([(g, w)])
    return x + 1.0
out = ops(step, tf.constant(2.0))
"""
CASES["Keras losses: categorical, binary, sparse probabilities, Huber"] = OPS + """
cce = tf.keras.losses.CategoricalCrossentropy()
cce_logits = tf.keras.losses.CategoricalCrossentropy(from_logits=True)
smoothed = tf.keras.losses.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1)
bce = tf.keras.losses.BinaryCrossentropy()
bce_logits = tf.keras.losses.BinaryCrossentropy(from_logits=True)
sparse = tf.keras.losses.SparseCategoricalCrossentropy()
huber = tf.keras.losses.Huber()
@tf.function
def step(p, y, labels):
    return (cce(y, p), cce_logits(y, p), smoothed(y, p), bce(y, p), bce_logits(y, p),
            sparse(labels, p), huber(y, p))
out = ops(step, tf.constant([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]]),
          tf.constant([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]), tf.constant([2, 1]))
"""
CASES["Keras losses with sample_weight, and an add after a loss"] = OPS + """
mse = tf.keras.losses.MeanSquaredError()
cce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
@tf.function
def step(x, y, labels, weights):
    a = mse(y, x, sample_weight=weights)
    b = cce(labels, x, sample_weight=weights)
    c = mse(y, x, sample_weight=0.5)
    return tf.add(a, b), c, tf.add(c, 1.0)
out = ops(step, tf.ones([2, 3]), tf.zeros([2, 3]), tf.constant([2, 1]),
          tf.constant([1.0, 0.5]))
"""
CASES["names after listed ops: a metric, a clipped step, then user ops"] = OPS + """
w = tf.Variable([1.0, 2.0])
mean = tf.keras.metrics.Mean()
opt = tf.keras.optimizers.SGD(0.1, clipnorm=1.0)
mse = tf.keras.losses.MeanSquaredError()
@tf.function
def step(x):
    mean.update_state(x)
    total = tf.reduce_sum(x)
    count = tf.cast(tf.size(x), tf.float32)
    opt.apply_gradients([(x, w)])
    loss = mse(x, w)
    return tf.add(total, count), tf.identity(loss), tf.math.divide_no_nan(total, count)
out = ops(step, tf.constant([1.0, 3.0]))
"""
CASES["a tf.function that returns a variable"] = OPS + """
v = tf.Variable([1.0, 2.0])
c = tf.Variable(3, dtype=tf.int64)
@tf.function
def step(x):
    v.assign_add(x)
    return v, x * 2.0, c
out = ops(step, tf.constant([1.0, 1.0]))
"""
CASES["tf.nn.l2_loss and its gradient"] = OPS + """
@tf.function
def step(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.l2_loss(x) + tf.nn.l2_loss(x * 2.0, name="second")
    return y, tape.gradient(y, x)
out = ops(step, tf.constant([1.0, 2.0]))
"""
CASES["apply_gradients: Adamax, Adadelta, Ftrl"] = OPS + """
w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
b = tf.Variable([0.5, -0.5])
adamax = tf.keras.optimizers.Adamax(0.01)
adadelta = tf.keras.optimizers.Adadelta(1.0)
ftrl = tf.keras.optimizers.Ftrl(0.1)
@tf.function
def step(x):
    g = tf.ones_like(w) * x
    adamax.apply_gradients([(g, w)])
    adadelta.apply_gradients([(g, w), (tf.ones_like(b), b)])
    ftrl.apply_gradients([(g, w)])
    return x + 1.0
out = ops(step, tf.constant(2.0))
"""
CASES["apply_gradients: Nadam"] = OPS + """
w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
b = tf.Variable([0.5, -0.5])
nadam = tf.keras.optimizers.Nadam(0.01)
@tf.function
def step(x):
    g = tf.ones_like(w) * x
    nadam.apply_gradients([(g, w), (tf.ones_like(b), b)])
    return x + 1.0
out = ops(step, tf.constant(2.0))
"""
CASES["apply_gradients: Lion, Adafactor (variables of rank 3, 2, 1 and 0)"] = OPS + """
w = tf.Variable(np.ones((2, 3, 4), np.float32))
m = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
b = tf.Variable([0.5, -0.5])
c = tf.Variable(0.5)
adafactor = tf.keras.optimizers.Adafactor(0.01)
fixed = tf.keras.optimizers.Adafactor(0.01, relative_step=False, clip_threshold=2.0)
lion = tf.keras.optimizers.Lion(0.01, beta_1=0.5)
@tf.function
def step(x):
    g = tf.ones_like(w) * x
    adafactor.apply_gradients([(tf.ones_like(m) * x, m), (tf.ones_like(b), b)])
    fixed.apply_gradients([(g, w), (x, c)])
    lion.apply_gradients([(g, w), (x * 2.0, c)])
    return x + 1.0
out = ops(step, tf.constant(2.0))
"""
CASES["Keras's loss functions called directly"] = OPS + """
@tf.function
def step(p, y, labels):
    return (tf.keras.losses.categorical_crossentropy(y, p),
            tf.keras.losses.categorical_crossentropy(y, p, label_smoothing=0.1),
            tf.keras.losses.binary_crossentropy(y, p, label_smoothing=0.2),
            tf.keras.losses.sparse_categorical_crossentropy(labels, p, from_logits=True),
            tf.keras.losses.sparse_categorical_crossentropy(labels, p),
            tf.keras.losses.mean_squared_error(y, p),
            tf.keras.losses.mean_absolute_error(y, p),
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels, p))
out = ops(step, tf.constant([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]]),
          tf.constant([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]), tf.constant([2, 1]))
"""
CASES["gradients through Keras's crossentropies: clip_by_value's Minimum, Maximum"] = OPS + """
w = tf.Variable([[0.5, 1.0, 0.2], [0.3, 0.1, 0.4], [1.0, 0.0, 0.5]])
cce = tf.keras.losses.CategoricalCrossentropy()
bce = tf.keras.losses.BinaryCrossentropy()
@tf.function
def step(x, y):
    with tf.GradientTape(persistent=True) as tape:
        p = tf.matmul(x, w)
        a = tf.reduce_mean(tf.keras.losses.categorical_crossentropy(y, p))
        b = tf.reduce_mean(tf.keras.losses.binary_crossentropy(y, p, label_smoothing=0.2))
        c = cce(y, p)
        d = bce(y, p)
    return [tape.gradient(loss, w) for loss in (a, b, c, d)]
out = ops(step, tf.constant([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]]),
          tf.constant([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]))
"""
CASES["gradients through Binary- and CategoricalCrossentropy(from_logits=True)"] = OPS + """
w = tf.Variable([[0.5, 1.0, 0.2], [0.3, 0.1, 0.4], [1.0, 0.0, 0.5]])
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
cce = tf.keras.losses.CategoricalCrossentropy(from_logits=True)
@tf.function
def step(x, y):
    with tf.GradientTape(persistent=True) as tape:
        logits = tf.matmul(x, w)
        losses = bce(y, logits), cce(y, logits)
    return [tape.gradient(loss, w) for loss in losses]
out = ops(step, tf.constant([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]]),
          tf.constant([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]))
"""
CASES["BatchNormalization: training True, False and a tensor; a feature axis not last"] = \
    OPS + """
bn = tf.keras.layers.BatchNormalization()
bn.build((None, 3))
bn1 = tf.keras.layers.BatchNormalization(axis=1, momentum=0.9)
bn1.build((None, 3, 2))
@tf.function
def f(x, training):
    return bn(x, training=training)
@tf.function
def g(x):
    return bn1(x, training=True), bn1(x, training=False)
out = [ops(f, tf.ones([4, 3]), True), ops(f, tf.ones([4, 3]), False),
       ops(f, tf.ones([4, 3]), tf.constant(True)), ops(g, tf.ones([2, 3, 2]))]
"""
