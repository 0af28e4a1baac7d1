"""Dataset.bucket_by_sequence_length as TF 2.21 gives it, recorded by record_tf_data_guide.py
into fixtures/tf_bucketing.json and replayed by test_data_guide_tf_conformance.py: buckets,
padding (to the longest, to the bucket's boundary, none), drop_remainder, element specs
and TF's argument error. Snippets as in tests/tf_snippets.py."""

BASE = """
def gen():
    for n in [1, 5, 3, 8, 2, 7, 4, 6, 9, 1, 3]:
        yield np.arange(n, dtype=np.int32)

ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([None], tf.int32))

def batches(b):
    return [[y.tolist() for y in x] if isinstance(x, tuple) else x.tolist()
            for x in b.as_numpy_iterator()]
"""

CASES = {
    "bucket_by_sequence_length pads to the longest": BASE + """
b = ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 6], [2, 2, 3])
out = [batches(b), repr(b.element_spec)]
""",
    "bucket_by_sequence_length pads to the boundary": BASE + """
b = ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 6, 10], [2, 2, 3, 1],
                                 pad_to_bucket_boundary=True, padding_values=-1)
out = [batches(b), repr(b.element_spec)]
""",
    "bucket_by_sequence_length tuples, drop_remainder": BASE + """
b = ds.map(lambda x: (x, tf.size(x))).bucket_by_sequence_length(
    lambda x, n: n, [4], [3, 2], drop_remainder=True)
out = [batches(b), repr(b.element_spec)]
""",
    "bucket_by_sequence_length no_padding": BASE + """
b = ds.map(lambda x: tf.size(x)).bucket_by_sequence_length(lambda n: n, [4], [3, 2],
                                                           no_padding=True)
out = [batches(b), repr(b.element_spec)]
""",
    "bucket_by_sequence_length batch sizes of another length": BASE + """
ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 6], [2, 2])
""",
}
