"""Gradients through control flow inside a traced tf.function, as TF 2.21 computes them
(record_tf_function.py records into fixtures/tf_graph_gradients.json;
test_graph_gradients.py replays): a tape inside the function over tf.cond (the gradient of
the branch taken at run time), tf.while_loop (back through the iterations the call ran),
AutoGraph's tensor ``if`` / ``for``, and a Keras training step inside a tensor ``for`` loop.
Each program runs as a module file of its own (AutoGraph reads the function's source)."""

from control_flow_cases import MODULE

PROGRAMS = {
    "cond gradient is the taken branch's": """
x = tf.Variable(2.0)
@tf.function
def f(p):
    with tf.GradientTape() as t:
        y = tf.cond(p, lambda: x * x, lambda: 3.0 * x)
    return y, t.gradient(y, x)
out = [f(tf.constant(True)), f(tf.constant(False)), f(tf.constant(True))]
""",
    "cond gradient of a variable only the other branch reads": """
v = tf.Variable(2.0)
w = tf.Variable(5.0)
@tf.function
def f(p):
    with tf.GradientTape() as t:
        y = tf.cond(p, lambda: v * 3.0, lambda: w * w)
    return t.gradient(y, [v, w])
out = [f(tf.constant(True)), f(tf.constant(False))]
""",
    "cond gradient with respect to a watched input": """
@tf.function
def f(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.cond(x > 0, lambda: x * x * x, lambda: -2.0 * x)
    return t.gradient(y, x)
out = [f(tf.constant(2.0)), f(tf.constant(-1.0))]
""",
    "while_loop gradient runs back through the iterations of each call": """
@tf.function
def f(x, n):
    with tf.GradientTape() as t:
        t.watch(x)
        _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x),
                             (tf.constant(0), tf.constant(1.0)))
    return y, t.gradient(y, x)
out = [f(tf.constant(2.0), tf.constant(3)), f(tf.constant(2.0), tf.constant(5)),
       f(tf.constant(2.0), tf.constant(0))]
""",
    "while_loop gradient of a variable the body reads": """
v = tf.Variable(3.0)
@tf.function
def f(n):
    with tf.GradientTape() as t:
        _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y + v * v),
                             (tf.constant(0), tf.constant(0.0)))
    return y, t.gradient(y, v)
out = [f(tf.constant(2)), f(tf.constant(0))]
""",
    "while_loop gradient with respect to the initial loop value": """
@tf.function
def f(x, n):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.while_loop(lambda y: tf.reduce_sum(y) < n, lambda y: y * 2.0, [x])
    return y, t.gradient(y, x)
out = [f(tf.constant([1.0, 2.0]), tf.constant(20.0)), f(tf.constant([1.0, 2.0]), tf.constant(1.0))]
""",
    "autograph if on a tensor under a tape": """
@tf.function
def f(x):
    with tf.GradientTape() as t:
        t.watch(x)
        if x > 1.0:
            y = x * x
        else:
            y = x * 4.0
    return t.gradient(y, x)
out = [f(tf.constant(3.0)), f(tf.constant(0.5))]
""",
    "autograph for over tf.range under a tape": """
w = tf.Variable(1.5)
@tf.function
def f(n):
    with tf.GradientTape() as t:
        y = tf.constant(1.0)
        for i in tf.range(n):
            y = y * w + tf.cast(i, tf.float32)
    return y, t.gradient(y, w)
out = [f(tf.constant(3)), f(tf.constant(1))]
""",
    "a Keras training step inside a tensor for loop": """
model = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer='ones',
                                                   bias_initializer='zeros')])
model.build((None, 3))
opt = tf.keras.optimizers.SGD(0.1)
xs = tf.constant([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
ys = tf.constant([[1.0, 0.0], [0.0, 1.0]])
@tf.function
def train(n):
    total = tf.constant(0.0)
    for i in tf.range(n):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(xs) - ys) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        total += loss
    return total
out = [train(tf.constant(3)), train(tf.constant(2)), model.get_weights(),
       opt.iterations.numpy()]
""",
}

CASES = {name: MODULE + f"out = run_module('grad_case_{i}', {src!r})\n"
         for i, (name, src) in enumerate(PROGRAMS.items())}

# A tape outside the function: the graph's ops are recorded as it executes.
CASES["a tape outside a traced cond"] = """
@tf.function
def g(x):
    return tf.cond(x > 0, lambda: x * x, lambda: -x)
grads = []
for v in (3.0, -2.0):
    x = tf.constant(v)
    with tf.GradientTape() as t:
        t.watch(x)
        y = g(x)
    grads.append(t.gradient(y, x))
out = grads
"""

# GradientTape.stop_recording inside a traced function: a tape the function entered skips
# the block at every execution (the Python, its print and append, run once per trace); the
# caller's tape differentiates the function's graph, through the block (TF 2.21).
CASES.update({
    "stop_recording on a tape of the function: once per trace, at every execution": """
import contextlib, io
log, printed = [], io.StringIO()
@tf.function
def f(x):
    log.append(1)
    print("tracing f")
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
        with t.stop_recording():
            z = y * 3.0
        w = y * z
    return t.gradient(w, x), w
v = tf.Variable(2.0)
@tf.function
def k():
    with tf.GradientTape() as t:
        with t.stop_recording():
            a = v * 3.0
        b = v * a
    return t.gradient(b, v)
with contextlib.redirect_stdout(printed):
    r = [f(tf.constant(2.0)), f(tf.constant(3.0))]
out = [r, len(log), printed.getvalue(), f.experimental_get_tracing_count(), k(), k()]
""",
    "stop_recording on the caller's tape inside a traced function": """
x = tf.constant(2.0)
with tf.GradientTape() as outer:
    outer.watch(x)
    @tf.function
    def h(x):
        with outer.stop_recording():
            a = x * 5.0
        return x * x * a
    r = h(x)
out = [outer.gradient(r, x), r]
""",
    # TF 2.21's GradientTape.stop_recording pops its own tape only (backprop.py: _pop_tape /
    # _push_tape): other tapes on the thread, and a tape entered inside the block, record.
    "stop_recording pauses only its own tape: nested and persistent tapes": """
x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as outer:
    outer.watch(x)
    with tf.GradientTape(persistent=True) as inner:
        inner.watch(x)
        a = x * x
        with inner.stop_recording():
            b = a * x
            with tf.GradientTape() as fresh:
                fresh.watch(x)
                f = x * x
            inner.watch(b)
        c = a * b
    with outer.stop_recording():
        d = c * x
    e = c + d
r = [inner.gradient(c, x), outer.gradient(c, x), outer.gradient(e, x), outer.gradient(b, x),
     inner.gradient(b, x), fresh.gradient(f, x), inner.gradient(c, b)]
with tf.GradientTape(persistent=True) as t1:
    t1.watch(x)
    with tf.GradientTape(persistent=True) as t2:
        t2.watch(x)
        with t1.stop_recording():
            with t2.stop_recording():
                p = x * 2.0
            q = x * 5.0
        s = x * 7.0
out = r + [t1.gradient(p, x), t2.gradient(p, x), t1.gradient(q, x), t2.gradient(q, x),
           t1.gradient(s, x), t2.gradient(s, x)]
""",
    "stop_recording pauses only its own tape inside a traced function": """
@tf.function
def g(x):
    with tf.GradientTape(persistent=True) as o:
        o.watch(x)
        with tf.GradientTape() as i:
            i.watch(x)
            y = x * x
            with i.stop_recording():
                z = y * x
            w = y * z
    return i.gradient(w, x), o.gradient(w, x)
@tf.function
def h(x):
    with tf.GradientTape() as i:
        i.watch(x)
        with i.stop_recording():
            z = x * x * x
    return z
x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as caller:
    caller.watch(x)
    r, k = g(x)[0], h(x)
out = [g(tf.constant(2.0)), g(x), caller.gradient(r, x), caller.gradient(k, x),
       g.experimental_get_tracing_count()]
""",
    "stop_recording and entering a tape at the wrong time": """
def error(fn):
    try:
        fn()
    except Exception as e:
        return [type(e).__name__, str(e)]
def stop(t):
    with t.stop_recording():
        pass
def stop_twice(t):
    with t:
        with t.stop_recording():
            with t.stop_recording():
                pass
def enter_twice(t):
    with t:
        with t:
            pass
t = tf.GradientTape()
before = error(lambda: stop(t))
with t:
    pass
x = tf.constant(2.0)
p = tf.GradientTape(persistent=True)
with p:
    p.watch(x)
    y = x * x
with p:   # entered again after its exit: it records on
    z = y * x
@tf.function
def f(x):
    u = tf.GradientTape()
    stop(u)
    return x
out = [before, error(lambda: stop(t)), error(lambda: stop_twice(tf.GradientTape())),
       error(lambda: enter_twice(tf.GradientTape())), p.gradient(z, x), error(lambda: f(x))]
""",
})

# A Python list holding tensors converts as TF's _autopacking_helper does: a Pack of its
# elements, so gradients reach them through reduce_sum([...]) (simdist made the list a
# constant there, and the gradients were None), eagerly and traced; nested lists pack too.
CASES["a list of tensors packs: gradients reach its elements, eager and traced"] = """
a = tf.Variable(2.0)
b = tf.Variable(3.0)
def step():
    with tf.GradientTape() as t:
        y = tf.reduce_sum([a * a, b * 2.0, 1.0])
    return y, t.gradient(y, [a, b])
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    z = tf.reduce_mean([[x * 2.0, x], [[3.0, 4.0], x * x]])
out = [step(), tf.function(step)(), z, t.gradient(z, x)]
"""
