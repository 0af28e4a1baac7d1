"""Dataset methods and tf.data.experimental endpoints as TF 2.21 gives them (take_while,
unique, assert_cardinality, get_single_element, counter, choose_from_datasets), the lists a
dataset function returns (packed into tensors, TF's errors) and datasets' reprs, recorded by
record_tf_specs.py into fixtures/tf_dataset_ops.json and replayed by
test_specs_tf_conformance.py. Each program runs as a module file of its own
(tf_snippets.MODULE)."""

import scan_cases
from tf_snippets import MODULE

COMMON = scan_cases.COMMON + """
import logging, os, re
class Kept(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []
    def emit(self, record):
        text = re.sub(r"From (\\S+):(\\d+):", lambda m: "From " + os.path.basename(m.group(1))
                      + ":" + m.group(2) + ":", record.getMessage())
        if "is deprecated" in text:   # TF's AutoGraph notes on lambdas not among them
            self.messages.append(text)
kept = Kept()
logging.getLogger("tensorflow").addHandler(kept)
"""

NEW_OPS = COMMON + """
r = tf.data.Dataset.range(10)
tw = r.take_while(lambda x: x < 4)
u = tf.data.Dataset.from_tensor_slices([1, 3, 1, 2, 3, 5])
a = r.filter(lambda x: x > 5).apply(tf.data.experimental.assert_cardinality(4))
def cardinality_error(n):
    return error(lambda: values(r.apply(tf.data.experimental.assert_cardinality(n))))
def pick(choices, stop=True, datasets=None):
    datasets = datasets or [tf.data.Dataset.from_tensors("a").repeat(),
                            tf.data.Dataset.from_tensors("b").repeat(2)]
    return tf.data.Dataset.choose_from_datasets(
        datasets, tf.data.Dataset.from_tensor_slices(tf.constant(choices, tf.int64)),
        stop_on_empty_dataset=stop)
k = tf.Variable(3, dtype=tf.int64)
@tf.function
def single(n):
    return tf.data.Dataset.range(n).filter(lambda x: x > n - 2).map(
        lambda x: x * k).get_single_element()
c = tf.data.Dataset.counter(5, -2, tf.int32)
fin = [tf.data.Dataset.range(2), tf.data.Dataset.range(10, 13)]
def kernel_message(fn):   # a graph execution error's kernel text (TF wraps it in frames)
    got = error(fn)
    return [got[0], [line for line in got[1].splitlines() if line.strip()
                     and not line.strip().startswith("[[")][-1]]
out = [values(tw), int(tw.cardinality()), str(tw.element_spec),
       values(tf.data.Dataset.range(3).repeat().take_while(lambda x: x < 2)),
       error(lambda: r.take_while(lambda x: x)),
       error(lambda: r.take_while(lambda x: tf.stack([x > 1, x > 2]))),
       values(r.apply(tf.data.experimental.take_while(lambda x: x < 2))),
       values(u.unique()), int(u.unique().cardinality()),
       values(tf.data.Dataset.from_tensor_slices(["a", "b", "a"]).unique()),
       values(tf.data.Dataset.from_tensor_slices([[1, 2], [1, 2], [2, 1]]).unique()),
       error(lambda: tf.data.Dataset.from_tensor_slices([1.0, 2.0]).unique()),
       error(lambda: tf.data.Dataset.zip((u, u)).unique()),
       values(u.apply(tf.data.experimental.unique())),
       int(a.cardinality()), values(a), cardinality_error(12), cardinality_error(5),
       cardinality_error(1), cardinality_error(tf.data.INFINITE_CARDINALITY),
       values(r.take(1).apply(tf.data.experimental.assert_cardinality(1))),
       py(tf.data.Dataset.range(1).get_single_element()),
       error(lambda: tf.data.Dataset.range(0).get_single_element()),
       error(lambda: tf.data.Dataset.range(2).get_single_element()),
       py(tf.data.experimental.get_single_element(tf.data.Dataset.from_tensors((1, 2.0)))),
       [py(single(tf.constant(n, tf.int64))) for n in (3, 5)],
       kernel_message(lambda: single(tf.constant(0, tf.int64))),
       single.experimental_get_tracing_count(),
       values(tf.data.Dataset.counter().take(3)), int(tf.data.Dataset.counter().cardinality()),
       values(c.take(3)), str(c.element_spec),
       values(tf.data.experimental.Counter(2).take(2)),
       values(pick([0, 1, 1, 0, 1])), values(pick([0, 1, 1, 1, 0], stop=False)),
       values(pick([1, 1, 1, 0])),
       values(tf.data.experimental.choose_from_datasets(
           [tf.data.Dataset.from_tensors("a").repeat(), tf.data.Dataset.from_tensors("b")],
           tf.data.Dataset.from_tensor_slices(tf.constant([1, 1, 0], tf.int64)))),
       int(pick([0, 1]).cardinality()), values(pick([1, 0, 1, 1], stop=False, datasets=fin)),
       int(pick([0], datasets=fin).cardinality()),
       error(lambda: tf.data.Dataset.choose_from_datasets(
           fin, tf.data.Dataset.from_tensor_slices([0, 1]))),
       error(lambda: tf.data.Dataset.choose_from_datasets([], tf.data.Dataset.range(2))),
       error(lambda: values(pick([0, 2]))),
       error(lambda: tf.data.Dataset.choose_from_datasets(
           [fin[0], tf.data.Dataset.from_tensors("s")], tf.data.Dataset.range(2))),
       str(pick([0, 1], datasets=[tf.data.Dataset.from_tensors([1, 2]),
                                  tf.data.Dataset.from_tensors([3, 4, 5])]).element_spec),
       kept.messages]
"""

LISTS = COMMON + """
ds = tf.data.Dataset.range(3)
traced = []
def f1(x): traced.append(1); return (x, [x, 1])
def f2(x): return (x, [x, 1.5])
def f3(x): return (x, [x, True])
def f4(x): return [[x, x], [x, 1]]
def f5(x): return (x, [[x], [x, x]])
def f6(x): traced.append(6); return {"a": [[x, 2 * x], [x, 1]]}
def f7(x): return (x, [1.5, 2])
def f8(x): return (x, [tf.cast(x, tf.float32), 2])
def f9(x): return (x, [None, x])
def f10(x): return (x, ["a", "b"])
def f11(x): return {"a": [x, tf.stack([x, x])]}
def f12(x): return {"a": [x, tf.cast(x, tf.float32)]}
def f13(w): return {"a": [w.batch(2), tf.constant(1, tf.int64)]}
def f14(x): return {"a": [x, tf.data.Dataset.range(2)]}
out = []
for fn in [f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12]:
    try:
        d = ds.map(fn)
        out.append([str(d.element_spec), values(d)])
    except Exception as e:  # noqa: BLE001 - the error is the result
        out.append([type(e).__name__, str(e)])
out += [traced, error(lambda: ds.window(2).map(f13)), error(lambda: ds.map(f14)),
        values(ds.filter(lambda x: tf.reduce_all(tf.stack([x, 1]) > 0)))]
"""

REPRS = COMMON + """
r = tf.data.Dataset.range(6)
def ident(x):
    return x
def pos(x):
    return x > 1
def one(x):
    return tf.data.Dataset.from_tensors(x)
def key(x):
    return x % 2
def red(k, w):
    return w.batch(2)
inner = []
def made(x):
    d = tf.data.Dataset.range(x)
    inner.append(repr(d))
    return d
windows = [repr(w) for w in r.window(2).take(1)]
gen = tf.data.Dataset.from_generator(lambda: iter([1, 2]),
                                     output_signature=tf.TensorSpec((), tf.int32))
made_ds = r.interleave(made)
out = [repr(d) for d in [r, r.batch(2), r.map(ident), r.filter(pos), r.shuffle(3), r.repeat(2),
                         r.take(2), r.skip(1), r.prefetch(1), r.cache(),
                         tf.data.Dataset.from_tensor_slices([1, 2]),
                         tf.data.Dataset.from_tensors(1), tf.data.Dataset.zip((r, r)),
                         r.concatenate(r), r.window(2), r.flat_map(one), r.interleave(one),
                         r.interleave(one, num_parallel_calls=2), r.padded_batch(2),
                         r.enumerate(), r.batch(2).unbatch(), r.shard(2, 0),
                         r.with_options(tf.data.Options()), r.group_by_window(key, red, 2),
                         r.map(ident, num_parallel_calls=2), gen, made_ds]]
out += [windows, inner]
"""

PROGRAMS = {
    "take_while, unique, assert_cardinality, get_single_element, counter, "
    "choose_from_datasets and their experimental endpoints": NEW_OPS,
    "lists a dataset function returns: packed into tensors, or TF's errors": LISTS,
    "datasets' reprs name TF's classes": REPRS,
}

CASES = {name: MODULE + f"out = run_module('dsops_case_{i}', {src!r})\n"
         for i, (name, src) in enumerate(PROGRAMS.items())}
