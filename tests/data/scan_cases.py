"""``Dataset.scan``, ``Dataset.group_by_window`` (and their ``tf.data.experimental``
transformations) and ``Dataset.window`` as TF 2.21 gives them, recorded by record_tf_specs.py into
fixtures/tf_scan.json and replayed by test_specs_tf_conformance.py: values, element specs,
cardinality, how often the Python of scan_func runs (once per trace; again when the state's
shape changes), the order groups are reduced in (a full window at once, the rest by ascending
key at the end), and TF's errors. Each program runs as a module file of its own
(tf_snippets.MODULE)."""

from tf_snippets import MODULE

COMMON = """
def py(v):
    if isinstance(v, tuple):
        return [py(x) for x in v]
    return np.asarray(v).tolist()

def values(ds):
    return [py(v) for v in ds.as_numpy_iterator()]

def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return [type(e).__name__, str(e).split("}} ")[-1].split(" [Op:")[0]]
    return None

r = tf.data.Dataset.range
"""

SCAN = COMMON + """
runs = []
def running(s, x):
    runs.append("running")
    return s + x, s * 10 + x
def grow(s, x):
    runs.append("grow")
    return tf.concat([s, [x]], 0), tf.reduce_sum(s)
def pair(s, x):
    return (s[0] * 2, s[1] + 1), (s[0], tf.cast(x, tf.float32) + tf.cast(s[1], tf.float32))
cum = r(5).scan(tf.constant(0, tf.int64), running)
grown = r(4).scan(tf.zeros([0], tf.int64), grow)
made = list(runs)
pairs = r(3).scan((tf.constant(1.0), tf.constant(0)), pair)
python_state = r(3).scan(0, lambda s, x: (s + 1, x * 2))
applied = r(4).apply(tf.data.experimental.scan(tf.constant(1, tf.int64),
                                               lambda s, x: (s * 2, s + x)))
out = [made, values(cum), str(cum.element_spec), int(cum.cardinality()), values(grown),
       str(grown.element_spec), values(pairs), str(pairs.element_spec), values(python_state),
       str(python_state.element_spec), values(applied), int(r(5).repeat().scan(
           0, lambda s, x: (s, x)).cardinality()), list(runs)]
"""

SCAN_ERRORS = COMMON + """
out = [error(lambda: r(3).scan(0, lambda s, x: s + 1)),
       error(lambda: r(3).scan(tf.constant(0), lambda s, x: (tf.cast(s, tf.float32), x))),
       error(lambda: r(3).scan((tf.constant(0), tf.constant(1.0)),
                               lambda s, x: ((s[0], tf.cast(s[1], tf.float64)), x)))]
"""

GROUP = COMMON + """
def size_of(x, y):
    return tf.cast(tf.size(y), tf.int64)
g1 = r(10).group_by_window(key_func=lambda x: x % 3, reduce_func=lambda k, w: w.batch(2),
                           window_size=2)
g2 = r(10).group_by_window(lambda x: x % 2, lambda k, w: w.batch(10).map(lambda b: (k, b)),
                           window_size_func=lambda k: k + 2)
g3 = r(7).apply(tf.data.experimental.group_by_window(lambda x: x % 2,
                                                     lambda k, w: w.batch(3), 3))
g4 = r(12).map(lambda x: (x, tf.fill([x % 3 + 1], x))).group_by_window(
    size_of, lambda k, w: w.batch(5), window_size=2)
g5 = r(5).group_by_window(lambda x: x % 2, lambda k, w: tf.data.Dataset.from_tensors(k),
                          window_size=2)
g6 = r(6).group_by_window(lambda x: 5 - x % 3, lambda k, w: w.batch(4), window_size=4)
g7 = r(5).group_by_window(lambda x: -x, lambda k, w: w, window_size=3)
g8 = r(3).group_by_window(lambda x: x, lambda k, w: w.map(lambda y: tf.cast(y, tf.float32)),
                          window_size=1)
out = [values(g1), str(g1.element_spec), int(g1.cardinality()), values(g2),
       str(g2.element_spec), values(g3), values(g4), str(g4.element_spec), values(g5),
       values(g6), values(g7), values(g8), str(g8.element_spec)]
"""

GROUP_ERRORS = COMMON + """
int32_key = error(lambda: r(3).group_by_window(lambda x: tf.cast(x, tf.int32), lambda k, w: w,
                                               window_size=2))
int32_size = error(lambda: r(3).group_by_window(lambda x: x, lambda k, w: w,
                                                window_size_func=lambda k: tf.cast(k, tf.int32)))
conversion = ("Tensor conversion requested dtype int64 for Tensor with dtype int32: "
              "<tf.Tensor 'Cast:0' shape=() dtype=int32>")
out = [error(lambda: r(3).group_by_window(lambda x: x, lambda k, w: w, window_size=2,
                                          window_size_func=lambda k: k)),
       error(lambda: r(3).group_by_window(lambda x: x, lambda k, w: w)),
       [int32_key[0], int32_key[1].startswith(conversion)],
       [int32_size[0], int32_size[1].startswith(conversion)],
       error(lambda: r(3).group_by_window(lambda x: tf.stack([x, x]), lambda k, w: w,
                                          window_size=2)),
       error(lambda: r(3).group_by_window(lambda x: x, lambda k, w: k, window_size=2)),
       error(lambda: values(r(3).group_by_window(lambda x: x, lambda k, w: w, window_size=0))),
       error(lambda: values(r(3).group_by_window(lambda x: x, lambda k, w: w,
                                                 window_size_func=lambda k: k - 1)))]
"""

WINDOW = COMMON + """
def batched(ds, n):
    return [py(v) for v in ds.flat_map(lambda w: w.batch(n)).as_numpy_iterator()]
w = r(7).window(3)
pairs = tf.data.Dataset.zip((r(5), r(5).map(lambda x: x * 10))).window(2)
named = r(5).map(lambda x: {"a": x}).window(2)
out = [str(w.element_spec), int(w.cardinality()), [[int(x) for x in d] for d in w],
       batched(r(7).window(3, shift=1, drop_remainder=True), 3),
       batched(r(10).window(3, shift=2, stride=2), 3),
       batched(r(10).window(2, shift=5), 2),
       str(pairs.element_spec),
       values(pairs.flat_map(lambda a, b: tf.data.Dataset.zip((a.batch(2), b.batch(2))))),
       values(named.flat_map(lambda d: d["a"].batch(2))),
       values(r(5).window(2).flat_map(lambda d: d)),
       str(r(5).window(2).flat_map(lambda d: d.batch(2)).element_spec),
       [int(r(7).window(3, drop_remainder=True).cardinality()),
        int(r(7).window(3, shift=1, drop_remainder=True).cardinality()),
        int(r(7).window(3, shift=2).cardinality()), int(r(2).window(3, stride=2,
                                                         drop_remainder=True).cardinality())],
       error(lambda: r(7).window(0)), error(lambda: r(7).window(2, shift=0)),
       error(lambda: r(7).window(2, stride=0))]
"""

STATE_STRUCTURE = COMMON + """
def says(fn, text):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return [type(e).__name__, text in str(e)]
    return "no error"
one = tf.constant(0, tf.int64)
made = [str(r(3).scan(one, lambda s, x: ((s, s), x)).element_spec),
        str(r(3).scan((one, one), lambda s, x: (s[0], x)).element_spec)]
out = made + [says(lambda: values(r(3).scan(one, lambda s, x: ((s, s), x))),
                   "Got wrong type for scan_func return value 2 (expected "),
              says(lambda: values(r(3).scan((one, one), lambda s, x: (s[0], x))),
                   "Expected 1 components but got 0."),
              says(lambda: values(r(3).scan((one, one, one), lambda s, x: (s[0], (x, x)))),
                   "Expected 2 components but got 0."),
              values(r(3).scan({"a": one}, lambda s, x: ({"b": s["a"] + x}, x)))]
"""

LIST_STATE = COMMON + """
import os, re
def located(fn):   # the error, its "in user code:" frame's file named without its folder
    got = error(fn)
    return [got[0], re.sub(r'File "([^"]+)"', lambda m: os.path.basename(m.group(1)), got[1])]
def step(s, x):
    runs.append(1)
    return [s[0] + x, s[1] * 2], s[0]
runs = []
pair = (tf.constant(0, tf.int64), tf.constant(1, tf.int64))
out = [located(lambda: r(4).scan([0, 1], step)),
       values(r(4).scan([tf.constant(0, tf.int64), tf.constant(1, tf.int64)], step)),
       str(r(4).scan([tf.constant(0, tf.int64), tf.constant(1, tf.int64)], step).element_spec),
       error(lambda: r(4).scan(pair, step)), len(runs)]
"""

PROGRAMS = {
    "scan: values, element specs, cardinality, a state that changes shape": SCAN,
    "scan: TF's errors for a bad scan_func": SCAN_ERRORS,
    "group_by_window: windows, the order of groups, element specs": GROUP,
    "group_by_window: TF's errors": GROUP_ERRORS,
    "window: windows as datasets, shift, stride, drop_remainder, specs, errors": WINDOW,
    "scan: a new state of another structure fails at the first element, as TF's kernel":
        STATE_STRUCTURE,
    "scan: a list state is one tensor; a list new state for a tuple state": LIST_STATE,
}

CASES = {name: MODULE + f"out = run_module('scan_case_{i}', {src!r})\n"
         for i, (name, src) in enumerate(PROGRAMS.items())}
