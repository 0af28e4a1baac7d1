"""Checkpoint programs whose results TF 2.15 recorded (record_tf_checkpoint.py) and simdist
must reproduce (test_checkpoint_tf_conformance.py): what is saved under which name, what a
restore matches, defers and refuses, and how CheckpointManager numbers and keeps files.

Each case is code run with ``tf``, ``np``, ``L`` and ``S`` (4 replicas) in scope (see
tests/tf_snippets.py) that leaves its result in ``out``. ``D`` is a fresh temporary
directory; results name files relative to it.
"""

PRELUDE = """
import os, tempfile
D = tempfile.mkdtemp()

def mk(strategy=None, built=True):
    import contextlib
    with strategy.scope() if strategy else contextlib.nullcontext():
        first = L.Dense(3, input_shape=(2,), name='a') if built else L.Dense(3, name='a')
        m = tf.keras.Sequential([first, L.Dense(1, name='b')])
    if built:
        m.set_weights([np.arange(6, dtype='float32').reshape(2, 3) / 10, np.ones(3, 'float32'),
                       np.arange(3, dtype='float32').reshape(3, 1) / 5, np.zeros(1, 'float32')])
    return m

def train(m, opt, steps=1, strategy=None):
    x = tf.constant(np.linspace(-1, 1, 8, dtype='float32').reshape(4, 2))
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(m(x)) / 4.0
        grads = tape.gradient(loss, m.trainable_variables)
        opt.apply_gradients(zip(grads, m.trainable_variables))
    for _ in range(steps):
        step() if strategy is None else strategy.run(step)

def files():
    return sorted(os.listdir(D))

def names(path):
    return [n for n, _ in tf.train.list_variables(path)]
"""

CASES = {
    "list_variables names a model, its optimizer and slots as TF's object graph does": """
m, opt = mk(), tf.keras.optimizers.Adam(0.1)
train(m, opt)
v = tf.Variable([1.0, 2.0])
metric = tf.keras.metrics.Mean()
metric.update_state(3.0)
path = tf.train.Checkpoint(model=m, optimizer=opt, v=v, metric=metric).save(
    os.path.join(D, 'ck'))
out = [os.path.relpath(path, D), files(),
       [[n, str(s)] for n, s in tf.train.list_variables(path)],
       tf.train.load_variable(path, 'optimizer/_variables/1/.ATTRIBUTES/VARIABLE_VALUE'),
       tf.train.load_variable(path, 'save_counter/.ATTRIBUTES/VARIABLE_VALUE')]
""",
    "a compiled model carries its optimizer": """
m = mk()
m.compile(tf.keras.optimizers.SGD(0.1, momentum=0.9), 'mse')
m.fit(np.ones((4, 2), 'float32'), np.ones((4, 1), 'float32'), verbose=0)
out = names(tf.train.Checkpoint(model=m).write(os.path.join(D, 'w')))
""",
    "subclassed model: attribute names, lists of layers": """
class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.first = L.Dense(2, name='x')
        self.blocks = [L.Dense(1, name='y'), L.Dense(1, name='z')]
    def call(self, x):
        return self.blocks[1](self.blocks[0](self.first(x)))
net = Net()
net(np.ones((1, 3), 'float32'))
out = names(tf.train.Checkpoint(net=net).write(os.path.join(D, 'w')))
""",
    "LossScaleOptimizer saves its scale and the inner optimizer's slots": """
opt = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(1.0, momentum=0.5),
                                                  initial_scale=8.0)
v = tf.Variable([1.0, 2.0])
opt.apply_gradients([(tf.constant([np.inf, 1.0]), v)])
opt.apply_gradients([(tf.constant([1.0, 1.0]), v)])
path = tf.train.Checkpoint(opt=opt, v=v).save(os.path.join(D, 'ck'))
opt2 = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(1.0, momentum=0.5),
                                                   initial_scale=8.0)
v2 = tf.Variable([0.0, 0.0])
tf.train.Checkpoint(opt=opt2, v=v2).restore(path)
before = [opt2.loss_scale, opt2.dynamic_counter, opt2.iterations]
opt2.apply_gradients([(tf.constant([1.0, 1.0]), v2)])
opt.apply_gradients([(tf.constant([1.0, 1.0]), v)])
out = [names(path), [w.name for w in opt.variables], before, v2, v, opt2.loss_scale,
       opt2.dynamic_counter]
""",
    "model.save_weights writes TF's checkpoint format unless the name ends in .h5": """
m = mk()
m.compile(tf.keras.optimizers.SGD(0.1, momentum=0.9), 'mse')
m.fit(np.ones((4, 2), 'float32'), np.ones((4, 1), 'float32'), verbose=0)
m.save_weights(os.path.join(D, 'w'))
m.save_weights(os.path.join(D, 'w2.npz'))
m.save_weights(os.path.join(D, 'w.h5'))
m2 = mk(built=False)
m2.compile(tf.keras.optimizers.SGD(0.1, momentum=0.9), 'mse')
status = m2.load_weights(os.path.join(D, 'w'))
m2(np.ones((1, 2), 'float32'))
m3 = mk()
m3.load_weights(os.path.join(D, 'w.h5'))
out = [files(), names(os.path.join(D, 'w')), open(os.path.join(D, 'checkpoint')).read(),
       m2.get_weights(), type(status).__name__, m3.get_weights()]
""",
    "Checkpoint(root=model) makes the model the root": """
m = mk()
out = names(tf.train.Checkpoint(root=m).write(os.path.join(D, 'w')))
""",
    "restore into an unbuilt model waits for its weights": """
m, opt = mk(), tf.keras.optimizers.SGD(0.1)
path = tf.train.Checkpoint(model=m).save(os.path.join(D, 'ck'))
m2 = mk(built=False)
status = tf.train.Checkpoint(model=m2).restore(path)
m2(np.ones((1, 2), 'float32'))
out = m2.get_weights() + [m2(np.ones((1, 2), 'float32'))]
status.assert_consumed()
""",
    "slots restored before the optimizer makes them": """
m, opt = mk(), tf.keras.optimizers.Adam(0.1)
train(m, opt, steps=2)
path = tf.train.Checkpoint(model=m, optimizer=opt).save(os.path.join(D, 'ck'))
m2, opt2 = mk(S), None
with S.scope():
    opt2 = tf.keras.optimizers.Adam(0.1)
status = tf.train.Checkpoint(model=m2, optimizer=opt2).restore(path)
try:
    status.assert_consumed()
    early = 'consumed'
except AssertionError as e:
    early = type(e).__name__
status.assert_existing_objects_matched()
train(m2, opt2, strategy=S)
train(m, opt)
status.assert_consumed()
out = [early, m2.get_weights(), m.get_weights(), [s.numpy() for s in opt2.variables[1:]],
       [s.numpy() for s in opt.variables[1:]]]
""",
    "4 replicas to one device and to 2 replicas": """
with S.scope():
    m4, opt4 = mk(), tf.keras.optimizers.Adam(0.1)
train(m4, opt4, steps=2, strategy=S)
path = tf.train.Checkpoint(model=m4, optimizer=opt4).save(os.path.join(D, 'ck'))
# (TF's collectives cannot regroup 4 devices into 2 in one process: reduce on one device.)
devices = S.extended.worker_devices
S2 = tf.distribute.MirroredStrategy(devices[:2],
                                    cross_device_ops=tf.distribute.ReductionToOneDevice())
out = []
for strategy in (tf.distribute.OneDeviceStrategy(devices[0]), S2):
    with strategy.scope():
        m, opt = mk(), tf.keras.optimizers.Adam(0.1)
    tf.train.Checkpoint(model=m, optimizer=opt).restore(path).assert_existing_objects_matched()
    train(m, opt, strategy=strategy)
    out.append(m.get_weights())
train(m4, opt4, strategy=S)
out.append(m4.get_weights())
""",
    "assertions on a restore": """
v = tf.Variable(1.0)
path = tf.train.Checkpoint(v=v).save(os.path.join(D, 'ck'))
def check(ckpt, what):
    status = ckpt.restore(path)
    try:
        getattr(status, what)()
        return 'ok'
    except AssertionError as e:
        return 'AssertionError'
out = [check(tf.train.Checkpoint(v=tf.Variable(0.0)), 'assert_consumed'),
       check(tf.train.Checkpoint(w=tf.Variable(0.0)), 'assert_consumed'),
       check(tf.train.Checkpoint(w=tf.Variable(0.0)), 'assert_existing_objects_matched'),
       check(tf.train.Checkpoint(w=tf.Variable(0.0)), 'assert_nontrivial_match'),
       check(tf.train.Checkpoint(w=tf.Variable(0.0)), 'expect_partial'),
       check(tf.train.Checkpoint(v=tf.Variable(0.0), w=tf.Variable(0.0)), 'assert_consumed'),
       check(tf.train.Checkpoint(v=tf.Variable(0.0), w=tf.Variable(0.0)),
             'assert_existing_objects_matched')]
""",
    "restore(None) restores nothing": """
status = tf.train.Checkpoint(v=tf.Variable(1.0)).restore(None)
out = []
for what in ('assert_consumed', 'assert_existing_objects_matched', 'assert_nontrivial_match',
             'expect_partial'):
    try:
        getattr(status, what)()
        out.append('ok')
    except AssertionError as e:
        out.append('AssertionError')
""",
    "restore with a mismatched shape": """
path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).save(os.path.join(D, 'ck'))
tf.train.Checkpoint(v=tf.Variable([0.0, 0.0, 0.0])).restore(path)
""",
    "restore with a mismatched dtype": """
path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).save(os.path.join(D, 'ck'))
tf.train.Checkpoint(v=tf.Variable([0, 0])).restore(path)
""",
    "restore from a missing path": """
tf.train.Checkpoint(v=tf.Variable(1.0)).restore(os.path.join('no', 'such', 'ckpt-1'))
""",
    "a restore refused for one shape or dtype restores nothing": """
path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0]), w=tf.Variable(3.0)).save(
    os.path.join(D, 'ck'))
out = []
for v in (tf.Variable([0.0, 0.0, 0.0]), tf.Variable([0, 0])):
    w = tf.Variable(0.0)
    for kw in (dict(v=v, w=w), dict(w=w, v=v)):
        try:
            tf.train.Checkpoint(**kw).restore(path)
        except Exception as e:
            out.append([type(e).__name__, v.numpy(), w.numpy()])
""",
    "corrupt, truncated or missing checkpoint files: TF's errors, nothing loaded": """
import shutil
path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0]), w=tf.Variable(3.0)).save(
    os.path.join(D, 'ck'))
kept = D + '_kept'
shutil.copytree(D, kept)
out = []
for suffix in ('.index', '.data-00000-of-00001'):
    for how in ('truncated', 'garbage', 'empty', 'missing'):
        shutil.rmtree(D)
        shutil.copytree(kept, D)
        with open(path + suffix, 'rb') as f:
            data = f.read()
        if how == 'missing':
            os.remove(path + suffix)
        else:
            with open(path + suffix, 'wb') as f:
                f.write({'truncated': data[:len(data) // 2], 'garbage': b'\x13' * len(data),
                         'empty': b''}[how])
        v, w = tf.Variable([0.0, 0.0]), tf.Variable(0.0)
        try:
            tf.train.Checkpoint(v=v, w=w).restore(path)
            got = 'restored'
        except Exception as e:
            got = type(e).__name__
            got += ' (an OpError)' if isinstance(e, tf.errors.OpError) else ''
        out.append([suffix, how, got, v.numpy(), w.numpy()])
""",
    "saving where a directory cannot be made: TF's errors": """
out = []
for target in (os.path.join('/proc', 'nope', 'ck'), os.path.join(os.devnull, 'x', 'ck')):
    try:
        tf.train.Checkpoint(v=tf.Variable(1.0)).save(target)
        out.append('saved')
    except Exception as e:
        out.append(type(e).__name__)
""",
    "a non-trackable value is refused": """
tf.train.Checkpoint(n=3)
""",
    "save_counter, save and write, latest_checkpoint": """
ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
before = ckpt.save_counter.numpy()
p1 = ckpt.save(os.path.join(D, 'a'))
p2 = ckpt.save(os.path.join(D, 'a'))
w = ckpt.write(os.path.join(D, 'plain'))
latest = tf.train.latest_checkpoint(D)
fresh = tf.train.Checkpoint(v=tf.Variable(0.0))
fresh.restore(p1)
out = [before, ckpt.save_counter,
       [os.path.relpath(p, D) for p in (p1, p2, w, latest)], files(),
       fresh.save_counter, open(os.path.join(D, 'checkpoint')).read()]
""",
    "CheckpointManager numbering, max_to_keep and the state file": """
ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
mgr = tf.train.CheckpointManager(ckpt, D, max_to_keep=2)
paths = [mgr.save(), mgr.save(), mgr.save(checkpoint_number=100), mgr.save()]
again = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(0.0)), D, max_to_keep=2)
out = [[os.path.relpath(p, D) for p in paths], [os.path.relpath(p, D) for p in mgr.checkpoints],
       os.path.relpath(mgr.latest_checkpoint, D), files(),
       [os.path.relpath(p, D) for p in again.checkpoints],
       open(os.path.join(D, 'checkpoint')).read().splitlines()[:3], ckpt.save_counter]
""",
    "CheckpointManager step_counter and checkpoint_interval": """
step = tf.Variable(0, dtype=tf.int64)
mgr = tf.train.CheckpointManager(tf.train.Checkpoint(step=step), D, max_to_keep=None,
                                 step_counter=step, checkpoint_interval=10)
saved = []
for s in (0, 5, 10, 10, 12, 25):
    step.assign(s)
    p = mgr.save()
    saved.append(None if p is None else os.path.relpath(p, D))
step.assign(27)
forced = os.path.relpath(mgr.save(check_interval=False), D)
out = [saved, forced, mgr.checkpoint_interval]
""",
    "CheckpointManager restore_or_initialize calls init_fn when there is nothing": """
v = tf.Variable(1.0)
calls = []
mgr = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), D, max_to_keep=1,
                                 init_fn=lambda: calls.append(v.assign(5.0).numpy()))
first = mgr.restore_or_initialize()
mgr.save()
v.assign(7.0)
second = os.path.relpath(mgr.restore_or_initialize(), D)
out = [first, calls, second, v]
""",
    "CheckpointManager argument errors": """
errors = []
for kw in ({'directory': None, 'max_to_keep': 1}, {'directory': D, 'max_to_keep': 0},
           {'directory': D, 'max_to_keep': 1, 'checkpoint_interval': 5}):
    try:
        tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), **kw)
        errors.append('ok')
    except Exception as e:
        errors.append(type(e).__name__)
out = errors
""",
    "load_checkpoint: a CheckpointReader's keys, shapes, dtypes and values, its errors": """
v = tf.Variable([1., 2.]); s = tf.Variable(3, dtype=tf.int64)
mgr = tf.train.CheckpointManager(tf.train.Checkpoint(v=v, s=s), D, max_to_keep=2)
p = mgr.save()
v.assign([5., 6.])
mgr.save()
r, latest = tf.train.load_checkpoint(p), tf.train.load_checkpoint(D)
def error(fn):
    try:
        fn()
    except Exception as e:
        return [type(e).__name__, str(e).replace(D, 'D')]
    return 'no error'
key = 'v/.ATTRIBUTES/VARIABLE_VALUE'
out = [type(r).__name__, sorted(r.get_variable_to_shape_map().items()),
       sorted((k, d.name) for k, d in r.get_variable_to_dtype_map().items()),
       r.has_tensor(key), r.has_tensor('nope'), r.has_tensor('_CHECKPOINTABLE_OBJECT_GRAPH'),
       r.get_tensor(key), latest.get_tensor(key), r.get_tensor('s/.ATTRIBUTES/VARIABLE_VALUE'),
       type(r.get_tensor('_CHECKPOINTABLE_OBJECT_GRAPH')).__name__,
       error(lambda: r.get_tensor('nope')), error(lambda: tf.train.load_checkpoint(D + '/no')),
       tf.train.list_variables(p) == sorted(r.get_variable_to_shape_map().items())]
""",
}
CASES = {name: PRELUDE + code for name, code in CASES.items()}
