"""Eager-framework behaviour TF 2.15 recorded (record_tf_framework.py) and simdist must
reproduce (test_framework_tf_conformance.py): GradientTape corner cases, Variables,
tf.function, the composite ops, and how tf.data reads Python lists; and (api_cases.py) the
names TF's guides and tutorials use. Snippets as in tests/tf_snippets.py."""

import api_cases

GRAD = """
def grad(f, x, persistent=False):
    x = tf.constant(x)
    with tf.GradientTape(persistent=persistent) as t:
        t.watch(x)
        y = f(x)
    return t.gradient(y, x)
"""

CASES = {
    "trig and hyperbolic ops, expm1 and ceil: values, inside and outside their domains": """
x = tf.constant([-0.9, -0.5, 0.0, 0.3, 0.99])
out = [f(x) for f in (tf.sin, tf.cos, tf.tan, tf.asin, tf.acos, tf.atan, tf.sinh, tf.cosh,
                      tf.asinh, tf.atanh, tf.math.expm1, tf.math.ceil, tf.math.sin)]
out += [tf.acosh(x + 2.0), tf.asin([2.0, -1.5]), tf.acosh([0.5, 1.0]), tf.atanh([1.0, -1.0]),
        tf.math.cosh(tf.constant([100.0, 2.0], tf.float64)), tf.sin(tf.constant([1.5], tf.float16)),
        tf.math.ceil(tf.constant([-1.5, 2.25], tf.float64))]
""",
    "trig and hyperbolic gradients (ceil has none)": GRAD + """
out = [grad(f, [-0.5, 0.25, 0.7]) for f in (tf.sin, tf.cos, tf.tan, tf.asin, tf.acos, tf.atan,
                                             tf.sinh, tf.cosh, tf.asinh, tf.atanh,
                                             tf.math.expm1, tf.math.ceil)]
out += [grad(tf.acosh, [1.5, 3.0]), grad(lambda x: tf.sin(tf.cos(x)) * tf.tan(x), [0.3])]
""",
    "atan2: y first, quadrants, broadcasting and gradients": """
y = tf.constant([1.0, 1.0, -1.0, -1.0, 0.0, 0.0])
x = tf.constant([1.0, -1.0, -1.0, 1.0, -1.0, 2.0])
col = tf.constant([[1.0], [-2.0]])
with tf.GradientTape(persistent=True) as t:
    t.watch([y, x, col])
    a = tf.atan2(y, x)
    b = tf.math.atan2(col, x[:3])
out = [a, t.gradient(a, [y, x]), b, t.gradient(b, [col, x])]
""",
    "sin of an integer tensor": "out = tf.sin(tf.constant([1, 2]))",
    "atan2 of integer tensors": "out = tf.atan2(tf.constant([1]), tf.constant([2]))",
    "ceil of an integer tensor": "out = tf.math.ceil(tf.constant([1, 2]))",
    "sqrt under where has a zero gradient at 0": GRAD + """
out = grad(lambda x: tf.where(x > 0, tf.sqrt(x), 0.0), [0.0, 4.0])
""",
    "sqrt times zero": GRAD + "out = grad(lambda x: tf.sqrt(x) * 0.0, [0.0, 4.0])",
    "rsqrt under where": GRAD + """
out = grad(lambda x: tf.where(x > 0, tf.math.rsqrt(x), 0.0), [0.0, 4.0])
""",
    "reduce_prod with zeros": GRAD + """
out = [grad(lambda x: tf.reduce_prod(x), v) for v in ([1.0, 0.0, 3.0], [0.0, 0.0, 3.0])]
out.append(grad(lambda x: tf.reduce_prod(x, axis=1), [[1.0, 0.0], [2.0, 3.0]]))
out.append(grad(lambda x: tf.reduce_prod(x, axis=0), [[1.0, 0.0], [2.0, 3.0]]))
""",
    "activation gradients at their kinks": GRAD + """
out = [grad(tf.nn.relu6, [0.0, 3.0, 6.0]), grad(tf.nn.selu, [-1.0, 0.0, 1.0]),
       grad(tf.nn.elu, [-1.0, 0.0, 1.0])]
""",
    "elu second derivative at 0": """
x = tf.constant([-1.0, 0.0, 1.0])
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = tf.nn.elu(x)
    g = inner.gradient(y, x)
out = outer.gradient(g, x)
""",
    "persistent tape records gradients taken inside it": """
x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    y = x ** 3
    g = t.gradient(y, x)
    z = g * x
out = [g, t.gradient(g, x), t.gradient(z, x)]
""",
    "reset inside the tape": """
x = tf.constant([1.0, 1.0, 1.0])
v = tf.Variable(2.0)
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
    t.reset()
    t.watch(x)
    z = x * 3.0 + v * 2.0
out = t.gradient(z, [x, v])
""",
    "integer sources get no gradient": """
xi = tf.constant([1, 2])
with tf.GradientTape() as t:
    t.watch(xi)
    y = xi * xi
out = t.gradient(y, xi)
""",
    "jacobian takes experimental_use_pfor": """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
out = t.jacobian(y, x, experimental_use_pfor=False)
""",
    "variable += refused": "v = tf.Variable(1.0)\nv += 1.0\nout = v",
    "variable *= refused": "v = tf.Variable(1.0)\nv *= 2.0\nout = v",
    "tf.function traces Python numbers by value": """
@tf.function
def f(x):
    return x * 2
f(1); f(1.0); f(True); f(2)
out = [f.experimental_get_tracing_count(), f(3)]
""",
    "tf.function binds arguments to the signature": """
@tf.function
def h(x, y=1):
    return x + y
x = tf.constant(1.0)
h(x, 3); h(x, y=3); h(x)
out = [h.experimental_get_tracing_count(), h(x, y=2.0)]
""",
    "tf.function traces a NumPy array as a tensor": """
@tf.function
def f(x):
    return tf.reduce_sum(x)
f(np.ones(3, np.float32)); f(tf.ones(3)); f(np.zeros(3, np.float32))
out = f.experimental_get_tracing_count()
""",
    "executing_eagerly inside tf.function": """
@tf.function
def f():
    return tf.executing_eagerly()
out = [f(), tf.executing_eagerly()]
""",
    "tf.range": """
out = [tf.range(5), tf.range(0.0, 1.0, 0.25), tf.range(5, dtype=tf.float32),
       tf.range(1, 10, 3), tf.range(5, 0, -2), tf.range(tf.constant(3)),
       tf.range(2, 5, dtype=tf.int64)]
""",
    "tf.range with delta 0": "out = tf.range(0, 5, 0)",
    "tf.range going the wrong way": "out = tf.range(5, 0)",
    "variance, std, l2_normalize, norm": """
x = tf.constant([[1.0, 2.0], [3.0, 6.0]])
out = [tf.math.reduce_variance(x), tf.math.reduce_std(x, axis=1),
       tf.math.reduce_variance(x, axis=0, keepdims=True), tf.nn.l2_normalize(x, axis=1),
       tf.math.l2_normalize(x), tf.norm(x), tf.norm(x, ord=1, axis=0),
       tf.norm(x, ord=np.inf, axis=1), tf.math.erf(x)]
""",
    "clip_by_norm and clip_by_global_norm": """
a, b = tf.constant([3.0, 4.0]), tf.constant([[12.0]])
clipped, norm = tf.clip_by_global_norm([a, None, b], 6.5)
out = [tf.clip_by_norm(a, 1.0), tf.clip_by_norm(a, 10.0), tf.clip_by_norm(b * 0.0, 1.0),
       tf.clip_by_norm(tf.constant([[3.0, 4.0], [0.0, 1.0]]), 2.0, axes=[1]),
       clipped[0], clipped[1], clipped[2], norm, tf.linalg.global_norm([a, b])
       if hasattr(tf, 'linalg') else tf.math.global_norm([a, b])]
""",
    "clip_by_global_norm of an infinite norm": """
out = tf.clip_by_global_norm([tf.constant([np.inf, 1.0])], 1.0)[0][0]
""",
    "from_tensor_slices of a list of tuples is one tensor": """
ds = tf.data.Dataset.from_tensor_slices([(1, 2), (3, 4)])
out = [str(ds.element_spec), list(ds.as_numpy_iterator())]
""",
    "from_tensor_slices of a tuple of lists is a structure": """
ds = tf.data.Dataset.from_tensor_slices(([1, 2], [3.0, 4.0]))
out = [str(ds.element_spec), list(ds.as_numpy_iterator())]
""",
    "dtypes print as TF prints them": """
out = [str(tf.float16), repr(tf.float16), f"{tf.constant(1.0).dtype}", str([tf.int32]),
       f"{tf.Variable(1).dtype!r}"]
""",
    "a mixed precision Policy takes a name, not a DType": """
tf.keras.mixed_precision.Policy(tf.float16)
""",
    "a mixed precision Policy refuses a number": """
tf.keras.mixed_precision.Policy(5)
""",
    "is_tensor and newaxis": """
out = [tf.is_tensor(tf.constant(1)), tf.is_tensor(tf.Variable(1.0)), tf.is_tensor(1.0),
       tf.newaxis, tf.constant([1, 2])[tf.newaxis].shape]
""",
    "bfloat16 casts round to nearest even (TF 2.21)": """
xs = np.array([1.0, 1.00390625, 1.005859375, 3.14159265, 1e-40, 65504.0, 3.4e38, -0.1, 1 / 3,
               2.0 ** -133, 1.0009765625, 0.0999999, -3.0e38, 255.5], np.float32)
b = tf.cast(tf.constant(xs), tf.bfloat16)
one = tf.constant([1.0, 256.0], tf.bfloat16)
m = tf.matmul(tf.constant([[1.0, 1.0 / 3.0, 3.0]], tf.bfloat16),
              tf.constant([[1.0], [3.0], [1.0 / 3.0]], tf.bfloat16))
out = [b, tf.cast(b, tf.float32), one + tf.constant([2.0 ** -8, 1.0], tf.bfloat16), m,
       tf.reshape(tf.reduce_sum(tf.constant([1.0] * 300, tf.bfloat16)), [1]),
       [tf.bfloat16.name, tf.bfloat16.is_floating, tf.bfloat16.size, repr(tf.bfloat16)],
       [float(tf.bfloat16.min), float(tf.bfloat16.max)], tf.as_dtype('bfloat16').name]
""",
}

CASES.update(api_cases.CASES)

# Recorded with TF 2.21: a Variable of partial shape, conversion's error, tf.nn.bias_add.
CASES.update({
    "a Variable of partial shape takes values of other lengths": """
v = tf.Variable([0.0], shape=(None,), trainable=False)
v.assign([1.0, 2.0, 3.0])
out = [str(v.shape), v.numpy(), str(v.read_value().shape)]
""",
    "a value no tensor holds": "out = tf.constant([object()])",
    "bias_add: channels last and NCHW": """
x = tf.reshape(tf.range(24, dtype=tf.float32), (2, 3, 2, 2))
out = [tf.nn.bias_add(x, [1.0, 2.0]), tf.nn.bias_add(x, [1.0, 2.0, 3.0], data_format='NCHW')]
""",
    "bias_add: not one bias per channel": "out = tf.nn.bias_add(tf.ones((2, 4)), tf.ones(3))",
    "bias_add: a 2-D bias": "out = tf.nn.bias_add(tf.ones((2, 4)), tf.ones((1, 4)))",
    "bias_add: a rank-1 input": "out = tf.nn.bias_add(tf.ones(4), tf.ones(4))",
})

# Recorded with TF 2.21: a Python float never becomes an integer tensor (TF's TypeError, or
# a float32 tensor that the op refuses where the dtype is only a hint: + and /).
CASES["a Python float and an integer tensor: TF's conversion errors"] = """
x = tf.constant(1)
r = []
for code in ('x + 1.0', 'x + 1.5', '1.5 + x', 'x * 2.0', 'x - 1.0', '2.0 * x', 'x / 2.0',
             'x // 2.0', 'x < 1.5', 'tf.equal(x, 1.0)', 'tf.maximum(x, 1.0)',
             'tf.add(x, 1.0)', 'tf.multiply(x, 2.0)', 'tf.constant(1.0, dtype=tf.int32)',
             'tf.constant([1.0, 2.0], dtype=tf.int32)', 'tf.convert_to_tensor(1.0, tf.int32)',
             'tf.convert_to_tensor(1.0, dtype_hint=tf.int32)', 'x / 2', 'tf.constant(1.5) + 1',
             'tf.constant(1.0) / tf.constant(2)', 'x * 3', '3 - x'):
    try:
        value = eval(code)
        r.append([code, value.dtype.name, value.numpy().tolist()])
    except (TypeError, ValueError, tf.errors.InvalidArgumentError) as e:
        r.append([code, type(e).__name__])
out = r
"""


# Recorded with TF 2.21: a list holding tensors converts as TF's auto-packing does (Pack):
# with the tensors' dtype, not the dtype a Python list of those numbers would get.
CASES["a list of tensors converts with the tensors' dtype (auto-packing)"] = """
a = tf.constant(1, tf.int64)
b = tf.constant(1.5, tf.float64)
out = [tf.convert_to_tensor([a, 2]), tf.tile([a], [2]), tf.convert_to_tensor([[b], [2.0]]),
       tf.reshape(tf.zeros([4]), [a, 4]), tf.stack([a, a])]
"""
CASES["a list of tensors of two dtypes does not pack"] = """
out = tf.convert_to_tensor([tf.constant(1, tf.int64), tf.constant(2)])
"""
