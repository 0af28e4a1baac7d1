"""Keras's CategoryEncoding, Hashing and Discretization as TF 2.21 (tf-keras) gives them,
recorded by record_tf_layers.py (group ``categorical_preprocessing``) and replayed by
test_layers_tf_conformance.py: encodings of ids, hashed strings and integers with and
without a mask value, bucketized numbers, adapted boundaries (batches merged and
compressed), configs, the argument errors, and the PetFinder tutorial's lookup-then-encode
pipeline in a functional model.
Snippets as in tests/tf_snippets.py."""


def _config(layer):
    return f"""
cfg = {layer}.get_config()
cfg.pop('name')
out = sorted((k, v if not isinstance(v, list) else list(v)) for k, v in cfg.items())
"""


CASES = {
    "CategoryEncoding multi_hot, one_hot and count": """
x = tf.constant([[0, 1], [0, 0], [1, 2], [3, 1]])
out = [L.CategoryEncoding(num_tokens=4)(x), L.CategoryEncoding(4, output_mode='count')(x),
       L.CategoryEncoding(4, output_mode='one_hot')([3, 2, 0, 1]),
       L.CategoryEncoding(4, output_mode='one_hot')([[3], [1]]),
       L.CategoryEncoding(4, output_mode='binary')([1, 1, 3]),
       L.CategoryEncoding(4, dtype='int64')(x), L.CategoryEncoding(3)(2)]
""",
    "CategoryEncoding of a Keras Input": """
inp = tf.keras.Input(shape=(1,), dtype='int64')
out = [L.CategoryEncoding(5)(inp).shape, L.CategoryEncoding(5, output_mode='one_hot')(
    tf.keras.Input(shape=(1,), dtype='int64')).shape]
""",
    "CategoryEncoding id past num_tokens": "out = L.CategoryEncoding(3)([[0, 3]])",
    "CategoryEncoding negative id": "out = L.CategoryEncoding(3)([[0, -1]])",
    "CategoryEncoding without num_tokens": "out = L.CategoryEncoding()",
    "CategoryEncoding zero num_tokens": "out = L.CategoryEncoding(0)",
    "CategoryEncoding unknown output_mode": "out = L.CategoryEncoding(3, output_mode='tf_idf')",
    "CategoryEncoding one_hot of rank 2": "out = L.CategoryEncoding(3, output_mode='one_hot')("
                                          "[[0, 1], [1, 2]])",
    "CategoryEncoding config": _config("L.CategoryEncoding(7, output_mode='count')"),
    "Hashing strings and integers": """
out = [L.Hashing(num_bins=3)([['A'], ['B'], ['C'], ['D'], ['E']]),
       L.Hashing(5)(tf.constant([[11, 22], [33, 44]])), L.Hashing(1)(['x', 'y']),
       L.Hashing(4, mask_value='')(tf.constant([['A', ''], ['', 'E']])),
       L.Hashing(4, mask_value=0)(np.array([0, 1, 2, 0, 7])),
       L.Hashing(3, output_mode='multi_hot')([['A', 'B'], ['C', 'C']]),
       L.Hashing(3, output_mode='count')([['A', 'A'], ['C', 'B']]),
       L.Hashing(3, output_mode='one_hot')(['A', 'B', 'Z']),
       L.Hashing(3, dtype='int32')(['A']), L.Hashing(3, dtype='float32')(['A'])]
""",
    "Hashing config": _config("L.Hashing(9, mask_value='-')"),
    "Hashing zero bins": "out = L.Hashing(0)",
    "Hashing unknown output_mode": "out = L.Hashing(3, output_mode='tf_idf')",
    "Hashing sparse int": "out = L.Hashing(3, sparse=True)",
    "Hashing salt of three": "out = L.Hashing(3, salt=[1, 2, 3])",
    "Discretization with boundaries": """
x = np.array([[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]])
layer = L.Discretization(bin_boundaries=[0., 1., 2.])
out = [layer(x), layer(tf.constant([[-1, 0, 1, 2, 5]])), layer(x.astype(np.float32)),
       L.Discretization([0., 1., 2.], output_mode='one_hot')([0.5, 2.5]),
       L.Discretization([0., 1., 2.], output_mode='multi_hot')([[0.5, 0.7, 3.]]),
       L.Discretization([0., 1., 2.], output_mode='count')([[0.5, 0.7, 3.]]),
       L.Discretization(bin_boundaries=[0.1, 0.2])([[0.1, 0.2, 0.15]]),
       L.Discretization(bin_boundaries=[0.1, 0.2])(tf.constant([[0.1, 0.2]], tf.float64)),
       layer.bin_boundaries]
""",
    "Discretization adapts": """
rng = np.random.RandomState(3)
data = rng.normal(size=(300, 2)).astype(np.float32)
a = L.Discretization(num_bins=4, epsilon=0.01)
a.adapt(data)
b = L.Discretization(num_bins=5, epsilon=0.05)
b.adapt(tf.data.Dataset.from_tensor_slices(data[:, 0]).batch(64))
c = L.Discretization(num_bins=3)
c.adapt([[1.], [2.], [3.], [4.], [5.], [6.]])
out = [a.bin_boundaries, a(data[:5]), b.bin_boundaries, c.bin_boundaries, a.is_adapted]
""",
    "Discretization config": _config("L.Discretization(num_bins=4, epsilon=0.02)"),
    "Discretization both bins and boundaries":
        "out = L.Discretization(bin_boundaries=[0.], num_bins=3)",
    "Discretization negative num_bins": "out = L.Discretization(num_bins=-1)",
    "Discretization float dtype with int output":
        "out = L.Discretization([0.], dtype='float32').compute_dtype",
    "PetFinder lookups encoded in a functional model": """
tf.keras.utils.set_random_seed(1)
types = np.array([['Cat'], ['Dog'], ['Dog'], ['Cat'], ['Dog'], ['Bird']])
ages = np.array([[3], [1], [12], [3], [5], [1]], np.int64)
fees = np.array([[0.], [100.], [50.], [0.], [20.], [0.]], np.float32)
def encoder(lookup, data):
    lookup.adapt(data)
    enc = L.CategoryEncoding(num_tokens=lookup.vocabulary_size())
    return lambda f: enc(lookup(f))
t_in = tf.keras.Input(shape=(1,), name='Type', dtype='string')
a_in = tf.keras.Input(shape=(1,), name='Age', dtype='int64')
f_in = tf.keras.Input(shape=(1,), name='Fee')
norm = L.Normalization(axis=None)
norm.adapt(fees)
feats = L.concatenate([encoder(L.StringLookup(max_tokens=5), types)(t_in),
                       encoder(L.IntegerLookup(max_tokens=5), ages)(a_in), norm(f_in)])
out_t = L.Dense(1, kernel_initializer='ones')(feats)
model = tf.keras.Model({'Type': t_in, 'Age': a_in, 'Fee': f_in}, out_t)
out = [model({'Type': types, 'Age': ages, 'Fee': fees}), feats.shape,
       encoder(L.IntegerLookup(max_tokens=5), ages)(ages)]
""",
    "Adapted lookups in a .keras file keep their vocabularies": """
import os, tempfile
s_in = tf.keras.Input(shape=(1,), dtype='string')
i_in = tf.keras.Input(shape=(1,), dtype='int64')
sl, il = L.StringLookup(), L.IntegerLookup(mask_token=0)
sl.adapt(np.array([['b'], ['a'], ['b'], ['c']]))
il.adapt(np.array([[7], [7], [3], [0]]))
model = tf.keras.Model([s_in, i_in], [L.CategoryEncoding(4)(sl(s_in)), il(i_in)])
path = os.path.join(tempfile.mkdtemp(), 'm.keras')
model.save(path)
back = tf.keras.models.load_model(path)
x = [np.array([['a'], ['z']]), np.array([[3], [9]])]
out = [back(x), back.get_layer(sl.name).get_vocabulary(),
       back.get_layer(il.name).get_vocabulary()]
""",
}
