"""Names TF's guides, tutorials and docstrings use beyond tf.distribute (issue 24), recorded
from TF 2.21 by record_tf_framework.py as part of framework_cases.CASES: tf.print, tf.io.gfile,
tf.Module, tf.linalg, tf.debugging.Assert, tf.control_dependencies, tf.constant(shape=),
Dataset.concatenate, tf.compat.v1. Snippets as in tests/tf_snippets.py.
"""

PRINT = """
import os, tempfile
path = os.path.join(tempfile.mkdtemp(), 'printed.txt')
def printed(*args, **kwargs):
    tf.print(*args, output_stream='file://' + path, **kwargs)
    with open(path) as f:
        text = f.read()
    os.remove(path)
    return text
"""

GFILE = """
import os, tempfile
root = tempfile.mkdtemp()
def rel(paths):
    return sorted(os.path.relpath(p, root) for p in paths)
def error(fn):  # the message names a temporary directory: ROOT stands for it
    try:
        fn()
    except Exception as e:
        return [type(e).__name__, str(e).replace(root, 'ROOT')]
"""

GRAD = """
def grad(f, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as t:
        for x in xs:
            t.watch(x)
        y = f(*xs)
    return [y] + t.gradient(y, xs)
A = [[2.0, 1.0], [1.0, 3.0]]
B = [[1.0, -1.0, 0.5], [2.0, 0.0, 1.0]]
"""

CHOL = """
def lower(m, dtype):
    c = tf.linalg.band_part(tf.linalg.cholesky(tf.constant(m, dtype)), -1, 0)
    return [c, tf.math.is_nan(c)]
"""

CASES = {
    "tf.constant with a shape": """
out = [tf.constant(1.5, shape=3), tf.constant([1, 2, 3, 4], shape=[2, 2]),
       tf.constant(7, shape=(2, 1)), tf.constant([2.0], shape=4), tf.constant(0, shape=[])]
""",
    "tf.constant with a shape its values do not fill": """
tf.constant([1, 2, 3], shape=2)
""",
    "tf.print formats tensors, Python values and structures": PRINT + """
out = [printed('loss:', tf.constant([1.0, 2.5]), 3, 2.5, {'a': tf.constant(1 / 3)},
               [tf.constant(1), 'x'], (tf.constant(1), tf.constant(2))),
       printed(tf.constant(True), tf.constant([1.5], tf.float64),
               tf.constant(1 / 3, tf.float64), tf.constant([True, False]), tf.zeros((0, 3)),
               tf.constant(7, tf.int64), np.array([1.0, 2.0])),
       printed(tf.Variable([1.0, 2.0])),
       printed(tf.constant([1e-8, 1e10, -0.5, 123456789.0, float('nan'), float('inf'),
                            float('-inf'), 0.1, 2 / 3, 123456.7])),
       printed(tf.constant([0.1, 2 / 3, 123456.7], tf.float64), tf.constant([0.1], tf.float16),
               tf.constant([1, 2], tf.uint8)),
       printed(), printed('a', 'b', sep=''), printed(tf.constant([[1, 2], [3, 4]]), 'x', sep='|',
                                                      end='!\\n')]
""",
    "tf.print summarizes long dimensions": PRINT + """
out = [printed(tf.range(20)), printed(tf.range(20), summarize=2),
       printed(tf.range(8), summarize=-1),
       printed(tf.reshape(tf.range(24), (2, 3, 4)), summarize=1),
       printed(tf.reshape(tf.range(12.0), (3, 4))), printed(tf.reshape(tf.range(64), (8, 8)))]
""",
    "tf.print of a strategy's local results": PRINT + """
pr = S.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(float(ctx.replica_id_in_sync_group)))
with S.scope():
    v = tf.Variable([2.0, 3.0])
out = [printed(S.experimental_local_results(pr)), printed(v)]
""",
    "tf.print refuses an unknown stream": "tf.print('x', output_stream='bogus')",
    "tf.print refuses an unknown keyword": "tf.print('x', foo=1)",
    "tf.io.gfile as the tutorials use it": GFILE + """
d = os.path.join(root, 'a', 'b')
tf.io.gfile.makedirs(d)
tf.io.gfile.makedirs(d)
with tf.io.gfile.GFile(os.path.join(d, 'x.txt'), 'w') as f:
    f.write('hello\\n')
    f.write('world')
with tf.io.gfile.GFile(os.path.join(d, 'x.txt')) as f:
    lines = f.readlines()
with tf.io.gfile.GFile(os.path.join(d, 'y.bin'), 'wb') as f:
    f.write(b'\\x00\\x01')
with tf.io.gfile.GFile(os.path.join(d, 'x.txt'), 'a') as f:
    f.write('!')
text = tf.io.gfile.GFile(os.path.join(d, 'x.txt'), 'r').read()
out = [tf.io.gfile.exists(d), tf.io.gfile.isdir(d), tf.io.gfile.isdir(os.path.join(d, 'x.txt')),
       lines, text, sorted(tf.io.gfile.listdir(d)), sorted(tf.io.gfile.listdir(root)),
       rel(tf.io.gfile.glob(os.path.join(d, '*.txt'))),
       rel(tf.io.gfile.glob(os.path.join(root, '*', '*'))),
       tf.io.gfile.GFile(os.path.join(d, 'y.bin'), 'rb').read() == b'\\x00\\x01',
       tf.io.gfile.stat(os.path.join(d, 'x.txt')).length]
tf.io.gfile.copy(os.path.join(d, 'x.txt'), os.path.join(root, 'copy.txt'))
tf.io.gfile.rename(os.path.join(root, 'copy.txt'), os.path.join(root, 'moved.txt'))
tf.io.gfile.remove(os.path.join(d, 'y.bin'))
out.append(sorted(tf.io.gfile.listdir(root)) + sorted(tf.io.gfile.listdir(d)))
tf.io.gfile.rmtree(os.path.join(root, 'a'))
out.append([tf.io.gfile.exists(os.path.join(root, 'a')), sorted(tf.io.gfile.listdir(root)),
            rel(tf.io.gfile.glob(os.path.join(root, 'nothing*')))])
""",
    "tf.io.gfile on missing paths": GFILE + """
no = os.path.join(root, 'no')
out = [error(lambda: tf.io.gfile.remove(no)), error(lambda: tf.io.gfile.rmtree(no)),
       error(lambda: tf.io.gfile.listdir(no)), error(lambda: tf.io.gfile.GFile(no).read()),
       error(lambda: tf.io.gfile.stat(no)), tf.io.gfile.exists(no), tf.io.gfile.isdir(no)]
""",
    "tf.io.gfile.mkdir of an existing directory": GFILE + """
tf.io.gfile.mkdir(root)
out = tf.io.gfile.isdir(root)
""",
    "tf.Module tracks variables and submodules": """
class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(tf.ones([n_in, n_out]), name='w')
            self.b = tf.Variable(tf.zeros([n_out]), name='b', trainable=False)
    @tf.Module.with_name_scope
    def __call__(self, x):
        if not hasattr(self, 'scale'):
            self.scale = tf.Variable(2.0)
        return tf.matmul(x, self.w) * self.scale + self.b
class MLP(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense(2, 3), Dense(3, 1, name='out')]
        self.extra = {'v': tf.Variable(5.0, name='extra')}
    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
m = MLP()
y = m(tf.ones([1, 2]))
out = [y, m.name, m.name_scope.name, [v.name for v in m.variables],
       [v.name for v in m.trainable_variables], [s.name for s in m.submodules],
       [type(s).__name__ for s in m.submodules], m.layers[1].name, Dense(1, 1).name,
       str(tf.Module().name), tf.Module(name='abc').name_scope.name]
""",
    "tf.Module refuses an invalid name": "tf.Module(name='not valid')",
    "tf.linalg basics": """
a = tf.constant([[2.0, 1.0], [1.0, 3.0]])
b = tf.constant([[1.0, -1.0, 0.5], [2.0, 0.0, 1.0]])
out = [tf.linalg.matmul(a, b), tf.linalg.matmul(b, a, transpose_a=True),
       tf.linalg.matmul(a, b, transpose_b=False), tf.linalg.matmul(b, b, transpose_b=True),
       tf.linalg.matvec(a, tf.constant([1.0, 2.0])),
       tf.linalg.matvec(b, tf.constant([1.0, 2.0]), transpose_a=True),
       tf.linalg.inv(a), tf.linalg.det(a), tf.linalg.trace(b), tf.linalg.trace(tf.ones([2, 3, 3])),
       tf.linalg.diag(tf.constant([1.0, 2.0])), tf.linalg.diag_part(b),
       tf.linalg.tensor_diag_part(a),
       tf.linalg.eye(2), tf.linalg.eye(2, 3, dtype=tf.int32), tf.linalg.eye(2, batch_shape=[2]),
       tf.linalg.matrix_transpose(tf.ones([2, 3, 4])).shape, tf.linalg.adjoint(b),
       tf.linalg.norm(b), tf.linalg.norm(b, axis=1), tf.linalg.norm(b, ord=1, axis=0),
       tf.linalg.norm(b, ord='fro', axis=[0, 1]), tf.linalg.norm(b, ord=np.inf, axis=1),
       tf.linalg.solve(a, tf.constant([[1.0], [2.0]])), tf.linalg.set_diag(a, [0.0, 0.0]),
       tf.linalg.band_part(tf.ones([3, 3]), 0, -1), tf.linalg.l2_normalize(tf.constant([3.0, 4.0])),
       tf.linalg.cholesky(a), tf.linalg.matmul(tf.ones([2, 2, 3]), tf.ones([3, 4])).shape]
""",
    "tf.linalg gradients": GRAD + """
out = [grad(lambda a, b: tf.reduce_sum(tf.linalg.matmul(a, b) ** 2), A, B),
       grad(lambda a, b: tf.reduce_sum(tf.linalg.matmul(b, a, transpose_a=True)), A, B),
       grad(lambda a, v: tf.reduce_sum(tf.linalg.matvec(a, v) ** 2), A, [1.0, -2.0]),
       grad(lambda a: tf.reduce_sum(tf.linalg.inv(a)), A), grad(tf.linalg.det, A),
       grad(lambda b: tf.linalg.trace(tf.linalg.matmul(b, b, transpose_b=True)), B),
       grad(lambda v: tf.reduce_sum(tf.linalg.diag(v) * [[1.0, 2.0], [3.0, 4.0]]), [1.0, 2.0]),
       grad(lambda b: tf.reduce_sum(tf.linalg.diag_part(b) * [5.0, 7.0]), B),
       grad(lambda b: tf.linalg.norm(b), B),
       grad(lambda b: tf.reduce_sum(tf.linalg.norm(b, axis=1)), B),
       grad(lambda b: tf.reduce_sum(tf.linalg.matrix_transpose(b) * [[1.0, 2.0], [3.0, 4.0],
                                                                      [5.0, 6.0]]), B),
       grad(lambda a, r: tf.reduce_sum(tf.linalg.solve(a, r)), A, [[1.0], [2.0]])]
""",
    "tf.linalg.inv of a singular matrix": "tf.linalg.inv(tf.constant([[1.0, 2.0], [2.0, 4.0]]))",
    # TF's CPU kernel fills a failed factor's lower triangle (diagonal included) with NaNs and
    # leaves its upper triangle unwritten (whatever the buffer held): only the lower triangle
    # is recorded (band_part), with its NaN mask.
    "tf.linalg.cholesky of matrices that are not positive definite": CHOL + """
out = [lower(m, dtype) for dtype in (tf.float32, tf.float64)
       for m in ([[1.0, 2.0], [2.0, 1.0]], [[4.0, 2.0], [2.0, 1.0]], [[-1.0, 0.0], [0.0, 1.0]],
                 [[1.0, 0.0], [0.0, -1.0]], [[4.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                 [[1.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, -1.0]],
                 [[float('nan'), 0.0], [0.0, 1.0]], [[4.0, 9.0], [-1.0, 1.0]])]
""",
    "tf.linalg.cholesky of a batch with one matrix that is not positive definite": CHOL + """
b = [[[[4.0, 2.0], [2.0, 3.0]], [[1.0, 2.0], [2.0, 1.0]]],
     [[[9.0, 0.0], [0.0, 1.0]], [[0.0, 0.0], [0.0, 0.0]]]]
traced = tf.function(lambda a: tf.linalg.band_part(tf.linalg.cholesky(a), -1, 0))
out = [lower(b, tf.float32), traced(tf.constant(b)), tf.math.is_nan(traced(tf.constant(b)))]
""",
    "tf.linalg.cholesky's gradient at a matrix that is not positive definite": """
x = tf.Variable([[1.0, 2.0], [2.0, 1.0]])
with tf.GradientTape() as t:
    y = tf.reduce_sum(tf.linalg.band_part(tf.linalg.cholesky(x), -1, 0))
g = t.gradient(y, x)
out = [g, tf.math.is_nan(g)]
""",
    "tf.debugging.Assert that holds": """
out = [tf.debugging.Assert(tf.constant(True), ['never shown']),
       tf.debugging.Assert(tf.reduce_all(tf.constant([1, 2]) > 0), [tf.constant([1, 2])])]
""",
    "tf.debugging.Assert that fails": """
x = tf.constant([1.0, -2.0])
tf.debugging.Assert(tf.reduce_all(x > 0), ['x must be positive:', x, 7])
""",
    "tf.debugging.Assert summarizes its data": """
tf.debugging.Assert(False, [tf.range(10)], summarize=2)
""",
    "tf.control_dependencies runs its block eagerly": """
v = tf.Variable(1.0)
with tf.control_dependencies([v.assign_add(1.0)]):
    y = v * 3.0
with tf.control_dependencies(None):
    z = y + 1.0
out = [y, z, v, tf.group(v.assign_add(1.0), v.assign_add(1.0)), v]
""",
    "tf.name_scope names variables": """
with tf.name_scope('outer') as outer:
    a = tf.Variable(1.0, name='a')
    with tf.name_scope('inner') as inner:
        b = tf.Variable(1.0)
        with tf.name_scope('abs/'):
            c = tf.Variable(1.0, name='c')
        with tf.name_scope(''):
            d = tf.Variable(1.0, name='d')
    with tf.name_scope('outer'):
        e = tf.Variable(1.0, name='e')
    with tf.init_scope():
        f = tf.Variable(1.0, name='f')
out = [outer, inner, a.name, b.name, c.name, d.name, e.name, f.name,
       tf.Variable(1.0, name='g').name]
""",
    "Dataset.concatenate": """
a = tf.data.Dataset.range(3)
b = tf.data.Dataset.range(10, 12)
c = tf.data.Dataset.from_tensor_slices([[1.0, 2.0], [3.0, 4.0]]).batch(2)
d = tf.data.Dataset.from_tensor_slices([[5.0, 6.0], [7.0, 8.0], [9.0, 0.0]])
d = d.batch(3, drop_remainder=True)
ab = a.concatenate(b)
cd = c.concatenate(d)
out = [list(ab.as_numpy_iterator()), int(ab.cardinality()), str(ab.element_spec),
       [x.shape for x in cd], str(cd.element_spec), int(cd.cardinality()),
       int(a.repeat().concatenate(b).cardinality()), int(a.concatenate(b.repeat()).cardinality()),
       list(a.concatenate(b).concatenate(a).as_numpy_iterator())]
""",
    "Dataset.concatenate of different types": """
tf.data.Dataset.range(3).concatenate(tf.data.Dataset.from_tensor_slices([1.0, 2.0]))
""",
    "Dataset.concatenate of different structures": """
tf.data.Dataset.range(3).concatenate(tf.data.Dataset.range(3).map(lambda x: (x, x)))
""",
    "tf.nn.moments: TF's mean and variance bits, keepdims, float16, ints, traced": """
import numpy as np
x = tf.constant(np.random.RandomState(0).randn(6, 7).astype(np.float32) * 3 + 1)
def bits(*ts):
    return [t.numpy().view(np.int32) for t in ts]
m, v = tf.nn.moments(x, [1], keepdims=True)
h = tf.nn.moments(tf.cast(x, tf.float16), [0, 1])
traced = tf.function(lambda a: tf.nn.moments(a, [0]))
out = [bits(*tf.nn.moments(x, [0])), bits(*tf.nn.moments(x, [-1])), bits(*tf.nn.moments(x, [0, 1])),
       m.shape, v.shape, [t.dtype.name for t in h], [float(t) for t in h],
       tf.nn.moments(tf.constant([1, 2, 4]), [0]), bits(*tf.nn.moments(x.numpy(), [0])),
       bits(*traced(x)),
       [op.name for op in traced.get_concrete_function(x).graph.get_operations()]]
""",
    "tf.nn.moments over an axis the tensor lacks": """
tf.nn.moments(tf.ones([2, 3]), [2])
""",
    "tf.nn.moments of a list": """
tf.nn.moments([1.0, 2.0, 4.0], [0])
""",
    "tf.identity_n: one op, each value as it is, gradients through each": """
x = tf.constant([[1.0, 2.0, 4.0], [3.0, 5.0, 9.5]])
with tf.GradientTape() as t:
    t.watch(x)
    a, b = tf.identity_n([x, x * 2])
    loss = tf.reduce_sum(a * 3.0) + tf.reduce_sum(b)
f = tf.function(lambda x: tf.add_n(tf.identity_n([x, x])))
ops = f.get_concrete_function(x).graph.get_operations()
out = [tf.identity_n([x, tf.constant(3)]), tf.identity_n(x), tf.identity_n([1.5, [1, 2]]),
       t.gradient(loss, x), f(x), [op.type for op in ops]]
""",
    "tf.identity_n of no tensors": """
tf.identity_n([])
""",
    "tf.compat.v1 as the distribute programs use it": """
tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
level = tf.compat.v1.logging.get_verbosity()
tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)
tf.compat.v1.enable_eager_execution()
tf.compat.v1.enable_v2_behavior()
out = [level, tf.compat.v1.logging.ERROR, tf.compat.v1.logging.WARN, tf.compat.v1.logging.INFO,
       tf.compat.v1.logging.DEBUG, tf.compat.v1.logging.FATAL, tf.compat.v1.executing_eagerly(),
       tf.compat.v1.distribute.ReduceOp.SUM.value]
""",
}
