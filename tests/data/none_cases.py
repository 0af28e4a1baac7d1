"""A None component of a dataset element (TF's NoneTensor) as TF 2.21 gives it, recorded by
record_tf_data_guide.py into fixtures/tf_none.json and replayed by
test_data_guide_tf_conformance.py: element specs, iteration, batch / unbatch, functions
taking it, and padded_batch's TypeError. Snippets as in tests/tf_snippets.py."""

BASE = """
m = tf.data.Dataset.range(3).map(lambda x: (x, None))

def items(ds):
    return list(ds.as_numpy_iterator())
"""

CASES = {
    "None components of a map": BASE + """
out = [repr(m), items(m), [e[1] for e in m],
       items(tf.data.Dataset.range(2).map(lambda x: {"a": x, "b": None})),
       repr(tf.data.Dataset.from_tensor_slices(([1, 2], None)).element_spec),
       items(tf.data.Dataset.from_tensor_slices(([1, 2], None)))]
""",
    "None components through batch, unbatch, map, filter, shuffle": BASE + """
out = [items(m.batch(2)), repr(m.batch(2).element_spec), items(m.batch(2).unbatch()),
       items(m.map(lambda x, y: x + 1 if y is None else x)),
       items(m.filter(lambda x, y: x > 0)), items(m.shuffle(3, seed=1).take(1)),
       items(m.cache())]
""",
    "padded_batch of a None component": BASE + """
m.padded_batch(2)
""",
}
