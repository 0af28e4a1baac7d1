"""Dataset.random, sample_from_datasets and stateless_categorical as TF 2.21 gives them,
recorded by record_tf_data_guide.py into fixtures/tf_sampling.json and replayed by
test_data_guide_tf_conformance.py: TF's element order for a seed (its Philox words and its
multinomial kernel), rerandomized passes, weights of every kind and TF's argument errors.
Snippets as in tests/tf_snippets.py; each case starts without a global seed."""

BASE = """
tf.random.set_seed(None)
a = tf.data.Dataset.range(10)
b = tf.data.Dataset.range(100, 110)
c = tf.data.Dataset.range(200, 205)

def items(ds, n=None):
    return list((ds if n is None else ds.take(n)).as_numpy_iterator())
"""

CASES = {
    "random: words of a seed, every pass the same": BASE + """
r = tf.data.Dataset.random(seed=1)
out = [items(r, 5), items(r, 5), repr(r.element_spec), r.cardinality()]
""",
    "random: rerandomized passes": BASE + """
r = tf.data.Dataset.random(seed=7, rerandomize_each_iteration=True)
out = [items(r, 3), items(r, 3), items(r.take(2).repeat(3))]
""",
    "random: the global seed": BASE + """
tf.random.set_seed(5)
out = [items(tf.data.Dataset.random(), 3), items(tf.data.Dataset.random(), 3),
       items(tf.data.Dataset.random(seed=2), 3)]
""",
    "sample_from_datasets uniform": BASE + """
s = tf.data.Dataset.sample_from_datasets([a, b, c], seed=3)
out = [items(s), items(s), repr(s.element_spec), s.cardinality()]
""",
    "sample_from_datasets weights": BASE + """
out = [items(tf.data.Dataset.sample_from_datasets([a, b], [0.2, 0.8], seed=11)),
       items(tf.data.Dataset.sample_from_datasets([a, b], np.array([0.9, 0.1]), seed=11)),
       items(tf.data.Dataset.sample_from_datasets([a, b, c], tf.constant([1., 2., 3.],
                                                                     tf.float64), seed=4)),
       items(tf.data.Dataset.sample_from_datasets([a, b, c], [0.5, 0.0, 0.5], seed=4))]
""",
    "sample_from_datasets zero weights": BASE + """
one = tf.data.Dataset.sample_from_datasets([a, b], [0.0, 1.0], seed=3)
none = tf.data.Dataset.sample_from_datasets([a, b], [0.0, 0.0], seed=3)
out = [one is b, items(one), items(none), none.cardinality(),
       tf.data.Dataset.sample_from_datasets([c]) is c]
""",
    "sample_from_datasets stop_on_empty_dataset": BASE + """
out = [items(tf.data.Dataset.sample_from_datasets([a, c], seed=9, stop_on_empty_dataset=True)),
       items(tf.data.Dataset.sample_from_datasets([a, c], seed=9))]
""",
    "sample_from_datasets rerandomized and repeated": BASE + """
s = tf.data.Dataset.sample_from_datasets([a, c], seed=2, rerandomize_each_iteration=True)
r = tf.data.Dataset.sample_from_datasets([a.repeat(), c.repeat()], seed=2)
out = [items(s), items(s), items(r, 12), r.cardinality()]
""",
    "sample_from_datasets weights dataset": BASE + """
w = tf.data.Dataset.from_tensor_slices([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]] * 3)
out = items(tf.data.Dataset.sample_from_datasets([a, b], w, seed=6))
""",
    "sample_from_datasets with a global seed": BASE + """
tf.random.set_seed(8)
out = [items(tf.data.Dataset.sample_from_datasets([a, b])),
       items(tf.data.Dataset.sample_from_datasets([a, b], seed=1))]
""",
    "sample_from_datasets structures": BASE + """
x = tf.data.Dataset.from_tensor_slices(({"k": [1, 2]}, [[1.5], [2.5]]))
y = tf.data.Dataset.from_tensor_slices(({"k": [3, 4, 5]}, [[3.5, 4.], [4.5, 5.], [5.5, 6.]]))
s = tf.data.Dataset.sample_from_datasets([x, y], seed=1)
out = [repr(s.element_spec), [[e[0]["k"], e[1]] for e in items(s)]]
""",
    "sample_from_datasets no datasets": BASE + """
tf.data.Dataset.sample_from_datasets([])
""",
    "sample_from_datasets weights of another length": BASE + """
tf.data.Dataset.sample_from_datasets([a, b], [0.5, 0.3, 0.2])
""",
    "sample_from_datasets weights tensor of another shape": BASE + """
tf.data.Dataset.sample_from_datasets([a, b], tf.constant([0.5, 0.3, 0.2]))
""",
    "sample_from_datasets integer weights": BASE + """
tf.data.Dataset.sample_from_datasets([a, b], [1, 2])
""",
    "sample_from_datasets incompatible datasets": BASE + """
tf.data.Dataset.sample_from_datasets([a, tf.data.Dataset.from_tensors(1.0)])
""",
    "stateless_categorical": BASE + """
logits = tf.math.log([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0], [1.0, 1.0, 1.0]])
out = [tf.random.stateless_categorical(logits, 5, seed=[1, 2]),
       tf.random.stateless_categorical(logits[:1], 7, seed=[3, 4], dtype=tf.int32),
       tf.random.stateless_categorical([[0.0, 0.0]], 4, seed=[9, 9])]
""",
    "rejection_resample with an initial distribution": BASE + """
x = tf.data.Dataset.from_tensor_slices(np.array([0, 1, 0, 0, 1, 0, 0, 0, 1, 0] * 4, np.int32))
r = x.rejection_resample(lambda v: v, target_dist=[0.5, 0.5], initial_dist=[0.7, 0.3], seed=7)
out = [items(r), items(r), repr(r.element_spec)]
""",
    "rejection_resample estimating the distribution": BASE + """
x = tf.data.Dataset.from_tensor_slices((np.array([0, 1, 2, 0, 0, 1, 0, 0] * 6, np.int32),
                                        np.arange(48.0, dtype=np.float32)))
r = x.rejection_resample(lambda c, v: c, target_dist=[0.2, 0.4, 0.4], seed=3)
out = [items(r), repr(r.element_spec)]
""",
    "rejection_resample static mixes": BASE + """
x = tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 0, 1, 1], np.int32))
same = x.rejection_resample(lambda v: v, [0.5, 0.5], initial_dist=[0.5, 0.5], seed=1)
drop = x.rejection_resample(lambda v: v, [1.0, 0.0], initial_dist=[0.5, 0.5], seed=1)
old = x.apply(tf.data.experimental.rejection_resample(lambda v: v, [0.5, 0.5], [0.4, 0.6],
                                                      seed=2))
out = [items(same), items(drop), items(old)]
""",
    "rejection_resample the guide's balancing": BASE + """
tf.random.set_seed(1)
labels = np.array([0] * 45 + [1] * 5, np.int64)
feats = np.arange(50, dtype=np.float32)
ds = tf.data.Dataset.from_tensor_slices(({"v": feats}, labels)).shuffle(50, seed=4).batch(10)
def class_func(features, label):
    return label
resample_ds = (ds.unbatch().rejection_resample(class_func, target_dist=[0.5, 0.5],
                                               initial_dist=[0.9, 0.1])
               .map(lambda extra_label, features_and_label: features_and_label).batch(10))
out = [[b[1] for b in items(resample_ds)], repr(resample_ds.element_spec)]
""",
    "random ops in a dataset function restart with each iterator": BASE + """
f = tf.data.Dataset.range(12).filter(lambda x: tf.random.uniform([], seed=3) < 0.5)
m = tf.data.Dataset.range(2).map(lambda x: tf.random.uniform([], seed=3))
out = [items(f), items(f), items(m.repeat(2)), [next(iter(m)), next(iter(m))]]
""",
}
