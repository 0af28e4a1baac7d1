"""A traced function's ``graph.as_graph_def()`` printed, as TF 2.21 prints it (protobuf
text format; record_tf_function.py records, test_graph_def_text.py replays): each node's
name, op, inputs and attrs (the op definition's type attrs from its tensors' dtypes, its
defaults, the values a call gave: ``transpose_a``, ``keep_dims``, ``alpha``), a Const's
value as a TensorProto (``float_val: 4``, a list as ``tensor_content`` bytes), an
argument's Placeholder with its shape and ``_user_specified_name``, a captured variable's
resource Placeholder, and ``versions { producer: ... }``. Each case's result is the
printed text. Snippets as in tests/tf_snippets.py."""

SETUP = """
def text(f, *args):
    return str(f.get_concrete_function(*args).graph.as_graph_def())
"""

# A graph calling functions: their names' uids masked (TF's counter also counts other
# functions; so are a captured handle's Placeholder "16" and a custom gradient's
# "CustomGradient-4"), and the device counts of the call's config_proto (the recorder's 4
# logical CPUs stand where simdist's machine has 4 GPUs); the library's functions compared
# sorted (TF's GraphDef lists them in its function map's order, which follows the uids)
LIBRARY = SETUP + r"""
import re
def masked(text):
    text = re.sub(r"(__inference_\w+?|cond(_\d+)?_(true|false)|while(_\d+)?_(cond|body))_\d+",
                  r"\1_N", text)
    text = re.sub(r'"(CustomGradient-)?\d+"', r'"\1N"', text)
    return re.sub(r"(CPU|GPU)\\020\\\d\d\d", r"\1\\020N", text)
def library_text(f, *args):
    graph_def = f.get_concrete_function(*args).graph.as_graph_def()
    text = str(graph_def)
    return [masked(text[:text.index("library {")]),
            sorted(masked(str(fn)) for fn in graph_def.library.function),
            text[text.index("versions {"):]]
"""

CASES = {
    "the guide's matmul and add: Placeholders, MatMul's attrs, AddV2": SETUP + """
@tf.function
def f(x, y, b):
    x = tf.matmul(x, y)
    return x + b
out = text(f, tf.constant([[1.0, 2.0]]), tf.constant([[2.0], [3.0]]), tf.constant(4.0))
""",
    "Python numbers and lists converted to Consts: float_val, int_val, tensor_content": SETUP + """
@tf.function
def f(x, n):
    a = x * 2.0 + [1.0, 2.0, 3.0]
    b = tf.reshape(a, [3, 1])
    c = n - 1
    d = tf.cast(c, tf.float32) / 3.0
    return b, d
out = text(f, tf.constant([1.0, 2.0, 3.0]), tf.constant(5))
""",
    "reductions, keepdims, a unary op, comparisons and logical ops": SETUP + """
@tf.function
def f(x):
    s = tf.reduce_sum(x, axis=1, keepdims=True)
    m = tf.reduce_mean(tf.square(x))
    g = tf.logical_and(x > 0.5, tf.equal(x, 1.0))
    return s, m, tf.reduce_any(g)
out = text(f, tf.constant([[1.0, 2.0], [3.0, 4.0]]))
""",
    "a captured variable: its resource Placeholder, ReadVariableOp, the NoOp": SETUP + """
v = tf.Variable([1.0, 2.0])
@tf.function
def f(x):
    return v * 2.0 + x, x
out = text(f, tf.constant([1.0, 1.0]))
""",
    "nn ops: relu, leaky_relu's alpha, softmax, bias_add, matmul transposed": SETUP + """
@tf.function
def f(x, w, b):
    h = tf.nn.relu(tf.matmul(x, w, transpose_b=True))
    h = tf.nn.bias_add(h, b)
    return tf.nn.softmax(tf.nn.leaky_relu(h, alpha=0.3))
out = text(f, tf.ones([2, 3]), tf.ones([4, 3]), tf.zeros([4]))
""",
    "an unknown dimension and an int64 argument; Identity of an argument": SETUP + """
@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32),
                              tf.TensorSpec([], tf.int64)])
def f(x, k):
    return tf.identity(x), k + 1
out = text(f)
""",
    "a Keras Dense layer: its variables' resources read under the layer's scope": SETUP + """
layer = tf.keras.layers.Dense(2, activation="relu")
layer.build((None, 3))
@tf.function
def f(x):
    return layer(x)
out = text(f, tf.ones([4, 3]))
""",
    "tf.print: StringFormat, PrintV2 and the NoOp after it": SETUP + """
@tf.function
def f(x):
    tf.print("x is", x)
    tf.print(x + 1)
    return x * 2
out = text(f, tf.constant([1, 2]))
""",
    "Consts of other dtypes: int64, bool, float64, string, negative, tiny, inf": SETUP + """
@tf.function
def f(x):
    a = tf.constant([1, -2, 3], tf.int64)
    b = tf.constant([True, False])
    c = tf.constant(2.5, tf.float64)
    d = tf.constant("hi")
    e = x + tf.constant([1e-7, -float("inf")]) + 1e20
    return a, b, c, d, e, tf.constant(-3)
out = text(f, tf.constant([1.0, 2.0]))
""",
    "array ops: concat, stack, expand_dims, transpose, squeeze, argmax, cast, one_hot": SETUP + """
@tf.function
def f(x, i):
    a = tf.concat([x, x], axis=0)
    b = tf.stack([x, x], axis=1)
    c = tf.transpose(tf.expand_dims(x, 0))
    d = tf.squeeze(c, axis=[2])
    e = tf.argmax(x, axis=1)
    g = tf.one_hot(i, 3)
    return a, b, d, tf.cast(e, tf.int32), g, tf.gather(x, i), tf.range(5), tf.fill([2], 1.5)
out = text(f, tf.ones([2, 3]), tf.constant([0, 1]))
""",
    "one value over a shape: tf.constant(1.5, shape=...), small tf.zeros and tf.ones": SETUP + """
@tf.function
def f(x):
    return (x + tf.constant(1.5, shape=[3]), tf.constant([[1, 2], [3, 4]], shape=[4]),
            tf.zeros([2, 2]), tf.ones([3], tf.int64))
out = text(f, tf.constant([1.0, 2.0, 3.0]))
""",
    "ops under tf.device and a MirroredStrategy's replicas: their NodeDefs' device": SETUP + """
strategy = tf.distribute.MirroredStrategy(["/cpu:0"])

@tf.function
def f(x):
    with tf.device("/cpu:0"):
        y = x * 2.0
    with tf.device("/job:localhost/device:CPU:0"):
        w = tf.reduce_sum(y + 1.0)
    z = strategy.experimental_local_results(strategy.run(lambda v: v - 1.0, args=(y,)))
    return w, z
graph = f.get_concrete_function(tf.constant([1.0, 2.0])).graph
out = str(graph.as_graph_def()), [(op.name, op.device) for op in graph.get_operations()]
""",
    "a nested tf.function: PartitionedCall and its FunctionDef in the library": LIBRARY + """
@tf.function
def inner(x, y):
    return x * y, x + 1.0
@tf.function
def f(a, b):
    u, v = inner(a, b)
    return u - v
out = library_text(f, tf.constant([1.0, 2.0]), tf.constant(3.0))
""",
    "a tf.cond: StatelessIf, its captures and its branches' FunctionDefs": LIBRARY + """
@tf.function
def f(x, p):
    return tf.cond(p, lambda: x * 2.0, lambda: x - 1.0)
out = library_text(f, tf.constant([1.0, 2.0]), tf.constant(True))
""",
    "a tf.while_loop: StatelessWhile, its captures, its cond and body FunctionDefs": LIBRARY + """
@tf.function
def f(x, n, s, t):
    return tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * s + t),
                         [tf.constant(0), x])
out = library_text(f, tf.constant([1.0, 2.0]), tf.constant(3), tf.constant(2.0),
                   tf.constant(1.0))
""",
    "nested tf.functions reading and updating variables: their handles captured":
        LIBRARY + """
v = tf.Variable([1.0, 2.0])
w = tf.Variable(3.0)
@tf.function
def inner(x):
    return v * x + w
@tf.function
def bump(x):
    w.assign_add(1.0)
    return x * w
@tf.function
def f(a):
    return inner(a) - bump(a) + v
out = library_text(f, tf.constant([1.0, 2.0]))
""",
    "nested calls inside a library function: each function once in the library":
        LIBRARY + """
w = tf.Variable(2.0)
@tf.function
def h(x):
    return x * 2.0
@tf.function
def k(x):
    return x * w
@tf.function
def g(x):
    return h(x) + k(x)
@tf.function
def f(a):
    return g(a) - h(a)
out = library_text(f, tf.constant([1.0, 2.0]))
""",
    "a tf.cond reading a variable: If, the handle captured, the branch's NoOp":
        LIBRARY + """
v = tf.Variable([1.0, 2.0])
@tf.function
def f(x, p):
    return tf.cond(p, lambda: v * x, lambda: x - 1.0)
out = library_text(f, tf.constant([1.0, 2.0]), tf.constant(True))
""",
    "a custom gradient: IdentityN's _gradient_op_type and its types": LIBRARY + """
@tf.custom_gradient
def clip_grad(x):
    def grad(dy):
        return tf.clip_by_norm(dy, 1.0)
    return tf.identity(x) * 2.0, grad
@tf.function
def f(x):
    return clip_grad(x) + 1.0
out = masked(text(f, tf.constant([1.0, 2.0])))
""",
    "a tf.while_loop's maximum_iterations: an argument, a traced constant, a Python int":
        LIBRARY + """
def loop(x, n):
    return tf.while_loop(lambda i, y: i < 10, lambda i, y: (i + 1, y * 2.0),
                         [tf.constant(0), x], maximum_iterations=n)
@tf.function
def f(x, n):
    return loop(x, n)
@tf.function
def g(x):
    return loop(x, tf.constant(5)), loop(x, 4)
out = [library_text(f, tf.constant(1.0), tf.constant(3)), library_text(g, tf.constant(1.0)),
       f(tf.constant(1.0), tf.constant(3)), g(tf.constant(1.0))]
""",    # TF's Tensor.dtype / .shape of each op's outputs (ops.py; constant_op: a Const's shape
    # is its value's) and tensor[key]'s packed begin / end / strides and masks
    "get_operations' outputs: Consts' and resources' dtypes and shapes, a slice's stacks":
        LIBRARY + """
v = tf.Variable([1.0, 2.0])
n = tf.Variable(3, dtype=tf.int64)
@tf.function
def f(x, s, p):
    a = tf.reduce_sum(v * 2.0 + x[1:, :2] + [1.0, 2.0]) + tf.reduce_mean(s)
    n.assign_add(2)
    b, c = tf.cond(p, lambda: (x * 2.0, s), lambda: (x - 1.0, s + 1.0))
    return a, x[0], x[..., None], b, c, tf.zeros([40, 30])[0, -1]
g = f.get_concrete_function(tf.ones([3, 4]), tf.constant(2.0), tf.constant(True)).graph
out = [[o.name, o.type, [[t.dtype.name, str(t.shape)] for t in o.outputs]]
       for o in g.get_operations()], masked(str(g.as_graph_def()))
""",
    "FunctionDef.signature: input_arg and output_arg names and types, is_stateful":
        LIBRARY + """
v = tf.Variable([1.0, 2.0])
@tf.function
def inner(x, k):
    return v * x, tf.cast(k, tf.float32) + 1.0
@tf.function
def f(a, k, p):
    u, w = inner(a, k)
    return tf.cond(p, lambda: u * 2.0, lambda: w - 1.0)
graph_def = f.get_concrete_function(tf.constant([1.0, 2.0]), tf.constant(3, tf.int64),
                                    tf.constant(True)).graph.as_graph_def()
out = sorted([masked(str(fn.signature)), masked(fn.signature.name),
              [[a.name, tf.as_dtype(a.type).name] for a in fn.signature.input_arg],
              [[a.name, tf.as_dtype(a.type).name] for a in fn.signature.output_arg],
              fn.signature.is_stateful, list(fn.signature.control_output)]
             for fn in graph_def.library.function)
""",    # cond_v2 / while_v2 in a branch or a body: the If or While in that function, its own
    # functions in the library (their arguments named after the captured placeholders)
    "a tf.cond in a branch, a tf.while_loop in a branch, a tf.cond in a loop's body":
        LIBRARY + """
@tf.function
def f(x, p, q, n):
    return tf.cond(p, lambda: tf.cond(q, lambda: x * 2.0, lambda: x + 1.0),
                   lambda: tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * 2.0),
                                         [0, x])[1])
@tf.function
def g(x, n, p):
    return tf.while_loop(lambda i, y: i < n, lambda i, y: (
        i + 1, tf.cond(p, lambda: y * 2.0, lambda: y + 1.0)), [0, x])
out = [library_text(f, tf.constant([1.0, 2.0]), tf.constant(True), tf.constant(False),
                    tf.constant(3)),
       library_text(g, tf.constant([1.0, 2.0]), tf.constant(3), tf.constant(True))]
""",
    # while_v2 captures a variable's handle as a loop var (While, _read_only_resource_inputs)
    "variables read in a loop's body, in a cond in a body, in a loop in a branch":
        LIBRARY + """
v = tf.Variable(2.0)
@tf.function
def f(x, n):
    return tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * v), [tf.constant(0), x])
@tf.function
def g(x, n, p):
    return tf.while_loop(lambda i, y: i < n, lambda i, y: (
        i + 1, tf.cond(p, lambda: y * v, lambda: y + 1.0)), [0, x])
@tf.function
def h(x, p, n):
    return tf.cond(p, lambda: tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * v),
                                            [0, x])[1], lambda: x - v)
out = [library_text(f, tf.constant(1.0), tf.constant(3)),
       library_text(g, tf.constant([1.0, 2.0]), tf.constant(3), tf.constant(True)),
       library_text(h, tf.constant([1.0, 2.0]), tf.constant(True), tf.constant(3)),
       f(tf.constant(1.0), tf.constant(3)), h(tf.constant([1.0, 2.0]), tf.constant(True),
                                              tf.constant(3))]
""",
    # TF's C++ shape functions give every listed op's outputs their static shapes (the
    # ops a gradient, a linspace or an optimizer lists too); a gradient's Sums keep dims
    "listed ops' static shapes: a tape's gradient, a mean's, linspace, RMSprop's update":
        SETUP + """
w = tf.Variable(tf.ones([3, 2]))
b = tf.Variable([0.5, -0.5])
opt = tf.keras.optimizers.RMSprop(0.1)
@tf.function
def f(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y)) * tf.reduce_sum(b * x[0, 0])
    grads = tape.gradient(loss, [w, b])
    opt.apply_gradients(zip(grads, [w, b]))
    return tf.linspace(x[0], x[1], 4, axis=-1)
g = f.get_concrete_function(tf.ones([4, 3]), tf.zeros([4, 2])).graph
out = ([[o.name, o.type, [[t.dtype.name, str(t.shape)] for t in o.outputs]]
        for o in g.get_operations()],
       [str(n) for n in g.as_graph_def().node if n.op in ("Sum", "StridedSlice")])
""",
    # while_v2 in a body: the body's counter placeholders are named while/while/loop_counter
    # and .../maximum_iterations, so the inner loop's Consts take '_1'; an inner
    # maximum_iterations tensor from outside is captured first, its arguments named after it
    "a loop in a loop's body: maximum_iterations_1, loop_counter_1, a captured limit":
        LIBRARY + """
@tf.function
def f(x):
    def body(i, y):
        j, z = tf.while_loop(lambda j, z: j < 2, lambda j, z: (j + 1, z * 2.0), [0, y],
                             maximum_iterations=3)
        return i + 1, z
    return tf.while_loop(lambda i, y: i < 3, body, [0, x], maximum_iterations=4)
@tf.function
def g(x, n):
    def body(i, y):
        j, z = tf.while_loop(lambda j, z: j < 2, lambda j, z: (j + 1, z * 2.0), [0, y],
                             maximum_iterations=n)
        return i + 1, z
    return tf.while_loop(lambda i, y: i < 3, body, [0, x])
out = [library_text(f, tf.constant(1.0)), library_text(g, tf.constant(1.0), tf.constant(3)),
       f(tf.constant(1.0)), g(tf.constant(1.0), tf.constant(3))]
""",
    # a CNN's layers: Conv2D, tf.compat.v1.nn.max_pool / avg_pool ('MaxPool', 'AvgPool') and
    # their window attrs, Flatten's 'Const' shape (tf-keras's graph branch); tf.nn's pools
    # named as their wrappers' scopes ('AvgPool', 'MaxPool2d', 'AvgPool2D')
    "a CNN: Conv2D, MaxPool, AvgPool and their attrs, Flatten's Const": SETUP + """
model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(2, 3, padding="same", input_shape=(6, 6, 1)),
    tf.keras.layers.MaxPooling2D(), tf.keras.layers.Conv2D(2, 3, strides=2, activation="relu"),
    tf.keras.layers.AveragePooling2D(1), tf.keras.layers.Flatten(), tf.keras.layers.Dense(2)])
@tf.function
def f(x):
    return (model(x), tf.nn.avg_pool(x, 2, 2, "VALID"), tf.nn.max_pool2d(x, 2, 2, "VALID"),
            tf.nn.max_pool(x, 3, 1, "SAME"), tf.nn.avg_pool2d(x, 2, 1, "SAME"))
g = f.get_concrete_function(tf.ones([2, 6, 6, 1])).graph
out = ([[o.name, o.type, [t.name for t in o.inputs],
         [[t.dtype.name, str(t.shape)] for t in o.outputs]] for o in g.get_operations()],
       [str(n) for n in g.as_graph_def().node if n.op in ("Conv2D", "MaxPool", "AvgPool")])
""",
    # Keras's fused batch norm in inference (tf.compat.v1.nn.fused_batch_norm): gamma and beta
    # read first, the moving statistics in the op's scope; its six outputs; two variables
    # one op reads: ReadVariableOp, ReadVariableOp_1
    "a fused BatchNormalization in inference: FusedBatchNormV3, its reads and outputs":
        SETUP + """
model = tf.keras.Sequential([tf.keras.layers.Conv2D(2, 3, input_shape=(5, 5, 1)),
                             tf.keras.layers.BatchNormalization()])
v, w = tf.Variable([1.0, 2.0]), tf.Variable([3.0, 4.0])
@tf.function
def f(x):
    return model(x, training=False), tf.add(v, w)
g = f.get_concrete_function(tf.ones([2, 5, 5, 1])).graph
out = ([[o.name, o.type, [t.name for t in o.inputs],
         [[t.dtype.name, str(t.shape)] for t in o.outputs]] for o in g.get_operations()],
       [str(n) for n in g.as_graph_def().node if n.op == "FusedBatchNormV3"])
""",
    # an op of several outputs lists each ('op:1', its dtype and shape): a custom gradient's
    # IdentityN one per input; tf.unstack / tf.split / tf.math.top_k are TF's op types
    "multi-output ops: IdentityN's outputs, Unpack, Split, SplitV, TopKV2": SETUP + """
@tf.custom_gradient
def two(x, y):
    def grad(dy):
        return dy, dy
    return x * y, grad
@tf.function
def f(x):
    a, b = tf.unstack(x, axis=1)[:2]
    s1, s2 = tf.split(x, 2, axis=1)
    s3, s4 = tf.split(x, [1, 3], axis=-1)
    v, i = tf.math.top_k(x[0], 2, sorted=False)
    return a, b, s1, s2, s3, s4, v, i, two(x, 2.0 * x)
g = f.get_concrete_function(tf.ones([2, 4])).graph
out = ([[o.name, o.type, [t.name for t in o.inputs],
         [[t.name, t.dtype.name, str(t.shape)] for t in o.outputs]] for o in g.get_operations()],
       [str(n) for n in g.as_graph_def().node if n.op in ("Unpack", "Split", "SplitV", "TopKV2")])
""",
}
