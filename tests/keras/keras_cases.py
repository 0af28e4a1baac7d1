"""Small Keras programs whose results TF 2.15 recorded (record_tf_keras.py) and simdist must
reproduce (test_keras_tf_conformance.py): layers, models, activations, losses and their errors;
and (tutorial_cases.py, TF 2.21) the Keras names TF's guides and tutorials use; and
(hardening_cases.py, TF 2.21) user mistakes and faults in training.

Each case is code run with ``tf``, ``np`` and ``L = tf.keras.layers`` in scope that leaves its
result in ``out`` (arrays, numbers, strings and lists of them); an exception is the result
when it raises. Layers get explicit names: auto-names depend on what ran before.
"""

import hardening_cases
import tpu_cases
import tutorial_cases

X = "tf.constant([[-2.0, -0.5, 0.0], [0.3, 1.0, 10.0]])"
ACTIVATIONS = ["elu", "selu", "softsign", "swish", "silu", "gelu", "hard_sigmoid", "relu6",
               "leaky_relu", "mish", "log_softmax", "softplus", "tanh", "sigmoid", "softmax",
               "exponential", "linear", "relu"]
LOSS_NAMES = ["mse", "mae", "mape", "msle", "kld", "huber", "log_cosh", "logcosh", "poisson",
              "hinge", "squared_hinge", "categorical_hinge", "cosine_similarity",
              "kl_divergence", "binary_crossentropy", "categorical_crossentropy"]
LOSS_CLASSES = ["MeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError",
                "MeanSquaredLogarithmicError", "Huber", "LogCosh", "KLDivergence", "Poisson",
                "Hinge", "SquaredHinge", "CategoricalHinge", "CosineSimilarity",
                "BinaryCrossentropy", "CategoricalCrossentropy", "SparseCategoricalCrossentropy"]

CASES = {
    **{f"activation {name}": f"out = tf.keras.activations.get({name!r})({X})"
       for name in ACTIVATIONS},
    "activation gelu approximate": f"out = tf.keras.activations.gelu({X}, approximate=True)",
    "activation elu alpha": f"out = tf.keras.activations.elu({X}, alpha=0.5)",
    "activation relu alpha": f"out = tf.keras.activations.relu({X}, alpha=0.1)",
    "activation relu all": f"out = tf.keras.activations.relu({X}, alpha=0.1, max_value=5.0, "
                           "threshold=0.5)",
    "activation relu max_value 6": f"out = tf.keras.activations.relu({X}, max_value=6.0)",
    "activation unknown": "out = tf.keras.activations.get('nope')",
    "unknown names: the whole message": """
out = [type(tf.keras.optimizers.get('ADAM')).__name__]
for get in (tf.keras.optimizers.get, tf.keras.losses.get, tf.keras.initializers.get):
    try:
        get('NoPe')
    except ValueError as e:
        out.append(str(e))
""",
    **{f"loss {name}": f"""
yt = tf.constant([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]])
yp = tf.constant([[0.2, 0.7, 1.5], [0.9, 0.1, 0.3]])
out = [tf.keras.losses.get({name!r})(yt, yp)]
""" for name in LOSS_NAMES},
    **{f"loss class {name}": f"""
yt = tf.constant([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]])
yp = tf.constant([[0.2, 0.7, 1.5], [0.9, 0.1, 0.3]])
loss = tf.keras.losses.{name}()
out = [loss(yt, yp), loss(yt, yp, sample_weight=[0.25, 1.0]),
       sorted((k, str(v)) for k, v in loss.get_config().items())]
""" for name in LOSS_CLASSES},
    "weights order with batch norm": """
m = tf.keras.Sequential([L.Dense(3, input_shape=(2,), name='a'),
                         L.BatchNormalization(name='bn'), L.Dense(1, name='b')])
out = [w.name for w in m.weights] + [str(w.shape) for w in m.get_weights()]
""",
    "trainable and non-trainable order of a frozen layer": """
m = tf.keras.Sequential([L.Dense(3, input_shape=(2,), name='a'),
                         L.BatchNormalization(name='bn'), L.Dense(1, name='b')])
m.layers[0].trainable = False
out = [w.name for w in m.trainable_weights] + ['|'] + [w.name for w in m.non_trainable_weights]
""",
    "set_weights follows get_weights order": """
m = tf.keras.Sequential([L.Dense(2, input_shape=(2,), name='a'),
                         L.BatchNormalization(name='bn')])
m.set_weights([np.full(w.shape, i + 1.0, np.float32) for i, w in enumerate(m.get_weights())])
out = m(np.ones((1, 2), np.float32), training=False)
""",
    "frozen batch norm runs in inference mode": """
bn = L.BatchNormalization(name='bn')
bn.build((None, 2))
bn.trainable = False
y = bn(np.array([[1.0, 2.0], [3.0, 6.0]], np.float32), training=True)
out = [y, bn.moving_mean.numpy()]
""",
    "custom layer in a Sequential": """
class Block(L.Layer):
    def __init__(self):
        super().__init__(name='block')
        self.d = L.Dense(5, name='inner')
    def call(self, x):
        return self.d(x)
m = tf.keras.Sequential([Block(), L.Dense(2, name='b')])
m.build((None, 3))
out = [str(tuple(w.shape)) for w in m.weights] + [m(np.zeros((2, 3), np.float32)).shape]
""",
    "nested Sequential output shape": """
m = tf.keras.Sequential([tf.keras.Sequential([L.Dense(4, name='a')], name='inner'),
                         L.Dense(2, name='b')])
out = [m(np.zeros((2, 3), np.float32)).shape,
       str(tf.keras.Sequential([L.Dense(4, name='c'), L.Dense(7, name='d')])
           .compute_output_shape((None, 3)))]
""",
    "nested built Sequential builds the outer one": """
inner = tf.keras.Sequential([L.Dense(4, input_shape=(3,), name='a')], name='inner')
outer = tf.keras.Sequential([inner, L.Dense(2, name='b')], name='outer')
out = [outer.built, [str(tuple(w.shape)) for w in outer.weights]]
""",
    "weight names under subclassed models, custom layers and Sequentials": """
class M(tf.keras.Model):
    def __init__(self):
        super().__init__(name='m')
        self.d = L.Dense(2, name='inner')
    def call(self, x):
        return self.d(x)
class B(L.Layer):
    def __init__(self):
        super().__init__(name='blk')
        self.d = L.Dense(2, name='inner2')
    def build(self, shape):
        self.w = self.add_weight(shape=(1,))
        self.v = self.add_weight('vv', shape=(1,))
    def call(self, x):
        return self.d(x)
x = np.zeros((1, 3), 'float32')
called, built, block = M(), M(), B()
called(x)
built.build((None, 3))
block(x)
seq = tf.keras.Sequential([tf.keras.Sequential([L.Dense(2, name='i3')], name='inner_seq')],
                          name='outer')
seq(x)
out = [[w.name for w in m.weights] for m in (called, built, block, seq)]
""",
    "orthogonal initializer": """
q = tf.keras.initializers.get('orthogonal')((3, 5)).numpy()
out = [np.round(q @ q.T, 5), tf.keras.initializers.Orthogonal(gain=2.0)((4, 2)).shape]
""",
    "orthogonal initializer of a vector": "out = tf.keras.initializers.Orthogonal()((3,))",
    "identity initializer": "out = tf.keras.initializers.Identity(2.0)((2, 3))",
    "identity initializer of rank 3": "out = tf.keras.initializers.get('identity')((2, 2, 2))",
    "constant initializer of a list": """
out = [tf.keras.initializers.Constant([1.0, 2.0])((2,)),
       tf.keras.initializers.Constant(3)((2, 2), dtype='int32')]
""",
    "constant initializer of the wrong size":
        "out = tf.keras.initializers.Constant([1.0, 2.0])((3,))",
    "get_weights of an unbuilt Sequential": """
out = tf.keras.Sequential([L.Dense(3, name='a')], name='seq').get_weights()
""",
    "Model without call": "out = tf.keras.Model(name='m')(np.zeros((1, 2), np.float32))",
    "get_layer by name and index": """
m = tf.keras.Sequential([L.Dense(3, input_shape=(2,), name='a'), L.Dense(1, name='b')])
out = [m.get_layer('b').name, m.get_layer(index=0).name]
""",
    "get_layer unknown name": """
m = tf.keras.Sequential([L.Dense(3, input_shape=(2,), name='a')])
out = m.get_layer('zzz')
""",
    "Dense on rank-1 input": "out = L.Dense(2, name='d')(np.ones((3,), np.float32))",
    "Dense with the wrong last axis": """
d = L.Dense(2, name='d')
d(np.ones((2, 6), np.float32))
out = d(np.ones((2, 5), np.float32))
""",
    "Dense on integer input": """
out = L.Dense(1, kernel_initializer='ones', name='d')(tf.constant([[1, 2]]))
""",
    "Dense input_spec": "out = [repr(L.Dense(3).input_spec)]",
    "BatchNormalization bad axis": """
out = L.BatchNormalization(axis=5, name='bn')(np.zeros((2, 3), np.float32))
""",
    "BatchNormalization wrong channels": """
bn = L.BatchNormalization(name='bn')
bn(np.zeros((2, 3), np.float32))
out = bn(np.zeros((2, 4), np.float32))
""",
    "BatchNormalization wrong rank": """
bn = L.BatchNormalization(name='bn')
bn(np.zeros((2, 3), np.float32))
out = bn(np.zeros((2, 3, 3), np.float32))
""",
    "Dropout rate 1 in training": """
out = L.Dropout(1.0, name='drop')(np.ones((2, 3), np.float32), training=True)
""",
    **{f"sparse crossentropy ignore_class {r}": f"""
loss = tf.keras.losses.SparseCategoricalCrossentropy(ignore_class=0, reduction={r!r},
                                                     from_logits=True)
out = loss([1, 0, 2], [[1.0, 2.0, 0.0], [0.5, 1.0, 0.0], [0.0, 0.0, 2.0]])
""" for r in ("none", "sum", "sum_over_batch_size")},
    "sparse crossentropy ignore_class -1 with sample weights": """
loss = tf.keras.losses.SparseCategoricalCrossentropy(ignore_class=-1, from_logits=True)
out = loss([[1], [-1], [2]], [[1.0, 2.0, 0.0], [0.5, 1.0, 0.0], [0.0, 0.0, 2.0]],
           sample_weight=[1.0, 2.0, 3.0])
""",
}

# --- training: fit / evaluate / callbacks, with fixed weights and data --------------------
# ``S`` is a 4-replica MirroredStrategy (TF: 4 logical CPUs; simdist: its 4 GPUs).
PRELUDE = """
import contextlib, os, tempfile
rng = np.random.RandomState(0)
X = rng.normal(size=(16, 2)).astype('float32')
YI = (X[:, 0] > 0).astype('int64')
Y1 = np.eye(2, dtype='float32')[YI]
SW = np.linspace(0.0, 1.0, 16).astype('float32')

def mk(strategy=None, loss='categorical_crossentropy', optimizer=None, **compile_kw):
    with strategy.scope() if strategy else contextlib.nullcontext():
        m = tf.keras.Sequential([L.Dense(2, activation='softmax', input_shape=(2,), name='d')])
        m.set_weights([np.array([[0.3, -0.2], [0.1, 0.4]], 'float32'), np.zeros(2, 'float32')])
        m.compile(optimizer or tf.keras.optimizers.SGD(0.1), loss=loss, **compile_kw)
    return m

class Log(tf.keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.seen = []
    def __getattribute__(self, name):
        if name.startswith('on_') and name != 'on_batch_begin' and name != 'on_batch_end':
            def hook(*args):
                logs = args[-1]
                self.seen.append(name + ':' + (type(logs).__name__ if not isinstance(logs, dict)
                                               else ','.join(sorted(logs))))
            return hook
        return super().__getattribute__(name)
"""

TRAINING = {
    "fit class_weight": """
m = mk(S, loss='sparse_categorical_crossentropy')
h = m.fit(X, YI, batch_size=8, epochs=2, class_weight={0: 1.0, 1: 5.0}, shuffle=False, verbose=0)
out = [h.history['loss'], m.get_weights()]
""",
    "fit class_weight and sample_weight multiply": """
m = mk(S)
h = m.fit(X, Y1, sample_weight=SW, class_weight={0: 2.0, 1: 0.5}, batch_size=8, shuffle=False,
          verbose=0)
out = [h.history['loss'], m.get_weights()]
""",
    "class_weight with a label out of range": """
m = mk(loss='mse')
out = m.fit(X, X, class_weight={0: 1.0}, shuffle=False, verbose=0)
""",
    "class_weight with a label out of range in a later batch: the earlier batches trained": """
import re
m = mk(loss='sparse_categorical_crossentropy')
try:
    m.fit(X[:8], np.array([0, 1, 0, 1, 0, 1, 2, 0]), batch_size=4,
          class_weight={0: 1.0, 1: 2.0}, shuffle=False, verbose=0)
except tf.errors.InvalidArgumentError as e:   # TF's dataset counter masked
    msg = re.sub(r'MapDataset:[0-9]+', 'MapDataset:N', str(e)).split('\\n')
out = [msg[:6], msg[6].split(' [Op:')[0], m.optimizer.iterations, m.get_weights()]
""",
    "class_weight with a label out of range in a dataset's batch": """
import re
m = mk(loss='sparse_categorical_crossentropy')
y = np.array([0, 1, 0, 1, 0, 1, 2, 0])
try:
    m.fit(tf.data.Dataset.from_tensor_slices((X[:8], y)).batch(4),
          class_weight={0: 1.0, 1: 2.0}, verbose=0)
except tf.errors.InvalidArgumentError as e:   # TF's dataset counter masked
    msg = re.sub(r'MapDataset:[0-9]+', 'MapDataset:N', str(e)).split('\\n')
out = [msg[:6], msg[6].split(' [Op:')[0], m.optimizer.iterations, m.get_weights()]
""",
    "metrics ignore sample_weight, weighted_metrics use it": """
m = mk(S, metrics=['mae'], weighted_metrics=['mae', 'accuracy'])
out = sorted(m.evaluate(X, Y1, sample_weight=SW, batch_size=8, verbose=0,
                        return_dict=True).items())
""",
    "weighted accuracy next to accuracy": """
m = mk(metrics=['accuracy'], weighted_metrics=['accuracy'])
out = sorted(m.evaluate(X, Y1, sample_weight=SW, verbose=0, return_dict=True).items())
""",
    "metrics_names stay empty until a step has run": """
out = []
m = mk(S, metrics=['accuracy', 'mse'])
out.append(m.metrics_names)
out.append([x.name for x in m.metrics])
m.predict(X, verbose=0)
out.append(m.metrics_names)
m(X)
out.append(m.metrics_names)
m.evaluate(X, Y1, verbose=0)
out.append(m.metrics_names)
m.compile('sgd', 'mse')
out.append(m.metrics_names)
m.train_on_batch(X, Y1)
out.append(m.metrics_names)
m2 = mk(metrics=['mae'])
m2.fit(X, Y1, verbose=0)
out.append(m2.metrics_names)
m3 = mk(loss=None)
out.append(m3.metrics_names)
m4 = mk(metrics=['mae'])
seen = []
cb = tf.keras.callbacks.LambdaCallback(
    on_train_begin=lambda logs: seen.append(m4.metrics_names),
    on_train_batch_begin=lambda b, logs: seen.append(m4.metrics_names),
    on_train_batch_end=lambda b, logs: seen.append(m4.metrics_names))
m4.fit(X, Y1, batch_size=8, callbacks=[cb], verbose=0)
out.append(seen)
""",
    "compiled in a scope it was not built in: the variable's repr": """
m = tf.keras.Sequential([L.Dense(2, input_shape=(3,), name='d')])
m.set_weights([np.arange(6, dtype='float32').reshape(3, 2) / 4, np.zeros(2, 'float32')])
try:
    with S.scope():
        m.compile('sgd', 'mse')
except ValueError as e:
    out = [str(e).split(' was not created')[0]]  # then the strategy, at its address
out += [repr(m.weights[1]), repr(m(np.ones((2, 3), 'float32'))), str(tf.constant(np.eye(2)))]
""",
    "built and compiled outside, fit inside a strategy's scope": """
m = mk()
with S.scope():
    out = m.fit(X, Y1, batch_size=8, verbose=0)  # the slots cannot sit by outside variables
""",
    "trained outside, then fit inside a strategy's scope": """
m = mk()
m.fit(X, Y1, batch_size=8, verbose=0)
with S.scope():
    out = m.fit(X, Y1, batch_size=8, verbose=0)  # Mirrored updates only its own variables
""",
    "OneDevice: built and compiled outside, fit inside its scope": """
m = mk()
with tf.distribute.OneDeviceStrategy('/cpu:0').scope():
    out = m.fit(X, Y1, batch_size=8, verbose=0)
""",
    "CentralStorage: built and compiled outside, fit inside its scope": """
m = mk()
with tf.distribute.experimental.CentralStorageStrategy(S.extended.worker_devices[:2]).scope():
    out = m.fit(X, Y1, batch_size=8, verbose=0)
""",
    "OneDevice and CentralStorage: trained outside, then fit inside their scopes": """
out = []
for strategy in (tf.distribute.OneDeviceStrategy('/cpu:0'),
                 tf.distribute.experimental.CentralStorageStrategy(
                     S.extended.worker_devices[:2])):
    m = mk()
    m.fit(X, Y1, batch_size=8, verbose=0)
    with strategy.scope():
        h = m.fit(X, Y1, batch_size=8, verbose=0)
    out.append(sorted(h.history))
""",
    "a variable remembers the strategy whose scope made it": """
O = tf.distribute.OneDeviceStrategy('/cpu:0')
with O.scope():
    v = tf.Variable(1.0)
with S.scope():
    w = tf.Variable(1.0)
u = tf.Variable(1.0)
default = tf.distribute.get_strategy().extended
out = [[e.variable_created_in_scope(x) for x in (v, w, u)] for e in (O.extended, S.extended,
                                                                     default)]
""",
    "extended.update: MirroredStrategy given a plain variable":
        "out = S.extended.update(tf.Variable(1.0), lambda v: v.assign(2.0))",
    "extended.update: CentralStorage given a plain variable, then a tensor": """
C = tf.distribute.experimental.CentralStorageStrategy(S.extended.worker_devices[:2])
out = [C.extended.update(tf.Variable(1.0), lambda v: v.assign(3.0)).numpy()]
out.append(C.extended.update(tf.constant(1.0), lambda v: v))
""",
    "apply_gradients in cross-replica context": """
with S.scope():
    v = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(0.5)
    out = opt.apply_gradients([(tf.constant([1.0, 1.0]), v)])
""",
    "apply_gradients in cross-replica context, aggregation skipped": """
with S.scope():
    v = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(0.5)
    opt.apply_gradients([(tf.constant([1.0, 1.0]), v)], skip_gradients_aggregation=True)
out = [v.values[0], v.values[-1], opt.iterations]
""",
    "colocate_vars_with another strategy's variable": """
with S.scope():
    v = tf.Variable(1.0, name='v')
with tf.distribute.MirroredStrategy(S.extended.worker_devices[:2]).scope():
    with tf.distribute.get_strategy().extended.colocate_vars_with(v):
        out = tf.Variable(2.0)
""",
    "colocate_vars_with outside the strategy's scope":
        "out = S.extended.colocate_vars_with(tf.Variable(1.0))",
    "colocate_vars_with in scope": """
with S.scope():
    v = tf.Variable(1.0)
    with S.extended.colocate_vars_with(v):
        w = tf.Variable(2.0)
out = [type(w).__name__, len(S.experimental_local_results(w))]
""",
    "adamw is not an optimizer name in Keras 2": "out = mk(optimizer='adamw')",
    "steps_per_epoch carries on through the arrays": """
seen = []
class M(tf.keras.Sequential):
    def train_step(self, data):
        seen.append(float(data[0][0, 0]))
        return super().train_step(data)
m = M([L.Dense(2, input_shape=(2,), name='d')])
m.compile('sgd', 'mse', run_eagerly=True)  # TF's graph mode adds an async quirk at the end
h = m.fit(np.arange(32, dtype='float32').reshape(16, 2), np.zeros((16, 2), 'float32'),
          batch_size=8, epochs=2, steps_per_epoch=3, shuffle=False, verbose=0)
out = [seen, h.epoch, int(m.optimizer.iterations.numpy())]
""",
    "fit with zero epochs": """
m = mk()
m.fit(X, Y1, epochs=1, verbose=0)
h = m.fit(X, Y1, epochs=0, verbose=0)
out = [h.history, h.epoch]
""",
    "fit a Dataset with batch_size and a validation Dataset": """
m = mk(S)
ds = tf.data.Dataset.from_tensor_slices((X, Y1)).batch(8)
h = m.fit(ds, batch_size=4, validation_data=ds, verbose=0)
out = sorted(h.history.items())
""",
    "validation_freq as a list of epochs": """
m = mk(S)
h = m.fit(X, Y1, batch_size=8, epochs=4, validation_data=(X, Y1), validation_freq=[1, 3],
          shuffle=False, verbose=0)
out = [h.history['val_loss'], h.history['loss'], sorted(h.history)]
""",
    "validation_freq as a tuple": """
out = mk().fit(X, Y1, epochs=2, validation_data=(X, Y1), validation_freq=(1, 2), verbose=0)
""",
    "validation_split of a Dataset": """
m = mk()
out = m.fit(tf.data.Dataset.from_tensor_slices((X, Y1)).batch(8), validation_split=0.5,
            verbose=0)
""",
    "x and y of different lengths": "out = mk().fit(X, Y1[:10], verbose=0)",
    "integer labels with categorical crossentropy": """
out = mk().fit(X, YI.reshape(-1, 1), batch_size=16, verbose=0)
""",
    "callbacks get dicts of logs": """
m = mk()
log = Log()
m.fit(X, Y1, batch_size=8, epochs=1, validation_data=(X, Y1), callbacks=[log], verbose=0)
out = log.seen
""",
    "a callback overriding on_batch_end": """
class B(tf.keras.callbacks.Callback):
    n = 0
    def on_batch_end(self, batch, logs=None):
        B.n += 1
mk().fit(X, Y1, batch_size=4, callbacks=[B()], verbose=0)
out = B.n
""",
    "LambdaCallback": """
seen = []
cb = tf.keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: seen.append(e),
                                       on_batch_end=lambda b, logs: seen.append(-b))
mk().fit(X, Y1, batch_size=8, epochs=2, callbacks=[cb], verbose=0)
out = seen
""",
    "metric made outside the strategy scope": """
met = tf.keras.metrics.MeanAbsoluteError()
out = mk(S, metrics=[met])
""",
    "ModelCheckpoint filepath naming a log that is not there": """
ck = tf.keras.callbacks.ModelCheckpoint('w-{epoch}-{val_loss:.2f}.npz', save_weights_only=True)
out = mk().fit(X, Y1, epochs=1, callbacks=[ck], verbose=0)  # fails before it writes
""",
    "ModelCheckpoint every 3 batches fills epoch, batch and logs": """
d = tempfile.mkdtemp()
ck = tf.keras.callbacks.ModelCheckpoint(os.path.join(d, 'w-{epoch}-{batch}-{loss:.3f}.npz'),
                                        save_weights_only=True, save_freq=3)
mk().fit(X, Y1, batch_size=4, epochs=2, callbacks=[ck], shuffle=False, verbose=0)
out = sorted({f.split('.npz')[0] for f in os.listdir(d) if '.npz' in f})  # TF: w.npz.index ...
""",
    "BackupAndRestore removes its backup when done": """
d = tempfile.mkdtemp()
mk().fit(X, Y1, epochs=2, callbacks=[tf.keras.callbacks.BackupAndRestore(d)], verbose=0)
out = sorted(os.listdir(d))
""",
    "train_on_batch and test_on_batch": """
m = mk(S, metrics=['accuracy'])
a = m.train_on_batch(X, Y1)
b = m.test_on_batch(X, Y1, return_dict=True)
out = [a, sorted(b.items()), m.get_weights()]
""",
    "on_predict_batch_end gets the batch's outputs as one array": """
seen = []
cb = tf.keras.callbacks.LambdaCallback(
    on_predict_batch_end=lambda b, logs: seen.append([b, type(logs['outputs']).__name__,
                                                      logs['outputs']]))
for strategy in (None, S):
    mk(strategy).predict(X[:10], batch_size=4, callbacks=[cb], verbose=0)
out = seen
""",
    "predict on no rows": "out = mk().predict(np.zeros((0, 2), 'float32'), verbose=0)",
    "next on an exhausted iterator inside tf.function": """
it = iter(S.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(X).batch(16)))
@tf.function
def step():
    return next(it)
step()
out = step()
""",
    "regularizers join the loss": """
with S.scope():
    m = tf.keras.Sequential([L.Dense(2, input_shape=(2,), name='d',
                                     kernel_regularizer=tf.keras.regularizers.L2(0.1),
                                     bias_regularizer='l1', activity_regularizer='l2')])
    m.set_weights([np.array([[0.3, -0.2], [0.1, 0.4]], 'float32'),
                   np.array([0.5, -1.0], 'float32')])
    m.compile(tf.keras.optimizers.SGD(0.1), loss='mse')
m(X[:4])
before = m.losses
h = m.fit(X, Y1, batch_size=8, epochs=2, shuffle=False, verbose=0)
out = [before, h.history['loss'], m.get_weights()]
""",
    "Adagrad and AdamW": """
out = []
for opt in (tf.keras.optimizers.Adagrad(0.1), tf.keras.optimizers.AdamW(0.1), 'adagrad'):
    m = mk(S, optimizer=opt)
    m.fit(X, Y1, batch_size=8, epochs=2, shuffle=False, verbose=0)
    out.append(m.get_weights())
""",
    "lr is ignored by the Keras 2.11+ optimizers": """
adam, sgd = tf.keras.optimizers.Adam(lr=0.3), tf.keras.optimizers.SGD(lr=0.3, learning_rate=0.2)
out = [adam.learning_rate, sgd.learning_rate]
""",
    "optimizer configs": """
out = [o.get_config() for o in (
    tf.keras.optimizers.SGD(0.01, momentum=0.5), tf.keras.optimizers.Adam(clipnorm=1.0),
    tf.keras.optimizers.RMSprop(), tf.keras.optimizers.Adagrad(), tf.keras.optimizers.AdamW())]
out.append(tf.keras.optimizers.RMSprop.from_config(out[2]).get_config())
""",
    "slot names carry the optimizer's name scope": """
out = []
for opt in (tf.keras.optimizers.SGD(0.1, momentum=0.5), tf.keras.optimizers.Adam(name='my_adam'),
            tf.keras.optimizers.RMSprop(momentum=0.5, centered=True)):
    m = mk(S, optimizer=opt)
    m.fit(X, Y1, batch_size=8, verbose=0)
    out.append([w.name for w in m.optimizer.variables])
v = tf.Variable([1.0, 2.0])
built, named = tf.keras.optimizers.Adagrad(), tf.keras.optimizers.Adagrad()
built.build([v])
named.apply_gradients([(tf.constant([1.0, 1.0]), v)], name='step')
out += [[w.name for w in built.variables], [w.name for w in named.variables]]
""",
    "compile under mixed_float16 wraps the optimizer in a LossScaleOptimizer": """
tf.keras.mixed_precision.set_global_policy('mixed_float16')
try:
    out = []
    for strategy in (None, S):
        with strategy.scope() if strategy else contextlib.nullcontext():
            m = tf.keras.Sequential([L.Dense(2, input_shape=(2,), name='d',
                                             kernel_initializer='ones'),
                                     L.Dense(1, name='o', kernel_initializer='ones')])
            m.compile(tf.keras.optimizers.SGD(1e-5), loss='mse')
        scales = []
        log = tf.keras.callbacks.LambdaCallback(
            on_train_batch_end=lambda b, logs: scales.append(m.optimizer.loss_scale.numpy()))
        h = m.fit(X * 10.0, Y1[:, :1] * 100.0, batch_size=4, epochs=3, shuffle=False,
                  verbose=0, callbacks=[log])
        # float16 rounding differs between TF's CPU kernels and simdist's (which accumulate
        # matmuls in float32, as GPUs do): the scale sequence and the steps taken are exact.
        out += [isinstance(m.optimizer, tf.keras.mixed_precision.LossScaleOptimizer),
                m.optimizer.dynamic_growth_steps, scales, m.optimizer.iterations,
                [w.dtype.name for w in m.weights], np.isfinite(h.history['loss']).all()]
finally:
    tf.keras.mixed_precision.set_global_policy('float32')
""",
}
CASES.update({name: PRELUDE + code for name, code in TRAINING.items()})
CASES.update({name: PRELUDE + code for name, code in tutorial_cases.CASES.items()})
CASES.update({name: PRELUDE + code for name, code in tpu_cases.CASES.items()})
CASES.update({name: PRELUDE + code for name, code in hardening_cases.CASES.items()})
