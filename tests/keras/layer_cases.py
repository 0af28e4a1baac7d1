"""Layer programs whose results TF 2.15 recorded (record_tf_layers.py) and simdist must
reproduce (test_layers_tf_conformance.py): batch norm's fused path, empty replicas and axes,
weight names by how a layer is built, Sequential shapes, get_config, Flatten, Dropout, and
how initializers are seeded (tf.random.set_seed vs tf.keras.utils.set_random_seed, reuse).

Each case is code run with ``tf``, ``np``, ``L = tf.keras.layers`` and ``S`` (a 4-replica
MirroredStrategy) in scope that leaves its result in ``out``; an exception is the result
when it raises. Layers get explicit names: auto-names depend on what ran before.
"""

X4 = "x = np.random.RandomState(3).normal(size=(4, 3, 3, 2)).astype('float32')\n"
BN_STATS = "out = [y, bn.moving_mean.numpy(), bn.moving_variance.numpy()]\n"
# Four replicas get 2, 2, 2 and 0 rows (MirroredStrategy's split of a short last batch).
EMPTY_REPLICA = """
XS = np.array([[1.0, 2.0], [3.0, 5.0], [0.0, -1.0], [4.0, 4.0], [2.0, 0.0], [7.0, 1.0]],
              np.float32)
def per_replica(ctx):
    i = ctx.replica_id_in_sync_group
    return tf.constant(XS[2 * i:2 * i + (2 if i < 3 else 0)].reshape(-1, 2))
vals = S.experimental_distribute_values_from_function(per_replica)
"""
FIT_14_ROWS = """
rng = np.random.RandomState(0)
x = rng.normal(size=(14, 3)).astype('float32'); y = rng.normal(size=(14, 1)).astype('float32')
with S.scope():
    m = tf.keras.Sequential([L.Dense(2, input_shape=(3,), kernel_initializer='ones', name='d'),
                             {bn}(momentum=0.5, name='bn'),
                             L.Dense(1, kernel_initializer='ones', name='o')])
    m.compile(tf.keras.optimizers.SGD(0.1), 'mse')
h = m.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
out = [h.history['loss'], m.get_weights()]
"""
SUBCLASSED_BUILD = """
class M(tf.keras.Model):
    def __init__(self):
        super().__init__(name='mm')
    def build(self, shape):
        self.w = self.add_weight(name='w', shape=(shape[-1], 2), initializer='ones')
    def call(self, x):
        return tf.matmul(x, self.w)
"""

BATCH_NORM = {
    "bn 4-D takes the fused path: unbiased moving variance": X4 + """
bn = L.BatchNormalization(momentum=0.0, name='bn')
y = bn(x, training=True)
""" + BN_STATS,
    "bn 4-D axis=1 fused": X4 + """
bn = L.BatchNormalization(momentum=0.0, axis=1, name='bn')
y = bn(x, training=True)
""" + BN_STATS,
    "bn 4-D axis=-3 fused": X4 + """
bn = L.BatchNormalization(momentum=0.0, axis=-3, name='bn')
y = bn(x, training=True)
""" + BN_STATS,
    "bn 4-D fused=False: biased moving variance": X4 + """
bn = L.BatchNormalization(momentum=0.0, fused=False, name='bn')
y = bn(x, training=True)
""" + BN_STATS,
    "bn 4-D axis=2 is not fused": X4 + """
bn = L.BatchNormalization(momentum=0.0, axis=2, name='bn')
y = bn(x, training=True)
""" + BN_STATS,
    "bn 4-D float64 is not fused": X4 + """
bn = L.BatchNormalization(momentum=0.0, dtype='float64', name='bn')
y = bn(x.astype('float64'), training=True)
""" + BN_STATS,
    "bn 4-D synchronized is not fused": X4 + """
bn = L.BatchNormalization(momentum=0.0, synchronized=True, name='bn')
y = bn(x, training=True)
""" + BN_STATS,
    "bn 5-D fused and 5-D axis=2 not": """
x = np.random.RandomState(4).normal(size=(3, 2, 2, 2, 3)).astype('float32')
a = L.BatchNormalization(momentum=0.0, name='a')
b = L.BatchNormalization(momentum=0.0, axis=2, name='b')
a(x, training=True); b(x, training=True)
out = [a.moving_variance.numpy(), b.moving_variance.numpy()]
""",
    "bn 4-D momentum 0.9, two steps, then inference": X4 + """
bn = L.BatchNormalization(momentum=0.9, name='bn')
bn(x, training=True); bn(x[:2] * 2.0 + 1.0, training=True)
y = bn(x, training=False)
""" + BN_STATS,
    "bn 4-D one row per channel": """
bn = L.BatchNormalization(momentum=0.0, name='bn')
y = bn(np.array([[[[1.0, 2.0]]]], np.float32), training=True)
""" + BN_STATS,
    "bn 4-D in fit": """
rng = np.random.RandomState(0)
x = rng.normal(size=(8, 2, 2, 1)).astype('float32'); y = rng.normal(size=(8, 1)).astype('float32')
m = tf.keras.Sequential([L.BatchNormalization(momentum=0.0, input_shape=(2, 2, 1), name='bn'),
                         L.Flatten(name='f'), L.Dense(1, kernel_initializer='ones', name='o')])
m.compile(tf.keras.optimizers.SGD(0.0), 'mse')
m.fit(x, y, batch_size=8, verbose=0)
out = m.get_weights()[2:4]
""",
    "bn 4-D on 4 replicas keeps one moving variance per replica": """
x = np.random.RandomState(5).normal(size=(6, 2, 2, 2)).astype('float32')
sizes, offs = [1, 1, 2, 2], [0, 1, 2, 4]
with S.scope():
    bn = L.BatchNormalization(momentum=0.5, name='bn')
    bn.build((None, 2, 2, 2))
vals = S.experimental_distribute_values_from_function(
    lambda c: tf.constant(x[offs[c.replica_id_in_sync_group]:
                            offs[c.replica_id_in_sync_group] + sizes[c.replica_id_in_sync_group]]))
S.run(lambda v: bn(v, training=True), args=(vals,))
out = [bn.moving_variance.numpy(), [v.numpy() for v in bn.moving_variance.values]]
""",
    "bn fused=True on 2-D input": """
out = L.BatchNormalization(fused=True, name='bn')(np.ones((2, 2), np.float32))
""",
    "bn fused=True with axis 2": "out = L.BatchNormalization(axis=2, fused=True, name='bn')",
    "bn fused=True with synchronized": """
out = L.BatchNormalization(synchronized=True, fused=True, name='bn')
""",
    "bn axis -4 on 4-D input": X4 + "out = L.BatchNormalization(axis=-4, name='bn')(x)",
    "bn empty replica leaves its moving statistics": EMPTY_REPLICA + """
with S.scope():
    bn = L.BatchNormalization(momentum=0.5, name='bn')
    bn.build((None, 2))
o = S.run(lambda v: bn(v, training=True), args=(vals,))
out = [np.concatenate([t.numpy() for t in S.experimental_local_results(o)]),
       bn.moving_mean.numpy(), bn.moving_variance.numpy(),
       [v.numpy() for v in bn.moving_mean.values]]
""",
    "sync bn empty replica leaves its copy of the moving statistics": EMPTY_REPLICA + """
with S.scope():
    bn = tf.keras.layers.experimental.SyncBatchNormalization(momentum=0.5, name='bn')
    bn.build((None, 2))
o = S.run(lambda v: bn(v, training=True), args=(vals,))
out = [np.concatenate([t.numpy() for t in S.experimental_local_results(o)]),
       bn.moving_mean.numpy(), bn.moving_variance.numpy(),
       [v.numpy() for v in bn.moving_mean.values],
       [v.numpy() for v in bn.moving_variance.values]]
""",
    "bn 4-D empty replica": """
x = np.random.RandomState(6).normal(size=(3, 1, 2, 2)).astype('float32')
with S.scope():
    bn = L.BatchNormalization(momentum=0.5, name='bn')
    bn.build((None, 1, 2, 2))
vals = S.experimental_distribute_values_from_function(
    lambda c: tf.constant(x[c.replica_id_in_sync_group:c.replica_id_in_sync_group + 1]
                          if c.replica_id_in_sync_group < 3 else x[:0]))
S.run(lambda v: bn(v, training=True), args=(vals,))
out = [bn.moving_mean.numpy(), [v.numpy() for v in bn.moving_variance.values]]
""",
    "bn in fit with an empty last replica": FIT_14_ROWS.format(bn="L.BatchNormalization"),
    "sync bn in fit with an empty last replica": FIT_14_ROWS.format(
        bn="tf.keras.layers.experimental.SyncBatchNormalization"),
    "bn empty batch outside a strategy is NaN": """
bn = L.BatchNormalization(momentum=0.0, name='bn')
y = str(bn(np.zeros((0, 2), np.float32), training=True).shape)
""" + BN_STATS,
    "bn empty batch inside a strategy scope is skipped": """
bn = L.BatchNormalization(momentum=0.0, name='bn')
with S.scope():
    y = str(bn(np.zeros((0, 2), np.float32), training=True).shape)
""" + BN_STATS,
    "bn axis list": """
x = np.random.RandomState(0).normal(size=(5, 3, 4)).astype('float32')
bn = L.BatchNormalization(axis=[1, 2], momentum=0.0, name='bn')
y = bn(x, training=True)
out = [y, [str(tuple(w.shape)) for w in bn.weights], bn.moving_variance.numpy(),
       list(bn.axis), bn(x, training=False)]
""",
    "bn axis tuple before build": "out = L.BatchNormalization(axis=(1, 2), name='bn').axis",
    "bn axis after build": """
bn = L.BatchNormalization(axis=-1, name='bn')
bn.build((None, 2, 3))
out = list(bn.axis)
""",
    "bn axis str": "out = L.BatchNormalization(axis='1', name='bn')",
    "bn axis float": "out = L.BatchNormalization(axis=1.0, name='bn')",
    "bn axis repeated": "out = L.BatchNormalization(axis=[1, -2], name='bn')(np.ones((2, 3, 4)))",
    "bn axis list out of range": """
out = L.BatchNormalization(axis=[1, 5], name='bn')(np.ones((2, 3, 4), np.float32))
""",
    "bn axis negative out of range": """
out = L.BatchNormalization(axis=-5, name='bn')(np.ones((2, 3), np.float32))
""",
    "bn scalar input": "out = L.BatchNormalization(name='bn')(tf.constant(1.0))",
    "bn integer input": """
out = L.BatchNormalization(name='bn')(tf.constant([[1, 2], [3, 4]]), training=True)
""",
    "bn integer 4-D input": """
out = L.BatchNormalization(name='bn')(tf.ones((2, 1, 1, 2), tf.int32), training=True)
""",
    "bn int64 input at inference": """
out = L.BatchNormalization(name='bn')(tf.constant([[1, 2], [3, 4]], tf.int64), training=False)
""",
    "bn bool input": """
out = L.BatchNormalization(name='bn')(tf.constant([[True, False], [False, True]]),
                                      training=True)
""",
    "bn float64 input to a float32 layer": """
out = L.BatchNormalization(name='bn')(tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64),
                                      training=True)
""",
    "bn gamma and beta regularizers join the losses": """
bn = L.BatchNormalization(gamma_regularizer='l2', beta_regularizer=tf.keras.regularizers.L1(0.5),
                          beta_initializer='ones', name='bn')
bn.build((None, 3))
out = bn.losses
""",
    "bn get_config": """
out = sorted((k, str(v)) for k, v in L.BatchNormalization(name='bn').get_config().items())
""",
    "bn get_config after build": """
bn = L.BatchNormalization(axis=1, momentum=0.9, center=False, gamma_regularizer='l2', name='bn')
bn.build((None, 3, 2))
cfg = bn.get_config()
out = [list(cfg['axis']), cfg['momentum'], cfg['center'], cfg['gamma_regularizer'],
       cfg['gamma_initializer'], sorted(cfg)]
""",
}

NAMES = {
    "dense built directly has no scope": """
d = L.Dense(2, name='d')
d.build((None, 3))
out = [w.name for w in d.weights]
""",
    "dense called is scoped by its name": """
d = L.Dense(2, name='d')
d(np.ones((1, 3), np.float32))
out = [w.name for w in d.weights]
""",
    "bn built directly has no scope": """
bn = L.BatchNormalization(name='bn')
bn.build((None, 3))
out = [[w.name for w in bn.trainable_weights], [w.name for w in bn.non_trainable_weights]]
""",
    "dense built directly under a strategy": """
with S.scope():
    d = L.Dense(2, name='d')
    d.build((None, 3))
out = [w.name for w in d.weights] + [v.name for v in d.kernel.values]
""",
    "custom layer building a sub-layer in build": """
class B(L.Layer):
    def build(self, s):
        self.d = L.Dense(2, name='inner')
        self.d.build(s)
        self.w = self.add_weight('w', shape=(1,))
    def call(self, x):
        return self.d(x)
b, c = B(name='blk'), B(name='c')
b(np.ones((1, 3), np.float32))
c.build((None, 3))
out = [[w.name for w in b.weights], [w.name for w in c.weights]]
""",
    "subclassed model add_weight in build, called": SUBCLASSED_BUILD + """
m = M()
out = [m(np.ones((1, 3), np.float32)), [w.name for w in m.weights]]
""",
    "subclassed model add_weight in build, built": SUBCLASSED_BUILD + """
m = M()
m.build((None, 3))
out = [w.name for w in m.weights]
""",
    "subclassed model add_weight in a build that calls super().build": """
class M(tf.keras.Model):
    def __init__(self):
        super().__init__(name='mm')
    def build(self, shape):
        self.w = self.add_weight(name='w', shape=(shape[-1], 2), initializer='ones')
        super().build(shape)
    def call(self, x):
        return tf.matmul(x, self.w)
a, b = M(), M()
a.build((None, 3))
b(np.ones((1, 3), np.float32))
out = [[w.name for w in a.weights], [w.name for w in b.weights]]
""",
    "Sequential in a subclassed model builds outside its scope": """
class M(tf.keras.Model):
    def __init__(self):
        super().__init__(name='mm')
        self.s = tf.keras.Sequential([L.Dense(2, name='i')], name='s')
        self.o = L.Dense(1, name='o')
    def call(self, x):
        return self.o(self.s(x))
m = M()
m(np.ones((1, 3), np.float32))
out = [w.name for w in m.weights]
""",
    "nested Sequential with an inner input shape": """
inner = tf.keras.Sequential([L.Dense(2, input_shape=(3,), name='i')], name='inner')
outer = tf.keras.Sequential([inner, L.Dense(1, name='o')], name='outer')
out = [w.name for w in outer.weights]
""",
    "nested Sequential after an Input": """
inner = tf.keras.Sequential([L.Dense(2, name='i')], name='inner')
outer = tf.keras.Sequential([tf.keras.Input((3,)), inner, L.Dense(1, name='o')], name='outer')
out = [w.name for w in outer.weights] + [str(outer.output_shape)]
""",
}

SEQUENTIAL_SHAPES = {
    "Sequential shapes from input_shape": """
m = tf.keras.Sequential([L.Dense(2, input_shape=(3,), name='d'), L.Flatten(name='f')])
out = [str(m.output_shape), str(m.input_shape),
       [[str(l.input_shape), str(l.output_shape)] for l in m.layers]]
""",
    "Sequential shapes from an Input": """
m = tf.keras.Sequential([tf.keras.Input((5,)), L.Dense(2, name='d')])
out = [str(m.output_shape), str(m.input_shape)]
""",
    "Sequential shapes after build": """
m = tf.keras.Sequential([L.Dense(2, name='d'), L.Dense(4, name='e')])
m.build((None, 3))
out = [str(m.output_shape), str(m.input_shape), [str(l.output_shape) for l in m.layers]]
""",
    "Sequential shapes after a call keep its batch size": """
m = tf.keras.Sequential([L.Dense(2, name='d')])
m(np.ones((4, 3), np.float32))
out = [str(m.output_shape), str(m.input_shape), str(m.layers[0].output_shape),
       str(m.layers[0].input_shape)]
""",
    "Sequential shapes relax on a second batch size": """
m = tf.keras.Sequential([L.Dense(2, name='d')])
m(np.ones((4, 3), np.float32))
m(np.ones((2, 3), np.float32))
out = [str(m.output_shape), str(m.layers[0].output_shape)]
""",
    "Sequential build then call keeps None": """
m = tf.keras.Sequential([L.Dense(2, name='d')])
m.build((None, 3))
m(np.ones((4, 3), np.float32))
out = str(m.output_shape)
""",
    "Sequential call then summary": """
m = tf.keras.Sequential([L.Dense(2, name='d')], name='s')
m(np.ones((4, 3), np.float32))
buf = []
m.summary(print_fn=lambda s, **k: buf.append(s))
out = buf
""",
    "Sequential output_shape unbuilt": """
out = tf.keras.Sequential([L.Dense(2, name='d')]).output_shape
""",
    "Sequential input_shape unbuilt": """
out = tf.keras.Sequential([L.Dense(2, name='d')]).input_shape
""",
    "Sequential pop updates output_shape": """
m = tf.keras.Sequential([L.Dense(2, input_shape=(3,), name='d'), L.Dense(5, name='e')])
m.pop()
out = str(m.output_shape)
""",
    "layer output_shape after an eager call": """
d = L.Dense(2, name='d')
d(np.ones((1, 3), np.float32))
out = d.output_shape
""",
    "layer input_shape after an eager call": """
d = L.Dense(2, name='d')
d(np.ones((1, 3), np.float32))
out = d.input_shape
""",
    "subclassed model output_shape": """
class M(tf.keras.Model):
    def __init__(self):
        super().__init__(name='mm')
        self.a = L.Dense(4, name='a')
    def call(self, x):
        return self.a(x)
m = M()
m(np.ones((1, 3), np.float32))
out = m.output_shape
""",
}

CONFIGS = {
    "Dense get_config": """
out = sorted((k, str(v)) for k, v in L.Dense(2, name='d').get_config().items())
""",
    "Dense get_config with everything": """
d = L.Dense(2, activation='relu', name='d',
            kernel_initializer=tf.keras.initializers.RandomNormal(stddev=2.0, seed=1),
            bias_initializer='ones', kernel_regularizer='l2',
            bias_regularizer=tf.keras.regularizers.L1L2(l1=0.1),
            activity_regularizer=tf.keras.regularizers.L1(0.2))
out = d.get_config()
""",
    "Dense from_config round trip": """
cfg = L.Dense(3, activation='tanh', kernel_regularizer='l1', bias_initializer='ones',
              name='d').get_config()
d = L.Dense.from_config(cfg)
out = [d.get_config() == cfg, d(np.ones((1, 2), np.float32)).shape, d.bias.numpy()]
""",
    "Dense get_config of a tf.nn activation": """
out = L.Dense(2, activation=tf.nn.relu, name='d').get_config()['activation']
""",
    "Activation get_config": """
out = [L.Activation('relu', name='a').get_config(), L.Activation(tf.nn.tanh, name='b').get_config(),
       L.Activation(tf.keras.activations.swish, name='c').get_config()]
""",
    "Flatten get_config": """
out = [L.Flatten(name='f').get_config(),
       L.Flatten(data_format='CHANNELS_FIRST', name='g').get_config()]
""",
    "Dropout get_config": """
out = L.Dropout(0.5, noise_shape=(None, 1), seed=3, name='d').get_config()
""",
}

FLATTEN = {
    "Flatten channels_first 4-D": """
out = L.Flatten(data_format='channels_first', name='f')(
    np.arange(12, dtype=np.float32).reshape(1, 2, 3, 2))
""",
    "Flatten channels_first 3-D": """
out = L.Flatten(data_format='channels_first', name='f')(
    np.arange(12, dtype=np.float32).reshape(2, 3, 2))
""",
    "Flatten channels_first 2-D and 1-D": """
f = L.Flatten(data_format='channels_first', name='f')
out = [f(np.arange(6, dtype=np.float32).reshape(2, 3)),
       L.Flatten(data_format='channels_first', name='g')(np.arange(2, dtype=np.float32))]
""",
    "Flatten channels_first output shape": """
f = L.Flatten(data_format='channels_first', name='f')
out = [str(f.compute_output_shape((None, 2, 3, 4))),
       str(L.Flatten(name='g').compute_output_shape((None, None, 3)))]
""",
    "Flatten channels_first in a Sequential": """
m = tf.keras.Sequential([L.Flatten(data_format='channels_first', input_shape=(2, 3), name='f'),
                         L.Dense(1, kernel_initializer=tf.keras.initializers.Constant(
                             np.arange(6, dtype=np.float32).reshape(6, 1)), name='d')])
out = [str(m.output_shape), m(np.arange(6, dtype=np.float32).reshape(1, 2, 3))]
""",
    "Flatten bad data_format": "out = L.Flatten(data_format='nope', name='f')",
    "Flatten scalar input": "out = L.Flatten(name='f')(tf.constant(1.0))",
    "Flatten follows image_data_format": """
tf.keras.backend.set_image_data_format('channels_first')
try:
    f = L.Flatten(name='f')
finally:
    tf.keras.backend.set_image_data_format('channels_last')
out = [f.data_format, f(np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2))]
""",
}

DROPOUT = {
    "Dropout string rate is accepted": """
d = L.Dropout('0.5', name='d')
out = [d.rate, d.get_config()['rate'], d(np.ones((1, 4), np.float32)),
       d(np.ones((1, 4), np.float32), training=False)]
""",
    "Dropout string rate fails in training": """
out = L.Dropout('0.5', name='d')(np.ones((2, 4), np.float32), training=True)
""",
    "Dropout other non-numbers are accepted": """
out = [type(L.Dropout(r, name=f'd{i}')).__name__ for i, r in enumerate(['abc', None, [0.5]])]
""",
    "Dropout int rate 1 fails in training": """
d = L.Dropout(1, name='d')
out = [d.get_config()['rate'], d(np.ones((1, 2), np.float32))]
out.append(d(np.ones((1, 2), np.float32), training=True))
""",
    "Dropout tensor rate": """
y = L.Dropout(tf.constant(0.5), name='d')(np.ones((4, 50), np.float32), training=True).numpy()
out = sorted(set(np.round(y.ravel(), 4).tolist()))
""",
    "Dropout tensor rate of rank 1": """
out = L.Dropout(tf.constant([0.5]), name='d')(np.ones((1, 4), np.float32), training=True)
""",
    "Dropout integer input in training": """
out = L.Dropout(0.5, name='d')(tf.constant([[1, 2]]), training=True)
""",
}

# Keras 2.15's random initializers draw with stateless ops keyed by their seed; an unseeded
# one takes its seed on its first call from set_random_seed's generator (else Python's
# `random`). These cases compare runs with each other; the values themselves are TF's,
# compared in tests/framework/test_random_streams.py.
KERNEL = """
import warnings
def kernel():
    return tf.keras.Sequential([L.Dense(3, input_shape=(4,), name='d')]).get_weights()[0]
def user_warnings(caught):
    return [str(w.message) for w in caught if w.category is UserWarning]
eq = lambda a, b: bool(np.array_equal(np.asarray(a), np.asarray(b)))
def refused_then_called(g, shape, **kwargs):
    # The bad call's message, then the warnings of a good call: none if it was the first.
    try:
        g(shape, **kwargs)
    except ValueError as e:
        msg = str(e)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        g((2, 2))
    return [msg, user_warnings(caught)]
"""
INITIALIZER_SEEDS = {
    "init: tf.random.set_seed alone does not repeat a model's weights": KERNEL + """
tf.random.set_seed(5); a = kernel()
tf.random.set_seed(5); b = kernel()
out = eq(a, b)
""",
    "init: tf.keras.utils.set_random_seed repeats a model's weights": KERNEL + """
tf.keras.utils.set_random_seed(5); a = kernel()
tf.keras.utils.set_random_seed(5); b = kernel()
tf.keras.utils.set_random_seed(6); c = kernel()
out = [eq(a, b), eq(a, c)]
""",
    "init: set_random_seed's generator ignores draws from Python's random": KERNEL + """
import random
tf.keras.utils.set_random_seed(5); a = kernel()
tf.keras.utils.set_random_seed(5); random.random(); random.seed(99); b = kernel()
out = eq(a, b)
""",
    "init: set_random_seed keeps going after clear_session": KERNEL + """
tf.keras.utils.set_random_seed(5); a = kernel()
tf.keras.backend.clear_session(); b = kernel()
out = eq(a, b)
""",
    "init: an unseeded instance takes its seed on its first call": KERNEL + """
G = tf.keras.initializers.GlorotUniform
tf.keras.utils.set_random_seed(5); g, h = G(), G(); hv = h((2, 2)); gv = g((2, 2))
tf.keras.utils.set_random_seed(5); first = G()((2, 2))
out = [eq(hv, first), eq(gv, first)]
""",
    "init: an unseeded instance called twice gives the same values and warns": KERNEL + """
g = tf.keras.initializers.GlorotUniform()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    x = g((2, 3)); y = g((2, 3)); z = g((2, 3))
out = [eq(x, y), eq(x, z), user_warnings(caught)]
""",
    "init: every random initializer repeats when called twice": KERNEL + """
I = tf.keras.initializers
out = []
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    for cls in (I.RandomNormal, I.RandomUniform, I.TruncatedNormal, I.GlorotNormal,
                I.HeUniform, I.HeNormal, I.LecunUniform, I.LecunNormal, I.Orthogonal,
                I.VarianceScaling, I.Zeros, I.Ones):
        g = cls()
        out.append([cls.__name__, eq(g((3, 3)), g((3, 3)))])
out.append(user_warnings(caught))
""",
    "init: a seeded instance repeats without a warning, whatever the global seed": KERNEL + """
G = tf.keras.initializers.GlorotUniform
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    tf.random.set_seed(1); g = G(seed=3); x = g((2, 3)); y = g((2, 3))
    tf.random.set_seed(2); z = G(seed=3)((2, 3))
    tf.keras.utils.set_random_seed(4); w = G(seed=3)((2, 3))
    u = tf.keras.initializers.RandomUniform(seed=3)((2, 3))
out = [eq(x, y), eq(x, z), eq(x, w), eq(x, u), user_warnings(caught)]
""",
    "init: get(name) makes a new instance per layer": KERNEL + """
get = tf.keras.initializers.get
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    m = tf.keras.Sequential([L.Dense(3, input_shape=(3,), name='a'), L.Dense(3, name='b')])
out = [get('glorot_uniform') is get('glorot_uniform'),
       type(get('glorot_uniform')).__name__,
       eq(m.layers[0].kernel, m.layers[1].kernel), user_warnings(caught)]
""",
    "init: one instance shared by two layers gives both the same kernel": KERNEL + """
init = tf.keras.initializers.GlorotUniform()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    m = tf.keras.Sequential([L.Dense(3, input_shape=(3,), kernel_initializer=init, name='a'),
                             L.Dense(3, kernel_initializer=init, name='b')])
out = [eq(m.layers[0].kernel, m.layers[1].kernel), user_warnings(caught)]
""",
    "init: a strategy's replicas share one draw, without a warning": KERNEL + """
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    with S.scope():
        m = tf.keras.Sequential([L.Dense(2, input_shape=(3,), name='d')])
k = m.layers[0].kernel
out = [[eq(v, k.values[0]) for v in k.values], user_warnings(caught)]
""",
    "init: building a model leaves tf.random's sequence where it was": KERNEL + """
tf.random.set_seed(1); a = tf.random.uniform([3])
tf.random.set_seed(1); kernel(); b = tf.random.uniform([3])
out = eq(a, b)
""",
    "init: a wrong dtype raises before the instance counts as used": KERNEL + """
out = refused_then_called(tf.keras.initializers.GlorotUniform(), (2, 2), dtype='int32')
""",
    "init: a wrong dtype": "out = tf.keras.initializers.HeNormal()((2, 2), dtype='int32')",
    "init: RandomUniform takes an integer dtype": """
x = tf.keras.initializers.RandomUniform(0, 10, seed=1)((50,), dtype='int32').numpy()
out = [str(x.dtype), bool(x.min() >= 0 and x.max() < 10)]
""",
    "init: RandomUniform refuses a bool dtype": """
out = tf.keras.initializers.RandomUniform()((2,), dtype='bool')
""",
    "init: Orthogonal checks the rank before counting as used": KERNEL + """
out = refused_then_called(tf.keras.initializers.Orthogonal(), (3,))
""",
    "init: Dropout's masks still follow tf.random.set_seed": """
d = L.Dropout(0.5, name='d')
tf.random.set_seed(3); a = d(np.ones((4, 8), np.float32), training=True)
tf.random.set_seed(3); b = d(np.ones((4, 8), np.float32), training=True)
out = bool(np.array_equal(a, b))
""",
}

# Synchronized batch norm computes E[x^2] - E[x]^2 in any replica context, which cancels
# for data far from zero: a negative variance and NaN outputs, with or without a strategy.
SYNC_CANCELLATION = {
    "SyncBN: far from zero, E[x^2] - E[x]^2 cancels with one replica, none, or four": """
x = (10000 + np.arange(8, dtype=np.float32).reshape(8, 1) * 0.01).astype(np.float32)
bn = L.BatchNormalization(synchronized=True, momentum=0.0, name='s')
out = [bn(x, training=True), bn.moving_variance]
O = tf.distribute.OneDeviceStrategy('/cpu:0')
with O.scope():
    bn1 = L.BatchNormalization(synchronized=True, momentum=0.0, name='o')
out += [O.run(lambda t: bn1(t, training=True), args=(tf.constant(x),)), bn1.moving_variance]
with S.scope():
    bn4 = L.BatchNormalization(synchronized=True, momentum=0.0, name='m')
d = S.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(x[2 * ctx.replica_id_in_sync_group:][:2]))
y = S.run(lambda t: bn4(t, training=True), args=(d,))
# Its exact value hangs on the all-reduce's order of additions (TF's CPUs here, simdist's
# default GPUs' ring), so only its sign is compared.
out += [S.experimental_local_results(y), bool(bn4.moving_variance.values[0].numpy()[0] < 0)]
plain = L.BatchNormalization(momentum=0.0, name='p')  # the two-pass formula: no NaN
out += [plain(x, training=True), plain.moving_variance]
""",
}

# What a layer says of inputs and arguments it cannot take.
BAD_CALLS = {
    "bad call: a Dense given two tensors": """
x = np.ones((2, 3), np.float32)
out = L.Dense(2, name='d')([x, x])
""",
    "bad call: an unknown keyword argument": "out = L.Dense(3, foo=1)",
}

CASES = {**BATCH_NORM, **NAMES, **SEQUENTIAL_SHAPES, **CONFIGS, **FLATTEN, **DROPOUT,
         **INITIALIZER_SEEDS, **SYNC_CANCELLATION, **BAD_CALLS}
