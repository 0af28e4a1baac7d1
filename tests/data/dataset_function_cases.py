"""Dataset functions that return datasets (``interleave``, ``flat_map``, ``group_by_window``'s
``reduce_func``) and functions over window datasets, as TF 2.21 runs them, recorded by
record_tf_specs.py into fixtures/tf_dataset_functions.json and replayed by
test_specs_tf_conformance.py: TF traces each once, when the dataset is made (a ``print``
inside runs once, not per element or window), in a tf.function too (once per trace, reading
the trace's tensors), and a map over a window's datasets traces with DatasetSpec arguments.
Each program runs as a module file of its own (tf_snippets.MODULE)."""

import scan_cases
from tf_snippets import MODULE

COMMON = scan_cases.COMMON + """
import contextlib, io
runs = []
printed = io.StringIO()
"""

INTERLEAVE_ONCE = COMMON + """
def make(x):
    runs.append("interleave")
    print("tracing interleave", x.shape)
    return r(x).map(lambda y: y * 10 + x)
def flat(x):
    runs.append("flat_map")
    return tf.data.Dataset.from_tensors(tf.fill([x], x)).repeat(2)
def nested(x):
    runs.append("nested")
    return r(x).flat_map(lambda y: tf.data.Dataset.from_tensors(x * 100 + y))
with contextlib.redirect_stdout(printed):
    a = r(1, 4).interleave(make, cycle_length=2, block_length=1)
    b = r(1, 4).flat_map(flat)
    c = r(1, 4).interleave(nested, cycle_length=3, block_length=2)
    made = list(runs)
    va, vb, vc, va2 = values(a), values(b), values(c), values(a)
out = [made, list(runs), va, vb, vc, va2, printed.getvalue(), str(a.element_spec),
       str(b.element_spec), str(c.element_spec)]
"""

GROUP_ONCE = COMMON + """
def key(x):
    runs.append("key")
    return x % 2
def reduce(k, w):
    runs.append("reduce")
    print("tracing reduce", k.dtype, type(w).__name__ != "")
    return w.batch(3).map(lambda b: (k, b))
def size(k):
    runs.append("size")
    return k + 2
with contextlib.redirect_stdout(printed):
    g = r(11).group_by_window(key, reduce, window_size_func=size)
    made = list(runs)
    vg, vg2 = values(g), values(g)
out = [made, list(runs), vg, vg2, printed.getvalue(), str(g.element_spec)]
"""

IN_FUNCTION = COMMON + """
@tf.function
def f(n, k):
    def make(x):
        runs.append("interleave")
        return r(x).map(lambda y: y + k)
    def from_k(x):
        runs.append("flat_map")
        return r(k).map(lambda y: y * x)
    def reduce(key, w):
        runs.append("reduce")
        return w.map(lambda v: v * k + key)
    a = r(n).interleave(make, cycle_length=2)
    b = r(n).flat_map(from_k)
    g = r(n).group_by_window(lambda x: x % 2, reduce, window_size=2)
    runs.append("made")
    s = lambda ds: ds.reduce(tf.constant(0, tf.int64), lambda acc, v: acc * 3 + v)
    return s(a), s(b), s(g)
got = [py(f(tf.constant(4, tf.int64), tf.constant(10, tf.int64))),
       py(f(tf.constant(3, tf.int64), tf.constant(2, tf.int64)))]
out = [list(runs), got, f.experimental_get_tracing_count()]
"""

WINDOW_MAP = COMMON + """
def total(w):
    runs.append("total")
    print("tracing total", type(w).__name__ != "")
    return w.reduce(tf.constant(0, tf.int64), lambda acc, v: acc + v)
def batched(w):
    runs.append("batched")
    return w.batch(3)
def pair(a, b):
    runs.append("pair")
    return a.reduce(tf.constant(0, tf.int64), lambda acc, v: acc + v), b.batch(2)
with contextlib.redirect_stdout(printed):
    t = r(7).window(3).map(total)
    bt = r(7).window(3).map(batched)
    p = tf.data.Dataset.zip((r(5), r(5).map(lambda x: x * 10))).window(2).map(pair)
    made = list(runs)
    vt = values(t)
    vbt = [values(d) for d in bt]
    vp = [[int(s), values(d)] for s, d in p]
out = [made, list(runs), vt, vbt, vp, printed.getvalue(), str(t.element_spec),
       str(bt.element_spec), str(p.element_spec)]
"""

ERRORS = COMMON + """
out = [error(lambda: r(3).interleave(lambda x: (x, r(x)))),
       error(lambda: r(3).flat_map(lambda x: (x, x))),
       error(lambda: r(3).interleave(lambda x: [r(x)]))]
"""

COMPOSED = COMMON + """
def once(name, fn):
    def wrapped(*args):
        runs.append(name)
        return fn(*args)
    return wrapped
@tf.function
def looped(k):
    total = tf.constant(0, tf.int64)
    for v in r(3).interleave(once("loop", lambda x: r(x + 1).map(lambda y: y * k)),
                             cycle_length=2):
        total += v
    return total
S1 = tf.distribute.MirroredStrategy(["/cpu:0"])
flat = r(4).flat_map(once("flat", lambda x: r(x).map(lambda y: x * 10 + y))).batch(2)
sums = r(7).window(3, shift=2).flat_map(once("window", lambda d: d.batch(3))).map(
    lambda b: tf.reduce_sum(b))
nested = r(8).group_by_window(lambda x: x % 2, once("reduce", lambda k, w: w.interleave(
    lambda v: r(v % 3).map(lambda z: z + k * 100), cycle_length=2)), window_size=3)
zipped = r(3).interleave(once("zip", lambda x: tf.data.Dataset.zip((r(x), r(x).map(
    lambda y: -y)))))
counts = r(4).window(2).map(once("count", lambda d: d.cardinality()))
card = tf.function(lambda n: r(n).filter(lambda x: x > 0).cardinality() +
                   r(n).batch(2).cardinality() * 10 + r(5).cardinality() * 100)
out = [[py(looped(tf.constant(2, tf.int64))), py(looped(tf.constant(3, tf.int64))),
        looped.experimental_get_tracing_count()],
       [py(v) for v in S1.experimental_distribute_dataset(flat)], values(sums), values(sums),
       values(nested), values(zipped), str(zipped.element_spec), values(counts),
       sorted(runs), [py(card(tf.constant(4, tf.int64))), py(card(tf.constant(7, tf.int64)))]]
"""

PROGRAMS = {
    "interleave and flat_map functions run their Python once, when the dataset is made":
        INTERLEAVE_ONCE,
    "group_by_window's functions run their Python once, when the dataset is made": GROUP_ONCE,
    "interleave, flat_map and reduce_func in a tf.function: once per trace, reading its "
    "tensors": IN_FUNCTION,
    "a map over window datasets traces with DatasetSpec arguments": WINDOW_MAP,
    "interleave and flat_map functions that return no dataset": ERRORS,
    "dataset functions composed: in a tf.function loop, distributed, nested, windows":
        COMPOSED,
}

CASES = {name: MODULE + f"out = run_module('dsfn_case_{i}', {src!r})\n"
         for i, (name, src) in enumerate(PROGRAMS.items())}
