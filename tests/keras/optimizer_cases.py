"""Keras's Adamax, Nadam, Adadelta, Ftrl, Lion and Adafactor (tf.keras.optimizers) as TF 2.21
+ tf-keras gives them (recorded by record_tf_keras.py, group ``optimizers``, into
fixtures/tf_optimizers.json; replayed by test_optimizers_tf_conformance.py): per-step float32
variable and slot values as bit patterns (``bits``: upper and lower 16 bits, so any
difference is a difference), for several hyper-parameters, under a learning-rate schedule
and under a 4-replica MirroredStrategy; configs, names, slot names and argument errors.
Ftrl's steps are bits too (its float32 ``Pow`` is Eigen's ``generic_pow`` for whole packets of 8
and ``powf`` for the tail, as TF's), and RMSprop's, legacy Adadelta's and Adafactor's, whose
``Rsqrt`` of whole packets is the CPU's approximate rsqrtps and a Newton step
(simdist/framework/ops/eigen_rsqrt.py holds the recording CPU's table). Snippets as in
tests/tf_snippets.py.
"""

STEPS = """
rng = np.random.RandomState(7)
W0, B0 = rng.randn(3, 4).astype(np.float32), rng.randn(4).astype(np.float32)
GRADS = [(rng.randn(3, 4).astype(np.float32), rng.randn(4).astype(np.float32))
         for _ in range(4)]
def bits(t):
    b = np.asarray(t).view(np.uint32)
    return [b >> 16, b & 0xFFFF]
def steps(opt, strategy=None, as_bits=True, n=4):
    scope = strategy.scope() if strategy else contextlib.nullcontext()
    with scope:
        w, b = tf.Variable(W0, name='w'), tf.Variable(B0, name='b')
    seen = []
    for gw, gb in GRADS[:n]:
        def step():
            opt.apply_gradients([(tf.constant(gw), w), (tf.constant(gb), b)])
        strategy.run(step) if strategy else step()
        weights = opt.variables() if callable(opt.variables) else opt.variables
        for v in [w, b] + list(weights[1:]):
            copies = strategy.experimental_local_results(v) if strategy else [v]
            seen.append([bits(c.numpy()) if as_bits else c.numpy() for c in copies])
    return seen
import contextlib
O = tf.keras.optimizers
"""

CASES = {
    "Adamax steps, bits": STEPS + """
out = [steps(O.Adamax()), steps(O.Adamax(0.1, beta_1=0.5, beta_2=0.9, epsilon=1e-3))]
""",
    "Adadelta steps, bits": STEPS + """
out = [steps(O.Adadelta()), steps(O.Adadelta(1.0, rho=0.5, epsilon=1e-4))]
""",
    "Nadam steps, bits": STEPS + """
out = [steps(O.Nadam()), steps(O.Nadam(0.1, beta_1=0.5, beta_2=0.9, epsilon=1e-3))]
""",
    "Ftrl steps, bits": STEPS + """
out = [steps(O.Ftrl()),
       steps(O.Ftrl(0.2, learning_rate_power=-0.7, initial_accumulator_value=0.5,
                    l1_regularization_strength=0.01, l2_regularization_strength=0.1,
                    l2_shrinkage_regularization_strength=0.05, beta=0.3)),
       steps(O.Ftrl(0.1, learning_rate_power=0.0))]
""",
    "learning-rate schedules, bits": STEPS + """
sched = lambda: O.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)
out = [steps(O.Adamax(sched())), steps(O.Adadelta(sched())), steps(O.Nadam(sched())),
       steps(O.Ftrl(sched()))]
""",
    "under a 4-replica MirroredStrategy: each copy, bits": STEPS + """
out = [steps(O.Adamax(0.1), S, n=2), steps(O.Adadelta(1.0), S, n=2),
       steps(O.Ftrl(0.1), S, n=2)]
""",
    "Nadam under 4 replicas, eagerly: only the first copy's u_product moves": STEPS + """
opt = O.Nadam(0.1)
out = [steps(opt, S, n=2), [c.numpy() for c in S.experimental_local_results(opt._u_product)]]
""",
    "Nadam in a tf.function: the counter TF's trace saw, default strategy and 4 replicas":
        STEPS + """
GW, GB = (tf.constant(np.stack([g[j] for g in GRADS])) for j in (0, 1))
def traced(strategy):
    opt = O.Nadam(0.1)
    with strategy.scope() if strategy else contextlib.nullcontext():
        w, b = tf.Variable(W0, name='w'), tf.Variable(B0, name='b')
        k = tf.Variable(0)
    @tf.function
    def step():
        opt.apply_gradients([(tf.gather(GW, k), w), (tf.gather(GB, k), b)])
    seen = []
    for i in range(3):
        k.assign(i)
        strategy.run(step) if strategy else step()
        copies = strategy.experimental_local_results if strategy else lambda v: [v]
        seen.append([[bits(c.numpy()) for c in copies(v)] for v in (w, b, opt._u_product)])
    return [seen, opt._u_product_counter]
out = [traced(None), traced(S)]
""",
    "fit with Nadam, default strategy and 4 replicas": """
import contextlib
rng = np.random.RandomState(0)
X = rng.normal(size=(16, 2)).astype('float32')
Y = np.eye(2, dtype='float32')[(X[:, 0] > 0).astype('int64')]
def fit(opt, strategy):
    with strategy.scope() if strategy else contextlib.nullcontext():
        m = tf.keras.Sequential([L.Dense(3, activation='relu', input_shape=(2,), name='d'),
                                 L.Dense(2, activation='softmax', name='e')])
        m.set_weights([np.array([[0.3, -0.2, 0.5], [0.1, 0.4, -0.3]], 'float32'),
                       np.zeros(3, 'float32'), np.full((3, 2), 0.2, 'float32'),
                       np.zeros(2, 'float32')])
        m.compile(opt, loss='categorical_crossentropy')
    h = m.fit(X, Y, batch_size=16, epochs=3, shuffle=False, verbose=0)
    return [h.history['loss'], m.get_weights(), [v.name for v in m.optimizer.variables],
            m.optimizer._u_product_counter]
O = tf.keras.optimizers
out = [fit(O.Nadam(0.1), None), fit('nadam', S)]
""",
    "legacy Adamax and Nadam steps, bits": STEPS + """
L2 = O.legacy
out = [steps(L2.Adamax()), steps(L2.Adamax(0.1, beta_1=0.5, beta_2=0.9, epsilon=1e-3)),
       steps(L2.Nadam()), steps(L2.Nadam(0.1, beta_1=0.5, beta_2=0.9, epsilon=1e-3,
                                         schedule_decay=0.1))]
""",
    "legacy Adadelta and Ftrl steps, bits": STEPS + """
L2 = O.legacy
out = [steps(L2.Adadelta()), steps(L2.Adadelta(1.0, rho=0.5, epsilon=1e-4, decay=0.1)),
       steps(L2.Ftrl(0.1)),
       steps(L2.Ftrl(0.2, learning_rate_power=-0.7, initial_accumulator_value=0.5,
                     l1_regularization_strength=0.01, l2_regularization_strength=0.1,
                     beta=0.3)),
       steps(L2.Ftrl(0.2, l1_regularization_strength=0.5,
                     l2_shrinkage_regularization_strength=0.05))]
""",
    "legacy optimizers: schedules, 4 replicas, names and configs": STEPS + """
L2 = O.legacy
sched = lambda: O.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)
out = [steps(L2.Adamax(sched())), steps(L2.Adadelta(sched())),
       steps(L2.Ftrl(sched())),
       steps(L2.Adamax(0.1), S, n=2), steps(L2.Nadam(0.1), S, n=2),
       steps(L2.Adadelta(1.0), S, n=2), steps(L2.Ftrl(0.1), S, n=2)]
def config(opt):
    return sorted((k, str(v)) for k, v in opt.get_config().items())
for opt in (L2.Adamax(), L2.Nadam(), L2.Adadelta(),
            L2.Ftrl(l2_shrinkage_regularization_strength=0.1)):
    w = tf.Variable([[1.0, 2.0]], name='w')
    opt.apply_gradients([(tf.constant([[0.1, 0.2]]), w)])
    out.append([v.name for v in opt.variables()])
    out += [config(opt), config(type(opt).from_config(opt.get_config()))]
""",
    "apply_gradients in the default strategy's run, eagerly and traced": STEPS + """
out = []
for make in (lambda: O.Adam(0.1, weight_decay=0.01), lambda: O.Nadam(0.1)):
    opt = make()
    w, b = tf.Variable(W0, name='w'), tf.Variable(B0, name='b')
    step = lambda: opt.apply_gradients([(tf.constant(GRADS[0][0]), w),
                                        (tf.constant(GRADS[0][1]), b)])
    tf.distribute.get_strategy().run(step)
    tf.distribute.get_strategy().run(tf.function(step))
    out.append([bits(w.numpy()), bits(b.numpy()), opt.iterations])
""",
    "configs, from_config, get and serialize": """
O = tf.keras.optimizers
opts = [O.Adamax(), O.Nadam(0.01, beta_1=0.8), O.Adadelta(rho=0.9, clipnorm=1.0),
        O.Ftrl(learning_rate_power=-0.25, l1_regularization_strength=0.5, beta=0.1),
        O.Adamax(O.schedules.ExponentialDecay(0.1, 10, 0.5))]
out = [sorted((k, str(v)) for k, v in o.get_config().items()) for o in opts]
out += [sorted((k, str(v)) for k, v in type(o).from_config(o.get_config()).get_config().items())
        for o in opts]
out += [[type(O.get(n)).__name__, O.get(n).name] for n in ('adamax', 'Nadam', 'adadelta', 'ftrl')]
out.append(type(O.deserialize(O.serialize(opts[3]))).__name__)
out.append([type(getattr(O.experimental, n)()).__name__ for n in ('Adamax', 'Nadam', 'Adadelta',
                                                                   'Ftrl')])
""",
    "slot names and variables": """
O = tf.keras.optimizers
out = []
for opt in (O.Adamax(), O.Nadam(), O.Adadelta(), O.Ftrl(initial_accumulator_value=0.25)):
    w, b = tf.Variable([[1.0, 2.0]], name='w'), tf.Variable([0.5], name='b')
    opt.apply_gradients([(tf.constant([[0.1, 0.2]]), w), (tf.constant([0.3]), b)])
    out.append([[v.name, v.dtype.name, str(v.shape)] for v in opt.variables])
    out.append([v.numpy() for v in opt.variables[1:]])
built = O.Ftrl()
built.build([tf.Variable([1.0], name='z')])
out.append([v.name for v in built.variables])
""",
    "Nadam's u_product variable": """
opt = tf.keras.optimizers.Nadam(0.1)
w = tf.Variable([1.0, 2.0], name='w')
opt.apply_gradients([(tf.constant([0.5, -0.5]), w)])
out = [opt._u_product.name, opt._u_product.numpy(), opt._u_product_counter, len(opt.variables)]
""",
}

CASES.update({
    "Lion and Adafactor steps, bits": STEPS + """
sched = lambda: O.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)
out = [steps(O.Lion()), steps(O.Lion(0.1, beta_1=0.5, beta_2=0.9)), steps(O.Lion(sched())),
       steps(O.Lion(0.1), S, n=2), steps(O.Adafactor()),
       steps(O.Adafactor(0.1, relative_step=False, clip_threshold=0.5)),
       steps(O.Adafactor(0.1, beta_2_decay=-0.5, epsilon_2=0.1)),
       steps(O.Adafactor(sched())), steps(O.Adafactor(0.1), S, n=2)]
""",
    "RMSprop and legacy RMSprop steps, bits": STEPS + """
sched = lambda: O.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)
L2 = O.legacy
out = [steps(O.RMSprop()), steps(O.RMSprop(0.1, rho=0.5, momentum=0.9, epsilon=1e-4)),
       steps(O.RMSprop(0.1, centered=True)), steps(O.RMSprop(0.1, momentum=0.5, centered=True)),
       steps(O.RMSprop(sched())), steps(O.RMSprop(0.1, momentum=0.5), S, n=2),
       steps(L2.RMSprop()), steps(L2.RMSprop(0.1, momentum=0.5, centered=True)),
       steps(L2.RMSprop(0.1, rho=0.5, momentum=0.9)),
       steps(L2.RMSprop(0.1, centered=True), S, n=2)]
""",
    "Lion and Adafactor: configs, variables, names": """
O = tf.keras.optimizers
def config(opt):
    return sorted((k, str(v)) for k, v in opt.get_config().items())
out = [config(O.Lion()), config(O.Adafactor()),
       config(O.Lion.from_config(O.Lion(0.3, beta_2=0.5, clipnorm=1.0).get_config())),
       config(O.Adafactor.from_config(O.Adafactor(0.3, relative_step=False).get_config())),
       type(O.experimental.Adafactor()).__name__, hasattr(O.experimental, 'Lion')]
for opt in (O.Lion(), O.Adafactor()):
    w, b = tf.Variable([[1.0, 2.0]], name='w'), tf.Variable([0.5], name='b')
    opt.apply_gradients([(tf.constant([[0.1, 0.2]]), w), (tf.constant([0.3]), b)])
    out.append([[v.name, v.dtype.name, str(v.shape)] for v in opt.variables])
for get in (lambda: O.get('lion'), lambda: O.get('Adafactor')):
    try:
        out.append(type(get()).__name__)
    except Exception as e:  # noqa: BLE001 - the error is the result
        out.append([type(e).__name__, str(e)])
""",
})

ERRORS = {
    "Ftrl initial_accumulator_value < 0": "Ftrl(initial_accumulator_value=-0.1)",
    "Ftrl learning_rate_power > 0": "Ftrl(learning_rate_power=0.5)",
    "Ftrl l1 < 0": "Ftrl(l1_regularization_strength=-1.0)",
    "Ftrl l2 < 0": "Ftrl(l2_regularization_strength=-1.0)",
    "Ftrl l2 shrinkage < 0": "Ftrl(l2_shrinkage_regularization_strength=-1.0)",
    "Adamax unknown argument": "Adamax(0.1, momentum=0.9)",
    "Nadam decay": "Nadam(decay=0.1)",
    "Adadelta clipnorm and global_clipnorm": "Adadelta(clipnorm=1.0, global_clipnorm=1.0)",
    "legacy Ftrl l1 < 0": "legacy.Ftrl(l1_regularization_strength=-1.0)",
    "legacy Ftrl learning_rate_power > 0": "legacy.Ftrl(learning_rate_power=0.5)",
    "Lion beta_1 0": "Lion(beta_1=0.0)",
    "Lion beta_1 > 1": "Lion(beta_1=1.5)",
    "Adafactor unknown argument": "Adafactor(beta_1=0.9)",
    "legacy Nadam with a schedule":
        "legacy.Nadam(tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5))",
}
CASES.update({f"argument error: {name}": f"out = tf.keras.optimizers.{code}"
              for name, code in ERRORS.items()})
CASES["apply_gradients with no gradient at all"] = """
w, b = tf.Variable([1.0, 2.0], name='w'), tf.Variable(3.0, name='b')
out = tf.keras.optimizers.SGD().apply_gradients([(None, w), (None, b)])
"""

EMA = STEPS + """
def ema_steps(make, strategy=None, n=4):
    with strategy.scope() if strategy else contextlib.nullcontext():
        opt = make()   # (made outside, its overwrite would mix strategies: TF's ValueError)
    out = steps(opt, strategy, n=n)
    return [out, [v.name for v in opt.variables]]
"""
CASES.update({
    "use_ema: moving averages and their overwrite, bits": EMA + """
out = [ema_steps(lambda: O.SGD(0.1, use_ema=True)),
       ema_steps(lambda: O.Adam(0.1, use_ema=True, ema_momentum=0.5,
                                ema_overwrite_frequency=3)),
       ema_steps(lambda: O.Nadam(0.1, use_ema=True, ema_momentum=0.9,
                                 ema_overwrite_frequency=2)),
       ema_steps(lambda: O.Adamax(0.1, use_ema=True, ema_overwrite_frequency=1), S, n=2),
       sorted((k, str(v)) for k, v in O.Adam(use_ema=True).get_config().items()),
       O.RMSprop(use_ema=True).ema_overwrite_frequency]
""",
    "use_ema in fit: the averages at the end, default strategy and 4 replicas": """
import contextlib
rng = np.random.RandomState(0)
X = rng.normal(size=(16, 2)).astype('float32')
Y = np.eye(2, dtype='float32')[(X[:, 0] > 0).astype('int64')]
def fit(opt, strategy):
    with strategy.scope() if strategy else contextlib.nullcontext():
        m = tf.keras.Sequential([L.Dense(2, activation='softmax', input_shape=(2,), name='d')])
        m.set_weights([np.array([[0.3, -0.2], [0.1, 0.4]], 'float32'), np.zeros(2, 'float32')])
        m.compile(opt(), loss='categorical_crossentropy')
    h = m.fit(X, Y, batch_size=16, epochs=3, shuffle=False, verbose=0)
    return [h.history['loss'], m.get_weights(), [v.numpy() for v in m.optimizer.variables]]
O = tf.keras.optimizers
out = [fit(lambda: O.Adam(0.1, use_ema=True, ema_momentum=0.5), None),
       fit(lambda: O.SGD(0.5, use_ema=True, ema_overwrite_frequency=3), S)]
""",
})
CASES["use_ema inside a LossScaleOptimizer: steps, skipped steps, the overwrite, fit"] = STEPS + """
M = tf.keras.mixed_precision
out = []
for make in (lambda: M.LossScaleOptimizer(O.Adam(0.1, use_ema=True, ema_momentum=0.5)),
             lambda: M.LossScaleOptimizer(O.SGD(0.1, use_ema=True, ema_momentum=0.5,
                                                ema_overwrite_frequency=2),
                                          dynamic=False, initial_scale=8.0)):
    opt = make()
    w = tf.Variable([1.0, 2.0], name='w')
    seen = []
    for g in ([0.5, -0.5], [np.inf, 1.0], [0.25, 0.75], [1.0, 1.0]):
        opt.apply_gradients([(tf.constant(g, dtype=tf.float32), w)])
        seen.append([bits(w.numpy()), [v.numpy() for v in opt.variables]])
    opt.finalize_variable_values([w])
    out.append([seen, bits(w.numpy()), [v.name for v in opt.variables], opt.use_ema,
                opt.ema_momentum])
rng = np.random.RandomState(0)
X = rng.normal(size=(16, 2)).astype('float32')
Y = np.eye(2, dtype='float32')[(X[:, 0] > 0).astype('int64')]
m = tf.keras.Sequential([L.Dense(2, activation='softmax', input_shape=(2,), name='d')])
m.set_weights([np.array([[0.3, -0.2], [0.1, 0.4]], 'float32'), np.zeros(2, 'float32')])
m.compile(M.LossScaleOptimizer(O.Adam(0.1, use_ema=True, ema_momentum=0.5)),
          loss='categorical_crossentropy')
h = m.fit(X, Y, batch_size=8, epochs=2, shuffle=False, verbose=0)
out.append([h.history['loss'], m.get_weights(), [v.numpy() for v in m.optimizer.variables]])
"""
ERRORS_EMA = {
    "ema_momentum > 1": "SGD(use_ema=True, ema_momentum=1.5)",
    "ema_overwrite_frequency 0.5": "Adam(use_ema=True, ema_overwrite_frequency=0.5)",
    "ema_momentum ignored without use_ema": "SGD(ema_momentum=1.5).ema_momentum",
}
CASES.update({f"argument error: {name}": f"out = tf.keras.optimizers.{code}"
              for name, code in ERRORS_EMA.items()})
