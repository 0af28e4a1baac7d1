"""Dataset.save and Dataset.load as TF 2.21 gives them, recorded by record_tf_data_guide.py
into fixtures/tf_saving.json and replayed by test_data_guide_tf_conformance.py: round trips,
the file names, shards and reader functions, compression, a given element_spec, cardinality
and TF's errors (paths relative to the temporary directory; the run folder's name is
random). Snippets as in tests/tf_snippets.py."""

BASE = """
import os, tempfile
d = tempfile.mkdtemp()

def rel(x):
    return x.replace(d, "D")

def error_of(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return [type(e).__name__, rel(str(e)).split("}} ")[-1].split(" [Op:")[0]]
    return None

def files(p):
    out = []
    for name in sorted(os.listdir(p)):
        sub = os.path.join(p, name)
        out.append(["RUN", sorted(os.listdir(sub))] if os.path.isdir(sub) else name)
    return sorted(out, key=str)

def items(ds):
    return list(ds.as_numpy_iterator())
"""

CASES = {
    "save and load": BASE + """
ds = tf.data.Dataset.from_tensor_slices(({"a": np.arange(5)}, ["x", "y", "z", "w", "v"]))
p = os.path.join(d, "s")
done = ds.save(p)
l = tf.data.Dataset.load(p)
out = [done, files(p), repr(l), l.cardinality(), [[e[0]["a"], e[1]] for e in items(l)]]
""",
    "save again, load with an element_spec": BASE + """
p = os.path.join(d, "s")
tf.data.Dataset.range(3).save(p)
tf.data.Dataset.range(5, 9).save(p)
f = os.path.join(d, "f")
tf.data.Dataset.range(6).filter(lambda x: x % 2 == 0).save(f)
l = tf.data.Dataset.load(f, element_spec=tf.TensorSpec([], tf.int64))
out = [items(tf.data.Dataset.load(p)), items(l), l.cardinality()]
""",
    "save shards, load with a reader_func": BASE + """
p = os.path.join(d, "sh")
tf.data.Dataset.range(10).save(p, shard_func=lambda x: x % 3)
one = tf.data.Dataset.load(p, reader_func=lambda dss: dss.interleave(lambda x: x,
                                                                      cycle_length=1))
two = tf.data.Dataset.load(p, reader_func=lambda dss: dss.flat_map(lambda x: x.take(2)))
out = [files(p), items(one), one.cardinality(), items(two)]
""",
    "save compressed batches": BASE + """
p = os.path.join(d, "gz")
tf.data.Dataset.range(4).map(lambda x: tf.fill([x], x)).padded_batch(2).save(
    p, compression="GZIP")
l = tf.data.Dataset.load(p, compression="GZIP")
out = [items(l), repr(l.element_spec)]
""",
    "load of nothing saved": BASE + """
out = [error_of(lambda: tf.data.Dataset.load(os.path.join(d, "nope"))),
       error_of(lambda: tf.data.Dataset.load(os.path.join(d, "nope"),
                                             element_spec=tf.TensorSpec([], tf.int64)))]
""",
    "save with a shard_func of floats": BASE + """
out = error_of(lambda: tf.data.Dataset.range(3).save(os.path.join(d, "q"),
                                                    shard_func=lambda x: 1.5))
""",
}
