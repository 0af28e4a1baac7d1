"""StringLookup, IntegerLookup and Normalization as TF 2.21 (tf-keras) gives them, recorded by
record_tf_layers.py (group ``preprocessing``) and replayed by test_layers_tf_conformance.py:
lookups, masks, OOV indices, output modes, inversion, adapt, vocabularies, configs, the
argument errors, Normalization's statistics, and the layers inside a model under a strategy
(as TF's parameter-server and distributed-input tutorials use them).
Snippets as in tests/tf_snippets.py."""

V = "vocab = ['a', 'b', 'c', 'd', 'f']\n"
IV = "iv = [12, 36, 1138, 42]\n"
X = "x = np.array([[1., 2., 3.], [3., 6., 5.], [5., 4., 1.], [7., 8., 9.]], np.float32)\n"


def _config(layer):
    return f"""
cfg = {layer}.get_config()
cfg.pop('name')
out = sorted((k, v if not isinstance(v, list) else list(v)) for k, v in cfg.items())
"""


CASES = {
    "StringLookup looks up, OOV at index 0": V + """
layer = L.StringLookup(vocabulary=vocab)
out = [layer(tf.constant([['a', 'c', 'e'], ['f', 'z', 'b']])), layer(tf.constant('b')),
       layer(['b', 'c']), layer.get_vocabulary(), layer.vocabulary_size(), layer.weights,
       layer.dtype, layer.compute_dtype]
""",
    "StringLookup with a mask token and two OOV indices": V + """
layer = L.StringLookup(vocabulary=vocab, mask_token='')
out = [layer(tf.constant(['a', '', 'e'])), layer.vocabulary_size(),
       L.StringLookup(vocabulary=vocab, mask_token='', num_oov_indices=2).get_vocabulary(),
       layer.get_vocabulary(include_special_tokens=False)]
""",
    "StringLookup without OOV indices": V + """
out = L.StringLookup(vocabulary=vocab, num_oov_indices=0)(tf.constant(['a', 'c']))
""",
    "StringLookup without OOV indices given an unknown token": V + """
out = L.StringLookup(vocabulary=vocab, num_oov_indices=0)(tf.constant(['a', 'e', 'q']))
""",
    "StringLookup one_hot, multi_hot and count": V + """
x = tf.constant([['a', 'e', 'a'], ['b', 'c', 'd']])
out = [L.StringLookup(vocabulary=vocab, output_mode='one_hot')(tf.constant(['a', 'e'])),
       L.StringLookup(vocabulary=vocab, output_mode='one_hot')(tf.constant([['a'], ['e']])),
       L.StringLookup(vocabulary=vocab, output_mode='multi_hot')(x),
       L.StringLookup(vocabulary=vocab, output_mode='count')(x),
       L.StringLookup(vocabulary=vocab, output_mode='multi_hot')(tf.constant(['a', 'c'])),
       L.StringLookup(vocabulary=vocab, output_mode='multi_hot', max_tokens=10,
                      pad_to_max_tokens=True)(tf.constant([['a']])),
       L.StringLookup(vocabulary=vocab, output_mode='multi_hot', mask_token='')(
           tf.constant([['a', '', 'e']])),
       L.StringLookup(vocabulary=vocab, output_mode='one_hot', mask_token='').get_vocabulary()]
""",
    "StringLookup one_hot of a Keras Input of scalars": V + """
out = L.StringLookup(vocabulary=vocab, output_mode='one_hot')(
    tf.keras.Input(shape=(), dtype=tf.string)).shape
""",
    "StringLookup one_hot of rank 2 is refused": V + """
out = L.StringLookup(vocabulary=vocab, output_mode='one_hot')(tf.constant([['a', 'b'], ['e', 'c']]))
""",
    "StringLookup inverted": V + """
ids = tf.constant([[1, 2, 0], [5, 7, 3]])
out = [L.StringLookup(vocabulary=vocab, invert=True)(ids),
       L.StringLookup(vocabulary=vocab, invert=True, mask_token='[M]')(ids),
       L.StringLookup(vocabulary=vocab, invert=True).get_vocabulary()]
""",
    "StringLookup adapts: most frequent first, ties by the larger token": """
layer = L.StringLookup()
layer.adapt(tf.constant([['b', 'a', 'c'], ['b', 'c', 'z'], ['b', 'q', 'a']]))
small = L.StringLookup(max_tokens=4, mask_token='')
small.adapt(['x', 'y', 'y', 'z', 'z', 'z', 'w', ''])
from_ds = L.StringLookup()
from_ds.adapt(tf.data.Dataset.from_tensor_slices(['p', 'q', 'q', 'r']).batch(2))
out = [layer.get_vocabulary(), layer(tf.constant(['a', 'b', 'zz'])), layer.is_adapted,
       small.get_vocabulary(), small.vocabulary_size(), from_ds.get_vocabulary()]
""",
    "StringLookup vocabularies: arrays, tensors, files, special tokens first": V + """
import os, tempfile
path = os.path.join(tempfile.mkdtemp(), 'vocab.txt')
with open(path, 'w') as f:
    f.write('x\\ny\\n')
layer = L.StringLookup(vocabulary=vocab)
layer.set_vocabulary(['x', 'y'])
special = L.StringLookup(vocabulary=['', '[UNK]', 'a', 'b'], mask_token='')
out = [L.StringLookup(vocabulary=np.array(vocab))(tf.constant(['d'])),
       L.StringLookup(vocabulary=tf.constant(vocab))(tf.constant(['d'])),
       L.StringLookup(vocabulary=path).get_vocabulary(), layer.get_vocabulary(),
       layer(tf.constant(['y'])), special.get_vocabulary(),
       special(tf.constant(['a', '[UNK]', 'b'])), L.StringLookup().vocabulary_size(),
       L.StringLookup().get_vocabulary(),
       L.StringLookup(vocabulary=['a', '[UNK]'])(tf.constant(['[UNK]']))]
""",
    "StringLookup config": V + _config("L.StringLookup(vocabulary=vocab)"),
    "StringLookup with a repeated token": "out = L.StringLookup(vocabulary=['a', 'a'])",
    "StringLookup with the mask token inside the vocabulary":
        "out = L.StringLookup(vocabulary=['a', ''], mask_token='')",
    "StringLookup inverted with the OOV token inside the vocabulary":
        "out = L.StringLookup(vocabulary=['a', '[UNK]'], invert=True)",
    "StringLookup vocabulary over max_tokens":
        "out = L.StringLookup(vocabulary=['a', 'b', 'c'], max_tokens=3)",
    "StringLookup max_tokens of 1": "out = L.StringLookup(max_tokens=1)",
    "StringLookup unknown output_mode": "out = L.StringLookup(vocabulary=['a'], output_mode='foo')",
    "StringLookup negative num_oov_indices":
        "out = L.StringLookup(vocabulary=['a'], num_oov_indices=-1)",
    "StringLookup inverted one_hot": "out = L.StringLookup(vocabulary=['a'], invert=True, "
                                     "output_mode='one_hot')",
    "StringLookup sparse int": "out = L.StringLookup(vocabulary=['a'], sparse=True)",
    "StringLookup of integers": V + "out = L.StringLookup(vocabulary=vocab)(tf.constant([1, 2]))",
    "StringLookup without a vocabulary": "out = L.StringLookup()(tf.constant(['a']))",
    "StringLookup adapted after a vocabulary was set":
        "out = L.StringLookup(vocabulary=['a']).adapt(['a', 'b'])",
    "StringLookup spreads OOV strings by FarmHash": """
layer = L.StringLookup(vocabulary=['a'], num_oov_indices=2)
wide = L.StringLookup(vocabulary=['a', 'b'], num_oov_indices=5, mask_token='')
out = [layer(tf.constant(['a', 'zz', 'q'])), layer.get_vocabulary(),
       wide(tf.constant([['a', 'x', ''], ['hulk', 'b', 'batman']]))]
""",
    "IntegerLookup looks up": IV + """
layer = L.IntegerLookup(vocabulary=iv)
out = [layer(tf.constant([[12, 1138, 42], [42, 1000, 36]])), layer.get_vocabulary(),
       layer(tf.constant([12], tf.int32)), layer(tf.constant([12.0])), layer.oov_token,
       L.IntegerLookup(vocabulary=iv, mask_token=0).get_vocabulary(),
       L.IntegerLookup(vocabulary=iv, mask_token=0)(tf.constant([12, 0, 5]))]
""",
    "IntegerLookup spreads OOV integers by floormod": IV + """
layer = L.IntegerLookup(vocabulary=iv, num_oov_indices=2)
out = [layer(tf.constant([12, 1000, 1001, 7, 36])), layer.get_vocabulary()]
""",
    "IntegerLookup inverted and encoded": IV + """
x = tf.constant([[12, 5, 12], [36, 42, 5]])
out = [L.IntegerLookup(vocabulary=iv, invert=True)(tf.constant([0, 1, 2, 4, 9])),
       L.IntegerLookup(vocabulary=iv, output_mode='one_hot')(tf.constant([12, 5])),
       L.IntegerLookup(vocabulary=iv, output_mode='multi_hot')(x),
       L.IntegerLookup(vocabulary=iv, output_mode='count')(x)]
""",
    "IntegerLookup adapts": """
layer = L.IntegerLookup()
layer.adapt([[5, 3, 3], [5, 5, 9]])
out = [layer.get_vocabulary(), layer(tf.constant([5, 3, 9, 4]))]
""",
    "IntegerLookup config": IV + _config("L.IntegerLookup(vocabulary=iv)"),
    "IntegerLookup with the mask inside the vocabulary":
        "out = L.IntegerLookup(vocabulary=[0, 3], mask_token=0)",
    "IntegerLookup of strings": IV + "out = L.IntegerLookup(vocabulary=iv)(tf.constant(['12']))",
    "IntegerLookup of a string vocabulary dtype":
        "out = L.IntegerLookup(vocabulary_dtype='string')",
    "IntegerLookup max_tokens of 1": "out = L.IntegerLookup(max_tokens=1)",
    "Normalization adapts per feature": X + """
n = L.Normalization()
n.adapt(x)
out = [n(x), n.mean, n.variance, [w.name for w in n.weights], n.get_weights(), n.count,
       [w.trainable for w in n.weights], n.is_adapted]
""",
    "Normalization adapts over everything with axis=None": X + """
n = L.Normalization(axis=None)
n.adapt(x)
out = [n(x), n.mean, n.variance, n.get_weights()]
""",
    "Normalization adapts in batches and from datasets": X + """
a = L.Normalization()
a.adapt(x, batch_size=3)
b = L.Normalization()
b.adapt(tf.data.Dataset.from_tensor_slices(x).batch(3))
c = L.Normalization(axis=(1, 2))
d = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
c.adapt(d)
out = [a.mean, a.variance, b.mean, b.variance, c(d), c.mean.shape]
""",
    "Normalization with a given mean and variance": X + """
n = L.Normalization(mean=[1., 2., 3.], variance=[1., 4., 9.])
out = [n(x), n.mean, n.variance, n.weights, L.Normalization(mean=3., variance=2.)(x),
       L.Normalization(mean=3., variance=4., invert=True)(x),
       L.Normalization(mean=1., variance=0.)(x), L.Normalization()(x)]
""",
    "Normalization inverted after adapt": X + """
n = L.Normalization(invert=True)
n.adapt(x)
m = L.Normalization()
m.adapt(np.array([[1], [3]]))
out = [n(x), m(np.array([[2]]))]
""",
    "Normalization config": X + """
n = L.Normalization()
n.adapt(x)
""" + _config("n"),
    "Normalization with a mean only": "out = L.Normalization(mean=3.)",
    "Normalization adapted with an axis out of range": X + "out = L.Normalization(axis=3).adapt(x)",
    "Normalization kept axis of unknown size": X + "out = L.Normalization(axis=0).adapt(x)",
    "Normalization called with an axis out of range": X + "out = L.Normalization(axis=2)(x)",
    "Normalization adapted under a strategy": X + """
with S.scope():
    n = L.Normalization()
    n.adapt(x)
out = [[type(w).__name__ for w in n.weights], n(x), n.mean]
""",
    "lookup layers in functional models under a strategy, as the PS tutorial": """
with S.scope():
    feature_lookup = L.StringLookup(vocabulary=['avenger', 'ironman', 'batman'],
                                    mask_token=None)
    label_lookup = L.StringLookup(vocabulary=['yes', 'no'], num_oov_indices=0,
                                  mask_token=None)
    raw_feature = tf.keras.layers.Input(shape=(3,), dtype=tf.string, name='feature')
    features = tf.keras.Model({'features': raw_feature}, feature_lookup(raw_feature))
    raw_label = tf.keras.layers.Input(shape=(1,), dtype=tf.string, name='label')
    labels = tf.keras.Model({'label': raw_label}, label_lookup(raw_label))
examples = {'features': [['avenger', 'x', 'batman'], ['ironman', 'batman', 'avenger']],
            'label': [['yes'], ['no']]}
ds = tf.data.Dataset.from_tensor_slices(examples).map(
    lambda x: ({'features': features(x['features'])}, labels(x['label']))).batch(2)
batch, label = next(iter(ds))
lines = []
features.summary(print_fn=lines.append)
out = [batch['features'], label, features.output_shape, len(features.weights),
       len(feature_lookup.get_vocabulary()), lines[4:8]]
""",
    "a model starting with StringLookup fits string arrays under a strategy": """
x = np.array([['a', 'b'], ['c', 'a'], ['b', 'b'], ['z', 'c']] * 2)
y = np.array([1., 0., 1., 0.] * 2, np.float32)
with S.scope():
    inp = tf.keras.Input(shape=(2,), dtype=tf.string)
    ids = L.StringLookup(vocabulary=['a', 'b', 'c'])(inp)
    e = L.Embedding(4, 3)(ids)
    out = L.Dense(1)(L.Flatten()(e))
    model = tf.keras.Model(inp, out)
    model.compile(tf.keras.optimizers.SGD(0.1), 'mse')
model.set_weights([np.arange(12, dtype=np.float32).reshape(4, 3) / 10,
                   np.linspace(-1, 1, 6, dtype=np.float32).reshape(6, 1), np.zeros(1, np.float32)])
history = model.fit(x, y, batch_size=8, epochs=3, verbose=0)
out = [history.history['loss'], model.predict(x[:4], verbose=0),
       model.evaluate(tf.data.Dataset.from_tensor_slices((x, y)).batch(4), verbose=0)]
""",
    "StringLookup in a dataset distributed from a function, as the input tutorial": """
with S.scope():
    layer = L.StringLookup(vocabulary=['a', 'b', 'c', 'd', 'f'])
def dataset_fn(input_context):
    ds = tf.data.Dataset.from_tensor_slices(['a', 'c', 'e']).repeat()
    ds = ds.batch(input_context.get_per_replica_batch_size(4))
    ds = ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    return ds.map(lambda x: layer(x))
it = iter(S.distribute_datasets_from_function(dataset_fn))
out = [tf.concat(S.experimental_local_results(next(it)), 0) for _ in range(3)]
""",
    "lookup layers: symbolic output shapes on Input shapes (), (1,) and (3,) per output_mode": """
out = []
for cls, vocab, dt in ((L.StringLookup, ['a', 'b', 'c'], tf.string),
                       (L.IntegerLookup, [5, 6, 7], tf.int64)):
    for mode in ['int', 'one_hot', 'multi_hot', 'count', 'tf_idf']:
        for shape in [(), (1,), (3,)]:
            kw = dict(idf_weights=[0.5, 1.0, 2.0]) if mode == 'tf_idf' else {}
            try:
                y = cls(vocabulary=vocab, output_mode=mode, **kw)(
                    tf.keras.Input(shape=shape, dtype=dt))
                out.append([mode, str(shape), str(y.shape), y.dtype.name])
            except ValueError as e:
                out.append([mode, str(shape), 'ValueError'])
""",
    "StringLookup one_hot on an Input of shape (3,): output rank 3": """
out = L.StringLookup(vocabulary=['a'], output_mode='one_hot')(
    tf.keras.Input(shape=(3,), dtype=tf.string))
""",
    "lookup layers: eager one_hot, multi_hot and count of a scalar and a rank-1 input": """
out = []
for mode in ['one_hot', 'multi_hot', 'count', 'tf_idf']:
    kw = dict(idf_weights=[0.5, 1.0, 2.0]) if mode == 'tf_idf' else {}
    layer = L.StringLookup(vocabulary=['a', 'b', 'c'], output_mode=mode, **kw)
    out += [layer(tf.constant('b')), layer(tf.constant(['b'])),
            layer(tf.constant(['b', 'b', 'z']))]
""",
    "StringLookup tf_idf with idf_weights": V + """
layer = L.StringLookup(vocabulary=vocab, output_mode='tf_idf',
                       idf_weights=[0.1, 0.2, 0.3, 0.4, 0.5])
x = tf.constant([['a', 'b', 'a', 'z'], ['f', 'd', 'd', 'q']])
out = [layer(x), layer.get_vocabulary(), layer.vocabulary_size(), len(layer.weights),
       layer.idf_weights.numpy(), layer.dtype, _cfg(layer)]
""".replace("_cfg(layer)", "sorted((k, v) for k, v in layer.get_config().items() if k != 'name')"),
    "IntegerLookup tf_idf: special tokens given, a mask, padding to max_tokens": IV + """
a = L.IntegerLookup(vocabulary=[-1] + iv, output_mode='tf_idf',
                    idf_weights=[0.7, 1.0, 2.0, 3.0, 4.0])
b = L.IntegerLookup(vocabulary=iv, mask_token=0, output_mode='tf_idf', max_tokens=8,
                    pad_to_max_tokens=True, idf_weights=[1.0, 2.0, 3.0, 4.0])
x = tf.constant([[12, 0, 36, 36], [5, 1138, 0, 42]])
out = [a(x), a.idf_weights.numpy(), b(x), b.idf_weights.numpy(), b.get_vocabulary()]
""",
    "StringLookup tf_idf adapted: idf = log(1 + documents / (1 + document count))": """
layer = L.StringLookup(output_mode='tf_idf')
# Rows with as many distinct tokens each: TF 2.21's adapt stacks each row's unique tokens
# (tf.map_fn) and fails on rows with different numbers of them.
layer.adapt(tf.constant([['a', 'b', 'a'], ['b', 'c', 'c'], ['a', 'd', 'd'], ['e', 'a', 'e']]))
w = L.IntegerLookup(output_mode='tf_idf', max_tokens=6, pad_to_max_tokens=True)
w.adapt(tf.data.Dataset.from_tensor_slices([[1, 2], [2, 3], [3, 1]]).batch(2))
out = [layer.get_vocabulary(), layer.idf_weights.numpy(),
       layer(tf.constant([['a', 'e', 'q'], ['b', 'b', 'c']])), w.get_vocabulary(),
       w.idf_weights.numpy(), w(tf.constant([[2, 9]]))]
""",
    "adapt refuses what TF 2.21's refuses: a scalar, tf_idf rows TF cannot stack": """
DOCS = [['a', 'b', 'a'], ['b', 'c', 'd']]   # 2 and 3 distinct tokens
r = []
for mode, data in (('tf_idf', np.array(DOCS)),
                   ('tf_idf', tf.data.Dataset.from_tensor_slices(DOCS).batch(2)),
                   ('tf_idf', np.array([[['a']], [['b']]])), ('int', np.array('a')),
                   ('tf_idf', np.array('a')), ('tf_idf', np.array([[['a']], [['a']]]))):
    layer = L.StringLookup(output_mode=mode)
    try:
        layer.adapt(data)
        r.append(layer.get_vocabulary())
    except (tf.errors.InvalidArgumentError, ValueError, IndexError) as e:
        r.append(type(e).__name__)
layer = L.StringLookup(output_mode='tf_idf')
layer.adapt(tf.data.Dataset.from_tensor_slices(DOCS).batch(1))
out = r + [layer.get_vocabulary(), layer.idf_weights.numpy()]
""",
    "StringLookup tf_idf in a model under a strategy": """
with S.scope():
    inp = tf.keras.Input(shape=(3,), dtype=tf.string)
    tfidf = L.StringLookup(vocabulary=['a', 'b'], output_mode='tf_idf',
                           idf_weights=[1.5, 0.5])(inp)
    model = tf.keras.Model(inp, L.Dense(1, kernel_initializer='ones')(tfidf))
out = [str(tfidf.shape), model.predict(np.array([['a', 'b', 'b'], ['z', 'a', 'a']] * 2),
                                       batch_size=4, verbose=0)]
""",
    "StringLookup tf_idf without idf_weights":
        "out = L.StringLookup(vocabulary=['a'], output_mode='tf_idf')",
    "StringLookup tf_idf with idf_weights of another length":
        "out = L.StringLookup(vocabulary=['a', 'b'], output_mode='tf_idf', idf_weights=[1.0])",
    "StringLookup tf_idf with 2-D idf_weights":
        "out = L.StringLookup(vocabulary=['a', 'b'], output_mode='tf_idf', "
        "idf_weights=[[1.0], [2.0]])",
    "StringLookup tf_idf from a vocabulary file": """
import os, tempfile
path = os.path.join(tempfile.mkdtemp(), 'vocab.txt')
with open(path, 'w') as f:
    f.write('a\\nb\\n')
out = L.StringLookup(vocabulary=path, output_mode='tf_idf', idf_weights=[1.0, 2.0])
""",
    "StringLookup idf_weights set for multi_hot":
        "out = L.StringLookup(vocabulary=['a'], output_mode='multi_hot', idf_weights=[1.0])",
}
