"""tf.function as TF 2.21 runs it (record_tf_function.py records, test_function_tracing.py
replays): Python side effects once per trace, retracing rules, symbolic tensors inside the
trace (their printed form, ``.numpy()`` and ``bool`` errors), variables, tapes and
iterators executed at every call, and get_concrete_function. Snippets as in
tests/tf_snippets.py; errors inside traced code are caught in the snippet, because TF adds
its "in user code:" frame lines around their messages."""

CAPTURE = """
import contextlib, io
printed = io.StringIO()
def calls(fn, *arg_lists):
    with contextlib.redirect_stdout(printed):
        return [fn(*a) for a in arg_lists]
"""

CASES = {
    "print runs once per trace, the graph at every call": CAPTURE + """
@tf.function
def f(x):
    print("tracing", x)
    return x + 1.0
r = calls(f, (tf.constant(1.0),), (tf.constant(2.0),), (tf.constant([1.0, 2.0]),),
          (tf.constant(5.0),))
out = [printed.getvalue(), r, f.experimental_get_tracing_count()]
""",
    "python scalars trace by value": CAPTURE + """
@tf.function
def f(x):
    print("tracing with", x)
    return tf.constant(2) * x
r = calls(f, (1,), (2,), (1,), (2,), (3,))
out = [printed.getvalue(), r, f.experimental_get_tracing_count()]
""",
    "a list append happens once per trace": """
appended = []
@tf.function
def f(x):
    appended.append(str(x.shape))
    return x * 2.0
r = [f(tf.constant(v)) for v in (1.0, 2.0, 3.0)] + [f(tf.ones((2, 2)))]
out = [appended, r, f.experimental_get_tracing_count()]
""",
    "reduce_retracing relaxes the shape to None": CAPTURE + """
@tf.function(reduce_retracing=True)
def f(x):
    print("traced", x.shape)
    return tf.reduce_sum(x)
r = calls(f, (tf.ones(2),), (tf.ones(3),), (tf.ones(4),), (tf.ones((2, 2)),))
out = [printed.getvalue(), r, f.experimental_get_tracing_count()]
""",
    "input_signature traces once with None dimensions": CAPTURE + """
@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
def f(x):
    print("traced", x.shape, x.dtype.name, tf.shape(x).shape)
    return tf.reduce_sum(x, axis=1)
r = calls(f, (tf.ones((1, 2)),), (tf.ones((3, 2)),))
out = [printed.getvalue(), r, f.experimental_get_tracing_count()]
""",
    "symbolic tensors print as graph tensors": """
seen = []
@tf.function
def f(x, y):
    z = x + y
    seen.extend([repr(x), str(x), repr(z), str(z * 2.0), repr(tf.reduce_sum(z)),
                 repr(tf.constant(2.0)), f"{x}"])
    return z
f(tf.constant(1.0), tf.constant(2.0))
out = seen
""",
    "numpy() inside a traced function": """
seen = []
@tf.function
def f(x):
    try:
        x.numpy()
    except AttributeError as e:
        seen.append(str(e))
    return x
f(tf.constant(1.0))
out = seen
""",
    "a symbolic tensor as a Python bool without autograph": """
seen = []
@tf.function(autograph=False)
def f(x):
    try:
        if x > 0:
            seen.append("taken")
    except TypeError as e:
        seen.append(type(e).__name__)
        seen.append(str(e))
    return x
f(tf.constant(1.0))
out = seen
""",
    "iterating a symbolic tensor without autograph": """
seen = []
@tf.function(autograph=False)
def f(x):
    try:
        for _ in x:
            pass
    except TypeError as e:
        seen.extend([type(e).__name__, str(e)])
    return x
f(tf.constant([1.0, 2.0]))
out = seen
""",
    "np.asarray of a symbolic tensor": """
seen = []
@tf.function
def f(x):
    try:
        np.asarray(x)
    except NotImplementedError as e:
        seen.append(str(e))
    return x
f(tf.constant(1.0))
out = seen
""",
    "a variable updated at every call, a Python counter once": """
v = tf.Variable(0.0)
count = [0]
@tf.function
def step(x):
    count[0] += 1
    v.assign_add(x)
    return v.read_value() * 10.0
r = [step(tf.constant(1.0)), step(tf.constant(2.0)), step(tf.constant(3.0))]
out = [r, v.numpy(), count[0]]
""",
    "gradient tape inside a traced step": """
w = tf.Variable([[1.0, -2.0], [0.5, 3.0]])
b = tf.Variable([0.0, 0.0])
@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        pred = tf.nn.relu(tf.matmul(x, w) + b)
        loss = tf.reduce_mean(tf.square(pred - y))
    gw, gb = tape.gradient(loss, [w, b])
    w.assign_sub(0.1 * gw)
    b.assign_sub(0.1 * gb)
    return loss
x = tf.constant([[1.0, 2.0], [3.0, -1.0]])
y = tf.constant([[1.0, 0.0], [0.0, 1.0]])
losses = [step(x, y) for _ in range(4)]
out = [losses, w, b, step.experimental_get_tracing_count()]
""",
    "a variable argument is the variable of each call": """
@tf.function
def bump(var, d):
    var.assign_add(d)
    return var.read_value()
a, c = tf.Variable(1.0), tf.Variable(10.0)
r = [bump(a, tf.constant(1.0)), bump(c, tf.constant(1.0)), bump(a, tf.constant(1.0))]
out = [r, a.numpy(), c.numpy(), bump.experimental_get_tracing_count()]
""",
    "next(iterator) inside a traced function": """
ds = tf.data.Dataset.range(3).map(lambda i: tf.cast(i, tf.float32) * 2.0)
it = iter(ds)
@tf.function
def take(iterator):
    return next(iterator) + 1.0
r = [take(it) for _ in range(3)]
try:
    take(it)
    r.append("no error")
except tf.errors.OutOfRangeError:
    r.append("OutOfRangeError")
out = [r, take.experimental_get_tracing_count()]
""",
    "get_concrete_function runs its graph": CAPTURE + """
@tf.function
def f(x):
    print("traced", x.shape)
    return x * x
cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
r = calls(cf, (tf.constant([1.0, 2.0]),), (tf.constant([3.0]),))
out = [printed.getvalue(), r, f.experimental_get_tracing_count()]
""",
    "tf.shape is dynamic, x.shape static": CAPTURE + """
@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def f(x):
    print("static", x.shape, "batch", x.shape[0])
    return tf.shape(x)
r = calls(f, (tf.ones((2, 3)),), (tf.ones((5, 3)),))
out = [printed.getvalue(), r]
""",
    "random ops inside a traced function draw anew at every call": """
tf.random.set_seed(7)
@tf.function
def draw():
    return tf.random.uniform([2], seed=3)
out = [draw(), draw(), draw.experimental_get_tracing_count()]
""",
}

CASES["the retracing warning"] = """
import logging, re
seen = []
class Keep(logging.Handler):
    def emit(self, record):
        seen.append(re.sub(r" at 0x[0-9a-f]+", "", record.getMessage()))
keep = Keep()
logging.getLogger("tensorflow").addHandler(keep)
try:
    @tf.function
    def f(x):
        return x
    for i in range(8):
        f(i)
    @tf.function
    def g(x):
        return x
    for i in range(8):
        g(tf.constant(1.0))
        g(i)
finally:
    logging.getLogger("tensorflow").removeHandler(keep)
out = [m for m in seen if "retracing" in m]
"""

CASES["a Keras training step traced once and run four times"] = """
model = tf.keras.Sequential([
    tf.keras.layers.Dense(3, activation="relu", bias_initializer="ones", input_shape=(2,),
                          kernel_initializer=tf.keras.initializers.Constant(0.3)),
    tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.Constant(-0.2))])
opt = tf.keras.optimizers.Adam(0.05)
loss_fn = tf.keras.losses.MeanSquaredError()
mean = tf.keras.metrics.Mean()
traced = []
@tf.function
def step(x, y):
    traced.append(1)
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    mean.update_state(loss)
    return loss
x = tf.constant([[1.0, 2.0], [-1.0, 0.5], [0.3, -0.7]])
y = tf.constant([[1.0], [0.0], [2.0]])
losses = [step(x, y) for _ in range(4)]
out = [losses, mean.result(), opt.iterations.numpy(), model.layers[1].kernel, len(traced)]
"""

CASES["loss scaling halves on an overflow at the third call only"] = """
opt = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1),
                                                  dynamic_growth_steps=2)
v = tf.Variable(1.0)
@tf.function
def step(x):
    with tf.GradientTape() as tape:
        loss = v * x
        scaled = opt.get_scaled_loss(loss)
    grads = opt.get_unscaled_gradients(tape.gradient(scaled, [v]))
    opt.apply_gradients(zip(grads, [v]))
    return loss
seen = []
for x in [1.0, 2.0, 3e38, 0.5, 0.25]:
    step(tf.constant(x))
    seen.append([opt.loss_scale, v.numpy(), opt.iterations.numpy()])
out = [seen, step.experimental_get_tracing_count()]
"""

CASES["a symbolic tensor used after its trace"] = """
leaked = []
@tf.function
def f(x):
    leaked.append(x * 2.0)
    return x
f(tf.constant(1.0))
try:
    leaked[0] + 1.0
    out = "no error"
except Exception as e:
    out = [type(e).__name__, str(e).split("\\n")[0]]
"""

CASES["a tf.function called inside another is traced with it"] = CAPTURE + """
@tf.function
def inner(x):
    print("inner traced")
    return x * 3.0
@tf.function
def outer(x):
    print("outer traced")
    return inner(x) + 1.0
r = calls(outer, (tf.constant(1.0),), (tf.constant(2.0),))
out = [printed.getvalue(), r, outer.experimental_get_tracing_count(),
       inner.experimental_get_tracing_count()]
"""

CASES["get_concrete_function of an input_signature takes no arguments"] = CAPTURE + """
@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def f(x):
    print("traced", x)
    return x * 2.0
with contextlib.redirect_stdout(printed):
    cf = f.get_concrete_function()
r = [cf(tf.constant([1.0, 2.0])), f(tf.constant([3.0]))]
out = [printed.getvalue(), r, f.experimental_get_tracing_count()]
"""

CASES["tf.range over a symbolic limit has an unknown length"] = """
shapes = []
@tf.function
def f(n, x):
    r = tf.range(n)
    shapes.extend([r.shape.as_list(), tf.range(3).shape.as_list(),
                   tf.range(1, x, 2).shape.as_list(), r[1].shape.as_list()])
    return r, tf.range(1, x, 2)
out = [f(tf.constant(4), tf.constant(6)), f(tf.constant(2), tf.constant(2)), shapes]
"""

CASES["a traced tf.debugging.Assert summarizes tensors of rank 2 and 3 by dimension"] = """
@tf.function
def f(x, n):
    tf.debugging.Assert(tf.reduce_all(x < 0), [x, 'then', tf.constant(3.5)], summarize=n)
    return x
r = []
for x in (tf.reshape(tf.range(6), [2, 3]), tf.reshape(tf.range(24), [2, 3, 4]),
          tf.reshape(tf.range(6), [1, 6]), tf.zeros([2, 0], tf.int32)):
    for n in (None, 2, 5, -1):
        try:
            f(x, n)
            r.append('held')
        except tf.errors.InvalidArgumentError as e:
            r.append(str(e).split('assertion failed: ')[1].split('\\n')[0])
out = r
"""

CASES["tf.debugging.Assert in a traced function checks at every call"] = """
@tf.function
def f(x):
    tf.debugging.Assert(tf.reduce_all(x > 0), ['x must be positive:', x, 7])
    return x * 2
r = [f(tf.constant([1, 2]))]
try:
    f(tf.constant([1, -2, 3, 4]))
except tf.errors.InvalidArgumentError as e:
    r.append(type(e).__name__)
    r.append(str(e).split('assertion failed: ')[1].split('\\n')[0])
out = r
"""

CASES["a trace that raises is not counted"] = """
r = []
for bad in ["numpy", "bool"]:
    @tf.function(autograph=False)
    def f(x):
        return x.numpy() if bad == "numpy" else bool(x)
    try:
        f(tf.constant(1.0))
    except (AttributeError, TypeError) as e:
        r.append([bad, f.experimental_get_tracing_count()])
@tf.function(autograph=False)
def g(x):
    if x.dtype == tf.int32:
        x.numpy()
    return x + 1
g(tf.constant(1.0))
try:
    g(tf.constant(1, tf.int32))
except AttributeError:
    r.append(['retrace', g.experimental_get_tracing_count()])
out = r
"""

CASES["a tf.function re-created in a loop: the retracing warning counts its code's calls"] = """
import logging
seen = []
class Keep(logging.Handler):
    def emit(self, record):
        if 'triggered tf.function retracing' in record.getMessage():
            seen.append(record.getMessage().split(' calls to ')[0])
keep = Keep()
logging.getLogger('tensorflow').addHandler(keep)
def body(x):
    return x + 1
def other(x):
    return x * 2
try:
    for i in range(8):
        tf.function(body)(tf.constant(i))   # a new Function each time, one code
        if i < 3:
            tf.function(other)(tf.constant(i))
    g = tf.function(body)
    same = [g(tf.constant(i)) for i in range(3)]   # no retrace: counted, no warning
finally:
    logging.getLogger('tensorflow').removeHandler(keep)
out = [seen, same]
"""


CASES["experimental_relax_shapes: reduce_retracing's deprecated name"] = CAPTURE + """
import logging, re
seen = []
class Keep(logging.Handler):
    def emit(self, record):
        seen.append(re.sub(r"^From .*?:[0-9]+: ", "From <file>: ", record.getMessage()))
keep = Keep()
logging.getLogger('tensorflow').addHandler(keep)
def f(x):
    print("traced", x.shape)
    return tf.reduce_sum(x)
@tf.function
def outer(x):
    return tf.function(f, experimental_relax_shapes=True)(x)   # made in a graph: TF warns
try:
    g = tf.function(f, experimental_relax_shapes=True)   # eager, devices set up: silent
    r = calls(g, (tf.ones(2),), (tf.ones(3),), (tf.ones(4),), (tf.ones((2, 2)),))
    warned_eagerly = list(seen)
    r += calls(outer, (tf.ones(1),), (tf.ones(5),))
    r += calls(tf.function(outer.python_function), (tf.ones(1),))   # warned once only
finally:
    logging.getLogger('tensorflow').removeHandler(keep)
out = [printed.getvalue(), r, g.experimental_get_tracing_count(), warned_eagerly, seen]
"""


CASES["nested structure arguments: a trace per structure, leaf shape and Python value"] = \
    CAPTURE + """
import collections
P = collections.namedtuple("P", ["a", "b"])
@tf.function
def f(x):
    print("traced", tf.nest.map_structure(lambda v: v.shape if tf.is_tensor(v) else v, x))
    return tf.add_n([tf.reduce_sum(v) for v in tf.nest.flatten(x) if tf.is_tensor(v)])
one, two = tf.constant(1.0), tf.constant(2.0)
r = calls(f, ({"a": one, "b": two},), ({"b": two, "a": one},), ({"a": one, "b": tf.ones(3)},),
          ([one, two],), ((one, two),), ([two, one],), ([one, two, one],), (P(one, two),),
          (P(b=one, a=two),), ({"a": one, "b": 2},), ({"a": one, "b": 3},),
          ({"a": one, "b": 3},), ({"a": [one, (two, one)]},), ({"a": [one, [two, one]]},))
out = [printed.getvalue(), r, f.experimental_get_tracing_count()]
"""


CASES["Python objects: hashable ones by equality, an unhashable one refused"] = CAPTURE + """
import re
class A:
    pass
class V:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        return isinstance(o, V) and o.v == self.v
    def __hash__(self):
        return hash(self.v)
class U:
    def __eq__(self, o):
        return True
    __hash__ = None
@tf.function
def f(x, o):
    print("traced", type(o).__name__)
    return x + 1.0
a = A()
one = tf.constant(1.0)
r = calls(f, (one, a), (one, a), (one, A()), (one, V(1)), (one, V(1)), (one, V(2)), (one, 3),
          (one, (1, 2)), (one, (1, 2)), (one, tf.TensorShape([1, 2])))
try:
    f(one, U())
except TypeError as e:
    r.append(re.sub(" at 0x[0-9a-f]+", "", str(e)))
out = [printed.getvalue(), r, f.experimental_get_tracing_count()]
"""

# A shape mismatch TF's shape inference sees while tracing is a ValueError at trace time
# (common_shape_fns.cc's text naming the node); one it cannot see (unknown dimensions) is
# the kernel's InvalidArgumentError at execution: only its type is compared.
TRACE_ERROR = """
def trace_error(fn, *args, signature=None, message=True):
    try:
        tf.function(fn, input_signature=signature)(*args)
        return "no error"
    except Exception as e:
        text = str(e).strip()
        if "in user code:" in text:
            text = text.split("\\n")[-1].strip().split(": ", 1)[1]
        return [type(e).__name__, text if message else None]
o = tf.ones
"""

CASES["shape mismatches while tracing: broadcasting ops"] = TRACE_ERROR + """
out = [trace_error(lambda a, b: a + b, o([2, 3]), o([2, 4])),
       trace_error(lambda a, b: tf.add(a, b), o([2, 3]), o([2, 4])),
       trace_error(lambda a: a + [1.0, 2.0], o([2, 3])),
       trace_error(lambda a: [1.0, 2.0] + a, o([2, 3])),
       trace_error(lambda a: tf.add(a, [1.0, 2.0]), o([2, 3])),
       trace_error(lambda a, b: a - b, o([2, 3]), o([3, 3, 2])),
       trace_error(lambda a, b: a / b, o([5, 3]), o([2, 1])),
       trace_error(lambda a, b: a * b, o([3]), o([4])),
       trace_error(lambda a, b: a + b, o([2, 3], tf.int32), o([2], tf.int32)),
       trace_error(lambda a, b: a + b, o([2, 3], tf.float64), o([2, 4], tf.float64)),
       trace_error(lambda a, b: (a * 2.0) + b, o([2, 3]), o([2])),
       trace_error(lambda a, b: a + b, o([2, 3]), o([2, 4]),
                   signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([None, 4])]),
       trace_error(lambda a, b: a + b, o([2, 3]), o([2, 1])),
       trace_error(lambda a, b: a + b, o([2, 3]), o([2, 4]),
                   signature=[tf.TensorSpec(None), tf.TensorSpec([2, 4])], message=False)]
"""

CASES["shape mismatches while tracing: matmul, reshape, concat"] = TRACE_ERROR + """
out = [trace_error(lambda a, b: tf.matmul(a, b), o([2, 3]), o([2, 3])),
       trace_error(lambda a, b: tf.matmul(a, b, transpose_b=True), o([2, 3]), o([3, 2])),
       trace_error(lambda a, b: tf.matmul(a, b), o([4, 2, 3]), o([2, 3])),
       trace_error(lambda a, b: a @ b, o([2, 3]), o([2, 3])),
       trace_error(lambda a, b: tf.matmul(a, b), o([4, 2, 3]), o([5, 3, 2])),
       trace_error(lambda a, b: tf.matmul(a, b), o([2, 3]), o([2, 3]), message=False,
                   signature=[tf.TensorSpec([None, None]), tf.TensorSpec([None, None])]),
       trace_error(lambda a: tf.reshape(a, [4]), o([2, 3])),
       trace_error(lambda a: tf.reshape(a, [4, 2]), o([2, 3])),
       trace_error(lambda a: tf.reshape(a, [4, -1]), o([7])),
       trace_error(lambda a: tf.reshape(a, [4]), o([2, 3]), signature=[tf.TensorSpec([None, 3])]),
       trace_error(lambda a: tf.reshape(a, [3, -1]), o([2, 3])),
       trace_error(lambda a, b: tf.concat([a, b], 0), o([2, 3]), o([2, 4])),
       trace_error(lambda a, b: tf.concat([a, b], 1), o([2, 3]), o([3, 4])),
       trace_error(lambda a, b, c: tf.concat([a, b, c], -1), o([2, 3]), o([2, 4]), o([5, 1])),
       trace_error(lambda a, b: tf.concat([a, b], 0), o([2, 3]), o([2])),
       trace_error(lambda a, b: tf.concat([a, b], 1), o([2, 3]), o([2, 4]))]
"""

CASES["a shape made of tf.shape's elements keeps the function traced"] = CAPTURE + """
@tf.function
def f(x):
    print("tracing")
    b = tf.shape(x)[0]
    return (tf.ones((b, 2)), tf.reshape(x, (b, -1)), tf.zeros(tf.shape(x)[1:]),
            tf.random.stateless_normal((b, 1), seed=[1, 2]), tf.fill([b, 1], 7.0))
r = calls(f, (tf.ones([2, 3]),), (2.0 * tf.ones([2, 3]),))
out = [printed.getvalue(), r, f.experimental_get_tracing_count()]
"""

# What a tf.function gives back for Python values it returns (TF's func_graph converts
# each output to a tensor; None stays None): the kind of each result, its value and dtype.
DESCRIBE = """
import collections, re
Pair = collections.namedtuple("Pair", ["a", "b"])
def describe(v):
    if isinstance(v, dict):
        return {k: describe(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [type(v).__name__ if type(v) in (list, tuple) else "namedtuple",
                [describe(x) for x in v]]
    if tf.is_tensor(v):
        return ["tensor", v.dtype.name, v.numpy()]
    return [type(v).__name__, v]
def returned(value):
    f = tf.function(lambda: value)
    try:
        return describe(f())
    except Exception as e:
        return [type(e).__name__, re.sub(" at 0x[0-9a-f]+", "", str(e))]
"""

CASES["Python values returned from a tf.function: str, int, float, bool, None, nested"] = \
    DESCRIBE + """
out = [returned("hello"), returned(b"raw"), returned(3), returned(2.5), returned(True),
       returned(None), returned(np.float32(1.5)), returned(np.arange(3)),
       returned([1, "a", None]), returned((2.0, (True, "b"))),
       returned({"s": "x", "n": 4, "none": None}), returned(Pair(1, "z")),
       returned(object()), returned(int), returned(2 ** 40), returned(2 ** 70),
       returned([]), returned(())]
@tf.function
def g(x):
    return {"t": x * 2.0, "label": "doubled", "n": 7, "flag": False, "nothing": None}
out.append(describe(g(tf.constant(1.5))))
"""

# Recorded with TF 2.21: a mismatch hidden by unknown dimensions traces (the output's shape
# is TF's shape function's) and fails at execution with the kernel's text and the node
# (TF's "{{function_node ...}}" prefix and "[Op:__inference_...]" suffix cut: their
# numbers are TF's own).
CASES["a mismatch hidden by unknown dimensions: traced, the kernel's error at execution"] = """
def at_execution(fn, signature, *args):
    f = tf.function(fn, input_signature=[tf.TensorSpec(s) for s in signature])
    spec = str(f.get_concrete_function().structured_outputs)
    if not args:
        return [spec]
    try:
        f(*args)
        return [spec, "no error"]
    except tf.errors.InvalidArgumentError as e:
        text = str(e).split("}} ", 1)[-1].split(" [Op:__inference")[0]
        return [spec, type(e).__name__, "\\n".join(text.split("\\n")[:2])]
o = tf.ones
out = [at_execution(lambda a, b: a + b, [[None], [None]], o([3]), o([4])),
       at_execution(lambda a, b: a + b, [[None], [3]], o([4]), o([3])),
       at_execution(lambda a, b: a - b, [[None, 3], [4, None]], o([2, 3]), o([4, 3])),
       at_execution(lambda a, b: a > b, [[None], [1]]),
       at_execution(lambda a, b: a * b, [[None, 1], [None, 5]]),
       at_execution(lambda a, b: tf.matmul(a, b), [[None, None], [3, 4]], o([2, 5]), o([3, 4])),
       at_execution(lambda a, b: tf.matmul(a, b), [[None, 2, 3], [4, 3, 5]], o([3, 2, 3]),
                    o([4, 3, 5])),
       at_execution(lambda a, b: tf.concat([a, b], 0), [[None, None], [2, 4]], o([2, 5]),
                    o([2, 4])),
       at_execution(lambda a: tf.reshape(a, [5]), [[None]]),
       at_execution(lambda a: tf.reshape(a, [-1, 2]), [[None, 3]])]
"""

# Recorded with TF 2.21: more of TF's shape functions at trace time (shape_errors_array.py):
# the full text of the ValueError, TF's "in user code" wrapper taken off.
TRACE_TEXT = """
def trace_text(fn, *args, signature=None):
    try:
        out = tf.function(fn, input_signature=signature)(*args)
        return ["no error", str(out.shape)]
    except Exception as e:
        text = str(e).strip()
        marker = type(e).__name__ + ": "
        if "in user code:" in text:
            text = text[text.rindex(marker) + len(marker):].replace("\\n    ", "\\n")
        return [type(e).__name__, text]
o = tf.ones
"""

CASES["shape errors while tracing: stack, transpose, tile, squeeze, expand_dims"] = TRACE_TEXT + """
out = [trace_text(lambda a, b: tf.stack([a, b]), o([2, 3]), o([2, 4])),
       trace_text(lambda a, b: tf.stack([a, b], axis=1), o([2, 3]), o([2])),
       trace_text(lambda a, b, c: tf.stack([a, b, c], axis=-1), o([2]), o([2]), o([3])),
       trace_text(lambda a, b: tf.stack([a, b], axis=3), o([2, 3]), o([2, 3])),
       trace_text(lambda a, b: tf.stack([a, b]), o([2, 3]), o([2, 3]),
                  signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([2, None])]),
       trace_text(lambda a: tf.transpose(a, [1, 0, 2]), o([2, 3])),
       trace_text(lambda a: tf.transpose(a, [0, 2]), o([2, 3])),
       trace_text(lambda a: tf.tile(a, [2]), o([2, 3])),
       trace_text(lambda a: tf.tile(a, [1, 2, 3]), o([2])),
       trace_text(lambda a: tf.squeeze(a, [0]), o([2, 3])),
       trace_text(lambda a: tf.squeeze(a, [2]), o([1, 3])),
       trace_text(lambda a: tf.squeeze(a, [0, -1]), o([1, 3])),
       trace_text(lambda a: tf.expand_dims(a, 3), o([2, 3])),
       trace_text(lambda a: tf.expand_dims(a, -4), o([2, 3]))]
"""

CASES["shape errors while tracing: split, reductions, argmax, gather, concat, broadcast_to"] = \
    TRACE_TEXT + """
out = [trace_text(lambda a: tf.split(a, 2, axis=1), o([2, 3])),
       trace_text(lambda a: tf.split(a, [1, 1], axis=1), o([2, 3])),
       trace_text(lambda a: tf.split(a, 2, axis=2), o([2, 4])),
       trace_text(lambda a: tf.reduce_sum(a, axis=2), o([2, 3])),
       trace_text(lambda a: tf.reduce_mean(a, axis=-3), o([2, 3])),
       trace_text(lambda a: tf.reduce_max(a, axis=[0, 5]), o([2, 3])),
       trace_text(lambda a: tf.reduce_min(a, axis=2, keepdims=True), o([2, 3])),
       trace_text(lambda a: tf.reduce_prod(a, axis=[3]), o([2, 3], tf.int32)),
       trace_text(lambda a: tf.argmax(a, axis=2), o([2, 3])),
       trace_text(lambda a: tf.argmin(a, axis=-3, output_type=tf.int32), o([2, 3])),
       trace_text(lambda a: tf.gather(a, [0], axis=2), o([2, 3])),
       trace_text(lambda a, i: tf.gather(a, i, axis=3), o([2, 3]), tf.constant([0, 1])),
       trace_text(lambda a, b: tf.concat([a, b], 2), o([2, 3]), o([2, 3])),
       trace_text(lambda a: tf.broadcast_to(a, [2, 4]), o([2, 3])),
       trace_text(lambda a: tf.broadcast_to(a, [5, 2, 3]), o([2, 3])),
       trace_text(lambda a: tf.broadcast_to(a, [3, 2, 2]), o([3, 1, 1]))]
"""

# Recorded with TF 2.21: TF's Transpose shape function does not check that perm is a
# permutation; the kernel does (eagerly, and at a graph's execution).
CASES["a transpose perm with a repeated entry: traced, the kernel's error at execution"] = """
def error(fn):
    try:
        fn()
        return "no error"
    except tf.errors.InvalidArgumentError as e:
        text = str(e).split("}} ", 1)[-1].split(" [Op:")[0]
        return [type(e).__name__, "\\n".join(text.split("\\n")[:2])]
f = tf.function(lambda a: tf.transpose(a, [0, 0]))
out = [str(f.get_concrete_function(tf.TensorSpec([2, 3])).structured_outputs),
       error(lambda: f(tf.ones([2, 3]))),
       error(lambda: tf.transpose(tf.ones([2, 3, 4]), [1, 1, 0])),
       tf.transpose(tf.ones([2, 3]), [-1, 0]).shape]
"""

# tf.linspace with a traced num: TF's linspace_nd is a composite of graph ops (math_ops.py),
# so it traces once for every num, its length unknown (None) in the trace.
CASES["tf.linspace with a traced num: traced once, its length unknown"] = CAPTURE + """
@tf.function
def f(n):
    y = tf.linspace(0.0, 1.0, n)
    print("traced", y.shape, y.dtype.name)
    return y
@tf.function
def g(a, b, n):
    return tf.linspace(a, b, n, axis=-1)
r = calls(f, (tf.constant(5),), (tf.constant(3),), (tf.constant(1),), (tf.constant(0),))
two = g(tf.constant([0.0, 1.0]), tf.constant([1.0, 3.0]), tf.constant(4))
spec = g.get_concrete_function(tf.TensorSpec([2]), tf.TensorSpec([2]),
                               tf.TensorSpec([], tf.int32)).structured_outputs
@tf.function
def h(a, n):
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.reduce_sum(tf.linspace(a, 2.0 * a, n))
    return y, tape.gradient(y, a)
out = [printed.getvalue(), r, f.experimental_get_tracing_count(), two, str(spec.shape),
       g.experimental_get_tracing_count(), h(tf.constant(1.0), tf.constant(5)),
       h(tf.constant(2.0), tf.constant(3)), h.experimental_get_tracing_count()]
"""
