"""tf.data element specs and dataset functions as TF 2.21 gives them, recorded by
record_tf_specs.py into fixtures/tf_specs.json and replayed by test_specs_tf_conformance.py.

TF traces a dataset function (``map``, ``filter`` ...) once, symbolically, when the dataset
is made: the element spec is the traced outputs' static shapes (a dynamic TensorArray's
``stack()``, ``tf.range(x)``, a cond whose branches differ: ``None``), the Python runs
once (not per element), and a shape error in the function is raised when the dataset is
made. Also ``padded_batch``. Each program runs as a module file of its own (AutoGraph
reads the functions' source; tf_snippets.MODULE). Snippets as in tests/tf_snippets.py."""

from tf_snippets import MODULE

SPECS = """
def ta_stack(x):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(3):
        ta = ta.write(i, tf.cast(i, tf.float32) * x)
    return ta.stack()

def grow(x):
    def body(i, a):
        return i + 1, tf.concat([a, [i]], 0)
    return tf.while_loop(lambda i, a: i < x, body,
                         (tf.constant(0, tf.int64), tf.zeros([0], tf.int64)),
                         shape_invariants=(tf.TensorShape([]), tf.TensorShape([None])))[1]

def branches(x):
    return tf.cond(x > 1, lambda: tf.zeros([2]), lambda: tf.ones([3]))

def halves(x):
    return tf.reshape(x, [tf.shape(x)[0] // 2, 2])

def rows(x):
    return tf.zeros([tf.shape(x)[0], 3])

def doubled(x):
    return tf.concat([x, x], 0)

def tiled(x):
    return tf.tile([x], [x + 1])

def named(x):
    return {"a": tf.range(x), "b": tf.reshape(x, [1])}

def python_values(x):
    return x, "a", 1.5

def spec(ds):
    return str(ds.element_spec)

def positive(x):
    return tf.where(x > 1)

r = tf.data.Dataset.range
m = np.zeros((3, 4), np.float32)
out = {
    "where": spec(tf.data.Dataset.from_tensor_slices(m).map(positive)),
    "squeeze of unknown sizes": spec(r(5).batch(2).map(lambda x: tf.squeeze(x))),
    "TensorArray stack": spec(r(4).map(lambda x: tf.cast(x, tf.float32)).map(ta_stack)),
    "while_loop": spec(r(4).map(grow)),
    "cond": spec(r(4).map(branches)),
    "range": spec(r(4).map(tf.range)),
    "fill": spec(r(4).map(lambda x: tf.fill([3], x))),
    "reshape by tf.shape": spec(tf.data.Dataset.from_tensor_slices(m).map(halves)),
    "zeros of tf.shape(x)[0]": spec(r(5).batch(2).map(rows)),
    "concat of unknown": spec(r(5).batch(2).map(doubled)),
    "tile of a list": spec(r(5).map(tiled)),
    "dict": spec(r(4).map(named)),
    "python values": spec(r(3).map(python_values)),
    "empty input": spec(r(0).map(tf.range)),
}
"""

TRANSFORMATIONS = """
def spec(ds):
    return str(ds.element_spec)

r = tf.data.Dataset.range
gen = tf.data.Dataset.from_generator(lambda: iter([[1, 2], [3]]),
                                     output_signature=tf.TensorSpec([None], tf.int32))
out = {
    "filter": spec(r(6).filter(lambda x: x % 2 == 0)),
    "batch": spec(r(5).batch(2)),
    "batch drop_remainder": spec(r(5).batch(2, drop_remainder=True)),
    "batch of batch": spec(r(5).batch(2, drop_remainder=True).batch(3)),
    "unbatch": spec(r(6).batch(3).unbatch()),
    "unbatch, batch": spec(r(6).batch(4).unbatch().batch(2)),
    "from_generator": spec(gen),
    "from_generator, batch": spec(gen.batch(2)),
    "enumerate": spec(r(3).batch(2).enumerate()),
    "zip": spec(tf.data.Dataset.zip((r(3).batch(2), r(3).batch(2, drop_remainder=True)))),
    "concatenate": spec(r(3).batch(2, True).concatenate(r(3).batch(1, True))),
    "from_tensors of a list": spec(tf.data.Dataset.from_tensors([1, 2, 3])),
    "rebatch": spec(r(8).batch(4).rebatch(2)),
    "shuffle, batch": spec(r(8).shuffle(4).batch(3)),
    "flat_map": spec(r(3).flat_map(lambda x: r(x).batch(2))),
    "interleave": spec(r(3).interleave(lambda x: tf.data.Dataset.from_tensors(tf.range(x)))),
    "flat_map of from_tensors": spec(r(3).flat_map(
        lambda x: tf.data.Dataset.from_tensors(tf.fill([x, 2], x)))),
}
"""

VALUES = """
def ta_stack(x):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(tf.cast(x, tf.int32)):
        ta = ta.write(i, tf.cast(i, tf.float32) * 2.0)
    return ta.stack()

def branches(x):
    if x > 1:
        y = tf.zeros([2], tf.int64) + x
    else:
        y = tf.ones([3], tf.int64)
    return y

def values(ds):
    return [np.asarray(v).tolist() for v in ds.as_numpy_iterator()]

r = tf.data.Dataset.range
out = [values(r(4).map(ta_stack)), values(r(4).map(branches)),
       values(r(7).filter(lambda x: x % 3 != 1).map(lambda x: (x, x * x))),
       values(r(5).batch(2).map(lambda x: tf.concat([x, x * 10], 0))),
       values(r(3).map(  # a lambda that starts on a continued line and goes on: all of it
           lambda x: x + 100
           + 1000))]
"""

PYTHON_ONCE = """
import io, contextlib
runs = []
def scale(x):
    runs.append("map")
    print("tracing map", x.shape)
    return x * 2
def keep(x):
    runs.append("filter")
    return x < 3
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    ds = tf.data.Dataset.range(5).map(scale).filter(keep)
    made = list(runs)
    first = [int(v) for v in ds]
    second = [int(v) for v in ds]
out = [made, list(runs), first, second, printed.getvalue()]
"""

CAPTURED_ONCE = """
runs = []
def make(k):
    def fn(x):
        runs.append("map")
        return x * k
    return fn
@tf.function
def f(k):
    ds = tf.data.Dataset.range(4).map(make(k)).filter(lambda x: x < 3 * k)
    runs.append("after map")
    return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + b)
got = [int(f(tf.constant(2, tf.int64))), int(f(tf.constant(3, tf.int64)))]
out = [list(runs), got, f.experimental_get_tracing_count()]
"""

# ``tf.pad`` by a value of the element: simdist runs it eagerly (its spec read off a first
# element or a stand-in, dims that differ on other values unknown), TF traces it; neither
# draws a shuffle's seeds, calls a generator (map, filter, interleave) or writes a variable
EAGER_MAP_PEEKS_NOTHING = """
def padded(x):
    return tf.pad(tf.stack([x]), [[x % 3, 0]])
def rows(ds):
    return [[int(v) for v in row] for row in ds]
tf.random.set_seed(1)
shuffled = tf.data.Dataset.range(6).shuffle(6, seed=3).map(padded)
specs = [str(shuffled.element_spec)]
calls = []
def gen():
    calls.append("generator")
    yield from range(3)
made = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.int64))
mapped = made.map(padded)
kept = made.filter(lambda x: tf.size(padded(x)) > 1)
spread = made.interleave(lambda x: tf.data.Dataset.from_tensors(padded(x)), cycle_length=1)
specs += [str(mapped.element_spec), str(spread.element_spec)]
before = len(calls)
count = tf.Variable(0, dtype=tf.int64)
def counted(x):
    count.assign_add(1)
    return padded(x)
counting = tf.data.Dataset.range(3).map(counted)
specs.append(str(counting.element_spec))
writes = [int(count.numpy())]
writes.append([rows(counting), int(count.numpy())])
out = [rows(shuffled), rows(shuffled), specs, before, rows(mapped), [int(v) for v in kept],
       rows(spread), len(calls), writes]
"""

# A function simdist runs eagerly (``tf.pad`` by a value of the element) prints its Python
# once, when the dataset is made, as TF's trace: not at element_spec, not per element; a
# tf.py_function upstream runs (and prints) once per element of a pass, never for the spec
EAGER_MAP_PRINTS_ONCE = """
import io, contextlib
def padded(x):
    print("tracing", x.dtype.name)
    return tf.pad(tf.stack([x]), [[x % 3, 0]])
calls = []
def body(v):
    calls.append(int(v))
    print("py_function", int(v))
    return v * 2
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    ds = tf.data.Dataset.range(3).map(padded)
    seen = [printed.getvalue()]
    seen.append(str(ds.element_spec))
    seen.append(printed.getvalue())
    seen.append([[int(v) for v in row] for row in ds])
    seen.append(printed.getvalue())
    py = tf.data.Dataset.range(3).map(lambda x: tf.py_function(body, [x], tf.int64))
    chained = py.map(padded)
    seen.append(str(chained.element_spec))
    seen.append(list(calls))
    seen.append([[int(v) for v in row] for row in chained])
    seen.append(list(calls))
out = [seen, printed.getvalue()]
"""

# Likewise a tf.py_function in a cond's branch, a loop's body or a tf.function the traced
# map calls: the eager map's spec is not read off a first element (which would call it)
EAGER_MAP_NESTED_PY_FUNCTION = """
def padded(x):
    return tf.pad(tf.stack([x]), [[x % 3, 0]])
calls = []
def body(v):
    calls.append(int(v))
    return v * 2
def in_cond(x):
    return tf.cond(x >= 0, lambda: tf.py_function(body, [x], tf.int64), lambda: x)
def in_loop(x):
    return tf.while_loop(lambda i, a: i < 1,
                         lambda i, a: (i + 1, tf.reshape(tf.py_function(body, [a], tf.int64), [])),
                         (tf.constant(0), x))[1]
@tf.function
def nested(x):
    return tf.py_function(body, [x], tf.int64)
out = []
for f in (in_cond, in_loop, nested):
    del calls[:]
    chained = tf.data.Dataset.range(3).map(f).map(padded)
    out.append(str(chained.element_spec))
    out.append(list(calls))
    out.append([[int(v) for v in row] for row in chained])
    out.append(list(calls))
"""

# The spec of such a function over a traced map runs none of the traced map's ops: neither
# its variable write nor its tf.print (TF's kernel writes to the process's stdout, simdist's
# to sys.stdout: both are read), which run once per element of a pass; nor does a tf.print in
# the eager function itself, which prints per element
EAGER_MAP_RUNS_NO_OP = """
import io, contextlib, os, sys, tempfile
def padded(x):
    return tf.pad(tf.stack([x]), [[x % 3, 0]])
count = tf.Variable(0, dtype=tf.int64)
def noisy(x):
    tf.print("up", x, output_stream=sys.stdout)
    count.assign_add(1)
    return x
def eager_print(x):
    tf.print("in", x, output_stream=sys.stdout)
    return padded(x)
printed, fd_file = io.StringIO(), tempfile.TemporaryFile()
saved = os.dup(1)
def text():
    sys.stdout.flush()
    fd_file.seek(0)
    return fd_file.read().decode() + printed.getvalue()
os.dup2(fd_file.fileno(), 1)
try:
    with contextlib.redirect_stdout(printed):
        ds = tf.data.Dataset.range(3).map(noisy).map(padded)
        seen = [str(ds.element_spec), int(count.numpy()), text()]
        seen += [[[int(v) for v in row] for row in ds], int(count.numpy()), text()]
        ds = tf.data.Dataset.range(3).map(eager_print)
        seen += [str(ds.element_spec), text()]
        seen += [[[int(v) for v in row] for row in ds], text()]
finally:
    os.dup2(saved, 1)
    os.close(saved)
out = seen
"""

# What such a function prints after the op simdist cannot trace is seen once too (simdist:
# when the spec is read, which map's and interleave's element_spec do here; TF: when made)
EAGER_PRINTS_AFTER = """
import io, contextlib
def padded(x):
    print("before", x.dtype.name)
    y = tf.pad(tf.stack([x]), [[x % 3, 0]])
    print("after", y.dtype.name)
    return y
def spread(x):
    print("spread")
    return tf.data.Dataset.from_tensors(padded(x))
printed = io.StringIO()
seen = []
with contextlib.redirect_stdout(printed):
    ds = tf.data.Dataset.range(3).map(padded)
    seen += [str(ds.element_spec), printed.getvalue()]
    seen += [[[int(v) for v in row] for row in ds], printed.getvalue()]
    kept = tf.data.Dataset.range(3).filter(lambda x: tf.size(padded(x)) > 1)
    seen += [printed.getvalue(), [int(v) for v in kept]]
    spread_ds = tf.data.Dataset.range(3).interleave(spread, cycle_length=1)
    seen += [str(spread_ds.element_spec), printed.getvalue()]
    seen += [[[int(v) for v in row] for row in spread_ds], printed.getvalue()]
out = seen
"""

SHAPE_ERROR = """
def bad(x):
    return tf.reshape(x, [5])
try:
    tf.data.Dataset.from_tensor_slices(np.zeros((3, 4), np.float32)).map(bad)
    out = "made"
except ValueError as e:
    # TF wraps it ("in user code: ... ValueError: <text>"); the text is its last line
    line = str(e).strip().splitlines()[-1].strip()
    out = ["ValueError at map()", line[len("ValueError: "):] if line.startswith("ValueError: ")
           else line]
"""

FILTER_NOT_BOOL = """
tf.data.Dataset.range(4).filter(lambda x: x + 1)
"""

PADDED = """
def py(v):
    if isinstance(v, tuple):
        return [py(x) for x in v]
    if isinstance(v, dict):
        return [[k, py(x)] for k, x in sorted(v.items())]
    a = np.asarray(v)
    return a.tolist() if a.dtype != object else [b.decode() for b in a.ravel()]

def result(make):
    try:
        ds = make()
        return [[py(v) for v in ds.as_numpy_iterator()], str(ds.element_spec),
                int(ds.cardinality())]
    except Exception as e:  # noqa: BLE001 - the error is the result
        return [type(e).__name__, str(e).split("}} ")[-1].split(" [Op:")[0]]

r = tf.data.Dataset.range
seqs = r(1, 5).map(lambda x: tf.fill([x], x))
pairs = r(1, 4).map(lambda x: (tf.fill([x, 2], x), tf.strings.as_string(x)))
unknown = tf.data.Dataset.from_generator(lambda: iter([[1], [2, 3]]),
                                         output_signature=tf.TensorSpec(None, tf.int32))
out = [result(lambda: seqs.padded_batch(2)),
       result(lambda: seqs.padded_batch(3, drop_remainder=True)),
       result(lambda: seqs.padded_batch(2, padded_shapes=[5])),
       result(lambda: seqs.padded_batch(2, padded_shapes=[-1],
                                        padding_values=tf.constant(-1, tf.int64))),
       result(lambda: pairs.padded_batch(2)),
       result(lambda: pairs.padded_batch(2, padded_shapes=([None, 3], []),
                                         padding_values=(tf.constant(7, tf.int64), "z"))),
       result(lambda: r(4).padded_batch(2)),
       result(lambda: r(4).map(lambda x: {"a": tf.range(x), "b": x}).padded_batch(2)),
       result(lambda: unknown.padded_batch(2, padded_shapes=[3])),
       result(lambda: seqs.padded_batch(2, padded_shapes=[3])),
       result(lambda: seqs.padded_batch(0)),
       result(lambda: seqs.padded_batch(2, padded_shapes=[2, 2])),
       result(lambda: pairs.padded_batch(2, padded_shapes=([1, 2], []))),
       result(lambda: seqs.padded_batch(2, padding_values=1.5)),
       result(lambda: unknown.padded_batch(2))]
"""

PROGRAMS = {
    "map function element specs from the traced outputs": SPECS,
    "element specs of sources and transformations": TRANSFORMATIONS,
    "values through traced map and filter functions": VALUES,
    "a map or filter function's Python runs once, when the dataset is made": PYTHON_ONCE,
    "a map function capturing a tensor of the trace runs its Python once": CAPTURED_ONCE,
    "a shape error in a map function is raised when the dataset is made": SHAPE_ERROR,
    "an eager map's spec draws no shuffle seeds and calls no generator":
        EAGER_MAP_PEEKS_NOTHING,
    "an eager map prints once and calls an upstream py_function once per element":
        EAGER_MAP_PRINTS_ONCE,
    "an eager map's spec runs no op of a traced map upstream": EAGER_MAP_RUNS_NO_OP,
    "an eager function's print after the op simdist cannot trace is seen once":
        EAGER_PRINTS_AFTER,
    "a filter predicate that returns no bool": FILTER_NOT_BOOL,
    "padded_batch: padded shapes and values, specs, TF's errors": PADDED,
    "an eager map's spec calls no py_function in a cond, loop or tf.function upstream":
        EAGER_MAP_NESTED_PY_FUNCTION,
}

CASES = {name: MODULE + f"out = run_module('spec_case_{i}', {src!r})\n"
         for i, (name, src) in enumerate(PROGRAMS.items())}
