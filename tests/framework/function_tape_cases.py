"""``GradientTape.reset`` inside tf.function as TF 2.21 runs it (record_tf_function.py
records into fixtures/tf_function_tapes.json, test_function_tapes.py replays, each traced
into a graph, no eager fallback): the tape forgets what it recorded and goes on recording, at
every execution; a tape that is not recording (outside its context, inside
``stop_recording``, after a non-persistent ``gradient``) raises TF's ValueError, eagerly and
while tracing. A function given the tensor it captures has a placeholder of its own for the
argument: its own tape watching it does not watch the capture; the caller's tape reaches the
tensor through both.

AutoGraph reads the functions' source, so each program runs as a module file of its own
(control_flow_cases.MODULE)."""

from control_flow_cases import MODULE

SETUP = """
import contextlib, io
printed = io.StringIO()
def calls(fn, *arg_lists):
    with contextlib.redirect_stdout(printed):
        return [fn(*a) for a in arg_lists]
def plain(r):
    return [x.numpy().decode() if getattr(x, "dtype", None) == tf.string else x for x in r]
"""

PROGRAMS = {
    "reset inside a traced tape: later gradients see only what came after it": """
@tf.function
def f(x):
    print("tracing", x.shape)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x
        t.reset()
        z = x * y
        t.watch(x)
        w = z * x
    g1 = t.gradient(w, x)
    g2 = t.gradient(z, x)
    with tf.GradientTape() as t2:
        t2.watch(x)
        a = tf.tanh(x)
    with t2:
        t2.reset()
        t2.watch(x)
        b = tf.exp(x) * a
    return g1, g2, t2.gradient(b, x)
r = calls(f, (tf.constant(2.0),), (tf.constant(3.0),), (tf.constant(0.5),))
out = [printed.getvalue(), [[a, b, c] for a, b, c in r], f.experimental_get_tracing_count()]
""",
    "reset after a graph loop, with a variable, in a step with an optimizer": """
v = tf.Variable(2.0)
opt = tf.keras.optimizers.SGD(0.1)
@tf.function
def step(x):
    with tf.GradientTape() as t:
        loss = tf.constant(0.0)
        for i in tf.range(3):
            loss += v * x * tf.cast(i, tf.float32)
        t.reset()
        loss2 = v * v * x
    g = t.gradient(loss2, v)
    opt.apply_gradients([(g, v)])
    return g, loss
r = [step(tf.constant(x)) for x in (1.5, 4.0, -1.0)]
out = [[[g, l] for g, l in r], v, step.experimental_get_tracing_count()]
""",
    "reset of a tape that is not recording: TF's ValueError, eager and traced": """
def outside(x):
    with tf.GradientTape() as t:
        t.watch(x)
    try:
        t.reset()
    except ValueError as e:
        return [type(e).__name__, str(e)]
    return ["no error"]
def in_stop_recording(x):
    with tf.GradientTape() as t:
        t.watch(x)
        with t.stop_recording():
            try:
                t.reset()
            except ValueError as e:
                return [type(e).__name__, str(e)]
    return ["no error"]
def after_gradient(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
        g = t.gradient(y, x)
        try:
            t.reset()
        except ValueError as e:
            return [type(e).__name__, str(e), g]
    return ["no error", g]
out = [[plain(fn(tf.constant(3.0))), plain(tf.function(fn)(tf.constant(3.0)))]
       for fn in (outside, in_stop_recording, after_gradient)]
""",
    "a function given the tensor it captures: its own tape watches the argument only": """
x = tf.constant([1.0, 2.0])
v = tf.Variable([1.0, 2.0])
@tf.function
def f(y):
    return y * x
@tf.function
def g(y):
    return y * v
def taped(fn):  # a traced tape around fn, watching its argument
    def run(y):
        with tf.GradientTape() as t:
            t.watch(y)
            z = fn(y)
        return t.gradient(z, y)
    return tf.function(run)
own_tape, around = taped(lambda y: y * x), taped(f)
with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    z, w = f(x), g(v)
out = [t.gradient(z, x), t.gradient(w, v), own_tape(x), around(x), around(x * 1.0)]
""",
}

CASES = {name: MODULE + f"out = run_module('tape_case_{i}', {SETUP + src!r})\n"
         for i, (name, src) in enumerate(PROGRAMS.items())}
