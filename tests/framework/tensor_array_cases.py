"""``tf.TensorArray`` as TF 2.21 has it (record_tf_function.py records, test_tensor_array.py
replays): eager (a Python list: write/read/stack/gather/concat/unstack/scatter/split/size/
close, dynamic_size, clear_after_read, unwritten elements as zeros) and in tf.function (a
TensorList flow: a loop variable of AutoGraph loops over ``tf.range`` -- one trace, the body's
Python once --, through ``tf.cond`` / an ``if`` on a tensor and ``tf.while_loop``, the static
shapes of stack/read/gather/concat), gradients through writes, stacks, reads and unstacks
(eager and traced), TF's errors (eager: OutOfRange / InvalidArgument / ValueError; in a
graph: the list kernels' InvalidArgument at execution, ValueError while tracing), and
TensorArraySpec.

AutoGraph reads the functions' source, so each program runs as a module file of its own
(control_flow_cases.MODULE). ``caught(fn)`` gives ``[error type, message]`` with TF's
wrapping of graph errors taken off (the ``{{function_node ...}}`` prefix, the node lines,
"in user code:" and its traceback), the same way for both frameworks. ``calls`` captures
what Python's ``print`` writes."""

from control_flow_cases import MODULE

SETUP = """
import contextlib, io, re
printed = io.StringIO()
def calls(fn, *arg_lists):
    with contextlib.redirect_stdout(printed):
        return [fn(*a) for a in arg_lists]
def caught(fn):
    try:
        fn()
    except Exception as e:
        text = re.sub(r"^\\{\\{function_node [^}]*\\}\\} ", "", str(e)).split("\\n\\t")[0]
        if "in user code:" in text:
            text = text.strip().split("\\n")[-1].strip().split(": ", 1)[1]
        return [type(e).__name__, text.strip()]
    return None
def val(t):
    return t.numpy().tolist()
"""

PROGRAMS = {
    # --- eager -----------------------------------------------------------------------------
    "eager: write, read, stack, size and properties": """
ta = tf.TensorArray(tf.float32, size=3)
ta.write(0, [1.0, 2.0])   # eagerly the array itself changes (TF's write returns it)
ta = ta.write(2, tf.constant([3.0, 4.0]))
out = [str(ta.element_shape), ta.dynamic_size, ta.handle is None, ta.dtype.name,
       val(ta.flow), ta.flow.dtype.name, val(ta.stack()), val(ta.size()), val(ta.read(2)),
       val(ta.read(1))]
""",
    "eager: dynamic_size, clear_after_read=False, gather, concat, unstack, scatter, split": """
ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True, clear_after_read=False)
for i in range(4):
    ta = ta.write(i, [i, 10 * i])
a = [val(ta.size()), val(ta.read(1)), val(ta.read(1)), val(ta.gather([3, 0])),
     val(ta.concat())]
u = tf.TensorArray(tf.float32, size=3).unstack([[1.0], [2.0], [3.0]])
s = tf.TensorArray(tf.float32, size=4).scatter([3, 1], [[5.0], [7.0]])
p = tf.TensorArray(tf.float32, size=2).split([1.0, 2.0, 3.0], [1, 2])
e = tf.TensorArray(tf.float32, size=0, element_shape=[2])
c = tf.TensorArray(tf.float32, size=2)
c = c.write(0, 1.0)
c.close()
out = [a, val(u.stack()), val(s.stack()), val(p.read(1)), str(p.element_shape),
       val(e.stack()), list(e.stack().shape), val(c.size())]
""",
    "eager: TF's errors": """
t = tf.TensorArray(tf.float32, size=3)
t2 = tf.TensorArray(tf.float32, size=3)
t2 = t2.write(0, [1.0, 2.0])
t3 = tf.TensorArray(tf.float32, size=2)
t3 = t3.write(0, 1.0)
t3.read(0)
s = tf.TensorArray(tf.float32, size=3).scatter([0, 1], [1.0, 2.0, 3.0])   # zip: 2 rows
out = [val(s.read(1)),
       caught(lambda: t.read(3)), caught(lambda: t.read(-1)), caught(lambda: t.write(5, 1.0)),
       caught(lambda: t.write(-1, 1.0)), caught(lambda: t.write(0, tf.constant(1))),
       caught(lambda: t2.write(1, [1.0, 2.0, 3.0])), caught(lambda: t3.read(0)),
       caught(lambda: tf.TensorArray(tf.float32, size=2).unstack([1.0, 2.0, 3.0])),
       caught(lambda: tf.TensorArray(tf.float32, size=2).scatter([0, 5], [1.0, 2.0])),
       caught(lambda: tf.TensorArray(tf.float32)),
       caught(lambda: tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, 2.0).concat()),
       caught(lambda: tf.TensorArray(tf.float32, size=2).split([1.0, 2.0, 3.0], [1, 1])),
       caught(lambda: tf.TensorArray(tf.float32, size=3).split([1.0, 2.0, 3.0], [1, 2])),
       caught(lambda: t.grad("x"))]
""",
    "eager: gradients through write, stack, read, unstack and gather": """
x = tf.Variable([1.0, 2.0])
w = tf.constant(3.0)
with tf.GradientTape(persistent=True) as tape:
    ta = tf.TensorArray(tf.float32, size=3, clear_after_read=False)
    ta = ta.write(0, x * w).write(2, x * x)
    stacked = ta.stack()
    loss1 = tf.reduce_sum(stacked * [[1.0], [2.0], [3.0]])
    loss2 = tf.reduce_sum(ta.read(2))
    u = tf.TensorArray(tf.float32, size=2).unstack(tf.stack([x, 2.0 * x]))
    loss3 = tf.reduce_sum(u.gather([1, 1]))
out = [val(tape.gradient(loss1, x)), val(tape.gradient(loss2, x)),
       val(tape.gradient(loss3, x))]
""",
    # --- tf.function -------------------------------------------------------------------------
    "traced: the guide's dynamic_rnn (a loop over tf.range, one trace)": """
@tf.function
def dynamic_rnn(input_data, initial_state):
    input_data = tf.transpose(input_data, [1, 0, 2])
    max_seq_len = input_data.shape[0]
    states = tf.TensorArray(tf.float32, size=max_seq_len)
    state = initial_state
    for i in tf.range(max_seq_len):
        print("tracing the body", states.element_shape)
        state = input_data[i] + state
        states = states.write(i, state)
    print("after the loop", states.element_shape, states.stack().shape)
    return tf.transpose(states.stack(), [1, 0, 2])
x = tf.reshape(tf.range(24, dtype=tf.float32), [2, 3, 4])
r = calls(dynamic_rnn, (x, tf.zeros([2, 4])), (2 * x, tf.ones([2, 4])))
out = [printed.getvalue(), [val(t) for t in r], dynamic_rnn.experimental_get_tracing_count()]
""",
    "traced: a dynamic TensorArray over a tensor's length, stacked, read and sized": """
@tf.function
def f(n, x):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i, tf.float32) * x)
    return ta.stack(), ta.read(n - 1), ta.size(), ta.gather([0, n - 1]), ta.concat()
r = calls(f, (tf.constant(3), tf.constant([1.0, 2.0])), (tf.constant(5), tf.constant([0.5, 1.0])))
out = [[[val(t) for t in x] for x in r], f.experimental_get_tracing_count()]
""",
    "traced: static shapes and names TF gives in a graph": """
seen = []
@tf.function
def g(n):
    ta = tf.TensorArray(tf.float32, size=n)
    seen.append([ta.flow.dtype.name, str(ta.flow.shape), str(ta.element_shape), ta.handle,
                 ta.dynamic_size])
    ta = ta.write(0, [1.0, 2.0])
    s = ta.stack()
    ta2 = tf.TensorArray(tf.float32, size=3).write(0, [1.0, 2.0])
    ta3 = tf.TensorArray(tf.float32, size=0, dynamic_size=True).write(0, [1.0, 2.0])
    seen.append([str(ta.element_shape), str(s.shape), str(ta.read(0).shape),
                 str(ta2.stack().shape), str(ta3.stack().shape),
                 str(ta2.gather([0, 1]).shape), str(ta2.concat().shape)])
    return s, ta2.concat()
r = g(tf.constant(2))
out = [seen, [val(t) for t in r]]
""",
    "traced: a TensorArray written in both branches of an if on a tensor": """
@tf.function
def f(flag):
    ta = tf.TensorArray(tf.int32, size=2)
    ta = ta.write(0, 7)
    if flag > 0:
        ta = ta.write(1, 1)
    else:
        ta = ta.write(1, -1)
    return ta.stack()
r = calls(f, (tf.constant(1),), (tf.constant(-1),))
out = [[val(t) for t in r], f.experimental_get_tracing_count()]
""",
    "traced: tf.cond and tf.while_loop carrying a TensorArray": """
@tf.function
def f(n):
    ta = tf.TensorArray(tf.float32, size=n)
    def body(i, ta):
        return i + 1, ta.write(i, tf.cast(i * i, tf.float32))
    _, ta = tf.while_loop(lambda i, ta: i < n, body, [0, ta])
    ta = tf.cond(n > 2, lambda: ta.write(0, 100.0), lambda: ta)
    return ta.stack()
out = [val(f(tf.constant(4))), val(f(tf.constant(2))), f.experimental_get_tracing_count()]
""",
    "traced: unstack a tensor and read its rows in a loop": """
@tf.function
def f(x):
    ta = tf.TensorArray(tf.float32, size=x.shape[0]).unstack(x)
    acc = tf.zeros(x.shape[1:])
    for i in tf.range(x.shape[0]):
        acc = acc * 2.0 + ta.read(i)
    return acc
out = [val(f(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))),
       val(f(tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))),
       f.experimental_get_tracing_count()]
""",
    "traced: gradients through a loop that writes a TensorArray": """
w = tf.Variable(0.5)
@tf.function
def step(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        ta = tf.TensorArray(tf.float32, size=3)
        h = x
        for i in tf.range(3):
            h = tf.tanh(h * w + 1.0)
            ta = ta.write(i, h)
        loss = tf.reduce_sum(ta.stack() * [[1.0], [2.0], [3.0]])
    return [loss] + tape.gradient(loss, [w, x])
r = step(tf.constant([0.1, -0.2]))
r2 = step(tf.constant([1.0, 2.0]))
out = [[val(t) for t in r], [val(t) for t in r2], step.experimental_get_tracing_count()]
""",
    "traced: TF's errors in a graph": """
def run(body):
    return caught(lambda: tf.function(body)())
out = [
    run(lambda: tf.TensorArray(tf.float32, size=2).write(0, 1.0).read(5)),
    run(lambda: tf.TensorArray(tf.float32, size=2).write(5, 1.0).stack()),
    run(lambda: tf.TensorArray(tf.float32, size=2).write(-1, 1.0).stack()),
    run(lambda: tf.TensorArray(tf.float32, size=2).write(0, [1.0]).read(1)),
    run(lambda: tf.TensorArray(tf.float32, size=2).read(1)),
    run(lambda: tf.TensorArray(tf.float32, size=2).stack()),
    run(lambda: tf.TensorArray(tf.float32, size=2).write(0, tf.constant(1)).stack()),
    run(lambda: tf.TensorArray(tf.float32, size=2).write(0, [1.0]).write(1, [1.0, 2.0])),
    run(lambda: tf.TensorArray(tf.float32, size=2).unstack([1.0, 2.0, 3.0]).stack()),
    run(lambda: tf.TensorArray(tf.float32, size=2).scatter([0, 5], [1.0, 2.0]).stack()),
    run(lambda: tf.TensorArray(tf.float32).stack()),
    run(lambda: (lambda t: t.read(0) + t.read(0))(
        tf.TensorArray(tf.float32, size=2).write(0, 1.0))),
    run(lambda: tf.TensorArray(tf.float32, size=3).scatter([0, 1], [1.0, 2.0, 3.0]).stack()),
    run(lambda: tf.TensorArray(tf.float32, size=2).split([1.0, 2.0, 3.0], [1, 1]).stack()),
    run(lambda: tf.TensorArray(tf.float32, size=2).split([1.0, 2.0, 3.0], [1, 2]).concat()),
    run(lambda: tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, 2.0).concat()),
    run(lambda: tf.TensorArray(tf.float32, size=2).write(0, 1.0).gather([0, 3])),
    run(lambda: tf.TensorArray(tf.float32, size=2).unstack(1.0).stack()),
    run(lambda: tf.TensorArray(tf.float32, size=0, dynamic_size=True).stack()),
    run(lambda: tf.TensorArray(tf.float32, size=2).write(0, 1.0).read(-1)),
]
""",
    "traced: an eager TensorArray made outside the function, as a loop variable": """
ta = tf.TensorArray(tf.float32, size=3)
@tf.function
def f():
    t = ta
    for i in tf.range(3):
        t = t.write(i, 1.0)
    return t.stack()
out = caught(f)
""",
    "TensorArraySpec": """
ta = tf.TensorArray(tf.float32, size=2, element_shape=[3])
spec = tf.TensorArraySpec.from_value(ta)
out = [repr(spec), spec.is_compatible_with(tf.TensorArraySpec([None], tf.float32)),
       spec.is_compatible_with(tf.TensorArraySpec([3], tf.int32)),
       spec == tf.TensorArraySpec([3], tf.float32), repr(tf.TensorArraySpec())]
""",
    "traced: a TensorArray returned from a function comes back as its variant flow": """
@tf.function
def f(n):
    ta = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i, tf.float32))
    return ta
r = f(tf.constant(3))
out = [r.dtype.name, str(r.shape), hasattr(r, "stack"), repr(r), str(r), caught(r.numpy)]
""",
    "traced: a TensorArray argument is traced once per instance": """
ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, 2.0)
@tf.function
def g(t):
    return t.stack() * 2
a, b = g(ta), g(ta)
ta2 = tf.TensorArray(tf.float32, size=2).write(0, 3.0).write(1, 4.0)
c = g(ta2)
out = [val(a), val(b), val(c), g.experimental_get_tracing_count()]
""",
    "traced: a Python while loop on a tensor condition writing a TensorArray": """
@tf.function
def h(n):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[2])
    i = 0
    while i < n:
        ta = ta.write(i, [1.0, 2.0] * tf.cast(i + 1, tf.float32))
        i += 1
    return ta.stack(), ta.size()
r = calls(h, (tf.constant(3),), (tf.constant(1),))
out = [[[val(t) for t in x] for x in r], h.experimental_get_tracing_count()]
""",
    "eager: tf.while_loop carrying a TensorArray": """
_, ta = tf.while_loop(lambda i, t: i < 3,
                      lambda i, t: (i + 1, t.write(i, 2.0 * tf.cast(i, tf.float32))),
                      [0, tf.TensorArray(tf.float32, size=3)])
out = val(ta.stack())
""",
    "traced: a tape outside the function differentiates its TensorArray loop": """
w = tf.Variable(0.5)
@tf.function
def f(x):
    ta = tf.TensorArray(tf.float32, size=3)
    h = x
    for i in tf.range(3):
        h = tf.tanh(h * w + 1.0)
        ta = ta.write(i, h)
    return tf.reduce_sum(ta.stack() * [[1.0], [2.0], [3.0]]) + tf.reduce_sum(ta.read(1))
x = tf.constant([0.1, -0.2])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = f(x)
out = [val(y)] + [val(g) for g in tape.gradient(y, [w, x])]
""",
    "eager: a write whose result is dropped unused logs TF's 'Object was never used'": """
import gc, logging
logs = []
class Keep(logging.Handler):
    def emit(self, record):
        if "never used" in record.getMessage():
            logs.append([record.levelname] + [
                re.sub(r" at 0x[0-9a-f]+", "", line.replace(tf.TensorArray.__module__, "M"))
                for line in record.getMessage().split("\\n")[:5]])
logging.getLogger("tensorflow").addHandler(Keep())
counts = []
ta = tf.TensorArray(tf.float32, size=3)
ta.write(0, 1.0)                      # dropped at once: logged
counts.append(len(logs))
ta = ta.write(1, 2.0)                 # kept, and used below
t2 = ta.write(2, 3.0)                 # kept, never used: logged when deleted
counts.append(len(logs))
del t2
counts.append(len(logs))
s = ta.stack()
ta.unstack([1.0, 2.0, 3.0])           # only write is checked
ta.write(0, 5.0).mark_used()
w = ta.write(1, 4.0)
counts.append(len(logs))
@tf.function
def f(x):
    t = tf.TensorArray(tf.float32, size=2)
    t.write(0, x)                     # in a graph: not checked, the write is lost
    return t.write(1, x).stack()
r = f(tf.constant(1.0))
counts.append(len(logs))
out = [counts, logs, val(s), val(r), isinstance(w, tf.TensorArray), val(w.size()), val(ta.read(0))]
""",
    "a TensorArray in a dataset function is a graph array": """
def fn(x):
    ta = tf.TensorArray(tf.int64, size=2)
    ta.write(0, x + 10)               # a graph array: the write not kept is lost
    ta = ta.write(1, x)
    tb = tf.TensorArray(tf.int64, size=3, element_shape=[])
    for i in range(3):
        tb = tb.write(i, x * i)
    return ta.stack(), tb.stack(), tb.size(), tf.constant(tf.executing_eagerly())
ds = tf.data.Dataset.range(3).map(fn)
ds2 = tf.data.Dataset.range(2).flat_map(lambda x: tf.data.Dataset.from_tensor_slices(
    tf.TensorArray(tf.float32, size=2, element_shape=[2]).unstack(
        tf.ones([2, 2]) * tf.cast(x, tf.float32)).concat()))
def bad(x):
    return tf.TensorArray(tf.int64, size=1).write(0, x).read(3)
def run_bad():
    return list(tf.data.Dataset.range(1).map(bad))
err = caught(run_bad)
summed = tf.data.Dataset.range(4).reduce(tf.constant(0, tf.int64), lambda a, b: a + tf.TensorArray(
    tf.int64, size=1).write(0, b * 2).stack()[0])
out = [str(ds.element_spec), [[val(t) for t in e] for e in ds], str(ds2.element_spec),
       [val(e) for e in ds2], err[0], err[1].endswith("Trying to access element 3 in a list "
       "with 1 elements."), val(summed)]
""",
    "colocate_with_first_write_call=False is accepted and changes nothing": """
def build(colocate):
    ta = tf.TensorArray(tf.float32, size=2, colocate_with_first_write_call=colocate)
    ta = ta.write(0, [1.0, 2.0]).write(1, [3.0, 4.0])
    return ta.stack(), ta.read(1), ta.concat()
@tf.function
def traced(colocate):
    return build(colocate)
out = [[[val(t) for t in fn(c)] for c in (True, False)] for fn in (build, traced)] + [
    str(traced.get_concrete_function(False).structured_outputs[0].shape)]
""",
    "traced: the graph names of a TensorArray's ops, TF's name scopes": """
names = []
@tf.function
def f(x):
    ta = tf.TensorArray(tf.float32, size=2)
    names.append(ta.flow.name)
    ta = ta.write(0, x)
    names.append(ta.flow.name)
    ta = ta.write(1, x * 2.0)
    names.append(ta.flow.name)
    ta2 = tf.TensorArray(tf.float32, size=0, dynamic_size=True).unstack(tf.stack([x, x]))
    names.extend([ta2.flow.name, ta.stack().name, ta.read(1).name, ta.gather([0, 1]).name,
                  ta.concat().name, ta2.size().name, ta.identity().flow.name])
    ta3 = tf.TensorArray(tf.float32, size=3).scatter([0, 2], tf.stack([x, x]))
    ta4 = tf.TensorArray(tf.float32, size=2).split(tf.concat([x, x], 0), [3, 3])
    names.extend([ta3.flow.name, ta4.flow.name])
    named = tf.TensorArray(tf.float32, size=1, name="named")
    names.append(named.flow.name)
    named = named.write(0, x, name="w")
    names.extend([named.flow.name, named.stack(name="s").name, named.read(0, name="r").name,
                  named.gather([0], name="g").name, named.concat(name="c").name,
                  tf.add(x, x, name="plain").name, tf.identity(x, name="plain").name])
    return ta.stack()
f.get_concrete_function(tf.TensorSpec([3], tf.float32))
out = names
""",
    "int64 indices: eager takes them, a trace's TensorList ops want int32 (TypeError)": """
i64, both = tf.constant(0, tf.int64), tf.constant([0, 1], tf.int64)
def full():
    return tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, 2.0)
out = {
    "eager": val(tf.TensorArray(tf.float32, size=2).write(i64, 1.0).stack()),
    "eager_read": val(full().read(i64)),
    "write": caught(tf.function(lambda: tf.TensorArray(tf.float32, size=2).write(
        tf.constant(0, tf.int64), 1.0).stack())),
    "read": caught(tf.function(lambda: full().read(tf.constant(1, tf.int64)))),
    "gather": caught(tf.function(lambda: full().gather(tf.constant([0, 1], tf.int64)))),
    "scatter": caught(tf.function(lambda: tf.TensorArray(tf.float32, size=2).scatter(
        tf.constant([0, 1], tf.int64), tf.constant([1.0, 2.0])).stack())),
    "python_int_traced": val(tf.function(lambda: full().read(1))()),
}
""",
}

CASES = {name: MODULE + f"out = run_module('ta_case_{i}', {SETUP + src!r})\n"
         for i, (name, src) in enumerate(PROGRAMS.items())}
