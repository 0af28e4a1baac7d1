"""tf.Variable created inside a tf.function body, as TF 2.21 allows it (record_tf_function.py
records into fixtures/tf_function_variables.json; test_function_variables.py replays): only
on the first call, once (the singleton pattern: TF traces that first call twice, the second
trace must not create again), lifted out of the graph with a Python, callable, init_scope
or traced initial value (computed once, from the first call's arguments); TF's ValueErrors
otherwise. A variable a traced function returns comes back read, as a tensor. Errors are
raised from the snippet (TF adds its "in user code:" frame lines around the message; the
replay compares simdist's first line)."""

CASES = {
    "a variable created at every call": """
@tf.function
def f(x):
    v = tf.Variable(1.0)
    return v + x
f(tf.constant(1.0))
""",
    "a singleton variable created on the first call": """
class Holder:
    v = None
traced = []
@tf.function
def f(x):
    traced.append(1)
    if Holder.v is None:
        Holder.v = tf.Variable([3.0, 4.0])
    return Holder.v.assign_add(x)
out = [f(tf.constant([1.0, 2.0])), f(tf.constant([1.0, 1.0])), len(traced),
       f.experimental_get_tracing_count(), Holder.v.numpy(), Holder.v.name]
""",
    "a singleton variable with a callable initial value, retraced": """
state = {}
@tf.function
def f(x):
    if 'v' not in state:
        state['v'] = tf.Variable(lambda: tf.ones([2]) * 2.0)
    return state['v'] * x
out = [f(tf.constant(1.0)), f(3.0), f(4.0), f.experimental_get_tracing_count(),
       state['v'].numpy()]
""",
    "a singleton variable initialized in init_scope": """
state = []
@tf.function
def f(x):
    if not state:
        with tf.init_scope():
            state.append(tf.Variable(tf.fill([2], 5.0)))
    return state[0] + x
out = [f(tf.constant(1.0)), f(tf.constant(2.0)), state[0].numpy()]
""",
    "a variable initialized from a tensor of the trace": """
state = []
@tf.function
def f(x):
    if not state:
        state.append(tf.Variable(x * 2.0))
    return state[0] + x
out = [f(tf.constant(1.0)), f(tf.constant(5.0)), state[0].numpy(),
       f.experimental_get_tracing_count()]
""",
    "a variable created on a later trace when the first made none": """
@tf.function
def f(x, make):
    if make:
        v = tf.Variable(2.0)
        return v * x
    return x
f(tf.constant(1.0), False)
f(tf.constant(1.0), True)
""",
    "a variable created on a later trace when the first made one": """
holder = []
@tf.function
def f(x, n):
    while len(holder) < n:
        holder.append(tf.Variable(float(len(holder))))
    return x + holder[-1]
f(tf.constant(1.0), 1)
f(tf.constant(1.0), 2)
""",
    "variables made by the first call are kept after a later error": """
holder = []
@tf.function
def f(x, n):
    while len(holder) < n:
        holder.append(tf.Variable(float(len(holder)) + 10.0))
    return x + holder[-1]
r = [f(tf.constant(1.0), 1)]
try:
    f(tf.constant(1.0), 2)
except ValueError as e:
    r.append(type(e).__name__)
out = [r, len(holder), [v.numpy() for v in holder[:1]], f(tf.constant(2.0), 1)]
""",
}

CASES["a variable returned from a traced function comes back as its value"] = """
v = tf.Variable(1.0)
@tf.function
def f(x):
    v.assign_add(x)
    return v, v.assign_add(x)
a = f(tf.constant(1.0))
v.assign(10.0)
out = [a, [hasattr(t, 'assign') for t in a], f(tf.constant(2.0))]
"""

# --- get_concrete_function: TF traces, initializes the variables the trace made (their
# initial values lifted out of the graph: UnliftableError when one uses an argument), then
# traces again creating none (the singleton ValueError for a body that creates every time)
CASES.update({
    "get_concrete_function initializes a variable from a traced initial value": """
class Holder:
    v = None
traced = []
@tf.function
def f(x):
    traced.append(1)
    if Holder.v is None:
        Holder.v = tf.Variable(tf.ones([2]) * 5.0)
    return Holder.v.assign_add(x)
cf = f.get_concrete_function(tf.constant([1.0, 2.0]))
after_gcf = [Holder.v.numpy(), len(traced), f.experimental_get_tracing_count()]
out = [after_gcf, cf(tf.constant([1.0, 2.0])), f(tf.constant([1.0, 1.0])), len(traced),
       f.experimental_get_tracing_count(), Holder.v.numpy()]
""",
    "get_concrete_function with a Python initial value": """
state = {}
@tf.function
def f(x):
    if 'v' not in state:
        state['v'] = tf.Variable([2.0, 3.0])
    return state['v'] * x
cf = f.get_concrete_function(tf.TensorSpec([2], tf.float32))
out = [state['v'].numpy(), f.experimental_get_tracing_count(), cf(tf.constant([1.0, 2.0])),
       f(tf.constant([3.0, 3.0])), f.experimental_get_tracing_count()]
""",
    "get_concrete_function of a body that creates a variable every time": """
traced = []
@tf.function
def f(x):
    traced.append(1)
    v = tf.Variable(tf.ones([2]) * 5.0)
    return v + x
f.get_concrete_function(tf.constant([1.0, 2.0]))
""",
    "get_concrete_function cannot lift an initial value that uses an argument": """
state = {}
@tf.function
def f(x):
    if 'v' not in state:
        state['v'] = tf.Variable(x * 2.0)
    return state['v'] + 1.0
f.get_concrete_function(tf.constant([1.0, 2.0]))
""",
})

# A body that makes a variable at every call: TF's second trace of the first call raises the
# singleton ValueError; only the first trace counts, and every later call traces again
# (printing again) and raises again.
CASES["a variable created at every call raises at every call, traced again each time"] = """
import contextlib, io
made, traced, errors, printed = [], [], [], io.StringIO()
@tf.function
def f(x):
    traced.append(1)
    print("tracing f")
    made.append(tf.Variable(1.0))
    return x
with contextlib.redirect_stdout(printed):
    for x in (1.0, 1.0, 2.0):
        try:
            f(tf.constant(x))
        except ValueError as e:
            errors.append([type(e).__name__, "only supports singleton tf.Variables" in str(e)])
out = [errors, len(traced), len(made), f.experimental_get_tracing_count(), printed.getvalue()]
"""

CASES["a mirrored variable initialized from a tensor of the trace"] = """
class M(tf.Module):
    def __init__(self):
        self.v = None
    @tf.function
    def f(self, x):
        if self.v is None:
            self.v = tf.Variable(x * 2.0)
        return self.v + x
with S.scope():
    m = M()
    r = [m.f(tf.constant(1.0)), m.f(tf.constant(2.0))]
out = [r, type(m.v).__name__, list(S.experimental_local_results(m.v)),
       m.f.experimental_get_tracing_count()]
"""
