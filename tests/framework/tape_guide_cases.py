"""What TF's guides on gradients and training loops (autodiff, basic_training_loops) need, as
TF 2.21 runs it eagerly and traced (record_tf_framework.py records, test_tape_guide_ops.py
replays): ``tf.linspace`` (values of TF's composite: the ends exactly, N-D ranges along an
axis, int bounds in float64, errors), the gradients of ``tf.slice`` and ``tf.pad`` (TF's
_SliceGrad / _PadGrad), a variable as a tape's target (followed as TF follows its handle:
the seed for itself, None for others), a ``None`` target, an op without a gradient
(``tf.image.adjust_contrast``: TF's registry LookupError), ``tf.image.adjust_contrast`` and
``convert_image_dtype`` values, ``tf.nn.softplus``; and, with Keras, variables kept as
layer / model attributes among the weights."""

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
}
