"""Whole-model saving programs whose results TF 2.21 recorded (record_tf_layers.py saving)
and simdist must reproduce (test_layers_tf_conformance.py): ``model.save`` to a .keras file,
an .h5 file and a SavedModel directory, ``tf.keras.models.load_model`` with and without a
strategy (the compile state, the optimizer's slots, training on), ``tf.saved_model.save`` /
``load`` and its serving signature (also run on 4 replicas), SaveOptions/LoadOptions
``experimental_io_device``, and the subclassed-model caveats of TF's "Save and load a model
using a distribution strategy" tutorial.

Same conventions as layer_cases.py. simdist's files are its own (not TF's protobufs), so the
cases compare what the API gives back, never the files.
"""

HELP = """
import os, tempfile
def R(*shape, seed=0):
    return np.random.RandomState(seed).normal(size=shape).astype('float32')
def summary(m):
    buf = []
    m.summary(print_fn=lambda s, **k: buf.append(s))
    return buf
D = tempfile.mkdtemp()
x, y = np.abs(R(16, 6, 6, 1)), np.arange(16) % 3
def cnn():
    # Weights set, not given as Constant initializers: TF's .h5 config cannot hold arrays.
    m = tf.keras.Sequential([
        L.Conv2D(2, 3, activation='relu', input_shape=(6, 6, 1), name='conv'),
        L.MaxPooling2D(name='pool'), L.Flatten(name='flat'), L.Dense(3, name='out')],
        name='cnn')
    m.set_weights([R(3, 3, 1, 2) * 0.5, np.zeros(2), R(8, 3, seed=1) * 0.5, np.zeros(3)])
    m.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              optimizer=tf.keras.optimizers.Adam(0.01),
              metrics=[tf.metrics.SparseCategoricalAccuracy()])
    return m
"""

ROUND_TRIP = HELP + """
m = cnn()
m.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
path = os.path.join(D, '{name}')
m.save(path)
r = tf.keras.models.load_model(path)
before = [type(r).__name__, type(r.optimizer).__name__, r.name, summary(r),
          bool(np.allclose(r.predict(x, verbose=0), m.predict(x, verbose=0), atol=1e-6))]
h = r.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
out = before + [sorted(h.history), h.history['loss'], r.metrics_names, r.get_weights()]
"""

CASES = {
    "model.save to .keras, load_model, train on": ROUND_TRIP.format(name="m.keras"),
    "model.save to .h5, load_model, train on": ROUND_TRIP.format(name="m.h5"),
    "model.save to a SavedModel directory, load_model, train on": ROUND_TRIP.format(name="sm"),
    "load_model under OneDevice and Mirrored strategies": HELP + """
m = cnn()
m.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
path = os.path.join(D, 'm.keras')
m.save(path)
out = []
for strategy in (tf.distribute.OneDeviceStrategy('/cpu:0'), S):
    with strategy.scope():
        r = tf.keras.models.load_model(path)
        h = r.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    out += [type(r.weights[0]).__name__, h.history['loss']]
""",
    "a functional model with two outputs saved and loaded": HELP + """
a, b = tf.keras.Input((3,), name='a'), tf.keras.Input((3,), name='b')
s = L.Dense(4, activation='relu', name='shared')
o1 = L.Dense(1, name='o1')(L.Add(name='add')([s(a), s(b)]))
o2 = L.Dense(2, name='o2')(L.Concatenate(name='cat')([s(a), s(b)]))
m = tf.keras.Model([a, b], [o1, o2], name='towers')
m.set_weights([R(3, 4) * 0.5, np.zeros(4), R(4, 1, seed=1) * 0.5, np.zeros(1),
               R(8, 2, seed=2) * 0.5, np.zeros(2)])
m.compile(tf.keras.optimizers.SGD(0.05, momentum=0.9),
          ['mse', tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)],
          loss_weights=[1.0, 0.5], metrics=['mae'])
xa, xb, y1, y2 = R(8, 3, seed=3), R(8, 3, seed=4), R(8, 1, seed=5), np.arange(8) % 2
m.fit([xa, xb], [y1, y2], batch_size=4, verbose=0, shuffle=False)
m.save(os.path.join(D, 'towers.keras'))
r = tf.keras.models.load_model(os.path.join(D, 'towers.keras'))
h = r.fit([xa, xb], [y1, y2], batch_size=4, verbose=0, shuffle=False)
out = [summary(r), [l.name for l in r.layers], r.output_names, h.history, r([xa, xb])]
""",
    "tf.saved_model.save and load: the serving signature": HELP + """
m = cnn()
path = os.path.join(D, 'tf_save')
tf.saved_model.save(m, path)
loaded = tf.saved_model.load(path)
f = loaded.signatures['serving_default']
res = f(tf.constant(x[:4]))
out = [list(loaded.signatures.keys()), sorted(res), res['out'], m.predict(x[:4], verbose=0),
       len(loaded.variables), len(loaded.trainable_variables), loaded(tf.constant(x[:2]))]
""",
    "tf.saved_model.load under a MirroredStrategy runs the signature on each replica": HELP + """
m = cnn()
path = os.path.join(D, 'tf_save')
tf.saved_model.save(m, path)
with S.scope():
    loaded = tf.saved_model.load(path)
    f = loaded.signatures['serving_default']
    ds = tf.data.Dataset.from_tensor_slices(x).batch(8)
    for batch in S.experimental_distribute_dataset(ds):
        result = S.run(f, args=(batch,))
        break
out = [sorted(result), [t.numpy() for t in S.experimental_local_results(result['out'])],
       type(loaded.variables[0]).__name__]
""",
    "tf.saved_model.load of a model saved by model.save": HELP + """
m = cnn()
path = os.path.join(D, 'sm')
m.save(path)
with S.scope():
    loaded = tf.saved_model.load(path)
out = [list(loaded.signatures.keys()), loaded.signatures['serving_default'](
    tf.constant(x[:2]))['out']]
""",
    "a signature called with a NumPy array": HELP + """
m = cnn()
tf.saved_model.save(m, os.path.join(D, 'tf_save'))
out = tf.saved_model.load(os.path.join(D, 'tf_save')).signatures['serving_default'](x[:2])
""",
    "experimental_io_device on the local host": HELP + """
m = cnn()
path = os.path.join(D, 'sm')
m.save(path, options=tf.saved_model.SaveOptions(experimental_io_device='/job:localhost'))
with S.scope():
    r = tf.keras.models.load_model(
        path, options=tf.saved_model.LoadOptions(experimental_io_device='/job:localhost'))
out = [type(r.weights[0]).__name__, r.predict(x[:2], verbose=0),
       tf.saved_model.SaveOptions(experimental_io_device='/job:localhost').experimental_io_device]
""",
    "experimental_io_device that is not a device": HELP + """
out = tf.saved_model.save(cnn(), os.path.join(D, 'e'), options=tf.saved_model.SaveOptions(
    experimental_io_device='/job:foo'))
""",
    "load_model of nothing": "out = tf.keras.models.load_model('/tmp/simdist_no_such_model_17')",
}

SUBCLASSED = """
class SubclassedModel(tf.keras.Model):
    output_name = 'output_layer'
    def __init__(self):
        super(SubclassedModel, self).__init__()
        self._dense_layer = tf.keras.layers.Dense(5, dtype=tf.dtypes.float32,
                                                  kernel_initializer='ones',
                                                  name=self.output_name)
    def call(self, inputs):
        return self._dense_layer(inputs)
my_model = SubclassedModel()
dataset = tf.data.Dataset.from_tensors(
    (tf.range(5, dtype=tf.float32), tf.range(5, dtype=tf.float32))).repeat(100).batch(16)
"""
CASES.update({
    "a subclassed model saved before it was called": HELP + SUBCLASSED + """
try:
    my_model.save(os.path.join(D, 'sub'))
except ValueError as e:
    msg = str(e).replace(repr(my_model), '<model>')
out = [msg, my_model.save_spec() is None]
""",
    "tf.saved_model.save of a subclassed model never called: no signatures": HELP + SUBCLASSED
    + """
tf.saved_model.save(my_model, os.path.join(D, 'sub0'))
x = tf.saved_model.load(os.path.join(D, 'sub0'))
out = [repr(x.signatures), sorted(x.signatures), hasattr(x, 'variables'), callable(x),
       my_model.built]
""",
    "a subclassed model saved after fit, loaded from a SavedModel directory":
        HELP + SUBCLASSED + """
my_model.compile(optimizer='adam', loss='mean_squared_error')
my_model.fit(dataset, epochs=2, verbose=0)
spec = my_model.save_spec()
my_model.save(os.path.join(D, 'sub'))
r = tf.keras.models.load_model(os.path.join(D, 'sub'))
tf.saved_model.save(my_model, os.path.join(D, 'sub2'))
sig = tf.saved_model.load(os.path.join(D, 'sub2')).signatures['serving_default']
out = [str(spec), type(r).__name__, r(np.ones((1, 5), np.float32)),
       my_model(np.ones((1, 5), np.float32)), sorted(sig(tf.ones((1, 5)))),
       sig(tf.ones((1, 5)))['output_1']]
""",
    "a subclassed model's .keras file needs its class": HELP + SUBCLASSED + """
my_model(np.ones((1, 5), np.float32))
my_model.save(os.path.join(D, 'sub.keras'))
out = tf.keras.models.load_model(os.path.join(D, 'sub.keras'))
""",
})

# The structured-data tutorial's reloaded model: an adapted Normalization's mean and variance
# are made from its restored weights (tf-keras's load_own_variables calls finalize_state), and
# a dict of inputs in another order than the model's is matched by the Inputs' names; then
# from the weights set_weights gives (tf-keras's set_weights calls finalize_state too).
CASES["a reloaded model with an adapted Normalization, called on a dict"] = """
import os, tempfile
D = tempfile.mkdtemp()
fee = tf.keras.Input(shape=(1,), name='Fee')
age = tf.keras.Input(shape=(1,), name='Age', dtype='int64')
norm = L.Normalization()
norm.adapt(np.array([[10.0], [30.0], [50.0], [90.0]], 'float32'))
both = L.concatenate([norm(fee), tf.cast(age, 'float32')])
m = tf.keras.Model({'Fee': fee, 'Age': age}, both)
data = {'Age': tf.constant([[3]], tf.int64), 'Fee': tf.constant([[100.0]])}
out = [m(data)]
for name in ('m.keras', 'sm'):
    m.save(os.path.join(D, name))
    r = tf.keras.models.load_model(os.path.join(D, name))
    out += [r(data), r.predict(data, verbose=0)]
m.set_weights([np.array([20.0]), np.array([4.0]), np.array(2)])   # finalize_state after it
out += [m(data)]
"""
