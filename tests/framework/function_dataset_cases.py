"""Iterating datasets inside tf.function as TF 2.21's AutoGraph does (record_tf_function.py
records, test_function_datasets.py replays): ``for x in dataset`` (a dataset loop: the body's
Python runs once per trace, ``tf.print`` per element, break / continue, loop-carried tensors,
a fresh pass at every call, also over a dataset made from the function's argument),
``for x in dist_dataset`` (a while loop over ``get_next_as_optional``, ``strategy.run`` in
the body), ``for x in iterator``, and
``get_next_as_optional`` with ``has_value`` / ``get_value`` in a graph; the errors TF gives
(``next`` past the end at call time -- also ``next(it, default)``, which TF 2.21's AutoGraph
leaves to Python, so the default is never used --, ``break`` in a distributed loop, an empty
Optional's value). The strategy is ``S2``, a MirroredStrategy on 2 logical CPUs (the
recorder makes 4).

AutoGraph reads the functions' source, so each program runs as a module file of its own
(control_flow_cases.MODULE). ``calls`` captures what Python's ``print`` writes;
``tf.print`` writes to the file ``LOG`` (``logged()`` reads it)."""

from control_flow_cases import MODULE

SETUP = """
import contextlib, io, os, tempfile
S2 = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
printed = io.StringIO()
LOG = "file://" + os.path.join(tempfile.mkdtemp(), "log.txt")
def calls(fn, *arg_lists):
    with contextlib.redirect_stdout(printed):
        return [fn(*a) for a in arg_lists]
def logged():
    with open(LOG[len("file://"):]) as f:
        return f.read()
def local(v):
    return [t.numpy().tolist() for t in S2.experimental_local_results(v)]
def devices(v):
    return [t.device for t in S2.experimental_local_results(v)]
"""

PROGRAMS = {
    # --- tf.data datasets ----------------------------------------------------------------
    "for over a dataset: print once per trace, tf.print per element": """
@tf.function
def f(ds):
    total = tf.constant(0, tf.int64)
    n = 0
    for x in ds:
        print("tracing body", x.shape, x.dtype.name)
        tf.print("element", x, output_stream=LOG)
        total += x
        n += 1
    return total, n
r = calls(f, (tf.data.Dataset.range(1, 5),), (tf.data.Dataset.range(1, 5),),
          (tf.data.Dataset.range(3),))
out = [printed.getvalue(), logged(), [[int(a), int(b), b.dtype.name] for a, b in r],
       f.experimental_get_tracing_count()]
""",
    "a dataset made in the function is iterated afresh at every call": """
@tf.function
def f(k):
    acc = tf.constant(0.0)
    for x, y in tf.data.Dataset.from_tensor_slices(([1.0, 2.0, 3.0], [10.0, 20.0, 30.0])):
        acc = acc * k + x * y
    return acc
r = calls(f, (tf.constant(1.0),), (tf.constant(2.0),))
out = [[float(v) for v in r], f.experimental_get_tracing_count()]
""",
    "a dataset made in the function from its argument": """
@tf.function
def f(x):
    print("tracing", x.shape)
    total = tf.constant(0.0)
    n = 0
    for row in tf.data.Dataset.from_tensor_slices(x).map(lambda r: r * 2.0).batch(2):
        print("row spec", row.shape)
        total += tf.reduce_sum(row)
        n += 1
    return total, n
r = calls(f, (tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),),
          (tf.constant([[0.0, 1.0], [1.0, 1.0], [2.0, 2.0]]),), (tf.constant([[1.0, 1.0]]),))
out = [printed.getvalue(), [[float(a), int(b)] for a, b in r],
       f.experimental_get_tracing_count()]
""",
    "break and continue in a dataset loop": """
@tf.function
def f():
    total = tf.constant(0, tf.int64)
    steps = tf.constant(0)
    for x in tf.data.Dataset.range(10):
        steps += 1
        if x % 2 == 0:
            continue
        if x > 6:
            break
        total += x
    return total, steps
r = calls(f, (), ())
out = [[[int(a), int(b)] for a, b in r]]
""",
    "a variable updated in a dataset loop, per element at every call": """
v = tf.Variable(0.0)
@tf.function
def f(ds):
    for x in ds:
        v.assign_add(x)
    return v.read_value()
ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 4.0])
r = calls(f, (ds,), (ds,))
out = [[float(x) for x in r], float(v.numpy())]
""",
    "a loop variable whose shape changes in a dataset loop": """
@tf.function
def f():
    acc = tf.zeros([0], tf.int64)
    for x in tf.data.Dataset.range(4):
        acc = tf.concat([acc, tf.reshape(x * x, [1])], 0)
        print("tracing", acc.shape)
    return acc
r = calls(f, ())
out = [printed.getvalue(), r[0].numpy().tolist(), str(r[0].shape)]
""",
    "a variable first set in a dataset loop body": """
@tf.function
def f():
    for x in tf.data.Dataset.range(3):
        last = x
    return last
out = f()
""",
    "a loop variable that changes dtype in a dataset loop": """
@tf.function
def f():
    s = tf.constant(0)
    for x in tf.data.Dataset.range(3):
        s = tf.cast(x, tf.float32)
    return s
out = f()
""",
    "return inside a dataset loop": """
@tf.function
def f():
    for x in tf.data.Dataset.range(3):
        if x > 1:
            return x
    return tf.constant(-1, tf.int64)
out = f()
""",
    "for over a tf.data iterator made in the function, with break": """
@tf.function
def f():
    it = iter(tf.data.Dataset.range(10))
    first = next(it)
    total = tf.constant(0, tf.int64)
    for x in it:
        if x > 5:
            break
        total += x
    return first, total, next(it)
r = calls(f, (), ())
out = [[[int(v) for v in t] for t in r]]
""",
    "get_next_as_optional on a tf.data iterator in a graph": """
it = iter(tf.data.Dataset.range(3))
seen = []
@tf.function
def f():
    opt = it.get_next_as_optional()
    has = opt.has_value()
    seen.append([has.dtype.name, str(has.shape), hasattr(has, "numpy")])
    if has:
        return opt.get_value()
    return tf.constant(-1, tf.int64)
r = calls(f, (), (), (), (), ())
out = [[int(v) for v in r], seen]
""",
    "next with a default on a tf.data iterator in a graph": """
it = iter(tf.data.Dataset.range(2))
@tf.function
def f():
    return next(it, tf.constant(-1, tf.int64))
out = [int(f()) for _ in range(4)]
""",
    "next with a default of another dtype": """
@tf.function
def f():
    return next(iter(tf.data.Dataset.range(2)), -1)
out = f()
""",
    "next past the end of a tf.data iterator in a graph": """
it = iter(tf.data.Dataset.range(2))
@tf.function
def f():
    return next(it)
r = [int(f()), int(f())]
f()
""",
    "get_value of an empty optional in a graph": """
it = iter(tf.data.Dataset.range(1))
@tf.function
def f():
    return it.get_next_as_optional().get_value()
r = [int(f())]
f()
""",
    "Dataset.reduce in a graph": """
@tf.function
def f(ds):
    return ds.reduce(tf.constant(0, tf.int64), lambda s, x: s + x * x)
r = calls(f, (tf.data.Dataset.range(4),), (tf.data.Dataset.range(5),))
out = [[int(v) for v in r], f.experimental_get_tracing_count()]
""",
    "a Python for over a dataset with AutoGraph off": """
@tf.function(autograph=False)
def f(ds):
    total = tf.constant(0, tf.int64)
    for x in ds:
        total += x
    return total
out = f(tf.data.Dataset.range(3))
""",
    "40 next calls unrolled by a Python range with AutoGraph on": """
it = iter(tf.data.Dataset.range(50))
@tf.function
def f():
    total = tf.constant(0, tf.int64)
    for _ in range(40):
        total += next(it)
    return total
out = [f(), f.experimental_get_tracing_count()]
""",
    "a Python for over a dataset in a do_not_convert function": """
@tf.autograph.experimental.do_not_convert
def total_of(ds):
    total = tf.constant(0, tf.int64)
    for x in ds:
        total += x
    return total
@tf.function
def f(ds):
    return total_of(ds)
out = f(tf.data.Dataset.range(3))
""",
    # --- distributed datasets and iterators --------------------------------------------
    "for over a distributed dataset: strategy.run traced once, a fresh pass each call": """
ds = tf.data.Dataset.range(8).map(lambda x: tf.cast(x, tf.float32)).batch(4)
dds = S2.experimental_distribute_dataset(ds)
@tf.function
def f(dds):
    print("tracing f")
    total = 0.0
    n = 0
    for x in dds:
        print("tracing body", type(x).__name__)
        def fn(b):
            print("tracing fn")
            tf.print("replica batch", b, output_stream=LOG)
            return tf.reduce_sum(b)
        total += S2.reduce("SUM", S2.run(fn, args=(x,)), axis=None)
        n += 1
    return total / tf.cast(n, tf.float32), n
r = calls(f, (dds,), (dds,))
out = [printed.getvalue(), sorted(logged().splitlines()),
       [[float(a), int(b)] for a, b in r], f.experimental_get_tracing_count()]
""",
    "for over datasets distributed from a function, per-replica outputs": """
def dataset_fn(ctx):
    return tf.data.Dataset.range(6).shard(ctx.num_input_pipelines,
                                          ctx.input_pipeline_id).batch(2)
dds = S2.distribute_datasets_from_function(dataset_fn)
@tf.function
def f(dds):
    last = S2.run(lambda: tf.zeros([1], tf.int64))
    for x in dds:
        last = S2.run(lambda b: b * 10, args=(x,))
    return last
r = calls(f, (dds,))
out = [local(r[0]), devices(r[0])]
""",
    "a per-replica loop variable over datasets distributed from a function": """
def dataset_fn(ctx):
    return tf.data.Dataset.range(8).shard(ctx.num_input_pipelines,
                                          ctx.input_pipeline_id).batch(2)
dds = S2.distribute_datasets_from_function(dataset_fn)
@tf.function
def f(dds):
    total = S2.run(lambda: tf.zeros([], tf.int64))
    for x in dds:
        total = S2.run(lambda t, b: t + tf.reduce_sum(b), args=(total, x))
    return total
r = calls(f, (dds,))
out = [local(r[0]), devices(r[0])]
""",
    "iterators of one spec share a trace, each consumed": """
ds = tf.data.Dataset.range(8).batch(4)
@tf.function
def f(it):
    print("tracing f")
    return S2.run(tf.reduce_sum, args=(next(it),))
a, b = iter(S2.experimental_distribute_dataset(ds)), iter(S2.experimental_distribute_dataset(ds))
r = calls(f, (a,), (b,), (a,))
out = [[local(v) for v in r], printed.getvalue(), f.experimental_get_tracing_count()]
""",
    "a distributed iterator made in the function starts afresh at every call": """
dds = S2.experimental_distribute_dataset(tf.data.Dataset.range(12).batch(4))
@tf.function
def f(dds):
    it = iter(dds)
    first = next(it)
    total = tf.constant(0, tf.int64)
    for x in it:
        total += S2.reduce("SUM", x, axis=0)
    return S2.experimental_local_results(first), total
r = calls(f, (dds,), (dds,))
out = [[[[int(t) for t in a.numpy()] for a in first], int(total)] for first, total in r]
""",
    "break in a for over a distributed dataset": """
dds = S2.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4))
@tf.function
def f(dds):
    total = tf.constant(0, tf.int64)
    for x in dds:
        total += S2.reduce("SUM", x, axis=0)
        if total > 3:
            break
    return total
out = f(dds)
""",
    "for over a distributed iterator continues where the last call stopped": """
dds = S2.experimental_distribute_dataset(tf.data.Dataset.range(12).batch(4))
it = iter(dds)
@tf.function
def f(it):
    print("tracing f")
    total = tf.constant(0, tf.int64)
    for x in it:
        total += S2.reduce("SUM", x, axis=0)
        if total > 20:
            break
    return total
first = next(it)
r = calls(f, (it,), (it,))
out = [local(first), [int(v) for v in r], printed.getvalue()]
""",
    "get_next_as_optional with break in a tf.range loop (the input tutorial's train_fn)": """
it = iter(S2.experimental_distribute_dataset(tf.data.Dataset.range(9).batch(4)))
seen = []
@tf.function
def f(it):
    for _ in tf.range(5):
        opt = it.get_next_as_optional()
        seen.append([opt.has_value().dtype.name, str(opt.has_value().shape)])
        if not opt.has_value():
            break
        r = S2.run(lambda x: x, args=(opt.get_value(),))
        tf.print(S2.experimental_local_results(r), output_stream=LOG)
r = calls(f, (it,))
out = [logged(), seen, f.experimental_get_tracing_count()]
""",
    "next past the end of a distributed iterator in a graph": """
it = iter(S2.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(4)))
@tf.function
def f(it):
    return S2.run(tf.reduce_sum, args=(next(it),))
r = local(f(it))
f(it)
""",
    "a map function using a tensor of the trace captures it": """
@tf.function
def scaled_sum(x, k):
    print("tracing", k.shape)
    total = tf.constant(0.0)
    for row in tf.data.Dataset.from_tensor_slices(x).map(lambda r: r * k):
        total += tf.reduce_sum(row)
    return total
r = calls(scaled_sum, (tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant(2.0)),
          (tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant(-0.5)),
          (tf.constant([[1.0, 1.0], [1.0, 1.0]]), tf.constant(3.0)))
out = [printed.getvalue(), [float(t) for t in r], scaled_sum.experimental_get_tracing_count()]
""",
    "map and filter functions capturing a tensor, a loop and reduce over them": """
@tf.function
def f(k):
    ds = tf.data.Dataset.range(6).map(lambda r: r * k + 1).filter(lambda r: r < 4 * k)
    total = tf.constant(0, tf.int64)
    for x in ds:
        total += x
    return total, ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + b * k)
r = calls(f, (tf.constant(2, tf.int64),), (tf.constant(3, tf.int64),))
out = [[[int(a), int(b)] for a, b in r], f.experimental_get_tracing_count()]
""",
    "interleave and flat_map functions capturing a tensor of the trace": """
@tf.function
def f(k):
    print("tracing", k.shape)
    ds = tf.data.Dataset.range(4).interleave(
        lambda x: tf.data.Dataset.range(x + k).map(lambda y: y * 10 + x),
        cycle_length=2, block_length=2)
    total = tf.constant(0, tf.int64)
    for x in ds:
        total = total * 3 + x
    return total, ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + b)
r = calls(f, (tf.constant(1, tf.int64),), (tf.constant(2, tf.int64),),
          (tf.constant(0, tf.int64),))
@tf.function
def g(x, k):
    ds = tf.data.Dataset.from_tensor_slices(x).flat_map(
        lambda r: tf.data.Dataset.from_tensor_slices(r * tf.cast(k, tf.float32)).take(k))
    return ds.reduce(tf.constant(0.0), lambda a, b: a * 2.0 + b)
q = [g(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), tf.constant(k, tf.int64))
     for k in (1, 2, 3)]
out = [printed.getvalue(), [[int(a), int(b)] for a, b in r], f.experimental_get_tracing_count(),
       [float(t) for t in q], g.experimental_get_tracing_count()]
""",
    "a shape that depends on a captured tensor is unknown in the element spec": """
@tf.function
def h(k):
    ds = tf.data.Dataset.range(3).flat_map(
        lambda x: tf.data.Dataset.from_tensors(tf.fill([k], x)))
    print("flat_map spec", ds.element_spec)
    return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + tf.reduce_sum(b))
@tf.function
def m(k):
    ds = tf.data.Dataset.range(3).map(lambda x: tf.fill([k], x))
    print("map spec", ds.element_spec)
    return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + tf.reduce_sum(b))
r = calls(h, (tf.constant(2),), (tf.constant(4),)) + calls(m, (tf.constant(2),), (tf.constant(4),))
empty = tf.data.Dataset.range(0).map(lambda x: (x * 2, tf.strings.as_string(x)))
out = [printed.getvalue(), [int(t) for t in r], h.experimental_get_tracing_count(),
       m.experimental_get_tracing_count(), str(empty.element_spec)]
""",
    "from_generator with a tensor of the trace in its args": """
def gen(n, scale):
    for i in range(n):
        yield i * scale, [i] * 2
@tf.function
def f(n):
    ds = tf.data.Dataset.from_generator(gen, args=(n, 3.0), output_signature=(
        tf.TensorSpec((), tf.float32), tf.TensorSpec((2,), tf.int32)))
    print("spec", ds.element_spec)
    t = tf.constant(0.0)
    for a, b in ds:
        t = t * 2.0 + a + tf.cast(tf.reduce_sum(b), tf.float32)
    return t
r = calls(f, (tf.constant(3),), (tf.constant(5),), (tf.constant(0),))
out = [printed.getvalue(), [float(t) for t in r], f.experimental_get_tracing_count()]
""",
    "a map function that fails at its trace: TF's frames in user code": """
def helper(x):
    return tf.reshape(x, [5])
def bad(x):
    y = x * 2.0
    return helper(y)
tf.data.Dataset.from_tensor_slices(np.zeros((3, 4), np.float32)).map(bad)
""",
    "a map lambda of a module not in sys.modules that fails: run unconverted": """
tf.data.Dataset.range(3).map(lambda x: tf.reshape(x, [2]))
""",
}

CASES = {name: MODULE + f"out = run_module('ds_case_{i}', {SETUP + src!r})\n"
         for i, (name, src) in enumerate(PROGRAMS.items())}
