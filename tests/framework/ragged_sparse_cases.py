"""Ragged and sparse tensors and the string ops that make ragged ones, as TF 2.21 gives them
(recorded by record_tf_strings.py into fixtures/tf_ragged_sparse.json, replayed by
test_strings_tf_conformance.py): tf.ragged.constant (shapes, reprs, ragged ranks, rows,
to_tensor, from_row_splits / lengths and their errors), tf.strings.split / bytes_split /
unicode_split / unicode_decode of scalars, vectors and matrices, tf.io.decode_raw, and
tf.sparse.SparseTensor with to_dense / from_dense and their errors.
Snippets as in tests/tf_snippets.py."""

R = "r = tf.ragged.constant([[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]])\n"

CASES = {
    "ragged constant: repr, str, shape, dtype, ragged_rank": R + """
out = [repr(r), str(r), r.shape, r.dtype.name, r.ragged_rank, r.values, r.row_splits,
       r.row_lengths(), r.nrows(), r.to_list()]
""",
    "ragged constant of three levels and of floats": """
r = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
f = tf.ragged.constant([[1.5, 2.0], [0.25]])
out = [repr(r), r.shape, r.ragged_rank, r.flat_values, r.nested_row_splits, repr(f),
       f.dtype.name]
""",
    "ragged constant with ragged_rank 1 over uniform rows": """
r = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
out = [repr(r), r.shape, r.values]
""",
    "ragged constant refuses scalars at different depths": """
tf.ragged.constant([[1, 2], 3])
""",
    "ragged to_tensor and bounding_shape": R + """
out = [r.to_tensor(), r.to_tensor(default_value=-1), r.bounding_shape()]
""",
    "ragged rows and slices": R + """
out = [r[1], r[-1], repr(r[1:3]), r[0].shape]
""",
    "ragged numpy": R + """
n = r.numpy()
out = [n.dtype.name, n.shape, [list(x) for x in n]]
""",
    "ragged from_row_splits and from_row_lengths": """
a = tf.RaggedTensor.from_row_splits(values=[3, 1, 4, 1, 5, 9, 2], row_splits=[0, 4, 4, 6, 7])
b = tf.RaggedTensor.from_row_lengths(values=[3, 1, 4, 1, 5, 9, 2], row_lengths=[4, 0, 2, 1])
out = [repr(a), repr(b), a.row_splits.dtype.name]
""",
    "ragged from_row_splits refuses splits that do not end at the values": """
tf.RaggedTensor.from_row_splits(values=[3, 1, 4], row_splits=[0, 2, 5])
""",
    "ragged constructor is private": """
tf.RaggedTensor([1, 2], [0, 2])
""",
    "strings.split of a scalar, a vector, with sep and maxsplit": """
s = tf.constant('Gray wolf  runs')
v = tf.constant(['Gray wolf', 'Quick brown fox', 'Lazy dog'])
out = [tf.strings.split(s), tf.strings.split(s, sep=' '), repr(tf.strings.split(v)),
       repr(tf.strings.split(v, sep='o')), repr(tf.strings.split(v, maxsplit=1)),
       tf.strings.split(v).shape]
""",
    "strings.split of a matrix": """
m = tf.constant([['a b', 'c'], ['d e f', '']])
out = [repr(tf.strings.split(m)), tf.strings.split(m).shape]
""",
    "strings.to_number of a split": """
out = tf.strings.to_number(tf.strings.split(tf.constant('1 10 100'), ' '))
""",
    "strings.bytes_split and io.decode_raw": """
out = [tf.strings.bytes_split(tf.constant('Duck')),
       repr(tf.strings.bytes_split(tf.constant(['ab', 'c']))),
       tf.io.decode_raw(tf.constant('Duck'), tf.uint8),
       tf.io.decode_raw(tf.constant(['abcd', 'efgh']), tf.int16),
       tf.io.decode_raw(tf.constant('abcd'), tf.int16, little_endian=False)]
""",
    "io.decode_raw refuses a length not a multiple of the type": """
tf.io.decode_raw(tf.constant('abc'), tf.int16)
""",
    "strings.unicode_split and unicode_decode": """
u = tf.constant('\\u30a2\\u30d2\\u30eb \\U0001f986')
v = tf.constant(['h\\u00e9', 'yo!'])
out = [tf.strings.unicode_split(u, 'UTF-8'), tf.strings.unicode_decode(u, 'UTF-8'),
       repr(tf.strings.unicode_split(v, 'UTF-8')), repr(tf.strings.unicode_decode(v, 'UTF-8')),
       tf.strings.unicode_decode(tf.constant(b'a\\xffb'), 'UTF-8')]
""",
    "sparse tensor: repr, properties, to_dense": """
sp = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
out = [repr(sp), str(sp), sp.indices, sp.values, sp.dense_shape, sp.shape, sp.dtype.name,
       tf.sparse.to_dense(sp), tf.sparse.to_dense(sp, default_value=-1),
       isinstance(sp, tf.SparseTensor)]
""",
    "sparse from_dense": """
sp = tf.sparse.from_dense(tf.constant([[0, 3], [4, 0]]))
out = [sp.indices, sp.values, sp.dense_shape]
""",
    "sparse to_dense refuses an index out of bounds": """
tf.sparse.to_dense(tf.sparse.SparseTensor(indices=[[0, 5]], values=[1], dense_shape=[2, 2]))
""",
    "sparse to_dense refuses unordered indices": """
tf.sparse.to_dense(tf.sparse.SparseTensor(indices=[[1, 0], [0, 0]], values=[1, 2],
                                          dense_shape=[2, 2]))
""",
}
