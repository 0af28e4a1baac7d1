"""Keras names TF's guides and tutorials use (issue 24; issue 17's legacy optimizers and
LearningRateScheduler), recorded from TF 2.21 + tf-keras by record_tf_keras.py as part of
keras_cases.CASES, after keras_cases.PRELUDE (``mk``, ``X``, ``Y1``, ``S`` ...).
"""

LEGACY = """
L2 = tf.keras.optimizers.legacy
def legacy_fit(opt, strategy=S, epochs=2):
    with strategy.scope() if strategy else contextlib.nullcontext():
        m = mk(strategy, optimizer=opt() if callable(opt) else opt)
    h = m.fit(X, Y1, batch_size=8, epochs=epochs, shuffle=False, verbose=0)
    return [h.history['loss'], m.get_weights(), [w.name for w in m.optimizer.variables()],
            m.optimizer.iterations]
"""

CASES = {
    # "Customizing what happens in fit()": Keras makes an unread iterator before its epochs,
    # so a reshuffling dataset's epochs read its 2nd, 3rd ... orders (after a plain pass here:
    # its 3rd, 4th ...); under a strategy too, where fit builds the model first.
    "fit on a reshuffled dataset reads TF's orders, default strategy and 4 replicas": """
def orders(strategy):
    tf.random.set_seed(3)
    ds = tf.data.Dataset.from_tensor_slices((X, Y1)).shuffle(16)
    first = [float(x[0]) for x, _ in ds]   # one plain pass first
    m = mk(strategy)
    h = m.fit(ds.batch(8), epochs=3, verbose=0)
    return [first, h.history['loss'], m.get_weights()]
out = [orders(None), orders(S)]
""",
    "legacy SGD, Adam, RMSprop and Adagrad train under a strategy": LEGACY + """
out = [legacy_fit(lambda: L2.SGD(0.1)), legacy_fit(lambda: L2.SGD(0.1, momentum=0.9)),
       legacy_fit(lambda: L2.SGD(0.1, momentum=0.5, nesterov=True, decay=0.1)),
       legacy_fit(lambda: L2.Adam(0.05)), legacy_fit(lambda: L2.Adam(0.05, amsgrad=True)),
       legacy_fit(lambda: L2.RMSprop(0.05)), legacy_fit(lambda: L2.RMSprop(0.05, momentum=0.5)),
       legacy_fit(lambda: L2.RMSprop(0.05, centered=True)), legacy_fit(lambda: L2.Adagrad(0.1)),
       legacy_fit(lambda: L2.Adam(0.05, clipnorm=0.01)), legacy_fit(lambda: L2.Adam(0.05), None)]
""",
    "legacy optimizer in a custom loop": LEGACY + """
with S.scope():
    v = tf.Variable([1.0, -2.0], name='v')
    opt = L2.Adam(0.1, decay=0.5)
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(v * v) * tf.cast(
            tf.distribute.get_replica_context().replica_id_in_sync_group + 1, tf.float32)
    return opt.apply_gradients(zip(tape.gradient(loss, [v]), [v]))
for _ in range(3):
    S.run(step)
config = opt.get_config()
opt.learning_rate = 0.5
out = [v, [w.name for w in opt.variables()], [w.name for w in opt.weights],
       opt.get_slot_names(), opt.get_slot(v, 'm'), opt.learning_rate, opt.lr, opt.decay,
       opt.beta_1, opt.iterations, sorted((k, str(x)) for k, x in config.items()),
       sorted((k, str(x)) for k, x in L2.RMSprop().get_config().items()),
       sorted((k, str(x)) for k, x in L2.Adagrad(clipvalue=1.0).get_config().items()),
       sorted((k, str(x)) for k, x in L2.SGD.from_config({'lr': 0.3}).get_config().items()),
       [w.name for w in L2.SGD(0.1).variables()], L2.SGD().iterations.name]
""",
    "legacy optimizer errors": LEGACY + """
def err(fn):
    try:
        fn()
    except Exception as e:  # the allowed kwargs are a set: its order varies
        return [type(e).__name__, str(e).split('Allowed')[0]]
with S.scope():
    v = tf.Variable(1.0)
    opt = L2.SGD(0.1)
def apply_in_cross_replica_context():
    with S.scope():
        opt.apply_gradients([(tf.constant(1.0), v)])
out = [err(lambda: L2.SGD(foo=1)), err(lambda: L2.SGD(momentum=2)),
       err(lambda: L2.SGD(decay=-1)), err(lambda: L2.Adam(clipnorm=1.0, global_clipnorm=1.0)),
       err(lambda: apply_in_cross_replica_context()),
       err(lambda: L2.Adagrad(initial_accumulator_value=-1.0))]
""",
    "tf.keras.optimizers.experimental names the Keras 2.11+ optimizers": """
E = tf.keras.optimizers.experimental
out = [E.SGD is tf.keras.optimizers.SGD, E.Adam is tf.keras.optimizers.Adam,
       E.RMSprop is tf.keras.optimizers.RMSprop, E.Adagrad is tf.keras.optimizers.Adagrad,
       E.AdamW is tf.keras.optimizers.AdamW, E.Optimizer is tf.keras.optimizers.Optimizer,
       isinstance(tf.keras.optimizers.legacy.SGD(), tf.keras.optimizers.legacy.Optimizer)]
""",
    "a layer's dtype may be a DType": """
d = L.Dense(2, dtype=tf.float32, name='d')
e = L.Dense(2, dtype=tf.float64, name='e')
f = L.Dense(2, dtype=np.float64, name='f')
out = [d.dtype, d(np.ones((1, 2), 'float32')).dtype.name, e.dtype,
       e(np.ones((1, 2))).dtype.name, f.dtype_policy.name, d.dtype_policy.name,
       tf.keras.models.Sequential is tf.keras.Sequential, tf.keras.models.Model is tf.keras.Model,
       type(tf.keras.models.Sequential([L.Dense(1, name='g')])).__name__]
""",
    "Precision and Recall": """
out = []
for cls in (tf.keras.metrics.Precision, tf.keras.metrics.Recall):
    m = cls()
    m.update_state([0, 1, 1, 1], [1, 0, 1, 1])
    a = m.result()
    m.update_state([0, 1, 1, 1], [1, 0, 1, 1], sample_weight=[0, 0, 1, 0])
    t = cls(thresholds=[0.3, 0.7])
    t.update_state([0, 1, 1, 1], [0.5, 0.2, 0.8, 0.9], sample_weight=[1, 2, 3, 4])
    k = cls(top_k=2)
    k.update_state([[0, 0, 1, 1], [1, 0, 0, 1]], [[1, 1, 1, 1], [0.2, 0.9, 0.5, 0.1]])
    c = cls(class_id=2, thresholds=0.4)
    c.update_state([[0, 0, 1], [1, 0, 0], [0, 0, 1]], [[0.1, 0.2, 0.7], [0.3, 0.1, 0.5],
                                                       [0.6, 0.1, 0.3]])
    out += [a, m.result(), t.result(), k.result(), c.result(), m.name, t.name,
            [v.name for v in m.variables], [[x, list(y) if isinstance(y, list) else y]
                                            for x, y in sorted(t.get_config().items())]]
    m.reset_state()
    out.append(m.result())
""",
    "AUC": """
yt = tf.constant([0, 0, 1, 1, 0, 1, 1, 0])
yp = tf.constant([0.0, 0.5, 0.3, 0.9, 0.2, 0.8, 0.55, 0.6])
sw = [1.0, 2.0, 1.0, 0.5, 1.0, 1.0, 3.0, 1.0]
out = []
for kw in ({}, {'num_thresholds': 3}, {'curve': 'PR'}, {'curve': 'PR', 'num_thresholds': 7},
           {'summation_method': 'minoring'}, {'summation_method': 'majoring', 'curve': 'pr'},
           {'curve': 'PR_GAIN'}, {'thresholds': [0.25, 0.5, 0.75]}, {'from_logits': True}):
    a = tf.keras.metrics.AUC(**kw)
    a.update_state(yt, yp)
    b = tf.keras.metrics.AUC(**kw)
    b.update_state(yt, yp, sample_weight=sw)
    out += [a.result(), b.result()]
yt2 = tf.constant([[0, 1], [1, 1], [1, 0], [0, 0]])
yp2 = tf.constant([[0.2, 0.8], [0.7, 0.6], [0.4, 0.1], [0.6, 0.3]])
m = tf.keras.metrics.AUC(multi_label=True)
m.update_state(yt2, yp2)
w = tf.keras.metrics.AUC(multi_label=True, label_weights=[0.25, 0.75], curve='PR')
w.update_state(yt2, yp2)
lw = tf.keras.metrics.AUC(label_weights=[0.25, 0.75])
lw.update_state(yt2, yp2)
out += [m.result(), w.result(), lw.result(), m.name, len(tf.keras.metrics.AUC().thresholds),
        tf.keras.metrics.AUC(num_thresholds=4).thresholds,
        [[x, list(y) if isinstance(y, list) else y]
         for x, y in sorted(tf.keras.metrics.AUC(thresholds=[0.5]).get_config().items())]]
""",
    "AUC, Precision and Recall in fit under a strategy": """
with S.scope():
    metrics = [tf.keras.metrics.AUC(), tf.keras.metrics.Precision(), tf.keras.metrics.Recall(),
               tf.keras.metrics.AUC(curve='PR', name='pr')]
    m = mk(S, metrics=metrics)
h = m.fit(X, Y1, batch_size=8, epochs=2, shuffle=False, verbose=0)
out = sorted(h.history.items()) + sorted(m.evaluate(X, Y1, batch_size=8, verbose=0,
                                                    return_dict=True).items())
""",
    "LearningRateScheduler": """
import io
def schedule(epoch, lr):
    return lr if epoch < 1 else float(lr * 0.5)
out = []
for opt in (tf.keras.optimizers.SGD(0.1), tf.keras.optimizers.legacy.SGD(0.1)):
    m = mk(S, optimizer=opt)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        h = m.fit(X, Y1, batch_size=8, epochs=3, shuffle=False, verbose=0,
                  callbacks=[tf.keras.callbacks.LearningRateScheduler(schedule, verbose=1)])
    out += [sorted(h.history.items()), m.get_weights(), printed.getvalue(),
            m.optimizer.learning_rate]
m = mk()
h = m.fit(X, Y1, epochs=2, verbose=0, shuffle=False,
          callbacks=[tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.01 * (epoch + 1))])
out += [h.history['lr'], m.get_weights()]
""",
    "LearningRateScheduler needs a float": """
mk().fit(X, Y1, epochs=1, verbose=0,
         callbacks=[tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: 1)])
""",
    "a tf.Module finds the weights of its Keras layers": """
class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.d = L.Dense(2, name='dd')
        self.d2 = L.Dense(3, name='d2')
        self.w = tf.Variable(1.0, name='w')
n = Net()
n.d(np.ones((1, 2), 'float32'))
n.d2(np.ones((1, 2), 'float32'))
out = [[v.name for v in n.variables], [v.name for v in n.trainable_variables],
       [type(s).__name__ for s in n.submodules], isinstance(n.d, tf.Module),
       [type(s).__name__ for s in tf.keras.Sequential([n.d, n.d2]).submodules]]
""",
    # tf-keras's Model gathers weights from every tracked trackable, metrics included
    # (Model.weights / non_trainable_weights); a Layer skips metrics (_flatten_modules).
    "a model counts its attribute metrics' state among its weights, a layer does not": """
class Tracked(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = L.Dense(2, name='d')
        self.mae = tf.keras.metrics.MeanAbsoluteError(name='mae')
        self.pair = [tf.keras.metrics.Mean(name='a'), tf.keras.metrics.Sum(name='b')]
        self.inner = Inner()
    def call(self, x):
        return self.inner(self.dense(x))
class Inner(L.Layer):
    def __init__(self):
        super().__init__(name='inner')
        self.tracker = tf.keras.metrics.Mean(name='t')
        self.proj = L.Dense(1, name='p')
    def call(self, x):
        return self.proj(x)
m = Tracked()
m(np.ones((4, 3), 'float32'))
m.compile(optimizer='sgd', loss='mse', metrics=['mse'])
m.fit(np.ones((4, 3), 'float32'), np.ones((4, 1), 'float32'), verbose=0)
names = lambda ws: [w.name.split('/')[-1] for w in ws]
out = [names(m.weights), names(m.trainable_weights), names(m.non_trainable_weights),
       [w.shape for w in m.get_weights()], m.count_params(), [l.name for l in m.layers],
       names(m.inner.weights), len(m.inner.non_trainable_weights)]
m.set_weights(m.get_weights())
m.trainable = False
out += [names(m.non_trainable_weights), len(m.trainable_weights)]
""",
    "an .h5 weights file holds the layers' weights, not the attribute metrics' state": """
import os, tempfile
class WithTracker(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.tracker = tf.keras.metrics.Mean(name='tracker')
        self.dense = L.Dense(2, name='d')
    def call(self, x):
        self.tracker.update_state(tf.reduce_sum(x))
        return self.dense(x)
a, b = WithTracker(), WithTracker()
a(np.ones((2, 3), 'float32')), b(np.zeros((2, 3), 'float32'))
path = os.path.join(tempfile.mkdtemp(), 'w.h5')
a.save_weights(path)
b.load_weights(path)
out = [len(a.get_weights()), [float(v.numpy()) for v in b.tracker.variables],
       all(np.array_equal(x, y) for x, y in zip(a.dense.get_weights(), b.dense.get_weights()))]
""",
    "a Keras metric is a tf.Module: a module holding one finds its state": """
class Holder(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(1.0, name='w')
        self.acc = tf.keras.metrics.Mean(name='acc rate')
        self.by_class = [tf.keras.metrics.Sum(name='s')]
h = Holder()
h.acc.update_state([1.0, 3.0])
out = [[v.name for v in h.variables], [type(s).__name__ for s in h.submodules],
       isinstance(h.acc, tf.Module), h.acc.name, [float(v) for v in h.acc.variables],
       len(h.acc.trainable_variables), [v.name for v in h.acc.non_trainable_variables]]
""",
    "learning rate schedules: the rate at each step, eager and traced": """
K = tf.keras.optimizers.schedules
made = [K.ExponentialDecay(0.1, 10, 0.5), K.ExponentialDecay(0.1, 10, 0.5, staircase=True),
        K.PiecewiseConstantDecay([5, 20], [1.0, 0.5, 0.1]),
        K.PolynomialDecay(0.1, 50, 0.01, power=2.0), K.PolynomialDecay(0.1, 30, cycle=True),
        K.InverseTimeDecay(0.1, 10, 0.5, staircase=True), K.InverseTimeDecay(0.1, 10, 0.5),
        K.CosineDecay(0.1, 40, alpha=0.1),
        K.CosineDecay(0.0, 40, warmup_target=0.2, warmup_steps=10),
        K.CosineDecayRestarts(0.1, 10), K.CosineDecayRestarts(0.1, 10, t_mul=1.0, m_mul=0.5)]
steps = [0, 1, 5, 9, 10, 11, 25, 40, 55, 100]
@tf.function
def traced(step):
    return [s(step) for s in made]
out = [[[s(k) for k in steps] for s in made],
       [traced(tf.constant(k, tf.int64)) for k in (0, 11, 55)]]
""",
    "an optimizer with a learning rate schedule: config, learning_rate, errors": """
K = tf.keras.optimizers.schedules
decay = K.ExponentialDecay(0.1, 10, 0.5, name='decay')
opt = tf.keras.optimizers.SGD(decay)
again = tf.keras.optimizers.SGD.from_config(opt.get_config())
out = [str(K.serialize(decay)), str(opt.get_config()['learning_rate']),
       type(again._learning_rate).__name__, again.learning_rate, opt.learning_rate.name]
try:
    opt.learning_rate = 0.5
except TypeError as e:
    out.append(str(e))
try:   # TF fails converting the unknown name to a rate (simdist says which name)
    tf.keras.optimizers.SGD.from_config({'learning_rate': {'class_name': 'Nope', 'config': {}}})
except TypeError as e:
    out.append(type(e).__name__)
""",
    "fit with a learning rate schedule under MirroredStrategy": """
with S.scope():
    tf.keras.utils.set_random_seed(1)
    m = tf.keras.Sequential([L.Dense(2, input_shape=(3,), name='a'), L.Dense(1, name='b')])
    m.compile(optimizer=tf.keras.optimizers.Adam(
        tf.keras.optimizers.schedules.PiecewiseConstantDecay([3, 6], [0.05, 0.02, 0.005])),
        loss='mse')
x = np.linspace(-1, 1, 48).reshape(16, 3).astype('float32')
h = m.fit(x, x.sum(1, keepdims=True), batch_size=4, epochs=3, verbose=0)
out = [h.history['loss'], m.optimizer.learning_rate.numpy(), m.optimizer.iterations.numpy(),
       m.get_weights()]
""",
    "legacy optimizers take learning rate schedules too": """
K = tf.keras.optimizers.schedules
v = tf.Variable(1.0)
out = []
for opt in (tf.keras.optimizers.legacy.SGD(K.ExponentialDecay(0.1, 2, 0.5)),
            tf.keras.optimizers.legacy.Adam(K.PiecewiseConstantDecay([1], [0.1, 0.01]))):
    for i in range(4):
        opt.apply_gradients([(tf.constant(1.0), v)])
        out.append(v.numpy())
    out += [type(opt.learning_rate).__name__, str(opt.get_config()['learning_rate']),
            type(type(opt).from_config(opt.get_config()).learning_rate).__name__]
""",    "a subclassed model's submodules: attribute metrics before layers": """
class M(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(2)
        self.loss_tracker = tf.keras.metrics.Mean(name='loss')
        self.d2 = tf.keras.layers.Dense(1)
        self.acc = tf.keras.metrics.BinaryAccuracy()
    def call(self, x):
        return self.d2(self.d1(x))
m = M()
m(tf.ones([1, 3]))
inner = tf.keras.Sequential([tf.keras.layers.Dense(1)])
class Outer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.body = inner
        self.tracker = tf.keras.metrics.Sum(name='n')
out = [[type(s).__name__ + ':' + s.name for s in m.submodules],
       [type(s).__name__ for s in Outer().submodules], [v.name for v in m.variables]]
""",
}
