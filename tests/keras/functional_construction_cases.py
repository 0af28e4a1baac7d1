"""A user's layer called on KerasTensors: what its ``call`` sees and what it makes, as TF 2.21
with tf-keras recorded them (record_tf_layers.py functional_construction; replayed by
test_functional_construction.py).

TF runs the call once in a scratch graph on symbolic tensors of shape (None, ...): the
shapes, dtypes, names and ``repr`` seen inside, ``tf.shape``, a Python branch on a static
dimension, ``.numpy()`` (TF's error), side effects happening once, a build from the
None-batch shape, the ``training`` the call gets; and the KerasTensors made: ``name``,
``repr`` and ``str`` (an Input's, a Dense's, a user layer's).

The AutoGraph cases run as a module file of their own (tf_snippets.MODULE): tf-keras converts
a subclassed layer's call for its scratch graph, so a Python ``if`` on a tensor becomes a
tf.cond there, and an error inside carries TF's "in user code:" frames.

Same conventions as layer_cases.py (``tf``, ``np``, ``L``, ``S`` in scope; ``out`` is the
result).
"""

from tf_snippets import MODULE

BRANCHY = """
L = tf.keras.layers
class Branchy(L.Layer):
    def call(self, x):
        if tf.reduce_sum(x) > 0:
            return x * 2.0
        return -x
inp = tf.keras.Input(shape=(3,))
y = Branchy(name='branchy')(inp)
m = tf.keras.Model(inp, y)
out = [str(y.shape), repr(y), m(np.array([[1.0, 2.0, 3.0], [-1.0, -2.0, -3.0]], 'float32'))]
"""

NUMPY_INSIDE = """
L = tf.keras.layers
class Peek(L.Layer):
    def call(self, x):
        return x.numpy()
Peek()(tf.keras.Input(shape=(3,)))
out = None
"""

SEEN = """
seen = []
class Probe(L.Layer):
    def call(self, x, training=None):
        if type(x).__name__ != 'SymbolicTensor':    # an eager call: values, no name
            seen.append([str(x.shape), str(tf.shape(x))])
            return x * 2.0
        seen.append([str(x.shape), x.dtype.name, type(x).__name__, repr(x), x.name,
                     str(tf.shape(x)), x.shape[0] is None, repr(training)])
        if x.shape[-1] == 3:     # a Python branch on a static dimension
            return x * 2.0
        return x
"""

CASES = {
    "a user layer's call runs once on symbolic tensors of unknown batch": SEEN + """
inp = tf.keras.Input(shape=(3,))
y = Probe()(inp)
m = tf.keras.Model(inp, y)
out = [seen, str(y.shape), y.name, repr(y), str(y),
       m(np.ones((2, 3), 'float32')).numpy(), len(seen)]
""",
    "Tensor.name is undefined eagerly": """
t = tf.constant([1.0])
t.name
""",
    "a user layer sees None for every unknown dimension and its static ones": SEEN + """
inp = tf.keras.Input(shape=(None, 4), dtype='int32', name='tokens')
y = Probe(name='probe')(inp)
out = [seen, y.name, repr(y), str(y), repr(inp), str(inp), inp.name]
""",
    "a user layer called with training=True sees it": SEEN + """
inp = tf.keras.Input(shape=(3,))
Probe()(inp, training=True)
out = seen
""",
    "numpy() inside a user layer's call fails on the symbolic tensor": """
class N(L.Layer):
    def call(self, x):
        return x.numpy()
N()(tf.keras.Input(shape=(3,)))
""",
    "bool() of a symbolic tensor inside a user layer's call fails": """
class B(L.Layer):
    def call(self, x):
        return x if bool(tf.reduce_sum(x) > 0) else -x
B()(tf.keras.Input(shape=(3,)))
""",
    "a user layer builds its weights from the None-batch shape": """
built = []
class W(L.Layer):
    def build(self, input_shape):
        built.append(str(input_shape))
        self.w = self.add_weight(name='w', shape=(input_shape[-1], 2), initializer='ones')
    def call(self, x):
        return tf.matmul(x, self.w)
inp = tf.keras.Input(shape=(3,))
y = W(name='w_layer')(inp)
m = tf.keras.Model(inp, y)
out = [built, [v.name for v in m.weights], str(y.shape), y.name, repr(y),
       m(np.ones((1, 3), 'float32')).numpy()]
""",
    "KerasTensor names, repr and str of built-in layers": """
a = tf.keras.Input(shape=(3,), name='a')
b = tf.keras.Input(shape=(3,))
d = L.Dense(2)(a)
r = L.Dense(2, activation='relu')(b)
s = L.Add()([d, r])
c = L.Concatenate()([d, r])
n = L.Dense(2, use_bias=False)(a)
out = [[t.name for t in (a, b, d, r, s, c, n)], [repr(t) for t in (a, d, s)],
       [str(t) for t in (a, d, s)]]
""",
    "a Python if on a tensor in a user layer's call becomes a cond (AutoGraph)":
        MODULE + f"out = run_module('construction_branchy', {BRANCHY!r})\n",
    "numpy() inside a converted call: TF's in user code text":
        MODULE + f"out = run_module('construction_numpy', {NUMPY_INSIDE!r})\n",
    "a shared user layer's outputs are named in a fresh scratch graph per call": SEEN + """
a, b = tf.keras.Input(shape=(3,)), tf.keras.Input(shape=(3,))
p = Probe()
out = [p(a).name, p(b).name, [s[4] for s in seen]]
""",
}
