"""A tf.function called inside another as TF 2.21 runs it (record_tf_function.py records,
test_function_nested.py replays): the inner function is traced once per its own input
signature into a graph of its own, and the outer graphs call that concrete function, so
the inner Python runs (and prints) once per inner signature however often the outer one
retraces; an eager call with a matching signature reuses it too. Under a MirroredStrategy
the inner function passed to ``strategy.run`` is traced once per replica (its device is part
of TF's cache key), and again not per outer trace. Snippets as in tests/tf_snippets.py."""

from control_flow_cases import MODULE
from function_distribute_cases import SETUP  # S2, printed, calls(), local() (and devices())

# An inner function printing its traces, called by an outer one of signature [None].
SIGNATURE_OUTER = SETUP + """
@tf.function
def inner(x):
    print("tracing inner", x.shape)
    return tf.reduce_sum(x)
@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def outer(x):
    return inner(x)
"""

CASES = {
    "the inner function traces once across outer retraces": SETUP + """
@tf.function
def inner(x):
    print("tracing inner")
    return x * 2.0
@tf.function
def outer(x, n):
    print("tracing outer", n)
    return inner(tf.reduce_sum(x)) + n
r = calls(outer, (tf.ones(2), 1), (tf.ones(3), 1), (tf.ones(2), 2), (tf.ones(2), 1))
out = [printed.getvalue(), r, outer.experimental_get_tracing_count(),
       inner.experimental_get_tracing_count()]
""",
    "the inner function traces once per its own signature": SETUP + """
@tf.function
def inner(x, k):
    print("tracing inner", x.shape, k)
    return x * k
@tf.function
def outer(x):
    print("tracing outer", x.shape)
    return inner(x, 2.0), inner(x, 2.0), inner(x, 3.0), inner(tf.reduce_sum(x), 2.0)
r = calls(outer, (tf.ones(2),), (tf.ones(3),), (tf.ones(2),))
out = [printed.getvalue(), r, outer.experimental_get_tracing_count(),
       inner.experimental_get_tracing_count()]
""",
    "an eager call and a nested call share the inner trace": SETUP + """
@tf.function
def inner(x):
    print("tracing inner")
    return x + 1.0
@tf.function
def outer(x):
    print("tracing outer")
    return inner(x) * 2.0
r = calls(inner, (tf.constant(1.0),))
r += calls(outer, (tf.constant(1.0),), (tf.constant(2.0),))
r += calls(inner, (tf.constant(5.0),))
out = [printed.getvalue(), r, outer.experimental_get_tracing_count(),
       inner.experimental_get_tracing_count()]
""",
    "a nested call's stateful ops run at every outer call": SETUP + """
v = tf.Variable(0.0)
@tf.function
def inner(x):
    print("tracing inner")
    tf.print("inner runs", x)
    v.assign_add(x)
    return v.read_value()
@tf.function
def outer(x, n):
    print("tracing outer", n)
    return inner(x) + n
r = calls(outer, (tf.constant(1.0), 0), (tf.constant(2.0), 0), (tf.constant(3.0), 1))
out = [printed.getvalue(), r, v, outer.experimental_get_tracing_count(),
       inner.experimental_get_tracing_count()]
""",
    "gradients flow through a nested call": SETUP + """
w = tf.Variable(3.0)
@tf.function
def inner(x):
    print("tracing inner")
    return w * x * x
@tf.function
def outer(x, n):
    with tf.GradientTape() as tape:
        y = inner(x) * n
    return tape.gradient(y, w)
@tf.function
def watched(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = inner(x)
    return tape.gradient(y, x)
r = calls(outer, (tf.constant(2.0), 1.0), (tf.constant(2.0), 2.0))
r += calls(watched, (tf.constant(2.0),))
out = [printed.getvalue(), r, inner.experimental_get_tracing_count()]
""",
    "a nested function with a tape of its own": SETUP + """
w = tf.Variable(2.0)
@tf.function
def grad(x):
    print("tracing grad")
    with tf.GradientTape() as tape:
        y = w * x
    return tape.gradient(y, w)
@tf.function
def outer(x, n):
    return grad(x) + n
r = calls(outer, (tf.constant(4.0), 1.0), (tf.constant(5.0), 2.0))
out = [printed.getvalue(), r, grad.experimental_get_tracing_count()]
""",
    "an input_signature outer function: the inner one traces for the unknown shape":
        SIGNATURE_OUTER + """
r = calls(outer, (tf.ones(2),), (tf.ones(5),))
r += calls(inner, (tf.ones(3),))
out = [printed.getvalue(), r, inner.experimental_get_tracing_count()]
""",
    "an unknown shape does not match an eager trace of a known one": SIGNATURE_OUTER + """
r = calls(inner, (tf.ones(3),))
r += calls(outer, (tf.ones(3),), (tf.ones(5),))
r += calls(inner, (tf.ones(3),), (tf.ones(4),))
out = [printed.getvalue(), r, inner.experimental_get_tracing_count()]
""",
    "strategy.run of a tf.function inside a tf.function: once per replica": SETUP + """
@tf.function
def replica_fn(x):
    print("tracing replica_fn")
    rid = tf.distribute.get_replica_context().replica_id_in_sync_group
    return x * tf.cast(rid + 1, tf.float32)
@tf.function
def step(x, n):
    print("tracing step", n)
    return S2.run(replica_fn, args=(x + n,))
r = calls(step, (tf.constant(1.0), 0.0), (tf.constant(2.0), 0.0), (tf.constant(1.0), 1.0))
out = [printed.getvalue(), [local(v) for v in r], step.experimental_get_tracing_count(),
       replica_fn.experimental_get_tracing_count()]
""",
    "a tf.function called by the replica function inside a tf.function": SETUP + """
@tf.function
def inner(x):
    print("tracing inner")
    return x * 10.0
@tf.function
def step(x, n):
    print("tracing step", n)
    def fn(x):
        rid = tf.distribute.get_replica_context().replica_id_in_sync_group
        return inner(x + tf.cast(rid, tf.float32))
    return S2.run(fn, args=(x,))
r = calls(step, (tf.constant(1.0), 0), (tf.constant(2.0), 0), (tf.constant(1.0), 1))
out = [printed.getvalue(), [local(v) for v in r], step.experimental_get_tracing_count(),
       inner.experimental_get_tracing_count()]
""",
    "strategy.run of a tf.function eagerly: once per replica": SETUP + """
@tf.function
def replica_fn(x):
    print("tracing replica_fn")
    rid = tf.distribute.get_replica_context().replica_id_in_sync_group
    return x + tf.cast(rid, tf.float32)
with contextlib.redirect_stdout(printed):
    r = [local(S2.run(replica_fn, args=(tf.constant(float(i)),))) for i in range(2)]
out = [printed.getvalue(), r, replica_fn.experimental_get_tracing_count()]
""",
}

# Programs run as modules of their own (AutoGraph reads their source): Python control flow
# over tensors and datasets is converted in the outer and the inner functions.
PROGRAMS = {
    "nested methods, variable and dataset arguments, control flow": """
class Scaler(tf.Module):
    def __init__(self):
        self.w = tf.Variable(2.0)
        self.calls = tf.Variable(0)
    @tf.function
    def scale(self, x):
        print("tracing scale", x.shape)
        self.calls.assign_add(1)
        if tf.reduce_sum(x) > 0:
            return x * self.w
        return -x
@tf.function
def accumulate(acc, ds):
    print("tracing accumulate")
    for b in ds:
        acc.assign_add(tf.reduce_sum(b))
    return acc.read_value()
m = Scaler()
total = tf.Variable(0.0)
@tf.function
def outer(x, ds, n):
    print("tracing outer", n)
    y = m.scale(x)
    i = tf.constant(0)
    while i < n:
        y = m.scale(y)
        i += 1
    s = accumulate(total, ds)
    return y, s
ds = tf.data.Dataset.range(4).map(lambda v: tf.cast(v, tf.float32)).batch(2)
r = calls(outer, (tf.ones(2), ds, 2), (-tf.ones(2), ds, 2), (tf.ones(3), ds, 1))
r += calls(m.scale, (tf.ones(2),))
out = [printed.getvalue(), r, m.calls, total, outer.experimental_get_tracing_count(),
       m.scale.experimental_get_tracing_count(), accumulate.experimental_get_tracing_count()]
""",
}

CASES.update({name: MODULE + f"out = run_module('nested_case_{i}', {SETUP + src!r})\n"
              for i, (name, src) in enumerate(PROGRAMS.items())})

