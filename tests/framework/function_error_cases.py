"""Errors a traced tf.function raises while its graph executes (not while it traces), as
TF 2.21 words them (record_tf_function.py records, test_function_errors.py replays):
"Graph execution error:", the failing node and the Python frames where it was created
(the framework's own files left out; converted code at the user's lines), the kernel's
text, ``[[{{node X}}]]`` and ``[Op:__inference_f_N]`` (tf_snippets compares the number
masked). Each program runs as a module file of its own (AutoGraph reads its source)."""

from tf_snippets import MODULE

PROGRAMS = {
    "a matmul of unknown-rank inputs: the batch kernel's flags": """
@tf.function(input_signature=[tf.TensorSpec(None, tf.float32), tf.TensorSpec(None, tf.float32)])
def g(x, y):
    return tf.matmul(x, y) + 1.0
out = g(tf.ones([2, 3]), tf.ones([4, 5]))
""",
    "a matmul of rank-2 inputs of unknown sizes: no flags": """
@tf.function(input_signature=[tf.TensorSpec([None, None]), tf.TensorSpec([None, None])])
def g(x, y):
    return tf.matmul(x, y, transpose_b=True)
out = g(tf.ones([2, 3]), tf.ones([5, 4]))
""",
    "a transposed matmul of unknown rank": """
@tf.function(input_signature=[tf.TensorSpec(None), tf.TensorSpec(None)])
def g(x, y):
    return tf.matmul(x, y, transpose_a=True)
out = g(tf.ones([3, 2]), tf.ones([4, 5]))
""",
    "the frames of the Python calls that made the node": """
def level3(x, i):
    return tf.gather(x, i)
def level2(x, i):
    return level3(x, i) * 2.0
def level1(x, i):
    return level2(x, i) - 1.0
@tf.function
def deep(x, i):
    return level1(x, i)
def run():
    return deep(tf.ones([2]), tf.constant(5))
out = run()
""",
    "a nested function's node, with the frames of its trace": """
v = tf.Variable(1.0)
@tf.function
def inner(x, i):
    v.assign_add(1.0)
    return tf.gather(x, i)
@tf.function
def outer(x, i):
    return inner(x, i) + 1.0
out = outer(tf.ones([2]), tf.constant(5))
""",
    "a nested function's MatMul: named under the call op, no stack trace": """
@tf.function(input_signature=[tf.TensorSpec(None), tf.TensorSpec(None)])
def inner(x, y):
    return tf.matmul(x, y)
@tf.function(input_signature=[tf.TensorSpec(None), tf.TensorSpec(None)])
def outer(x, y):
    return inner(x, y) + 1.0
out = outer(tf.ones([2, 3]), tf.ones([4, 5]))
""",
    "a nested function of unknown-rank inputs called with known shapes": """
@tf.function(input_signature=[tf.TensorSpec(None), tf.TensorSpec(None)])
def inner(x, y):
    return tf.matmul(x, y)
@tf.function
def outer(x, y):
    return inner(x, y) + 1.0
out = outer(tf.ones([2, 3]), tf.ones([4, 5]))
""",
    "a nested function traced by another caller keeps that trace's frames": """
@tf.function
def inner(x, i):
    return tf.gather(x, i)
@tf.function
def first(x, n):
    s = tf.constant(0.0)
    for i in tf.range(n):
        s += inner(x, i)
    return s
@tf.function
def second(x, i):
    return inner(x, i) * 2.0
r = [float(first(tf.ones([2]), tf.constant(2)))]
out = second(tf.ones([2]), tf.constant(5))
""",
    "a node in a while loop's body": """
@tf.function
def loop(x, n):
    i = tf.constant(0)
    s = tf.constant(0.0)
    while i < n:
        s += tf.gather(x, i * 5)
        i += 1
    return s
out = loop(tf.ones([2]), tf.constant(2))
""",
    "a node in a cond branch": """
@tf.function
def pick(x, i):
    if i > 0:
        y = tf.gather(x, i)
    else:
        y = x[0]
    return y
out = pick(tf.ones([2]), tf.constant(5))
""",
    "tf.debugging.Assert at execution": """
@tf.function
def check(x):
    tf.debugging.Assert(tf.reduce_all(x > 0.0), [x])
    return x + 1.0
out = check(tf.constant([-1.0, 2.0]))
""",
    "tf.debugging.Assert's data as TF's graph kernel writes them": """
@tf.function
def check(x):
    tf.debugging.Assert(x < 0.0, [x, tf.constant([-1.0, 0.1, 1e10, 1 / 3, 123456789.0, 1e-7,
                                                   float("nan")]),
                                  tf.constant([0.1, 1e10, 1 / 3], tf.float64),
                                  tf.constant([True, False])], summarize=20)
    return x
out = check(tf.constant(1.0))
""",
    "tf.debugging.Assert of int32 and string data: no guard": """
@tf.function
def check(x):
    tf.debugging.Assert(x < 0, [x, "x must be negative", 7], name="sign")
    return x
out = check(tf.constant(1))
""",
    "ensure_shape at execution names the graph's input": """
@tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
def ens(x):
    return tf.ensure_shape(x, [3]) * 2.0
out = ens(tf.ones([4]))
""",
    "ensure_shape at execution names the op that made its input": """
@tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
def ens(x):
    y = x * 2.0
    return tf.ensure_shape(y, [3], name="checked")
out = ens(tf.ones([4]))
""",
    "a lambda's function: the runtime's text": """
f = tf.function(lambda a, b: a + b, input_signature=[tf.TensorSpec([None])] * 2)
out = f(tf.ones([3]), tf.ones([4]))
""",
    "next past the end of an iterator made in the graph": """
ds = tf.data.Dataset.range(2)
@tf.function
def it_end():
    it = iter(ds)
    a = next(it)
    b = next(it)
    c = next(it)
    return a + b + c
out = it_end()
""",
    "a label out of range in a Keras loss during fit": """
m = tf.keras.Sequential([tf.keras.layers.Dense(3)])
m.compile("sgd", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
out = m.fit(np.ones((4, 2), np.float32), np.array([0, 1, 5, 2]), epochs=1, verbose=0,
            shuffle=False)
""",
    "a nested function's shape error at its caller's trace names the body's inputs": """
@tf.function(input_signature=[tf.TensorSpec(None), tf.TensorSpec(None)])
def inner(a, b):
    return tf.matmul(a, b)
@tf.function(input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([4, None])])
def outer(x, y):
    return inner(x, y) + 1.0
out = outer(tf.ones([2, 3]), tf.ones([4, 5]))
""",
    "a nested function's shape error on a tensor its body made": """
@tf.function(input_signature=[tf.TensorSpec(None), tf.TensorSpec(None)])
def inner(a, b):
    return tf.matmul(a * 2.0, b)
@tf.function
def outer(x, y):
    return inner(tf.transpose(x), y) + 1.0
out = outer(tf.ones([3, 2]), tf.ones([4, 5]))
""",
}

CASES = {name: MODULE + f"out = run_module('err_case_{i}', {src!r})\n"
         for i, (name, src) in enumerate(PROGRAMS.items())}

CASES["a kernel error inside strategy.run in a tf.function"] = """
@tf.function
def step(x, i):
    def fn(x, i):
        return tf.gather(x, i)
    return S.run(fn, args=(x, i))
out = step(tf.ones([2]), tf.constant(5))
"""

# eager kernel errors: TF's function node names the device the op ran on
CASES["an eager kernel error on a logical CPU names its device"] = """
with tf.device('/CPU:2'):
    out = tf.gather(tf.ones([2]), 5)
"""

# replica 0's node fails on the function's device before the other CPUs' parts started:
# TF lists 2 root errors, the second CANCELLED, whatever the number of replicas
CASES["a CheckNumerics error on every replica of a 2-CPU strategy: the rest cancelled"] = """
S2 = tf.distribute.MirroredStrategy(['/cpu:0', '/cpu:1'])
@tf.function
def step(x):
    def fn(x):
        return tf.debugging.check_numerics(x / 0.0, "inf!")
    return S2.run(fn, args=(x,))
out = step(tf.ones([2]))
"""
