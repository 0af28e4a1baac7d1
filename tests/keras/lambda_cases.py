"""Lambda layers whose results TF 2.21 (tf-keras) recorded (``record_tf_layers.py lambda``)
and simdist must reproduce (test_layers_tf_conformance.py): calls with arguments, output
shapes inferred, given as a tuple or a function, their configs (a lambda and a def
function, both as their bytecode), a model with one fit, saved as .keras and loaded
(refused in safe mode, allowed without), and a Lambda in a functional model."""

HELP = """
import os, tempfile
D = tempfile.mkdtemp()
x = tf.constant([[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]])
def double(t):
  return t * 2.0
"""

CASES = {
    "Lambda calls its function with arguments": HELP + """
lay = L.Lambda(lambda t, k: t * k, arguments={'k': 3.0})
out = [lay(x), lay.name, lay.weights, lay.built]
""",
    "Lambda output shapes: inferred, a tuple, a function": HELP + """
a = L.Lambda(lambda t: tf.stack([t, t ** 2], axis=1))
b = L.Lambda(lambda t: t[:, :2], output_shape=(2,))
c = L.Lambda(lambda t: t, output_shape=lambda s: (s[0], 7))
out = [a.compute_output_shape((None, 3)), b.compute_output_shape((5, 3)),
       c.compute_output_shape((4, 3))]
""",
    "Lambda config of a def function": HELP + """
cfg = L.Lambda(double, name='dbl').get_config()
out = [cfg['name'], len(cfg['function']), cfg['function'][1:], cfg['function_type'],
       cfg['output_shape'], cfg['output_shape_type'], cfg['arguments'],
       L.Lambda.from_config(cfg)(x)]
""",
    "Lambda config of a lambda": HELP + """
cfg = L.Lambda(lambda t: t + 1.0).get_config()
out = [cfg['function_type'], len(cfg['function']), cfg['function'][1], cfg['function'][2],
       L.Lambda.from_config(cfg)(x)]
""",
    "a Sequential with a Lambda fits, saves as .keras and loads": HELP + """
tf.keras.utils.set_random_seed(1)
m = tf.keras.Sequential([L.Lambda(lambda t: tf.stack([t, t ** 2], axis=1)),
                         L.Dense(1, kernel_initializer='ones')])
m.compile(loss='mse', optimizer=tf.keras.optimizers.SGD(0.01))
xs = tf.linspace(-1.0, 1.0, 8)
h = m.fit(xs, 2.0 * xs, epochs=2, batch_size=4, verbose=0, shuffle=False)
m.save(os.path.join(D, 'm.keras'))
try:
  tf.keras.models.load_model(os.path.join(D, 'm.keras'))
  refused = None
except ValueError as e:
  refused = str(e)
back = tf.keras.models.load_model(os.path.join(D, 'm.keras'), safe_mode=False)
out = [h.history['loss'], refused, back(xs), [l.__class__.__name__ for l in back.layers]]
""",
    "a Lambda in a functional model": HELP + """
inp = tf.keras.Input(shape=(3,))
y = L.Lambda(lambda t: tf.reduce_sum(t, axis=1, keepdims=True), name='s')(inp)
m = tf.keras.Model(inp, y)
out = [m(x), m.layers[1].name, tuple(m.output_shape)]
""",
}
