"""tf.train.Example, tf.io.parse_example / parse_single_example and TFRecord files as TF 2.21
gives them (recorded by record_tf_strings.py into fixtures/tf_examples.json, replayed by
test_strings_tf_conformance.py): messages built, serialized (TF's bytes), printed in text
format, read back, refused values; features parsed as Tensors, SparseTensors and
RaggedTensors (partitions too), in a batch, alone and traced; the kernel's errors; records
written by TFRecordWriter and read by TFRecordDataset.
Snippets as in tests/tf_snippets.py."""

# Results as TF prints them; an error as its type and text.
HELP = """
def _text(items):
    return [str(x) for x in items]

def _error(fn):
    try:
        with tf.device('/cpu:0'):   # the kernel's text names its device
            fn()
    except Exception as e:
        return type(e).__name__ + ': ' + str(e)
    return 'no error'

def _bytes_feature(v):
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=v))

def _float_feature(v):
    return tf.train.Feature(float_list=tf.train.FloatList(value=v))

def _int64_feature(v):
    return tf.train.Feature(int64_list=tf.train.Int64List(value=v))

def _example(**features):
    return tf.train.Example(features=tf.train.Features(feature=features))
"""
BATCH = HELP + """
batch = [_example(ids=_int64_feature([1, 2]), words=_bytes_feature([b'x']),
                  score=_float_feature([1.5]), rows=_int64_feature([1, 1])),
         _example(ids=_int64_feature([3]), words=_bytes_feature([b'y', b'z']),
                  score=_float_feature([2.5]), rows=_int64_feature([2, 0]))]
batch = [e.SerializeToString(deterministic=True) for e in batch]
"""

CASES = {
    "an Example serialized and printed": HELP + """
e = _example(colors=_bytes_feature([b'red', b'\\xff\\n"']))
f = _example(lengths=_int64_feature([7, -1, 2**63 - 1]))
g = _example(scores=_float_feature([0.1, 1e10, 3.0, -0.0, 1 / 3, float('inf')]))
h = _example(b=_int64_feature([0]), a=_float_feature([]), c=tf.train.Feature(),
             ab=_int64_feature([1]))
out = [e.SerializeToString(), f.SerializeToString(), g.SerializeToString(),
       h.SerializeToString(deterministic=True), str(e), str(f), str(g), str(h),
       tf.train.Example().SerializeToString(), str(tf.train.Feature()), repr(_float_feature([2.5]))]
""",
    "an Example read back": HELP + """
data = _example(ids=_int64_feature([5, 6]), x=_float_feature([0.1])).SerializeToString(
    deterministic=True)
e = tf.train.Example.FromString(data)
ids = e.features.feature['ids']
x = e.features.feature['x']
out = [list(ids.int64_list.value), list(x.float_list.value), ids.WhichOneof('kind'),
       ids.HasField('float_list'), sorted(e.features.feature.keys()), 'ids' in e.features.feature,
       e == tf.train.Example.FromString(data), e.ByteSize(), len(e.features.feature),
       _error(lambda: tf.train.Example.FromString(b'garbage'))]
""",
    "an Example written field by field": HELP + """
e = tf.train.Example()
e.features.feature['n'].int64_list.value.extend([1, 2])
e.features.feature['n'].int64_list.value.append(3)
f = tf.train.Feature(int64_list=tf.train.Int64List(value=[1]))
which = [f.WhichOneof('kind')]
f.float_list.value.append(2)
which.append(f.WhichOneof('kind'))
out = [e.SerializeToString(), str(f), f.SerializeToString(), which,
       tf.train.Feature(int64_list=tf.train.Int64List()).SerializeToString(),
       tf.train.Features(feature={'': tf.train.Feature()}).SerializeToString()]
""",
    "Example fields refuse values of other types": HELP + """
out = [_error(lambda: tf.train.Int64List(value=[1.5])),
       _error(lambda: tf.train.Int64List(value=['1'])),
       _error(lambda: tf.train.Int64List(value=[2**63])),
       _error(lambda: tf.train.Int64List(value=[True])),
       _error(lambda: tf.train.FloatList(value=['a'])),
       _error(lambda: tf.train.BytesList(value=['s'])),
       _error(lambda: tf.train.BytesList(value=[1])),
       _error(lambda: tf.train.Example(foo=1)),
       tf.train.FloatList(value=[1, np.float32(2.5)]).SerializeToString(),
       tf.train.Int64List(value=np.array([3, 4])).SerializeToString(),
       tf.train.BytesList(value=np.array([b'ab'])).SerializeToString()]
""",
    "an Example from protobuf's text format": """
import google.protobuf.text_format as pbtext
e = pbtext.Merge(r'''
    features {
      feature {key: "colors" value {bytes_list {value: ["red", "blue"]} } }
      feature {key: "lengths" value {int64_list {value: [7]} } }
      feature {key: "weights" value {float_list {value: [0.5, 2]} } } }''', tf.train.Example())
out = [e.SerializeToString(deterministic=True), str(e)]
""",
    "parse_example with VarLen, Ragged and FixedLen features": BATCH + """
r = tf.io.parse_example(batch, {
    'ids': tf.io.VarLenFeature(tf.int64), 'words': tf.io.RaggedFeature(tf.string),
    'score': tf.io.FixedLenFeature([], tf.float32),
    'missing': tf.io.FixedLenFeature([2], tf.int64, default_value=[7, 8]),
    'seq': tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True, default_value=-1),
    'rows': tf.io.FixedLenFeature([2], tf.int64)})
out = [list(r), str(r['ids']), str(r['words']), r['words'].row_splits, r['score'], r['missing'],
       r['seq'], r['rows']]
""",
    "parse_example of RaggedFeatures with partitions": BATCH + """
r = tf.io.parse_example(batch, {
    'nested': tf.io.RaggedFeature(tf.int64, value_key='ids',
                                  partitions=[tf.io.RaggedFeature.RowLengths('rows')]),
    'pairs': tf.io.RaggedFeature(tf.int64, value_key='rows',
                                 partitions=[tf.io.RaggedFeature.UniformRowLength(2)]),
    'limits': tf.io.RaggedFeature(tf.string, value_key='words',
                                  partitions=[tf.io.RaggedFeature.RowLimits('ids')])})
s = tf.io.parse_single_example(batch[0], {
    'nested': tf.io.RaggedFeature(tf.int64, value_key='ids', row_splits_dtype=tf.int64,
                                  partitions=[tf.io.RaggedFeature.RowLengths('rows')])})
out = [list(r), str(r['nested']), str(r['pairs']), str(r['limits']), str(s['nested']),
       r['nested'].row_splits, r['pairs'].values, str(r['pairs'].shape)]
""",
    "parse_single_example": BATCH + """
r = tf.io.parse_single_example(batch[1], {
    'ids': tf.io.VarLenFeature(tf.int64), 'words': tf.io.RaggedFeature(tf.string),
    'score': tf.io.FixedLenFeature([1], tf.float32)})
out = [list(r), str(r['ids']), r['words'], r['score']]
""",
    "parse_example's errors": BATCH + """
out = [_error(lambda: tf.io.parse_example(batch, {'zz': tf.io.FixedLenFeature([], tf.int64)})),
       _error(lambda: tf.io.parse_example(batch, {'ids': tf.io.FixedLenFeature([], tf.float32)})),
       _error(lambda: tf.io.parse_example(batch, {'ids': tf.io.FixedLenFeature([1], tf.int64)})),
       _error(lambda: tf.io.parse_example(batch, {'ids': tf.io.VarLenFeature(tf.string)})),
       _error(lambda: tf.io.parse_example(batch, {'ids': tf.io.RaggedFeature(tf.float32)})),
       _error(lambda: tf.io.parse_example([b'garbage'], {'a': tf.io.VarLenFeature(tf.int64)})),
       _error(lambda: tf.io.parse_example(batch, {})),
       _error(lambda: tf.io.RaggedFeature(tf.int32)),
       _error(lambda: tf.io.parse_example(batch, {'a': tf.io.FixedLenFeature([None], tf.int64)})),
       str(tf.io.FixedLenFeature([], tf.int64)), str(tf.io.VarLenFeature(tf.string)),
       str(tf.io.RaggedFeature(tf.int64))]
""",
    "parse_example in a tf.function": BATCH + """
spec = {'ids': tf.io.VarLenFeature(tf.int64), 'words': tf.io.RaggedFeature(tf.string),
        'score': tf.io.FixedLenFeature([], tf.float32)}
traced = []

@tf.function
def parse(x):
    r = tf.io.parse_example(x, spec)
    traced.append(str(r))
    return r

r = parse(tf.constant(batch))
out = traced + [str(r['ids']), str(r['words']), r['score']]
""",
    "TFRecordWriter and TFRecordDataset": BATCH + """
import os, tempfile
path = os.path.join(tempfile.mkdtemp(), 'data.tfrecord')
with tf.io.TFRecordWriter(path) as writer:
    for record in batch:
        writer.write(record)
    writer.write(b'')
with open(path, 'rb') as f:
    data = f.read()
ds = tf.data.TFRecordDataset([path])
records = [x.numpy() for x in ds]
parsed = ds.take(2).map(lambda x: tf.io.parse_single_example(
    x, {'score': tf.io.FixedLenFeature([], tf.float32)}))
out = [data, records, str(ds.element_spec), [x['score'] for x in parsed]]
""",
}
