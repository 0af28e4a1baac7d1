"""What TF's guides on gradients and training loops (autodiff, basic_training_loops) need, as
TF 2.21 runs it eagerly and traced (record_tf_framework.py records, test_tape_guide_ops.py
replays): ``tf.linspace`` (values of TF's composite: the ends exactly, N-D ranges along an
axis, int bounds in float64, errors), the gradients of ``tf.slice`` and ``tf.pad`` (TF's
_SliceGrad / _PadGrad), a variable as a tape's target (followed as TF follows its handle:
the seed for itself, None for others), a ``None`` target, an op without a gradient
(``tf.image.adjust_contrast``: TF's registry LookupError), ``tf.image.adjust_contrast`` and
``convert_image_dtype`` values, ``tf.nn.softplus``; and, with Keras, variables kept as
layer / model attributes among the weights; and for the advanced_autodiff guide
``tf.custom_gradient``, ``tf.einsum`` (values and gradients), ``tf.eye`` and
``GradientTape.batch_jacobian``."""

COMMON = """
def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        text = str(e)
        if text.startswith("{{function_node"):
            text = text.split("}} ", 1)[1]
        return [type(e).__name__, text.split(" [Op:")[0].split(" name: ")[0]]
    return "no error"
"""

LINSPACE = COMMON + """
out = [tf.linspace(0., 1., 5), tf.linspace(-2, 2, 201), tf.linspace(-10.0, 10.0, 201),
       tf.linspace([0., 5.], [10., 40.], 5), tf.linspace([0., 5.], [10., 40.], 3, axis=-1),
       tf.linspace(1., 2., 1), tf.linspace(1., 2., 0), tf.linspace(0., 1., 2),
       tf.linspace(tf.constant(0., tf.float64), 1., 4), tf.linspace(0., 1., tf.constant(3)),
       tf.function(lambda a, b: tf.linspace(a, b, 4))(tf.constant(1.), tf.constant(2.)),
       error(lambda: tf.linspace(0., 1., -1)), error(lambda: tf.linspace(0., 1., 2.5)),
       error(lambda: tf.linspace(0., 1., 3, axis=1))]
"""

SLICE_PAD_GRADIENTS = COMMON + """
x = tf.Variable([[1., 2., 3.], [4., 5., 6.]])
with tf.GradientTape(persistent=True) as t:
    s = tf.slice(x, [0, 1], [2, 2]) * [[1., 2.], [3., 4.]]
    p = tf.pad(x, [[1, 0], [0, 2]]) * tf.reshape(tf.range(15, dtype=tf.float32), [3, 5])
    q = tf.pad(x, [[0, 1], [1, 1]], constant_values=7.)
    r = tf.linspace(x[0, 0], x[1, 2], 4)
@tf.function
def traced(v):
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.slice(v, [1, 0], [1, -1]) ** 2)
    return tape.gradient(y, v)
out = [t.gradient(s, x), t.gradient(p, x), t.gradient(q, x), t.gradient(r, x), traced(x)]
"""

VARIABLE_TARGETS = COMMON + """
v0 = tf.Variable(2.0)
v1 = tf.Variable([1., 2.])
with tf.GradientTape(persistent=True) as t:
    y = v1 * 2
with tf.GradientTape() as unwatched:
    pass
@tf.function
def traced():
    with tf.GradientTape() as tape:
        z = v0 * 3.
    return tape.gradient([v0, z], [v0, v1])
out = [t.gradient(v0, [v0, v1]), t.gradient(v1, v1, output_gradients=tf.constant([3., 4.])),
       t.gradient([v0, y], [v0, v1]), t.gradient({"a": v1, "b": y}, v1),
       t.gradient(v0, v1, unconnected_gradients=tf.UnconnectedGradients.ZERO),
       unwatched.gradient(v0, v0), traced(), error(lambda: t.gradient(None, v0))]
"""

NO_GRADIENT = COMMON + """
image = tf.Variable([[[0.5, 0.0, 0.0]]])
delta = tf.Variable(0.1)
with tf.GradientTape(persistent=True) as tape:
    new_image = tf.image.adjust_contrast(image, delta)
    stopped = tf.stop_gradient(image) * 2.
out = [error(lambda: tape.gradient(new_image, [image, delta])),
       tape.gradient(stopped, image), new_image]
"""

IMAGE_OPS = COMMON + """
def cpu(fn):
    with tf.device("/cpu:0"):
        return fn()
rgb = tf.reshape(tf.range(24, dtype=tf.float32) / 24., [2, 2, 2, 3])
u8 = tf.constant([[[0, 128, 255], [10, 20, 30]]], tf.uint8)
out = [tf.image.adjust_contrast(rgb, 2.), tf.image.adjust_contrast(rgb[0], 0.5),
       tf.image.adjust_contrast(u8, 1.5),
       tf.image.convert_image_dtype(u8, tf.float32),
       tf.image.convert_image_dtype(tf.constant([0., 0.5, 1., 1.5]), tf.uint8),
       tf.image.convert_image_dtype(tf.constant([0., 0.5, 1., 1.5]), tf.uint8, saturate=True),
       tf.image.convert_image_dtype(u8, tf.int32), tf.image.convert_image_dtype(u8, tf.uint8),
       tf.image.convert_image_dtype(tf.constant([70000, -5], tf.int32), tf.uint16),
       tf.function(lambda i: tf.image.adjust_contrast(i, 2.))(rgb),
       error(lambda: tf.image.adjust_contrast(tf.ones([2, 3]), 2.)),
       error(lambda: tf.image.adjust_contrast(rgb, [2., 1.])),
       error(lambda: tf.image.convert_image_dtype(u8, tf.string)),
       error(lambda: cpu(lambda: tf.image.adjust_contrast(tf.cast(rgb, tf.float16), 3.)))]
"""

SOFTPLUS = COMMON + """
x = tf.constant([-30., -1., 0., 1., 30.])
with tf.GradientTape() as t:
    t.watch(x)
    y = tf.nn.softplus(x)
out = [y, t.gradient(y, x), tf.nn.softplus(tf.constant([0.5], tf.float64))]
"""

KERAS_ATTRIBUTE_VARIABLES = COMMON + """
class MyModelKeras(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0, trainable=False)
        self.more = [tf.Variable(1.0), {"k": tf.Variable(2.0, trainable=False)}]
        self.w_again = self.w
    def call(self, x):
        return self.w * x + self.b
class Scale(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0)
    def build(self, shape):
        self.k = self.add_weight(name="k", shape=(), initializer="ones")
    def call(self, x):
        return x * self.v * self.k
names = lambda ws: [float(w.numpy()) for w in ws]
m = MyModelKeras()
layer = Scale()
before = [names(layer.trainable_weights), layer.built]
layer(tf.ones([2]))
m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
x = tf.constant([1., 2., 3.])
h = m.fit(x, 3. * x + 2., epochs=3, verbose=0)
out = [names(m.trainable_weights), names(m.non_trainable_weights), names(m.weights),
       len(m.variables), before, names(layer.trainable_weights), names(layer.weights),
       h.history["loss"], m.count_params()]
"""

CUSTOM_GRADIENT = COMMON + """
@tf.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return tf.clip_by_norm(dy, 0.5)
    return y, backward

@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)
    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad

@tf.custom_gradient
def product(a, b):
    def grad(dy):
        return dy * b * 2., dy * a * 3.
    return a * b, grad

w = tf.Variable(3.)
@tf.custom_gradient
def scaled(x):
    def grad(dy, variables=None):
        return dy * w, [dy * x * 10.]
    return x * w, grad

@tf.custom_gradient
def no_variables_arg(x):
    return x * w, lambda dy: dy

@tf.custom_gradient
def too_many(x):
    return x * 2., lambda dy: (dy, dy)

v = tf.Variable(2.0)
x = tf.constant(100.)
a, b = tf.constant([1., 2.]), tf.constant([3., 4.])
with tf.GradientTape(persistent=True) as t:
    t.watch([x, a, b])
    clipped = clip_gradients(v * v)
    stable = log1pexp(x)
    prod = product(a, b)
    s = scaled(v)
    twice = too_many(v)
@tf.function
def traced(u):
    with tf.GradientTape() as tape:
        tape.watch(u)
        y = clip_gradients(u * u) + log1pexp(u)
    return tape.gradient(y, u)
out = [t.gradient(clipped, v), stable, t.gradient(stable, x), prod, t.gradient(prod, [a, b]),
       s, t.gradient(s, [v, w]), traced(tf.constant(3.)), traced(tf.constant(0.1)),
       error(lambda: no_variables_arg(v)), error(lambda: t.gradient(twice, v))]
"""

EINSUM = COMMON + """
m = tf.reshape(tf.range(6, dtype=tf.float32), [2, 3])
n = tf.reshape(tf.range(12, dtype=tf.float32), [3, 4]) / 10.
sq = tf.reshape(tf.range(9, dtype=tf.float32), [3, 3])
b1 = tf.reshape(tf.range(24, dtype=tf.float32), [2, 1, 3, 4]) / 7.
b2 = tf.reshape(tf.range(40, dtype=tf.float32), [5, 4, 2]) / 9.
d = tf.reshape(tf.range(2 * 3 * 2 * 4, dtype=tf.float32), [2, 3, 2, 4])
values = [tf.einsum('ij,jk->ik', m, n), tf.einsum('ij,jk', m, n), tf.einsum('ii', sq),
          tf.einsum('ii->i', sq), tf.einsum('ij->ji', m), tf.einsum('i,j->ij', m[0], n[0]),
          tf.einsum('ij->', m), tf.einsum('...ij,...jk->...ik', b1, b2),
          tf.einsum('bxby->bxy', d), tf.linalg.einsum('ij,jk->ik', m, n),
          tf.function(lambda p, q: tf.einsum('ij,jk->ik', p, q))(m, n)]
srcs = [m, n, sq, b1, b2, d]
with tf.GradientTape(persistent=True) as t:
    t.watch(srcs)
    ys = [tf.einsum('ij,jk->ik', m, n) ** 2, tf.einsum('ii->i', sq) ** 2,
          tf.einsum('ij->', m * m), tf.einsum('...ij,...jk->...ik', b1, b2) ** 2,
          tf.einsum('bxby->bxy', d) ** 2, tf.einsum('ii', sq)]
grads = [t.gradient(ys[0], [m, n]), t.gradient(ys[1], sq), t.gradient(ys[2], m),
         t.gradient(ys[3], [b1, b2]), t.gradient(ys[4], d), t.gradient(ys[5], sq)]
out = [values, grads, error(lambda: tf.einsum('ij,jk->ik', m, tf.constant([[1]]))),
       error(lambda: tf.einsum('ij,jk->ik', m)), tf.eye(3), tf.eye(2, 3, batch_shape=[2],
                                                                   dtype=tf.int32)]
"""

BATCH_JACOBIAN = COMMON + """
x = tf.reshape(tf.range(15, dtype=tf.float32), [3, 5]) / 10.
w = tf.reshape(tf.range(20, dtype=tf.float32), [5, 4]) / 20. - 0.4
other = tf.constant([1., 2., 3.])
with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
    tape.watch([x, other])
    y = tf.nn.elu(x @ w)
    y3 = tf.reshape(y, [3, 2, 2]) * 2.
    z = other * 2.
with tf.GradientTape() as once:
    once.watch(x)
    yo = x * 3.
out = [tape.batch_jacobian(y, x), tape.batch_jacobian(y3, x), tape.jacobian(y, x),
       tape.batch_jacobian(y, tf.reshape(other, [3, 1])),
       tape.batch_jacobian(y, tf.reshape(other, [3, 1]),
                           unconnected_gradients=tf.UnconnectedGradients.ZERO),
       error(lambda: tape.batch_jacobian(y, tf.ones([2, 5]))),
       error(lambda: tape.batch_jacobian(z, other)),
       error(lambda: once.batch_jacobian(yo, x, experimental_use_pfor=False)),
       once.batch_jacobian(yo, x)]
"""

CASES = {
    "linspace: TF's composite, ends exact, N-D along an axis, traced, errors": LINSPACE,
    "slice and pad gradients (TF's _SliceGrad, _PadGrad), eager and traced":
        SLICE_PAD_GRADIENTS,
    "a variable as a tape's target: the seed for itself, None for others; a None target":
        VARIABLE_TARGETS,
    "an op without a registered gradient: TF's registry LookupError": NO_GRADIENT,
    "image adjust_contrast and convert_image_dtype: values, dtypes, errors": IMAGE_OPS,
    "nn.softplus: values and gradient": SOFTPLUS,
    "Keras: variables kept as attributes are the layer's / model's weights and train":
        KERAS_ATTRIBUTE_VARIABLES,
    "custom_gradient: clipped, stable log1pexp, two inputs, variables, traced, errors":
        CUSTOM_GRADIENT,
    "einsum: explicit, implicit, trace, diagonal, ellipsis broadcast, gradients, errors; eye":
        EINSUM,
    "batch_jacobian: per-example jacobians, unconnected, shape and tape errors":
        BATCH_JACOBIAN,
}
