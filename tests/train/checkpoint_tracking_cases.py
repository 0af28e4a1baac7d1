"""Checkpoints of dataset iterators and of attributes set on a tf.train.Checkpoint, as TF 2.21
gives them (recorded by record_tf_checkpoint.py into fixtures/tf_checkpoint_tracking.json,
replayed by test_checkpoint_tf_conformance.py): an iterator's key and its position
restored (a repeated, batched dataset; a mapped one), lists and dicts set as attributes
(ListWrapper / DictWrapper, their keys, items restored when appended or set later), a plain
Python attribute kept but not saved. Snippets as in tests/tf_snippets.py."""

PRELUDE = """
import os, tempfile
D = tempfile.mkdtemp()
"""

CASES = {
    "an iterator's position is saved and restored": PRELUDE + """
ds = tf.data.Dataset.range(10).repeat().batch(3)
it = iter(ds)
first = [next(it) for _ in range(2)]
ck = tf.train.Checkpoint(iterator=it)
path = ck.save(os.path.join(D, 'c'))
after = next(it)
it2 = iter(ds)
tf.train.Checkpoint(iterator=it2).restore(path)
out = [first, after, next(it2), next(it2),
       sorted(k for k, _ in tf.train.list_variables(path))]
""",
    "a mapped dataset's iterator restored into the same iterator": PRELUDE + """
it = iter(tf.data.Dataset.range(6).map(lambda x: x * 10))
ck = tf.train.Checkpoint(it=it)
next(it)
path = ck.write(os.path.join(D, 'c'))
seen = [next(it), next(it)]
ck.read(path)
out = [seen, next(it), next(it)]
""",
    "lists and dicts set as attributes are tracked": PRELUDE + """
save = tf.train.Checkpoint()
save.listed = [tf.Variable(1.)]
save.listed.append(tf.Variable(2.))
save.mapped = {'one': save.listed[0]}
save.mapped['two'] = save.listed[1]
save.note = 'not saved'
path = save.save(os.path.join(D, 'l'))
out = [repr(save.listed)[:12], repr(save.mapped)[:12], type(save.listed).__name__,
       isinstance(save.listed, list), save.note,
       sorted(k for k, _ in tf.train.list_variables(path))]
""",
    "items appended or set after a restore get their values": PRELUDE + """
save = tf.train.Checkpoint()
save.listed = [tf.Variable(1.), tf.Variable(2.)]
save.mapped = {'a': tf.Variable(3.)}
path = save.save(os.path.join(D, 'l'))
restore = tf.train.Checkpoint()
restore.restore(path)
restore.listed = []
empty = repr(restore.listed)
v1, v2, v3 = tf.Variable(0.), tf.Variable(0.), tf.Variable(0.)
restore.listed.append(v1)
restore.listed.append(v2)
restore.mapped = {}
restore.mapped['a'] = v3
out = [empty, v1, v2, v3]
""",
    "a variable set as a checkpoint attribute after a restore is restored": PRELUDE + """
src = tf.train.Checkpoint(k=tf.Variable([1., 2.]))
path = src.save(os.path.join(D, 'k'))
dst = tf.train.Checkpoint()
dst.restore(path)
v = tf.Variable([0., 0.])
before = v.numpy()
dst.k = v
out = [before, v]
""",
}
